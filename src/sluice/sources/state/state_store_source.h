// Reading the state of a streaming query, as Spark's state data sources do:
//
//   read.format("statestore").load(checkpoint)       the rows of one state store at a batch:
//       key struct, value struct, partition_id; options batchId (default: the last committed
//       batch), operatorId (0), storeName ("default"), joinSide (left/right: the rows a side
//       of a stream-stream join keeps, without the join's index and matched flag); or, with
//       readChangeFeed, the changes batch by batch from changeStartBatchId to
//       changeEndBatchId (default: the last committed): batch_id, change_type ("update" or
//       "delete"), key, value (null for a delete), partition_id.
//       A transformWithState operator is read by variable: stateVarName names it (a value
//       state: key, value; a list: key, list_element, or key, list_value with
//       flattenCollectionTypes false; a map: key, user_map_key, user_map_value, or key,
//       map_value), or readRegisteredTimers reads its timers (key, expiration_timestamp_ms).
//       A value with a time to live is struct<value, ttlExpirationMs>.
//   read.format("state-metadata").load(checkpoint)   one row per store of each stateful
//       operator (one for transformWithState): operatorId, operatorName, stateStoreName,
//       numPartitions, minBatchId, maxBatchId, operatorProperties (transformWithState's modes
//       and variables, as Spark's JSON).
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
