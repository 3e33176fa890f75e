#include "sluice/sources/rate/rate_rows.h"

#include <algorithm>
#include <cmath>

#include <arrow/array/data.h>
#include <arrow/buffer.h>
#include <arrow/type.h>

#include "sluice/types/spark_types.h"

namespace sluice::sources {

namespace {

// Java's long arithmetic wraps around; so does this, without undefined behaviour.
int64_t WrapMultiply(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
int64_t WrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

arrow::Result<std::shared_ptr<arrow::Buffer>> AllocateLongs(int64_t count) {
  ARROW_ASSIGN_OR_RAISE(std::unique_ptr<arrow::Buffer> buffer,
                        arrow::AllocateBuffer(count * static_cast<int64_t>(sizeof(int64_t))));
  return std::shared_ptr<arrow::Buffer>(std::move(buffer));
}

int64_t* LongsOf(const std::shared_ptr<arrow::Buffer>& buffer) {
  return reinterpret_cast<int64_t*>(buffer->mutable_data());
}

/// Walks the partitions in order, cutting each into batches of at most max_rows rows.
class RateReader final : public arrow::RecordBatchReader {
 public:
  RateReader(const RateRange& range, int64_t max_rows) : range_(range), max_rows_(max_rows) {}

  std::shared_ptr<arrow::Schema> schema() const override { return RateSchema(); }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    *batch = nullptr;
    while (partition_ < range_.num_partitions && next_index_ >= PartitionSize(partition_)) {
      ++partition_;
      next_index_ = 0;
    }
    if (partition_ >= range_.num_partitions) return arrow::Status::OK();

    const int64_t length = std::min(max_rows_, PartitionSize(partition_) - next_index_);
    const int64_t stride = range_.num_partitions;
    // The distance of this batch's first value from range_start: partition + stride * index.
    const int64_t first_offset = partition_ + stride * next_index_;
    next_index_ += length;

    ARROW_ASSIGN_OR_RAISE(auto values, AllocateLongs(length));
    int64_t* value_out = LongsOf(values);
    const int64_t first_value = range_.range_start + first_offset;
    for (int64_t i = 0; i < length; ++i) value_out[i] = first_value + i * stride;

    ARROW_ASSIGN_OR_RAISE(auto timestamps, Timestamps(first_offset, stride, length));
    std::vector<std::shared_ptr<arrow::ArrayData>> columns = {
        arrow::ArrayData::Make(types::TimestampLtzType(), length, {nullptr, timestamps}, 0),
        arrow::ArrayData::Make(arrow::int64(), length, {nullptr, values}, 0)};
    *batch = arrow::RecordBatch::Make(RateSchema(), length, std::move(columns));
    return arrow::Status::OK();
  }

 private:
  int64_t PartitionSize(int32_t partition) const {
    const int64_t span = range_.range_end - range_.range_start;
    if (partition >= span) return 0;
    return (span - partition - 1) / range_.num_partitions + 1;
  }

  // Microseconds of the rows at distances first_offset + stride * i from range_start.
  arrow::Result<std::shared_ptr<arrow::Buffer>> Timestamps(int64_t first_offset, int64_t stride,
                                                           int64_t length) {
    const int64_t start_us = range_.start_time_ms * 1000;
    if (range_.ms_per_value == 0) {
      // Every row has the same instant: fill one buffer once and share slices of it, as
      // arrays are immutable. The first batch is the longest (partitions shrink), so this
      // fills once per read.
      if (constant_timestamps_ == nullptr || constant_timestamps_->size() < length * 8) {
        ARROW_ASSIGN_OR_RAISE(constant_timestamps_, AllocateLongs(length));
        int64_t* out = LongsOf(constant_timestamps_);
        std::fill(out, out + length, start_us);
      }
      return arrow::SliceBuffer(constant_timestamps_, 0, length * 8);
    }
    ARROW_ASSIGN_OR_RAISE(auto timestamps, AllocateLongs(length));
    int64_t* out = LongsOf(timestamps);
    for (int64_t i = 0; i < length; ++i) {
      // Java's Math.round rounds half up; the distances are never negative, where llround
      // (half away from zero) agrees with it.
      const double distance = static_cast<double>(first_offset + i * stride);
      out[i] = start_us + std::llround(distance * range_.ms_per_value) * 1000;
    }
    return timestamps;
  }

  RateRange range_;
  int64_t max_rows_;
  int32_t partition_ = 0;
  int64_t next_index_ = 0;
  std::shared_ptr<arrow::Buffer> constant_timestamps_;
};

}  // namespace

std::shared_ptr<arrow::Schema> RateSchema() {
  static const auto schema = arrow::schema({arrow::field("timestamp", types::TimestampLtzType()),
                                            arrow::field("value", arrow::int64())});
  return schema;
}

int64_t RateValueAtSecond(int64_t seconds, int64_t rows_per_second, int64_t ramp_up_seconds) {
  // E.g. ramp_up_seconds = 4, rows_per_second = 10: the speed grows by 2 rows each second,
  //   seconds   = 0 1 2  3  4  5  6
  //   speed     = 0 2 4  6  8 10 10
  //   end value = 0 2 6 12 20 30 40
  const int64_t ramp_divisor = WrapAdd(ramp_up_seconds, 1);
  const int64_t speed_delta = ramp_divisor == 0 ? 0 : rows_per_second / ramp_divisor;
  if (seconds <= ramp_up_seconds) {
    // speed_delta * seconds * (seconds + 1) / 2, halving the even factor first so that the
    // product stays in range as long as the final value does.
    if (seconds % 2 == 1) {
      return WrapMultiply(WrapMultiply((seconds + 1) / 2, speed_delta), seconds);
    }
    return WrapMultiply(WrapMultiply(seconds / 2, speed_delta), WrapAdd(seconds, 1));
  }
  const int64_t ramp_up_part =
      RateValueAtSecond(ramp_up_seconds, rows_per_second, ramp_up_seconds);
  return WrapAdd(ramp_up_part, WrapMultiply(seconds - ramp_up_seconds, rows_per_second));
}

std::shared_ptr<arrow::RecordBatchReader> MakeRateReader(const RateRange& range,
                                                         int64_t max_rows) {
  return std::make_shared<RateReader>(range, std::max<int64_t>(max_rows, 1));
}

}  // namespace sluice::sources
