// DataStreamWriter: gathers a query's sink, trigger and checkpoint, then starts it.
#include "sluice/api/data_stream_writer.h"

#include <filesystem>

#include "sluice/api/foreach_batch_sink.h"
#include "sluice/api/session_state.h"
#include "sluice/api/table_identifier.h"
#include "sluice/common/ascii.h"
#include "sluice/common/delete_at_exit.h"
#include "sluice/common/errors.h"
#include "sluice/execution/streaming_settings.h"
#include "sluice/formats/partition_discovery.h"
#include "sluice/formats/partitioned_writer.h"
#include "sluice/plan/relation.h"
#include "sluice/plan/streaming_checker.h"
#include "sluice/sinks/foreach/foreach_sink.h"
#include "sluice/sinks/memory/memory_sink.h"
#include "sluice/sinks/sink_registry.h"

namespace sluice {

namespace fs = std::filesystem;

// No format: spark.sql.sources.default, read when the query starts.
DataStreamWriter::DataStreamWriter(DataFrame df) : WriterSettings(""), df_(std::move(df)) {}

DataStreamWriter& DataStreamWriter::outputMode(const std::string& mode) {
  output_mode_ = mode;
  return *this;
}

DataStreamWriter& DataStreamWriter::trigger(Trigger trigger) {
  trigger_ = trigger;
  trigger_error_ = arrow::Status::OK();
  return *this;
}

DataStreamWriter& DataStreamWriter::trigger(const std::string& processing_time) {
  auto parsed = Trigger::ProcessingTime(processing_time);
  trigger_error_ = parsed.status();
  if (parsed.ok()) trigger_ = *parsed;
  return *this;
}

DataStreamWriter& DataStreamWriter::queryName(const std::string& name) {
  query_name_ = name;
  return *this;
}

DataStreamWriter& DataStreamWriter::foreachBatch(ForeachBatchFunction function) {
  foreach_batch_ = std::move(function);
  format_ = "foreachBatch";
  return *this;
}

DataStreamWriter& DataStreamWriter::foreach(std::shared_ptr<sinks::ForeachWriter> writer) {
  foreach_writer_ = std::move(writer);
  format_ = "foreach";
  return *this;
}

DataStreamWriter& DataStreamWriter::sink(
    std::function<std::unique_ptr<sinks::StreamSink>()> make_sink) {
  make_sink_ = std::move(make_sink);
  format_ = "custom";
  return *this;
}

DataStreamWriter& DataStreamWriter::clock(std::shared_ptr<Clock> clock) {
  clock_ = std::move(clock);
  return *this;
}

DataStreamWriter& DataStreamWriter::crashHook(execution::CrashHook hook) {
  crash_hook_ = std::move(hook);
  return *this;
}

arrow::Result<std::shared_ptr<StreamingQuery>> DataStreamWriter::start(
    const std::string& path) const {
  DataStreamWriter writer = *this;
  writer.option("path", path);
  return writer.start();
}

arrow::Result<std::shared_ptr<StreamingQuery>> DataStreamWriter::toTable(
    const std::string& name) const {
  ARROW_RETURN_NOT_OK(df_.status());
  if (!format_.empty() && AsciiLower(format_) != "delta") {
    return SparkError("UNSUPPORTED_DATA_SOURCE_FOR_NAMED_TABLE",
                      "Named tables are Delta tables: toTable cannot write format " + format_ +
                          ". Use format(\"delta\"), or start(path) for other formats.");
  }
  ARROW_ASSIGN_OR_RAISE(auto named, ResolveTable(*df_.session(), name));
  DataStreamWriter writer = *this;
  writer.format("delta");
  return writer.start(named.path);
}

arrow::Result<std::shared_ptr<StreamingQuery>> DataStreamWriter::start() const {
  ARROW_RETURN_NOT_OK(df_.status());
  ARROW_RETURN_NOT_OK(trigger_error_);
  const auto& session = df_.session();
  if (!df_.isStreaming()) {
    return SparkError("WRITE_STREAM_NOT_ALLOWED",
                      "`writeStream` can be called only on streaming Dataset/DataFrame.");
  }
  ARROW_ASSIGN_OR_RAISE(auto mode, plan::ParseOutputMode(output_mode_));
  ARROW_ASSIGN_OR_RAISE(auto settings, execution::StreamingSettings::FromConfig(session->config));
  ARROW_RETURN_NOT_OK(
      plan::CheckStreamingPlan(*df_.plan(), mode, settings.check_stateful_correctness));
  ARROW_ASSIGN_OR_RAISE(auto schema, df_.schema());

  std::string format =
      format_.empty() ? session->config.Get("spark.sql.sources.default").value_or("parquet")
                      : format_;
  if (format != "foreachBatch") format = AsciiLower(format);

  execution::QuerySpec spec;
  spec.plan = df_.plan();
  spec.config = session->config;
  spec.output_mode = mode;
  spec.trigger = trigger_;
  spec.name = query_name_;
  spec.clock = clock_ ? clock_ : std::make_shared<SystemClock>();
  spec.crash_hook = crash_hook_;
  spec.format_context = FormatContextOf(session->config);

  // The checkpoint: the option, else <spark.sql.streaming.checkpointLocation>/<name or id>,
  // else a temporary folder for the sinks that need none.
  auto location = options_.find("checkpointLocation");
  if (location != options_.end()) {
    spec.checkpoint_root = formats::LocalPath(location->second);
  } else if (!settings.checkpoint_root.empty()) {
    spec.checkpoint_root = formats::LocalPath(
        (fs::path(settings.checkpoint_root) / query_name_.value_or(formats::RandomUuid()))
            .string());
  } else if (sinks::SinkNeedsNoCheckpoint(format)) {
    spec.checkpoint_root =
        (fs::temp_directory_path() / ("temporary-" + formats::RandomUuid())).string();
    spec.temporary_checkpoint = true;
    // As Spark's temporary folders: gone when the process exits, even the checkpoint of a
    // failed query, kept until then to look into.
    DeleteAtExit(spec.checkpoint_root);
  } else {
    return SparkError("_LEGACY_ERROR_TEMP_1298",
                      "checkpointLocation must be specified either through "
                      "option(\"checkpointLocation\", ...) or "
                      "SparkSession.conf.set(\"spark.sql.streaming.checkpointLocation\", ...).");
  }

  if (make_sink_) {
    spec.sink = make_sink_();
  } else if (format == "memory") {
    if (!query_name_) {
      return SparkError("_LEGACY_ERROR_TEMP_1194",
                        "queryName must be specified for memory sink.");
    }
    auto table = std::make_shared<sinks::MemoryTable>(*query_name_, schema);
    session->RegisterTempView(*query_name_,
                              plan::Relation::Make(table, session->analysis_context()));
    spec.sink = sinks::MakeMemorySink(std::move(table));
  } else if (format == "foreachBatch") {
    spec.sink = MakeForeachBatchSink(session, foreach_batch_);
  } else if (format == "foreach") {
    spec.sink = sinks::MakeForeachSink(foreach_writer_);
  } else {
    sinks::SinkRequest request;
    request.format = format;
    request.options = options_;
    auto path = options_.find("path");
    if (path != options_.end()) request.path = path->second;
    request.partition_by = partition_by_;
    request.output_mode = mode;
    request.schema = schema;
    request.format_context = spec.format_context;
    request.file_sink_compact_interval = settings.file_sink_compact_interval;
    request.checkpoint_root = spec.checkpoint_root;
    ARROW_ASSIGN_OR_RAISE(spec.sink, sinks::MakeStreamSink(request));
  }
  return StreamingQuery::Start(std::move(spec), session->streams);
}

}  // namespace sluice
