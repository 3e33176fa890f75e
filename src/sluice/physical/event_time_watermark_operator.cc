#include "sluice/physical/event_time_watermark_operator.h"

#include <arrow/array.h>

namespace sluice::physical {

namespace {

class EventTimeWatermarkStream final : public BatchStream {
 public:
  EventTimeWatermarkStream(BatchStreamPtr input, int column, EventTimeStats* stats)
      : input_(std::move(input)), column_(column), stats_(stats) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return input_->schema(); }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    ARROW_ASSIGN_OR_RAISE(auto batch, input_->Next());
    if (batch == nullptr) return batch;
    const auto& times = static_cast<const arrow::TimestampArray&>(*batch->column(column_));
    const int64_t* values = times.raw_values();
    for (int64_t row = 0; row < times.length(); ++row) {
      // Rows without an event time take no part in the watermark.
      if (times.IsValid(row)) stats_->Add(values[row] / 1000);
    }
    return batch;
  }

 private:
  BatchStreamPtr input_;
  int column_;
  EventTimeStats* stats_;
};

}  // namespace

BatchStreamPtr MakeEventTimeWatermark(const plan::EventTimeWatermark& node, BatchStreamPtr input,
                                      const ExecContext& context) {
  if (context.event_times == nullptr) return input;
  return std::make_unique<EventTimeWatermarkStream>(std::move(input), node.column(),
                                                    &(*context.event_times)[&node]);
}

}  // namespace sluice::physical
