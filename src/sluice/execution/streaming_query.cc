#include "sluice/execution/streaming_query.h"

#include <iostream>

#include "sluice/common/errors.h"
#include "sluice/execution/iso_timestamp.h"
#include "sluice/execution/micro_batch_execution.h"
#include "sluice/execution/query_manager.h"
#include "sluice/formats/partitioned_writer.h"

namespace sluice::execution {

namespace {

/// Spark's StreamingQueryException message around the cause.
arrow::Status StreamFailed(const std::string& id, const std::string& run_id,
                           const arrow::Status& cause) {
  return SparkError("STREAM_FAILED", "Query [id = " + id + ", runId = " + run_id +
                                         "] terminated with exception: " + cause.message());
}

}  // namespace

arrow::Result<std::shared_ptr<StreamingQuery>> StreamingQuery::Start(
    QuerySpec spec, std::shared_ptr<StreamingQueryManager> manager) {
  std::shared_ptr<StreamingQuery> query(new StreamingQuery());
  query->run_id_ = formats::RandomUuid();
  query->name_ = spec.name;
  query->plan_ = spec.plan;
  query->manager_ = manager;
  ARROW_ASSIGN_OR_RAISE(auto settings, StreamingSettings::FromConfig(spec.config));
  query->state_ = std::make_shared<QueryState>(settings.num_recent_progress_updates);
  int64_t start_ms = spec.clock->NowMillis();
  ARROW_ASSIGN_OR_RAISE(query->execution_,
                        MicroBatchExecution::Make(std::move(spec), formats::RandomUuid(),
                                                  query->run_id_, query->state_, manager));
  query->id_ = query->execution_->query_id();
  if (auto status = manager->Register(query, query->id_, query->name_); !status.ok()) {
    query->execution_->Close(/*clean_stop=*/false);
    return status;
  }
  manager->Post(QueryStartedEvent{query->id_, query->run_id_, query->name_,
                                  FormatIsoTimestamp(start_ms)});
  // The thread holds the query until its loop ends; the manager holds it while it is active.
  query->thread_ = std::thread([self = query] { self->RunLoop(); });
  return query;
}

StreamingQuery::~StreamingQuery() {
  state_->cancel().Cancel();
  if (!thread_.joinable()) return;
  // The last reference may be the loop thread's own, released as the thread ends.
  if (thread_.get_id() == std::this_thread::get_id()) {
    thread_.detach();
  } else {
    thread_.join();
  }
}

void StreamingQuery::RunLoop() {
  arrow::Status status = execution_->Run();
  bool crashed = execution_->crashed();
  bool clean = status.ok();
  execution_->Close(clean);
  // A kill keeps its own error, saying where the query died, and sends no terminated event,
  // as a dead process would send none.
  arrow::Status error = crashed ? status
                                : (clean ? arrow::Status::OK() : StreamFailed(id_, run_id_, status));
  // Spark's order: leave the manager, tell the listeners, then wake awaitTermination.
  manager_->Unregister(id_, error);
  if (!crashed) {
    QueryTerminatedEvent event{id_, run_id_, std::nullopt, std::nullopt};
    if (!clean) {
      event.exception = status.message();
      event.error_class_on_exception = ErrorClassOf(status);
    }
    manager_->Post(event);
  }
  state_->MarkTerminated(error);
}

arrow::Status StreamingQuery::awaitTermination() const {
  state_->AwaitTermination(-1);
  return state_->error();
}

arrow::Result<bool> StreamingQuery::awaitTermination(int64_t timeout_ms) const {
  if (timeout_ms < 0) {
    return arrow::Status::Invalid("Timeout for awaitTermination can't be negative: ",
                                  timeout_ms);
  }
  if (!state_->AwaitTermination(timeout_ms)) return false;
  ARROW_RETURN_NOT_OK(state_->error());
  return true;
}

arrow::Status StreamingQuery::processAllAvailable() const { return state_->AwaitNoNewData(); }

arrow::Status StreamingQuery::stop() {
  state_->cancel().Cancel();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
  return arrow::Status::OK();
}

std::string StreamingQuery::explainString(bool extended) const {
  return plan::ExplainText(*plan_, extended);
}

arrow::Status StreamingQuery::explain(bool extended) const {
  std::cout << explainString(extended) << std::endl;
  return arrow::Status::OK();
}

}  // namespace sluice::execution
