// Statistics of a column over the rows written to one file: the null count, and the minimum
// and maximum for the types whose order readers use to skip files (numbers, decimals, dates,
// timestamps, strings). Table formats (Delta's add.stats) record them per data file.
#pragma once

#include <cstdint>
#include <memory>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

namespace sluice::formats {

/// Folds batches of one column into its statistics. Not thread-safe.
class ColumnStatistics {
 public:
  explicit ColumnStatistics(std::shared_ptr<arrow::DataType> type);

  /// Folds in `values` (of the type given at construction).
  arrow::Status Update(const arrow::Array& values);

  int64_t null_count() const { return null_count_; }
  /// The smallest and largest non-null values; null when the column had none, when its type
  /// has no kept order (booleans, binary, nested types) or when a floating-point column held a
  /// NaN (whose place in the order readers disagree on).
  const std::shared_ptr<arrow::Scalar>& min() const { return min_; }
  const std::shared_ptr<arrow::Scalar>& max() const { return max_; }

 private:
  std::shared_ptr<arrow::DataType> type_;
  bool keeps_order_ = false;
  bool saw_nan_ = false;
  int64_t null_count_ = 0;
  std::shared_ptr<arrow::Scalar> min_;
  std::shared_ptr<arrow::Scalar> max_;
};

}  // namespace sluice::formats
