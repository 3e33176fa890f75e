#include "sluice/sinks/sink_registry.h"

#include <iostream>

#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"
#include "sluice/sinks/console/console_sink.h"
#include "sluice/sinks/delta/delta_stream_sink.h"
#include "sluice/sinks/file/file_stream_sink.h"
#include "sluice/sinks/kafka/kafka_stream_sink.h"
#include "sluice/sinks/noop/noop_sink.h"

namespace sluice::sinks {

bool SinkNeedsNoCheckpoint(const std::string& format) {
    // As Spark: these get a temporary checkpoint when the user gives none.
  return format == "console" || format == "noop" || format == "memory" || format == "foreach" ||
         format == "foreachBatch";
}

arrow::Result<std::unique_ptr<StreamSink>> MakeStreamSink(const SinkRequest& request) {
  if (request.format == "console") {
    return MakeConsoleSink(request.options, &std::cout,
                           request.format_context.session_time_zone);
  }
  if (request.format == "noop") return MakeNoopSink();
  if (request.format == "kafka") {
    return MakeKafkaStreamSink(request.options, request.schema, request.checkpoint_root);
  }
  if (request.format == "delta") {
    return MakeDeltaStreamSink(request.options, request.path, request.partition_by,
                               request.output_mode, request.format_context,
                               request.checkpoint_root);
  }
  auto file_format = formats::ParseFileFormat(request.format);
  if (file_format.ok()) {
    if (request.path.empty()) {
      return SparkError("_LEGACY_ERROR_TEMP_2047", "'path' is not specified.");
    }
    if (request.output_mode != OutputMode::kAppend) {
      const std::string mode = AsciiLower(OutputModeName(request.output_mode));
      return SparkError("STREAMING_OUTPUT_MODE.UNSUPPORTED_DATASOURCE",
                        "Invalid streaming output mode: " + mode +
                            ". This output mode is not supported in Data Source " +
                            request.format + ".");
    }
    return MakeFileStreamSink(*file_format, request.options, request.path, request.partition_by,
                              request.schema, request.format_context,
                              request.file_sink_compact_interval);
  }
  return SparkError("DATA_SOURCE_NOT_FOUND",
                    "Failed to find the data source: " + request.format +
                        ". Streaming sinks: parquet, json, csv, orc, text, console, memory, "
                        "noop, foreach, foreachBatch, kafka, delta.");
}

}  // namespace sluice::sinks
