#include "sluice/physical/read_ahead_stream.h"

#include "sluice/common/read_ahead.h"
#include "sluice/plan/logical_plan.h"

namespace sluice::physical {

namespace {

// Batches kept ready: the operators above may take their input in slices of several batches
// (a stream-stream join 16K rows, two of a JSON scan's batches) and then work on the slice
// for a while. With two ready, the stages below stopped after two batches and the operator
// waited for the rest of its next slice; with eight they fill the slice meanwhile.
constexpr size_t kBatchesAhead = 8;

class ReadAheadStream final : public BatchStream {
 public:
  explicit ReadAheadStream(BatchStreamPtr input)
      : input_(std::move(input)),
        ahead_([input = input_.get()] { return input->Next(); }, PipelinePool(),
               ReadAheadLimit{kBatchesAhead}) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return input_->schema(); }
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override { return ahead_.Next(); }

 private:
  BatchStreamPtr input_;
  // Declared after the input: destroyed first, it waits for the read under way.
  BatchReadAhead ahead_;
};

}  // namespace

bool MayRunAhead(const plan::LogicalPlan& input) {
  switch (input.kind()) {
    case plan::PlanKind::kRelation:
    case plan::PlanKind::kProject:
    case plan::PlanKind::kFilter:
    case plan::PlanKind::kGenerate:
    case plan::PlanKind::kEventTimeWatermark:
    case plan::PlanKind::kUnion:
    case plan::PlanKind::kSubqueryAlias:
      break;
    default:
      return false;
  }
  for (const auto& child : input.children()) {
    if (!MayRunAhead(*child)) return false;
  }
  return true;
}

BatchStreamPtr RunAhead(BatchStreamPtr input) {
  return std::make_unique<ReadAheadStream>(std::move(input));
}

}  // namespace sluice::physical
