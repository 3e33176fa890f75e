#include "sluice/server/query_history.h"

#include <algorithm>
#include <chrono>

#include "sluice/execution/iso_timestamp.h"

namespace sluice::server {

const char* QueryRunStatusName(QueryRunStatus status) {
  switch (status) {
    case QueryRunStatus::kActive:
      return "ACTIVE";
    case QueryRunStatus::kFinished:
      return "FINISHED";
    case QueryRunStatus::kFailed:
      return "FAILED";
  }
  return "ACTIVE";
}

QueryHistory::QueryHistory(int64_t retained_queries, int64_t retained_progress_updates)
    : retained_queries_(retained_queries),
      retained_progress_updates_(retained_progress_updates) {}

void QueryHistory::onQueryStarted(const execution::QueryStartedEvent& event) {
  std::lock_guard<std::mutex> lock(mutex_);
  QueryRun run;
  run.id = event.id;
  run.run_id = event.run_id;
  run.name = event.name;
  run.start_timestamp = event.timestamp;
  runs_.push_back(std::move(run));
}

void QueryHistory::onQueryProgress(const execution::QueryProgressEvent& event) {
  std::lock_guard<std::mutex> lock(mutex_);
  QueryRun* run = Find(event.progress.run_id);
  if (run == nullptr) return;
  const execution::StreamingQueryProgress& progress = event.progress;
  ++run->batches;
  run->input_rows += progress.num_input_rows();
  if (progress.sink.num_output_rows > 0) run->output_rows += progress.sink.num_output_rows;
  for (const auto& op : progress.state_operators) {
    run->rows_dropped_by_watermark += op.num_rows_dropped_by_watermark;
  }
  run->recent_progress.push_back(progress);
  while (static_cast<int64_t>(run->recent_progress.size()) > retained_progress_updates_) {
    run->recent_progress.pop_front();
  }
}

void QueryHistory::onQueryTerminated(const execution::QueryTerminatedEvent& event) {
  std::lock_guard<std::mutex> lock(mutex_);
  QueryRun* run = Find(event.run_id);
  if (run == nullptr) return;
  auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::system_clock::now().time_since_epoch());
  run->end_timestamp = execution::FormatIsoTimestamp(now.count());
  run->status = event.exception ? QueryRunStatus::kFailed : QueryRunStatus::kFinished;
  run->exception = event.exception;
  run->error_class = event.error_class_on_exception;
  DropOldFinishedRuns();
}

std::vector<QueryRun> QueryHistory::Runs() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return {runs_.begin(), runs_.end()};
}

std::optional<QueryRun> QueryHistory::FindRun(const std::string& run_id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const QueryRun& run : runs_) {
    if (run.run_id == run_id) return run;
  }
  return std::nullopt;
}

QueryRun* QueryHistory::Find(const std::string& run_id) {
  for (QueryRun& run : runs_) {
    if (run.run_id == run_id) return &run;
  }
  return nullptr;
}

void QueryHistory::DropOldFinishedRuns() {
  int64_t finished = std::count_if(runs_.begin(), runs_.end(), [](const QueryRun& run) {
    return run.status != QueryRunStatus::kActive;
  });
  for (auto it = runs_.begin(); it != runs_.end() && finished > retained_queries_;) {
    if (it->status == QueryRunStatus::kActive) {
      ++it;
    } else {
      it = runs_.erase(it);
      --finished;
    }
  }
}

}  // namespace sluice::server
