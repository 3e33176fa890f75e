#include "sluice/sources/kafka/kafka_record_columns.h"

#include <arrow/memory_pool.h>
#include <arrow/type.h>

#include "sluice/types/spark_types.h"

namespace sluice::sources::kafka {

namespace {

std::shared_ptr<arrow::DataType> HeaderType() {
  return arrow::struct_(
      {arrow::field("key", arrow::utf8()), arrow::field("value", arrow::binary())});
}

std::shared_ptr<arrow::DataType> HeadersType() {
  return types::MakeArrayType(HeaderType(), /*contains_null=*/true);
}

}  // namespace

std::shared_ptr<arrow::Schema> KafkaSchema(bool include_headers) {
  arrow::FieldVector fields = {
      arrow::field("key", arrow::binary()),
      arrow::field("value", arrow::binary()),
      arrow::field("topic", arrow::utf8()),
      arrow::field("partition", arrow::int32()),
      arrow::field("offset", arrow::int64()),
      arrow::field("timestamp", types::TimestampLtzType()),
      arrow::field("timestampType", arrow::int32()),
  };
  if (include_headers) fields.push_back(arrow::field("headers", HeadersType()));
  return arrow::schema(std::move(fields));
}

KafkaRecordColumns::KafkaRecordColumns(bool include_headers)
    : include_headers_(include_headers), schema_(KafkaSchema(include_headers)) {
  auto* pool = arrow::default_memory_pool();
  timestamp_ = std::make_unique<arrow::TimestampBuilder>(types::TimestampLtzType(), pool);
  if (include_headers_) {
    auto header_struct = std::make_shared<arrow::StructBuilder>(
        HeaderType(), pool,
        std::vector<std::shared_ptr<arrow::ArrayBuilder>>{
            std::make_shared<arrow::StringBuilder>(pool),
            std::make_shared<arrow::BinaryBuilder>(pool)});
    header_struct_ = header_struct.get();
    header_key_ = static_cast<arrow::StringBuilder*>(header_struct->field_builder(0));
    header_value_ = static_cast<arrow::BinaryBuilder*>(header_struct->field_builder(1));
    headers_ = std::make_unique<arrow::ListBuilder>(pool, header_struct, HeadersType());
  }
}

arrow::Status KafkaRecordColumns::Append(const rd_kafka_message_t& message) {
  if (message.key == nullptr) {
    ARROW_RETURN_NOT_OK(key_.AppendNull());
  } else {
    ARROW_RETURN_NOT_OK(key_.Append(static_cast<const uint8_t*>(message.key),
                                    static_cast<int32_t>(message.key_len)));
  }
  if (message.payload == nullptr) {
    ARROW_RETURN_NOT_OK(value_.AppendNull());
  } else {
    ARROW_RETURN_NOT_OK(value_.Append(static_cast<const uint8_t*>(message.payload),
                                      static_cast<int32_t>(message.len)));
  }
  ARROW_RETURN_NOT_OK(topic_.Append(rd_kafka_topic_name(message.rkt)));
  ARROW_RETURN_NOT_OK(partition_.Append(message.partition));
  ARROW_RETURN_NOT_OK(offset_.Append(message.offset));
  rd_kafka_timestamp_type_t type = RD_KAFKA_TIMESTAMP_NOT_AVAILABLE;
  const int64_t timestamp_ms = rd_kafka_message_timestamp(&message, &type);
  // Kafka's TimestampType ids: NO_TIMESTAMP_TYPE -1, CREATE_TIME 0, LOG_APPEND_TIME 1.
  int32_t type_id = -1;
  if (type == RD_KAFKA_TIMESTAMP_CREATE_TIME) type_id = 0;
  if (type == RD_KAFKA_TIMESTAMP_LOG_APPEND_TIME) type_id = 1;
  ARROW_RETURN_NOT_OK(timestamp_->Append(timestamp_ms * 1000));
  ARROW_RETURN_NOT_OK(timestamp_type_.Append(type_id));
  if (include_headers_) {
    rd_kafka_headers_t* headers = nullptr;
    // rd_kafka_message_headers parses the headers of a const message lazily.
    auto* mutable_message = const_cast<rd_kafka_message_t*>(&message);
    if (rd_kafka_message_headers(mutable_message, &headers) != RD_KAFKA_RESP_ERR_NO_ERROR ||
        headers == nullptr || rd_kafka_header_cnt(headers) == 0) {
      ARROW_RETURN_NOT_OK(headers_->AppendNull());
    } else {
      ARROW_RETURN_NOT_OK(headers_->Append());
      const char* name = nullptr;
      const void* value = nullptr;
      size_t size = 0;
      for (size_t i = 0; rd_kafka_header_get_all(headers, i, &name, &value, &size) ==
                         RD_KAFKA_RESP_ERR_NO_ERROR;
           ++i) {
        ARROW_RETURN_NOT_OK(header_struct_->Append());
        ARROW_RETURN_NOT_OK(header_key_->Append(name));
        if (value == nullptr) {
          ARROW_RETURN_NOT_OK(header_value_->AppendNull());
        } else {
          ARROW_RETURN_NOT_OK(header_value_->Append(static_cast<const uint8_t*>(value),
                                                    static_cast<int32_t>(size)));
        }
      }
    }
  }
  ++num_rows_;
  return arrow::Status::OK();
}

arrow::Result<std::shared_ptr<arrow::RecordBatch>> KafkaRecordColumns::Finish() {
  arrow::ArrayVector columns(schema_->num_fields());
  ARROW_RETURN_NOT_OK(key_.Finish(&columns[0]));
  ARROW_RETURN_NOT_OK(value_.Finish(&columns[1]));
  ARROW_RETURN_NOT_OK(topic_.Finish(&columns[2]));
  ARROW_RETURN_NOT_OK(partition_.Finish(&columns[3]));
  ARROW_RETURN_NOT_OK(offset_.Finish(&columns[4]));
  ARROW_RETURN_NOT_OK(timestamp_->Finish(&columns[5]));
  ARROW_RETURN_NOT_OK(timestamp_type_.Finish(&columns[6]));
  if (include_headers_) ARROW_RETURN_NOT_OK(headers_->Finish(&columns[7]));
  const int64_t rows = num_rows_;
  num_rows_ = 0;
  return arrow::RecordBatch::Make(schema_, rows, std::move(columns));
}

}  // namespace sluice::sources::kafka
