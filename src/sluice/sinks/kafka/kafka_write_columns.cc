#include "sluice/sinks/kafka/kafka_write_columns.h"

#include <functional>
#include <vector>

#include <arrow/type.h>

#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"
#include "sluice/types/spark_type_names.h"

namespace sluice::sinks {

namespace {

// Spark's KafkaWriter throws IllegalStateException and validateQuery wraps it in this class.
arrow::Status InvalidQuery(const std::string& message) {
  return SparkError("_LEGACY_ERROR_TEMP_3080", message);
}

bool IsHeadersType(const arrow::DataType& type) {
  if (type.id() != arrow::Type::LIST) return false;
  const auto& element = *static_cast<const arrow::ListType&>(type).value_type();
  if (element.id() != arrow::Type::STRUCT || element.num_fields() != 2) return false;
  // Spark's DataTypeUtils.sameType under the default case-insensitive analysis: names
  // compared ignoring case, nullability ignored.
  return AsciiEqualsIgnoreCase(element.field(0)->name(), "key") &&
         element.field(0)->type()->id() == arrow::Type::STRING &&
         AsciiEqualsIgnoreCase(element.field(1)->name(), "value") &&
         element.field(1)->type()->id() == arrow::Type::BINARY;
}

/// Spark's KafkaWriter.expression: the column named exactly `name`, of one of the accepted
/// types. -1 when there is no such column.
arrow::Result<int> FindColumn(const arrow::Schema& schema, const std::string& name,
                              const std::string& accepted_names,
                              const std::function<bool(const arrow::DataType&)>& accepts) {
  int index = -1;
  for (int i = 0; i < schema.num_fields(); ++i) {
    // The first column of that name, as Seq.find.
    if (schema.field(i)->name() == name) {
      index = i;
      break;
    }
  }
  if (index < 0) return -1;
  const auto& type = *schema.field(index)->type();
  if (!accepts(type)) {
    return InvalidQuery(name + " attribute unsupported type " + types::SimpleString(type) + ". " +
                        name + " must be a(n) " + accepted_names);
  }
  return index;
}

bool IsStringOrBinary(const arrow::DataType& type) {
  return type.id() == arrow::Type::STRING || type.id() == arrow::Type::BINARY;
}

}  // namespace

arrow::Result<KafkaWriteColumns> KafkaWriteColumns::Make(
    const arrow::Schema& schema, std::optional<std::string> topic_option) {
  KafkaWriteColumns columns;
  columns.topic_option_ = std::move(topic_option);
  // The order of Spark's checks: topic, key, value, headers, partition.
  if (!columns.topic_option_) {
    ARROW_ASSIGN_OR_RAISE(columns.topic_,
                          FindColumn(schema, "topic", "string", [](const arrow::DataType& t) {
                            return t.id() == arrow::Type::STRING;
                          }));
    if (columns.topic_ < 0) {
      return InvalidQuery(
          "topic option required when no 'topic' attribute is present. Use the topic option "
          "for setting a topic.");
    }
  }
  ARROW_ASSIGN_OR_RAISE(columns.key_,
                        FindColumn(schema, "key", "string or binary", IsStringOrBinary));
  ARROW_ASSIGN_OR_RAISE(columns.value_,
                        FindColumn(schema, "value", "string or binary", IsStringOrBinary));
  if (columns.value_ < 0) return InvalidQuery("Required attribute 'value' not found");
  ARROW_ASSIGN_OR_RAISE(columns.headers_,
                        FindColumn(schema, "headers", "array<struct<key:string,value:binary>>",
                                   IsHeadersType));
  ARROW_ASSIGN_OR_RAISE(columns.partition_,
                        FindColumn(schema, "partition", "int", [](const arrow::DataType& t) {
                          return t.id() == arrow::Type::INT32;
                        }));
  return columns;
}

KafkaRecordBatchView KafkaWriteColumns::Bind(const arrow::RecordBatch& batch) const {
  KafkaRecordBatchView view;
  view.num_rows_ = batch.num_rows();
  auto hold = [&](int index) {
    view.holders_.push_back(batch.column(index));
    return view.holders_.back().get();
  };
  if (topic_option_) {
    view.topic_option_ = &*topic_option_;
  } else {
    view.topic_ = static_cast<const arrow::StringArray*>(hold(topic_));
  }
  // StringArray is a BinaryArray: both give their bytes the same way.
  if (key_ >= 0) view.key_ = static_cast<const arrow::BinaryArray*>(hold(key_));
  view.value_ = static_cast<const arrow::BinaryArray*>(hold(value_));
  if (headers_ >= 0) {
    view.headers_ = static_cast<const arrow::ListArray*>(hold(headers_));
    const auto& entries = static_cast<const arrow::StructArray&>(*view.headers_->values());
    view.holders_.push_back(entries.field(0));
    view.header_keys_ = static_cast<const arrow::StringArray*>(view.holders_.back().get());
    view.holders_.push_back(entries.field(1));
    view.header_values_ = static_cast<const arrow::BinaryArray*>(view.holders_.back().get());
  }
  if (partition_ >= 0) view.partition_ = static_cast<const arrow::Int32Array*>(hold(partition_));
  return view;
}

std::optional<std::string_view> KafkaRecordBatchView::Bytes(const arrow::BinaryArray* array,
                                                            int64_t row) {
  if (array == nullptr || array->IsNull(row)) return std::nullopt;
  return array->GetView(row);
}

std::optional<std::string_view> KafkaRecordBatchView::topic(int64_t row) const {
  if (topic_option_ != nullptr) return std::string_view(*topic_option_);
  return Bytes(topic_, row);
}

std::optional<int32_t> KafkaRecordBatchView::partition(int64_t row) const {
  if (partition_ == nullptr || partition_->IsNull(row)) return std::nullopt;
  return partition_->Value(row);
}

int64_t KafkaRecordBatchView::num_headers(int64_t row) const {
  if (headers_ == nullptr || headers_->IsNull(row)) return 0;
  return headers_->value_length(row);
}

arrow::Result<KafkaHeaderView> KafkaRecordBatchView::header(int64_t row, int64_t index) const {
  // The struct array's own offset is applied by field(); the list offsets index into it.
  int64_t entry = headers_->value_offset(row) + index;
  const auto& entries = *headers_->values();
  if (entries.IsNull(entry) || header_keys_->IsNull(entry)) {
    return arrow::Status::Invalid("Null header present in the data (header ", index,
                                  " of a record): a Kafka header needs a non-null key.");
  }
  KafkaHeaderView header{header_keys_->GetView(entry), Bytes(header_values_, entry)};
  return header;
}

}  // namespace sluice::sinks
