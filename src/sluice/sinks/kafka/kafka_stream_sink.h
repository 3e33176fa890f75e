// The "kafka" streaming sink (Spark's KafkaTable write): every row becomes one Kafka record.
//
// Delivery guarantees:
// - Default, at-least-once, as Spark: each batch's records are sent with an idempotent
//   producer and every delivery is acknowledged before AddBatch returns, so a committed batch
//   is in Kafka; a batch re-run after a crash may be written twice.
// - Option exactlyOnce=true (a Sluice extension): each batch is one Kafka transaction of a
//   producer whose transactional.id is derived from the query id, and the transaction also
//   commits offset batchId + 1 for the consumer group of the same name (on partition 0 of the
//   batch's first topic). A restarted query fences its previous run and aborts its unfinished
//   transaction; a batch whose id the group already holds is skipped. A read_committed
//   consumer therefore sees every batch exactly once. The marker lives as long as Kafka keeps
//   the group's offsets (offsets.retention.minutes, 7 days by default, counted from when the
//   query stopped writing).
#pragma once

#include <memory>
#include <string>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/formats/format_options.h"
#include "sluice/sinks/stream_sink.h"

namespace sluice::sinks {

/// The transactional.id and consumer group of the exactly-once sink of query `query_id`.
std::string KafkaSinkTransactionalId(const std::string& query_id);

/// A Kafka sink for rows of `schema` in any output mode. `checkpoint_root` is the query's
/// checkpoint folder, where the exactly-once mode reads the query id when the first batch
/// comes. Fails at once on bad options or columns (Spark's messages, naming the option or
/// column) and on producer settings librdkafka refuses; never connects before the first batch.
arrow::Result<std::unique_ptr<StreamSink>> MakeKafkaStreamSink(
    const formats::OptionMap& options, const std::shared_ptr<arrow::Schema>& schema,
    std::string checkpoint_root);

}  // namespace sluice::sinks
