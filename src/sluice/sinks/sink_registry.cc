#include "sluice/sinks/sink_registry.h"

#include <iostream>

#include "sluice/common/errors.h"
#include "sluice/sinks/console/console_sink.h"
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
  return SparkError("DATA_SOURCE_NOT_FOUND",
                    "Failed to find the data source: " + request.format +
                        ". Streaming sinks: parquet, json, csv, orc, text, console, memory, "
                        "noop, foreach, foreachBatch.");
}

}  // namespace sluice::sinks
