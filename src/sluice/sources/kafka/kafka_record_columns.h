// The columns of the Kafka source (Spark's KafkaRecordToRowConverter.kafkaSchema): key binary,
// value binary, topic string, partition int, offset long, timestamp timestamp, timestampType
// int, and with includeHeaders headers array<struct<key string, value binary>>.
#pragma once

#include <memory>

#include <arrow/builder.h>
#include <arrow/record_batch.h>
#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include <librdkafka/rdkafka.h>

namespace sluice::sources::kafka {

/// The source's schema; every column nullable, as Spark's.
std::shared_ptr<arrow::Schema> KafkaSchema(bool include_headers);

/// Collects consumed records into the source's columns. Not thread-safe.
class KafkaRecordColumns {
 public:
  explicit KafkaRecordColumns(bool include_headers);

  /// Appends one consumed record (a message without error). A null key or value stays null;
  /// a record without headers has null headers, as in Spark.
  arrow::Status Append(const rd_kafka_message_t& message);
  int64_t num_rows() const { return num_rows_; }
  /// The appended rows as one batch; the builders start over empty.
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Finish();

 private:
  bool include_headers_;
  std::shared_ptr<arrow::Schema> schema_;
  int64_t num_rows_ = 0;
  arrow::BinaryBuilder key_;
  arrow::BinaryBuilder value_;
  arrow::StringBuilder topic_;
  arrow::Int32Builder partition_;
  arrow::Int64Builder offset_;
  std::unique_ptr<arrow::TimestampBuilder> timestamp_;
  arrow::Int32Builder timestamp_type_;
  std::unique_ptr<arrow::ListBuilder> headers_;
  arrow::StructBuilder* header_struct_ = nullptr;
  arrow::StringBuilder* header_key_ = nullptr;
  arrow::BinaryBuilder* header_value_ = nullptr;
};

}  // namespace sluice::sources::kafka
