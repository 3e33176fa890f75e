// A row of a record batch as a ForeachWriter sees it: typed getters by position or name over
// the batch's columns, in the spirit of Spark's Row, without copying the row.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <arrow/record_batch.h>
#include <arrow/result.h>

namespace sluice::sinks {

/// A read-only view of row `index` of a record batch. Holds pointers into the batch, which
/// must outlive it; Process() receives one valid for the call only. Cheap to make (no
/// allocation); getters read the column buffers directly.
///
/// Getters fail, rather than guess, when the value is null (ROW_VALUE_IS_NULL; test IsNullAt
/// first) or the column has another type (a TypeError naming the column and its type). As a
/// convenience they widen: GetLong reads any integer column, GetDouble a FLOAT one too.
class Row {
 public:
  Row(const arrow::RecordBatch& batch, int64_t index)
      : batch_(&batch), columns_(&batch.column_data()), index_(index) {}

  int num_fields() const { return batch_->num_columns(); }
  const arrow::Schema& schema() const { return *batch_->schema(); }
  /// The row's position in its batch.
  int64_t index() const { return index_; }

  /// The position of the column named exactly `name`; FIELD_NOT_FOUND listing the columns
  /// otherwise.
  arrow::Result<int> FieldIndex(std::string_view name) const;

  /// Whether column i (0 <= i < num_fields()) holds null in this row.
  bool IsNullAt(int i) const;
  /// BOOLEAN.
  arrow::Result<bool> GetBoolean(int i) const;
  /// INT, SMALLINT or TINYINT.
  arrow::Result<int32_t> GetInt(int i) const;
  /// BIGINT or any narrower integer.
  arrow::Result<int64_t> GetLong(int i) const;
  /// DOUBLE or FLOAT.
  arrow::Result<double> GetDouble(int i) const;
  /// STRING: a view into the batch, valid as long as the batch.
  arrow::Result<std::string_view> GetString(int i) const;
  /// TIMESTAMP or TIMESTAMP_NTZ: microseconds since the epoch.
  arrow::Result<int64_t> GetTimestampMicros(int i) const;
  /// DATE: days since the epoch.
  arrow::Result<int32_t> GetDateDays(int i) const;

  /// By column name; see FieldIndex.
  arrow::Result<bool> IsNullAt(std::string_view name) const;
  arrow::Result<bool> GetBoolean(std::string_view name) const;
  arrow::Result<int32_t> GetInt(std::string_view name) const;
  arrow::Result<int64_t> GetLong(std::string_view name) const;
  arrow::Result<double> GetDouble(std::string_view name) const;
  arrow::Result<std::string_view> GetString(std::string_view name) const;
  arrow::Result<int64_t> GetTimestampMicros(std::string_view name) const;
  arrow::Result<int32_t> GetDateDays(std::string_view name) const;

  /// Spark's Row.toString: "[v1,v2,...]", each value as CAST(value AS STRING) renders it
  /// (timestamps in UTC), nulls as "null". Allocates; meant for logs and tests.
  std::string ToString() const;

 private:
  const arrow::ArrayData& column(int i) const { return *(*columns_)[i]; }
  // Checks that column i holds a non-null value of a type `accepts` allows.
  template <typename Accepts>
  arrow::Status CheckReadable(int i, std::string_view wanted, Accepts accepts) const;

  const arrow::RecordBatch* batch_;
  const arrow::ArrayDataVector* columns_;
  int64_t index_;
};

}  // namespace sluice::sinks
