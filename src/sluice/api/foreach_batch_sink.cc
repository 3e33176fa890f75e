#include "sluice/api/foreach_batch_sink.h"

#include <arrow/table.h>

#include "sluice/api/session_state.h"
#include "sluice/physical/batch_stream.h"
#include "sluice/plan/relation.h"

namespace sluice {

namespace {

class ForeachBatchSink final : public sinks::StreamSink {
 public:
  ForeachBatchSink(std::shared_ptr<SessionState> session, ForeachBatchFunction function)
      : session_(std::move(session)), function_(std::move(function)) {}

  std::string Describe() const override { return "ForeachBatchSink"; }

  arrow::Status AddBatch(int64_t batch_id, physical::BatchStream& data,
                         sinks::OutputMode mode) override {
    ARROW_ASSIGN_OR_RAISE(auto table, physical::CollectTable(data));
    auto source = std::make_shared<plan::InMemorySource>(std::move(table));
    DataFrame batch(session_,
                    plan::Relation::Make(std::move(source), session_->analysis_context()));
    return function_(batch, batch_id);
  }

 private:
  std::shared_ptr<SessionState> session_;
  ForeachBatchFunction function_;
};

}  // namespace

std::unique_ptr<sinks::StreamSink> MakeForeachBatchSink(std::shared_ptr<SessionState> session,
                                                        ForeachBatchFunction function) {
  return std::make_unique<ForeachBatchSink>(std::move(session), std::move(function));
}

}  // namespace sluice
