#include "sluice/types/spark_types.h"

#include <string>
#include <utility>
#include <vector>

#include <arrow/extension_type.h>
#include <arrow/type.h>
#include <arrow/util/checked_cast.h>
#include <arrow/util/key_value_metadata.h>

#include "sluice/common/errors.h"
#include "sluice/types/interval_types.h"

namespace sluice::types {

namespace {

using arrow::internal::checked_cast;

constexpr char kUtcZone[] = "UTC";

arrow::Status UnsupportedArrowType(const arrow::DataType& type, const std::string& path) {
  std::string message = "Unsupported arrow type " + type.ToString() +
                        ". Only types with a Spark SQL counterpart can be read; convert the "
                        "data to one of them (for example string, bigint or timestamp) first.";
  if (!path.empty()) message += " Column: " + QuoteIdentifier(path);
  return SparkError("UNSUPPORTED_ARROWTYPE", message);
}

std::string ChildPath(const std::string& path, std::string_view child) {
  if (path.empty()) return std::string(child);
  return path + "." + std::string(child);
}

arrow::Result<std::shared_ptr<arrow::DataType>> Normalize(
    const std::shared_ptr<arrow::DataType>& type, const std::string& path);

arrow::Result<std::shared_ptr<arrow::Field>> NormalizeField(
    const std::shared_ptr<arrow::Field>& field, const std::string& path) {
  ARROW_ASSIGN_OR_RAISE(auto type, Normalize(field->type(), path));
  if (type == field->type()) return field;
  return field->WithType(std::move(type));
}

arrow::Result<std::shared_ptr<arrow::DataType>> NormalizeDecimal(
    const std::shared_ptr<arrow::DataType>& type, const std::string& path) {
  const auto& decimal = checked_cast<const arrow::DecimalType&>(*type);
  if (decimal.precision() > kMaxDecimalPrecision || decimal.scale() < 0 ||
      decimal.scale() > decimal.precision()) {
    return UnsupportedArrowType(*type, path);
  }
  if (type->id() == arrow::Type::DECIMAL128) return type;
  return arrow::decimal128(decimal.precision(), decimal.scale());
}

arrow::Result<std::shared_ptr<arrow::DataType>> Normalize(
    const std::shared_ptr<arrow::DataType>& type, const std::string& path) {
  if (IsSparkArrowType(*type)) return type;
  switch (type->id()) {
    case arrow::Type::NA:
    case arrow::Type::BOOL:
    case arrow::Type::INT8:
    case arrow::Type::INT16:
    case arrow::Type::INT32:
    case arrow::Type::INT64:
    case arrow::Type::FLOAT:
    case arrow::Type::DOUBLE:
    case arrow::Type::STRING:
    case arrow::Type::BINARY:
    case arrow::Type::DATE32:
      return type;
    case arrow::Type::UINT8:
      return arrow::int16();
    case arrow::Type::UINT16:
      return arrow::int32();
    case arrow::Type::UINT32:
      return arrow::int64();
    case arrow::Type::UINT64:
      // Spark reads unsigned 64-bit Parquet columns as decimal(20,0).
      return arrow::decimal128(20, 0);
    case arrow::Type::HALF_FLOAT:
      return arrow::float32();
    case arrow::Type::LARGE_STRING:
    case arrow::Type::STRING_VIEW:
      return arrow::utf8();
    case arrow::Type::LARGE_BINARY:
    case arrow::Type::BINARY_VIEW:
    case arrow::Type::FIXED_SIZE_BINARY:
      return arrow::binary();
    case arrow::Type::DATE64:
      return arrow::date32();
    case arrow::Type::TIMESTAMP: {
      const auto& timestamp = checked_cast<const arrow::TimestampType&>(*type);
      return timestamp.timezone().empty() ? TimestampNtzType() : TimestampLtzType();
    }
    case arrow::Type::DECIMAL32:
    case arrow::Type::DECIMAL64:
    case arrow::Type::DECIMAL128:
    case arrow::Type::DECIMAL256:
      return NormalizeDecimal(type, path);
    case arrow::Type::MAP: {
      const auto& map = checked_cast<const arrow::MapType&>(*type);
      ARROW_ASSIGN_OR_RAISE(auto key, Normalize(map.key_type(), ChildPath(path, "key")));
      ARROW_ASSIGN_OR_RAISE(auto value, Normalize(map.item_type(), ChildPath(path, "value")));
      return MakeMapType(std::move(key), std::move(value), map.item_field()->nullable());
    }
    case arrow::Type::LIST:
    case arrow::Type::LARGE_LIST:
    case arrow::Type::LIST_VIEW:
    case arrow::Type::LARGE_LIST_VIEW:
    case arrow::Type::FIXED_SIZE_LIST: {
      const auto& list = checked_cast<const arrow::BaseListType&>(*type);
      ARROW_ASSIGN_OR_RAISE(auto element,
                            Normalize(list.value_type(), ChildPath(path, "element")));
      return MakeArrayType(std::move(element), list.value_field()->nullable());
    }
    case arrow::Type::STRUCT: {
      std::vector<std::shared_ptr<arrow::Field>> fields;
      fields.reserve(type->num_fields());
      bool changed = false;
      for (const auto& field : type->fields()) {
        ARROW_ASSIGN_OR_RAISE(auto normalized,
                              NormalizeField(field, ChildPath(path, field->name())));
        changed = changed || normalized != field;
        fields.push_back(std::move(normalized));
      }
      if (!changed) return type;
      return arrow::struct_(std::move(fields));
    }
    case arrow::Type::DICTIONARY:
      return Normalize(checked_cast<const arrow::DictionaryType&>(*type).value_type(), path);
    case arrow::Type::RUN_END_ENCODED:
      return Normalize(checked_cast<const arrow::RunEndEncodedType&>(*type).value_type(),
                       path);
    case arrow::Type::EXTENSION:
      return Normalize(checked_cast<const arrow::ExtensionType&>(*type).storage_type(), path);
    default:
      return UnsupportedArrowType(*type, path);
  }
}

bool IsSparkField(const arrow::Field& field) { return IsSparkArrowType(*field.type()); }

}  // namespace

std::shared_ptr<arrow::DataType> TimestampLtzType() {
  static const std::shared_ptr<arrow::DataType> kType =
      arrow::timestamp(arrow::TimeUnit::MICRO, kUtcZone);
  return kType;
}

std::shared_ptr<arrow::DataType> TimestampNtzType() {
  static const std::shared_ptr<arrow::DataType> kType = arrow::timestamp(arrow::TimeUnit::MICRO);
  return kType;
}

arrow::Result<std::shared_ptr<arrow::DataType>> MakeDecimalType(int32_t precision, int32_t scale) {
  if (scale < 0) {
    return SparkError("NEGATIVE_SCALE_DISALLOWED",
                      "Negative scale is not allowed: '" + std::to_string(scale) +
                          "'. Use a scale between 0 and the precision.");
  }
  if (scale > precision) {
    return SparkError("_LEGACY_ERROR_TEMP_1228", "Decimal scale (" + std::to_string(scale) +
                                                     ") cannot be greater than precision (" +
                                                     std::to_string(precision) + ").");
  }
  if (precision > kMaxDecimalPrecision) {
    return SparkError("DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION",
                      "Decimal precision " + std::to_string(precision) +
                          " exceeds max precision " + std::to_string(kMaxDecimalPrecision) + ".");
  }
  if (precision < 1) {
    // Arrow has no decimal of precision 0 (Spark accepts decimal(0,0) but cannot store a digit).
    return SparkError("UNSUPPORTED_DATATYPE",
                      "Unsupported data type \"DECIMAL(0,0)\". Use a precision of at least 1.");
  }
  return arrow::decimal128(precision, scale);
}

std::shared_ptr<arrow::DataType> MakeArrayType(std::shared_ptr<arrow::DataType> element,
                                               bool contains_null) {
  return arrow::list(
      arrow::field(std::string(kArrayElementFieldName), std::move(element), contains_null));
}

std::shared_ptr<arrow::DataType> MakeMapType(std::shared_ptr<arrow::DataType> key,
                                             std::shared_ptr<arrow::DataType> value,
                                             bool value_contains_null) {
  return std::make_shared<arrow::MapType>(arrow::field("key", std::move(key), false),
                                          arrow::field("value", std::move(value),
                                                       value_contains_null));
}

std::optional<std::string> FieldComment(const arrow::Field& field) {
  if (field.metadata() == nullptr) return std::nullopt;
  auto comment = field.metadata()->Get(kCommentMetadataKey);
  if (!comment.ok()) return std::nullopt;
  return *std::move(comment);
}

std::optional<std::string> FieldCurrentDefault(const arrow::Field& field) {
  if (field.metadata() == nullptr) return std::nullopt;
  auto value = field.metadata()->Get(kCurrentDefaultMetadataKey);
  if (!value.ok()) return std::nullopt;
  return *std::move(value);
}

bool IsSparkArrowType(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::NA:
    case arrow::Type::BOOL:
    case arrow::Type::INT8:
    case arrow::Type::INT16:
    case arrow::Type::INT32:
    case arrow::Type::INT64:
    case arrow::Type::FLOAT:
    case arrow::Type::DOUBLE:
    case arrow::Type::STRING:
    case arrow::Type::BINARY:
    case arrow::Type::DATE32:
    case arrow::Type::INTERVAL_MONTHS:
      return true;
    case arrow::Type::DURATION:
      return IsDayTimeInterval(type);
    case arrow::Type::DECIMAL128: {
      const auto& decimal = checked_cast<const arrow::DecimalType&>(type);
      return decimal.scale() >= 0 && decimal.scale() <= decimal.precision();
    }
    case arrow::Type::TIMESTAMP: {
      const auto& timestamp = checked_cast<const arrow::TimestampType&>(type);
      return timestamp.unit() == arrow::TimeUnit::MICRO &&
             (timestamp.timezone().empty() || timestamp.timezone() == kUtcZone);
    }
    case arrow::Type::LIST: {
      const auto& list = checked_cast<const arrow::ListType&>(type);
      return list.value_field()->name() == kArrayElementFieldName && IsSparkField(*list.value_field());
    }
    case arrow::Type::MAP: {
      const auto& map = checked_cast<const arrow::MapType&>(type);
      return !map.key_field()->nullable() && IsSparkField(*map.key_field()) &&
             IsSparkField(*map.item_field());
    }
    case arrow::Type::STRUCT:
      for (const auto& field : type.fields()) {
        if (!IsSparkField(*field)) return false;
      }
      return true;
    default:
      return false;
  }
}

arrow::Result<std::shared_ptr<arrow::DataType>> ToSparkArrowType(
    const std::shared_ptr<arrow::DataType>& type) {
  if (type == nullptr) return arrow::Status::Invalid("ToSparkArrowType: type is null");
  return Normalize(type, "");
}

arrow::Result<std::shared_ptr<arrow::Schema>> ToSparkArrowSchema(const arrow::Schema& schema) {
  std::vector<std::shared_ptr<arrow::Field>> fields;
  fields.reserve(schema.num_fields());
  for (const auto& field : schema.fields()) {
    ARROW_ASSIGN_OR_RAISE(auto normalized, NormalizeField(field, field->name()));
    fields.push_back(std::move(normalized));
  }
  return arrow::schema(std::move(fields), schema.metadata());
}

bool IsIntegral(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::INT8:
    case arrow::Type::INT16:
    case arrow::Type::INT32:
    case arrow::Type::INT64:
      return true;
    default:
      return false;
  }
}

bool IsFloatingPoint(const arrow::DataType& type) {
  return type.id() == arrow::Type::FLOAT || type.id() == arrow::Type::DOUBLE;
}

bool IsDecimal(const arrow::DataType& type) { return type.id() == arrow::Type::DECIMAL128; }

bool IsFractional(const arrow::DataType& type) {
  return IsFloatingPoint(type) || IsDecimal(type);
}

bool IsNumeric(const arrow::DataType& type) { return IsIntegral(type) || IsFractional(type); }

bool IsString(const arrow::DataType& type) { return type.id() == arrow::Type::STRING; }

bool IsBinary(const arrow::DataType& type) { return type.id() == arrow::Type::BINARY; }

bool IsBoolean(const arrow::DataType& type) { return type.id() == arrow::Type::BOOL; }

bool IsDate(const arrow::DataType& type) { return type.id() == arrow::Type::DATE32; }

bool IsTimestamp(const arrow::DataType& type) {
  return type.id() == arrow::Type::TIMESTAMP &&
         !checked_cast<const arrow::TimestampType&>(type).timezone().empty();
}

bool IsTimestampNtz(const arrow::DataType& type) {
  return type.id() == arrow::Type::TIMESTAMP &&
         checked_cast<const arrow::TimestampType&>(type).timezone().empty();
}

bool IsDatetime(const arrow::DataType& type) {
  return IsDate(type) || type.id() == arrow::Type::TIMESTAMP;
}

bool IsVoid(const arrow::DataType& type) { return type.id() == arrow::Type::NA; }

bool IsArray(const arrow::DataType& type) { return type.id() == arrow::Type::LIST; }

bool IsMap(const arrow::DataType& type) { return type.id() == arrow::Type::MAP; }

bool IsStruct(const arrow::DataType& type) { return type.id() == arrow::Type::STRUCT; }

bool IsComplex(const arrow::DataType& type) {
  return IsArray(type) || IsMap(type) || IsStruct(type);
}

}  // namespace sluice::types
