#include "sluice/sinks/kafka/kafka_batch_write.h"

#include "sluice/sinks/kafka/kafka_sink_options.h"
#include "sluice/sinks/kafka/kafka_stream_sink.h"

namespace sluice::sinks {

arrow::Status WriteKafkaBatch(const formats::OptionMap& options, physical::BatchStream& rows) {
  ARROW_ASSIGN_OR_RAISE(KafkaSinkOptions parsed, ParseKafkaSinkOptions(options));
  if (parsed.exactly_once) {
    return arrow::Status::Invalid(
        "The Kafka option '", kKafkaExactlyOnceOption,
        "' applies to streaming writes (writeStream), whose checkpoint records the batches "
        "already written; a batch write is at-least-once.");
  }
  ARROW_ASSIGN_OR_RAISE(auto sink, MakeKafkaStreamSink(options, rows.schema(),
                                                       /*checkpoint_root=*/std::string()));
  arrow::Status written = sink->AddBatch(/*batch_id=*/0, rows, OutputMode::kAppend);
  sink->Stop();
  return written;
}

}  // namespace sluice::sinks
