// The streaming sinks by the names writeStream.format() takes (the memory and foreachBatch
// sinks need the session and live in api/).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/formats/file_format.h"
#include "sluice/formats/format_options.h"
#include "sluice/sinks/stream_sink.h"

namespace sluice::sinks {

/// What writeStream gathered for a sink.
struct SinkRequest {
  /// Lower case: parquet, json, csv, orc, text, console, noop, kafka, delta.
  std::string format;
  formats::OptionMap options;
  /// The output folder of file sinks (start(path) or the "path" option).
  std::string path;
  std::vector<std::string> partition_by;
  OutputMode output_mode = OutputMode::kAppend;
  /// The schema of the rows the query writes.
  std::shared_ptr<arrow::Schema> schema;
  formats::FormatContext format_context;
  /// spark.sql.streaming.fileSink.log.compactInterval.
  int file_sink_compact_interval = 10;
  /// The query's checkpoint folder (its `metadata` file holds the query id once the query
  /// has started).
  std::string checkpoint_root;
};

/// True for the sinks that run without a checkpoint location (console, noop, memory,
/// foreach, foreachBatch): they get a temporary one.
bool SinkNeedsNoCheckpoint(const std::string& format);

/// The sink named by request.format. DATA_SOURCE_NOT_FOUND for an unknown name;
/// _LEGACY_ERROR_TEMP_2047 when a file sink has no path; STREAMING_OUTPUT_MODE.
/// UNSUPPORTED_DATASOURCE for a file sink in another mode than append; bad options fail
/// naming the option.
arrow::Result<std::unique_ptr<StreamSink>> MakeStreamSink(const SinkRequest& request);

}  // namespace sluice::sinks
