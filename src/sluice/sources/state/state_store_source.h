// Reading the state of a streaming query, as Spark's state data sources do:
//
//   read.format("statestore").load(checkpoint)       the rows of one state store at a batch:
//       key struct, value struct, partition_id; options batchId (default: the last committed
//       batch), operatorId (0), storeName ("default"), joinSide (left/right: the rows a side
//       of a stream-stream join keeps, without the join's index and matched flag); or, with
//       readChangeFeed, the changes batch by batch from changeStartBatchId to
//       changeEndBatchId (default: the last committed): batch_id, change_type ("update" or
//       "delete"), key, value (null for a delete), partition_id.
//   read.format("state-metadata").load(checkpoint)   one row per store of each stateful
//       operator: operatorId, operatorName, stateStoreName, numPartitions, minBatchId,
//       maxBatchId, operatorProperties.
//
// Any retained version can be read, also while the query runs; nothing in the checkpoint is
// changed. The keys and values are decoded with the schemas the operator recorded.
#pragma once

#include <memory>
#include <string>

#include <arrow/result.h>

#include "sluice/formats/format_options.h"
#include "sluice/plan/data_source.h"

namespace sluice::sources {

/// The "statestore" source over the checkpoint at `checkpoint`; what it reads is settled now
/// (bad options and missing files fail naming them), the rows are read by each scan.
arrow::Result<std::shared_ptr<const plan::DataSource>> MakeStateStoreSource(
    const std::string& checkpoint, const formats::OptionMap& options);

/// The "state-metadata" source over the checkpoint at `checkpoint`.
arrow::Result<std::shared_ptr<const plan::DataSource>> MakeStateMetadataSource(
    const std::string& checkpoint);

}  // namespace sluice::sources
