// The JSON forms follow Spark 4.0.1's progress.scala: each class's jsonValue builds a json4s
// object with a fixed member order, drops members whose value is JNothing (empty maps, NaN and
// infinite rates), and json4s renders it through Jackson (compact, or DefaultPrettyPrinter).
#include "sluice/execution/progress.h"

#include <cmath>
#include <string_view>
#include <utility>

#include "sluice/common/json_writer.h"
#include "sluice/execution/iso_timestamp.h"
#include "sluice/execution/progress_json.h"
#include "sluice/expr/cast_format.h"

namespace sluice::execution {

namespace {

using Layout = JsonWriter::Layout;

/// Spark's safeDoubleToJValue: NaN and infinities (a rate over a zero duration) leave the
/// member out; other values print as Java's Double.toString.
void WriteRate(std::string_view key, double value, JsonWriter* writer) {
  if (!std::isfinite(value)) return;
  std::string text;
  expr::AppendJavaDouble(value, &text);
  writer->Key(key);
  writer->Number(text);
}

/// Spark's safeMapToJValue: an empty map leaves the member out; keys print sorted (std::map
/// keeps them so).
template <typename Value, typename WriteValue>
void WriteSortedMap(std::string_view key, const std::map<std::string, Value>& map,
                    WriteValue write_value, JsonWriter* writer) {
  if (map.empty()) return;
  writer->Key(key);
  writer->StartObject();
  for (const auto& [name, value] : map) {
    writer->Key(name);
    write_value(value);
  }
  writer->EndObject();
}

void WriteLongMap(std::string_view key, const std::map<std::string, int64_t>& map,
                  JsonWriter* writer) {
  WriteSortedMap(key, map, [writer](int64_t value) { writer->Int(value); }, writer);
}

void WriteStringMap(std::string_view key, const std::map<std::string, std::string>& map,
                    JsonWriter* writer) {
  WriteSortedMap(key, map, [writer](const std::string& value) { writer->String(value); }, writer);
}

void WriteOffset(std::string_view key, const std::optional<std::string>& offset,
                 JsonWriter* writer) {
  writer->Key(key);
  if (offset.has_value()) {
    WriteEmbeddedJson(*offset, writer);
  } else {
    writer->Null();
  }
}

void WriteStateOperator(const StateOperatorProgress& op, JsonWriter* writer) {
  writer->StartObject();
  writer->Key("operatorName");
  writer->String(op.operator_name);
  const std::pair<std::string_view, int64_t> figures[] = {
      {"numRowsTotal", op.num_rows_total},
      {"numRowsUpdated", op.num_rows_updated},
      {"allUpdatesTimeMs", op.all_updates_time_ms},
      {"numRowsRemoved", op.num_rows_removed},
      {"allRemovalsTimeMs", op.all_removals_time_ms},
      {"commitTimeMs", op.commit_time_ms},
      {"memoryUsedBytes", op.memory_used_bytes},
      {"numRowsDroppedByWatermark", op.num_rows_dropped_by_watermark},
      {"numShufflePartitions", op.num_shuffle_partitions},
      {"numStateStoreInstances", op.num_state_store_instances},
  };
  for (const auto& [key, value] : figures) {
    writer->Key(key);
    writer->Int(value);
  }
  WriteLongMap("customMetrics", op.custom_metrics, writer);
  writer->EndObject();
}

void WriteSource(const SourceProgress& source, JsonWriter* writer) {
  writer->StartObject();
  writer->Key("description");
  writer->String(source.description);
  WriteOffset("startOffset", source.start_offset, writer);
  WriteOffset("endOffset", source.end_offset, writer);
  WriteOffset("latestOffset", source.latest_offset, writer);
  writer->Key("numInputRows");
  writer->Int(source.num_input_rows);
  WriteRate("inputRowsPerSecond", source.input_rows_per_second, writer);
  WriteRate("processedRowsPerSecond", source.processed_rows_per_second, writer);
  WriteStringMap("metrics", source.metrics, writer);
  writer->EndObject();
}

void WriteSink(const SinkProgress& sink, JsonWriter* writer) {
  writer->StartObject();
  writer->Key("description");
  writer->String(sink.description);
  writer->Key("numOutputRows");
  writer->Int(sink.num_output_rows);
  WriteStringMap("metrics", sink.metrics, writer);
  writer->EndObject();
}

std::string ProgressJson(const StreamingQueryProgress& progress, Layout layout) {
  JsonWriter writer(layout);
  writer.StartObject();
  writer.Key("id");
  writer.String(progress.id);
  writer.Key("runId");
  writer.String(progress.run_id);
  writer.Key("name");
  if (progress.name.has_value()) {
    writer.String(*progress.name);
  } else {
    writer.Null();
  }
  writer.Key("timestamp");
  writer.String(FormatIsoTimestamp(progress.timestamp_ms));
  writer.Key("batchId");
  writer.Int(progress.batch_id);
  writer.Key("batchDuration");
  writer.Int(progress.batch_duration_ms);
  writer.Key("numInputRows");
  writer.Int(progress.num_input_rows());
  WriteRate("inputRowsPerSecond", progress.input_rows_per_second(), &writer);
  WriteRate("processedRowsPerSecond", progress.processed_rows_per_second(), &writer);
  WriteLongMap("durationMs", progress.duration_ms, &writer);
  WriteStringMap("eventTime", progress.event_time, &writer);
  // Unlike the maps, the operator list is printed even when empty.
  writer.Key("stateOperators");
  writer.StartArray();
  for (const StateOperatorProgress& op : progress.state_operators) WriteStateOperator(op, &writer);
  writer.EndArray();
  writer.Key("sources");
  writer.StartArray();
  for (const SourceProgress& source : progress.sources) WriteSource(source, &writer);
  writer.EndArray();
  writer.Key("sink");
  WriteSink(progress.sink, &writer);
  WriteSortedMap(
      "observedMetrics", progress.observed_metrics,
      [&writer](const std::string& row) { WriteEmbeddedJson(row, &writer); }, &writer);
  writer.EndObject();
  return std::move(writer).TakeText();
}

std::string StatusJson(const StreamingQueryStatus& status, Layout layout) {
  JsonWriter writer(layout);
  writer.StartObject();
  writer.Key("message");
  writer.String(status.message);
  writer.Key("isDataAvailable");
  writer.Bool(status.is_data_available);
  writer.Key("isTriggerActive");
  writer.Bool(status.is_trigger_active);
  writer.EndObject();
  return std::move(writer).TakeText();
}

}  // namespace

// Scala sums the sources in order starting from zero; so does this, keeping the rounding.
int64_t StreamingQueryProgress::num_input_rows() const {
  int64_t total = 0;
  for (const SourceProgress& source : sources) total += source.num_input_rows;
  return total;
}

double StreamingQueryProgress::input_rows_per_second() const {
  double total = 0;
  for (const SourceProgress& source : sources) total += source.input_rows_per_second;
  return total;
}

double StreamingQueryProgress::processed_rows_per_second() const {
  double total = 0;
  for (const SourceProgress& source : sources) total += source.processed_rows_per_second;
  return total;
}

std::string StreamingQueryProgress::Json() const { return ProgressJson(*this, Layout::kCompact); }

std::string StreamingQueryProgress::PrettyJson() const {
  return ProgressJson(*this, Layout::kPretty);
}

std::string StreamingQueryStatus::Json() const { return StatusJson(*this, Layout::kCompact); }

std::string StreamingQueryStatus::PrettyJson() const { return StatusJson(*this, Layout::kPretty); }

}  // namespace sluice::execution
