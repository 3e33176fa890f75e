// Which columns of a query's rows make the parts of a Kafka record (Spark's KafkaWriter): the
// topic (option or column), key, value, headers and partition.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/array.h>
#include <arrow/record_batch.h>
#include <arrow/result.h>
#include <arrow/type_fwd.h>

namespace sluice::sinks {

/// One header of a record: a key (never null) and a value that may be null.
struct KafkaHeaderView {
  std::string_view key;
  std::optional<std::string_view> value;
};

/// Read access to the records held by one record batch. Shares the batch's columns; the string
/// views it returns are valid while the view lives.
class KafkaRecordBatchView {
 public:
  int64_t num_rows() const { return num_rows_; }
  /// The topic of row `row`: the `topic` option, else the topic column (nullopt when null).
  std::optional<std::string_view> topic(int64_t row) const;
  /// The key bytes (a string column's UTF-8 bytes), nullopt when null or without a key column.
  std::optional<std::string_view> key(int64_t row) const { return Bytes(key_, row); }
  /// The value bytes, nullopt when null (a tombstone).
  std::optional<std::string_view> value(int64_t row) const { return Bytes(value_, row); }
  /// The partition column's value, nullopt when null or without a partition column (the
  /// producer's partitioner then chooses).
  std::optional<int32_t> partition(int64_t row) const;
  /// How many headers row `row` has (0 when null or without a headers column).
  int64_t num_headers(int64_t row) const;
  /// Header `index` of row `row`; fails naming the row when its key is null, as a Kafka header
  /// needs a key.
  arrow::Result<KafkaHeaderView> header(int64_t row, int64_t index) const;

 private:
  friend class KafkaWriteColumns;
  static std::optional<std::string_view> Bytes(const arrow::BinaryArray* array, int64_t row);

  int64_t num_rows_ = 0;
  /// Keeps the columns the raw pointers below point into.
  std::vector<std::shared_ptr<arrow::Array>> holders_;
  const std::string* topic_option_ = nullptr;
  const arrow::StringArray* topic_ = nullptr;
  const arrow::BinaryArray* key_ = nullptr;
  const arrow::BinaryArray* value_ = nullptr;
  const arrow::ListArray* headers_ = nullptr;
  const arrow::StringArray* header_keys_ = nullptr;
  const arrow::BinaryArray* header_values_ = nullptr;
  const arrow::Int32Array* partition_ = nullptr;
};

/// The positions of the record parts in one schema, checked once as Spark's
/// KafkaWriter.validateQuery does. Immutable.
class KafkaWriteColumns {
 public:
  /// Checks `schema` against the columns Spark's Kafka sink reads (names matched exactly):
  /// `topic` string unless `topic_option` is given, `value` string or binary (required), `key`
  /// string or binary, `headers` array<struct<key:string,value:binary>>, `partition` int.
  /// Fails with _LEGACY_ERROR_TEMP_3080 and Spark's message naming the column. Other columns
  /// are ignored.
  static arrow::Result<KafkaWriteColumns> Make(const arrow::Schema& schema,
                                                std::optional<std::string> topic_option);

  /// Views over `batch`, which must have the schema given to Make. This object must outlive
  /// the view.
  KafkaRecordBatchView Bind(const arrow::RecordBatch& batch) const;

  const std::optional<std::string>& topic_option() const { return topic_option_; }

 private:
  std::optional<std::string> topic_option_;
  int topic_ = -1;
  int key_ = -1;
  int value_ = -1;
  int headers_ = -1;
  int partition_ = -1;
};

}  // namespace sluice::sinks
