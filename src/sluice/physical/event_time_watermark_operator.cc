#include "sluice/physical/event_time_watermark_operator.h"

#include <arrow/array.h>
#include <arrow/util/bit_run_reader.h>

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
    // Each batch is a partition of Spark's: a division per row for Spark's running mean
    // would cost more than the rest of the pass.
    stats_->Merge(
        EventTimeStatsOf(static_cast<const arrow::TimestampArray&>(*batch->column(column_))));
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

EventTimeStats EventTimeStatsOf(const arrow::TimestampArray& times) {
  const int64_t* values = times.raw_values();
  int64_t min = std::numeric_limits<int64_t>::max();
  int64_t max = std::numeric_limits<int64_t>::min();
  // Wide enough for any number of any times: no order of the rows overflows it.
  __int128 sum = 0;
  auto add_run = [&](int64_t start, int64_t length) {
    for (int64_t row = start; row < start + length; ++row) {
      // Truncated toward zero, as Spark's division of the microseconds.
      const int64_t millis = values[row] / 1000;
      min = std::min(min, millis);
      max = std::max(max, millis);
      sum += millis;
    }
  };
  // Rows without an event time take no part in the watermark.
  const int64_t count = times.length() - times.null_count();
  if (times.null_count() == 0) {
    add_run(0, times.length());
  } else {
    arrow::internal::VisitSetBitRunsVoid(times.null_bitmap_data(), times.offset(),
                                         times.length(), add_run);
  }
  EventTimeStats stats;
  if (count == 0) return stats;
  stats.min = min;
  stats.max = max;
  stats.count = count;
  stats.avg = static_cast<double>(sum) / static_cast<double>(count);
  return stats;
}

}  // namespace sluice::physical
