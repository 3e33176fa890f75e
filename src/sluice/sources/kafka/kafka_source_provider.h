// readStream.format("kafka") and read.format("kafka"): the plan leaves of the Kafka source
// (Spark's KafkaSourceProvider, KafkaMicroBatchStream and KafkaRelation).
#pragma once

#include <memory>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/formats/format_options.h"
#include "sluice/plan/data_source.h"
#include "sluice/sources/stream_source.h"

namespace sluice::sources::kafka {

/// The streaming plan leaf. The options are checked now, with Spark's messages; a user
/// schema is refused (the Kafka source's schema is fixed). Nothing connects to Kafka before
/// the query starts.
arrow::Result<std::shared_ptr<const StreamSourceProvider>> MakeKafkaSourceProvider(
    const formats::OptionMap& options, const std::shared_ptr<arrow::Schema>& user_schema);

/// The batch plan leaf: the records between startingOffsets (default earliest) and
/// endingOffsets (default latest), both resolved against the broker at each scan, partition
/// by partition in (topic, partition) order. The options are checked now.
arrow::Result<std::shared_ptr<const plan::DataSource>> MakeKafkaRelation(
    const formats::OptionMap& options, const std::shared_ptr<arrow::Schema>& user_schema);

}  // namespace sluice::sources::kafka
