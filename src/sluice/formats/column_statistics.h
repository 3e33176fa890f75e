// Statistics of a column over the rows written to one file: the null count, and the minimum
// and maximum for the types whose order readers use to skip files (numbers, decimals, dates,
// timestamps, strings). Table formats (Delta's add.stats) record them per data file. The
// bounds come from the file format's own statistics (Parquet computes them for its footer
// anyway); what is counted here is only what those do not tell.
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

  /// Folds in `values` (of the type given at construction): its nulls, and whether a
  /// floating-point column holds a NaN.
  arrow::Status Update(const arrow::Array& values);

  /// Sets the smallest and largest non-null values (scalars of the column's type), as the
  /// file format recorded them; ignored for types without a kept order and for a
  /// floating-point column that held a NaN (whose place in the order readers disagree on, and
  /// which Parquet's bounds leave out).
  void SetBounds(std::shared_ptr<arrow::Scalar> min, std::shared_ptr<arrow::Scalar> max);

  const std::shared_ptr<arrow::DataType>& type() const { return type_; }
  int64_t null_count() const { return null_count_; }
  /// The bounds SetBounds was given, or null.
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
