#include "sluice/server/prometheus_metrics.h"

#include <charconv>
#include <cmath>
#include <functional>
#include <optional>
#include <string_view>

#include "sluice/execution/iso_timestamp.h"

namespace sluice::server {

namespace {

/// A label value escaped as the text format requires: backslash, double quote and newline.
void AppendLabelValue(std::string_view value, std::string* out) {
  out->push_back('"');
  for (char c : value) {
    if (c == '\\') {
      out->append("\\\\");
    } else if (c == '"') {
      out->append("\\\"");
    } else if (c == '\n') {
      out->append("\\n");
    } else {
      out->push_back(c);
    }
  }
  out->push_back('"');
}

/// The shortest text that reads back as `value`; Prometheus spells infinities and NaN its way.
void AppendValue(double value, std::string* out) {
  if (std::isnan(value)) {
    out->append("NaN");
  } else if (std::isinf(value)) {
    out->append(value > 0 ? "+Inf" : "-Inf");
  } else {
    char text[32];
    auto [end, error] = std::to_chars(text, text + sizeof(text), value);
    out->append(text, end);
  }
}

struct Label {
  std::string_view name;
  std::string_view value;
};

/// One metric family: its HELP and TYPE lines, then a sample per call of Sample.
class Family {
 public:
  Family(std::string* out, std::string_view name, std::string_view type, std::string_view help)
      : out_(out), name_(name) {
    out_->append("# HELP ").append(name).append(" ").append(help).append("\n");
    out_->append("# TYPE ").append(name).append(" ").append(type).append("\n");
  }

  void Sample(const QueryRun& run, double value, std::optional<Label> extra = std::nullopt,
              std::optional<Label> extra2 = std::nullopt) {
    out_->append(name_);
    out_->append("{id=");
    AppendLabelValue(run.id, out_);
    out_->append(",run_id=");
    AppendLabelValue(run.run_id, out_);
    out_->append(",name=");
    AppendLabelValue(run.name.value_or(""), out_);
    for (const auto& label : {extra, extra2}) {
      if (!label) continue;
      out_->append(",").append(label->name).append("=");
      AppendLabelValue(label->value, out_);
    }
    out_->append("} ");
    AppendValue(value, out_);
    out_->append("\n");
  }

 private:
  std::string* out_;
  std::string_view name_;
};

const execution::StreamingQueryProgress* LastProgress(const QueryRun& run) {
  return run.recent_progress.empty() ? nullptr : &run.recent_progress.back();
}

/// A rate, or nothing for a rate over no time (Spark leaves such rates out of its reports).
std::optional<double> FiniteRate(double rate) {
  if (!std::isfinite(rate)) return std::nullopt;
  return rate;
}

/// How far the watermark is behind the batch's trigger time, in seconds (Spark's "global
/// watermark gap" chart); nullopt before the query has a watermark.
std::optional<double> WatermarkGapSeconds(const execution::StreamingQueryProgress& progress) {
  auto watermark = progress.event_time.find("watermark");
  if (watermark == progress.event_time.end()) return std::nullopt;
  auto watermark_ms = execution::ParseIsoTimestamp(watermark->second);
  if (!watermark_ms) return std::nullopt;
  return static_cast<double>(progress.timestamp_ms - *watermark_ms) / 1000.0;
}

}  // namespace

std::string PrometheusMetricsText(const std::vector<QueryRun>& runs) {
  std::string out;
  using Progress = execution::StreamingQueryProgress;

  auto run_family = [&](std::string_view name, std::string_view type, std::string_view help,
                        const std::function<double(const QueryRun&)>& value) {
    Family family(&out, name, type, help);
    for (const QueryRun& run : runs) family.Sample(run, value(run));
  };
  // Gauges of the latest report: a run without one has no sample.
  auto progress_family = [&](std::string_view name, std::string_view help,
                             const std::function<std::optional<double>(const Progress&)>& value) {
    Family family(&out, name, "gauge", help);
    for (const QueryRun& run : runs) {
      const Progress* progress = LastProgress(run);
      if (progress == nullptr) continue;
      if (auto sample = value(*progress)) family.Sample(run, *sample);
    }
  };
  auto state_family = [&](std::string_view name, std::string_view help,
                          int64_t physical::StateOperatorProgress::*field) {
    Family family(&out, name, "gauge", help);
    for (const QueryRun& run : runs) {
      const Progress* progress = LastProgress(run);
      if (progress == nullptr) continue;
      for (size_t i = 0; i < progress->state_operators.size(); ++i) {
        const auto& op = progress->state_operators[i];
        std::string index = std::to_string(i);
        family.Sample(run, static_cast<double>(op.*field), Label{"operator", index},
                      Label{"operator_name", op.operator_name});
      }
    }
  };

  run_family("sluice_streaming_query_active", "gauge",
             "1 while the query run is active, 0 once it stopped or failed.",
             [](const QueryRun& run) { return run.status == QueryRunStatus::kActive ? 1 : 0; });
  run_family("sluice_streaming_query_failed", "gauge", "1 when the query run failed.",
             [](const QueryRun& run) { return run.status == QueryRunStatus::kFailed ? 1 : 0; });
  run_family("sluice_streaming_query_batches_total", "counter",
             "Micro-batches the run reported progress for, no-data batches included.",
             [](const QueryRun& run) { return static_cast<double>(run.batches); });
  run_family("sluice_streaming_query_input_rows_total", "counter",
             "Rows read from the sources by the run.",
             [](const QueryRun& run) { return static_cast<double>(run.input_rows); });
  run_family("sluice_streaming_query_output_rows_total", "counter",
             "Rows written by the run, for sinks that count them.",
             [](const QueryRun& run) { return static_cast<double>(run.output_rows); });
  run_family("sluice_streaming_query_rows_dropped_by_watermark_total", "counter",
             "Late rows the run's stateful operators dropped.",
             [](const QueryRun& run) { return static_cast<double>(run.rows_dropped_by_watermark); });

  progress_family("sluice_streaming_query_last_batch_id", "The id of the latest batch.",
                  [](const Progress& p) { return static_cast<double>(p.batch_id); });
  progress_family("sluice_streaming_query_last_batch_input_rows",
                  "Rows read by the latest batch.",
                  [](const Progress& p) { return static_cast<double>(p.num_input_rows()); });
  progress_family("sluice_streaming_query_input_rows_per_second",
                  "Input rate of the latest batch: its rows over the time since the one before.",
                  [](const Progress& p) { return FiniteRate(p.input_rows_per_second()); });
  progress_family("sluice_streaming_query_processed_rows_per_second",
                  "Process rate of the latest batch: its rows over its duration.",
                  [](const Progress& p) { return FiniteRate(p.processed_rows_per_second()); });
  progress_family("sluice_streaming_query_batch_duration_seconds",
                  "Duration of the latest batch.",
                  [](const Progress& p) { return static_cast<double>(p.batch_duration_ms) / 1000; });
  progress_family("sluice_streaming_query_watermark_gap_seconds",
                  "How far the event-time watermark is behind the latest batch's trigger time.",
                  [](const Progress& p) { return WatermarkGapSeconds(p); });

  state_family("sluice_streaming_state_rows", "State rows of a stateful operator.",
               &physical::StateOperatorProgress::num_rows_total);
  state_family("sluice_streaming_state_updated_rows",
               "State rows a stateful operator updated in the latest batch.",
               &physical::StateOperatorProgress::num_rows_updated);
  state_family("sluice_streaming_state_memory_bytes",
               "Memory used by a stateful operator's state stores.",
               &physical::StateOperatorProgress::memory_used_bytes);
  return out;
}

}  // namespace sluice::server
