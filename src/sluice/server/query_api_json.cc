#include "sluice/server/query_api_json.h"

#include <cmath>
#include <optional>
#include <string_view>

#include "sluice/common/json_writer.h"
#include "sluice/execution/progress_json.h"
#include "sluice/expr/cast_format.h"

namespace sluice::server {

namespace {

void OptionalString(const char* key, const std::optional<std::string>& value,
                    JsonWriter* writer) {
  writer->Key(key);
  if (value) {
    writer->String(*value);
  } else {
    writer->Null();
  }
}

/// The mean of a rate over the retained reports, skipping reports without it (a rate over no
/// time), as Spark's streaming page averages them; null without any.
void WriteAverageRate(const char* key, const QueryRun& run,
                      double (execution::StreamingQueryProgress::*rate)() const,
                      JsonWriter* writer) {
  double total = 0;
  int64_t count = 0;
  for (const auto& progress : run.recent_progress) {
    double value = (progress.*rate)();
    if (!std::isfinite(value)) continue;
    total += value;
    ++count;
  }
  writer->Key(key);
  if (count == 0) {
    writer->Null();
    return;
  }
  // Printed as the progress reports print their rates (Java's Double.toString).
  std::string text;
  expr::AppendJavaDouble(total / count, &text);
  writer->Number(text);
}

void WriteProgress(const execution::StreamingQueryProgress& progress, JsonWriter* writer) {
  execution::WriteEmbeddedJson(progress.Json(), writer);
}

/// The members every form of a run has; the caller ends the object.
void StartRun(const QueryRun& run, JsonWriter* writer) {
  writer->StartObject();
  writer->Key("id");
  writer->String(run.id);
  writer->Key("runId");
  writer->String(run.run_id);
  OptionalString("name", run.name, writer);
  writer->Key("status");
  writer->String(QueryRunStatusName(run.status));
  writer->Key("startTimestamp");
  writer->String(run.start_timestamp);
  OptionalString("endTimestamp", run.end_timestamp, writer);
  OptionalString("exception", run.exception, writer);
  OptionalString("errorClass", run.error_class, writer);
  writer->Key("numBatches");
  writer->Int(run.batches);
  writer->Key("numInputRows");
  writer->Int(run.input_rows);
  writer->Key("numOutputRows");
  writer->Int(run.output_rows);
  writer->Key("numRowsDroppedByWatermark");
  writer->Int(run.rows_dropped_by_watermark);
  WriteAverageRate("avgInputRowsPerSecond", run,
                   &execution::StreamingQueryProgress::input_rows_per_second, writer);
  WriteAverageRate("avgProcessedRowsPerSecond", run,
                   &execution::StreamingQueryProgress::processed_rows_per_second, writer);
}

}  // namespace

std::string QueryRunsJson(const std::vector<QueryRun>& runs) {
  JsonWriter writer(JsonWriter::Layout::kCompact);
  writer.StartArray();
  for (const QueryRun& run : runs) {
    StartRun(run, &writer);
    writer.Key("lastProgress");
    if (run.recent_progress.empty()) {
      writer.Null();
    } else {
      WriteProgress(run.recent_progress.back(), &writer);
    }
    writer.EndObject();
  }
  writer.EndArray();
  return std::move(writer).TakeText();
}

std::string QueryRunJson(const QueryRun& run) {
  JsonWriter writer(JsonWriter::Layout::kCompact);
  StartRun(run, &writer);
  writer.Key("recentProgress");
  writer.StartArray();
  for (const auto& progress : run.recent_progress) WriteProgress(progress, &writer);
  writer.EndArray();
  writer.EndObject();
  return std::move(writer).TakeText();
}

}  // namespace sluice::server
