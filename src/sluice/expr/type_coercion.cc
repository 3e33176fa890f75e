#include "sluice/expr/type_coercion.h"

#include <algorithm>

#include <arrow/scalar.h>
#include <arrow/type.h>
#include <arrow/util/string.h>

#include "sluice/types/interval_types.h"
#include "sluice/types/spark_types.h"

namespace sluice::expr {

namespace {

// Position in Spark's numeric precedence; -1 for non-numeric types.
int NumericRank(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::INT8: return 1;
    case arrow::Type::INT16: return 2;
    case arrow::Type::INT32: return 3;
    case arrow::Type::INT64: return 4;
    case arrow::Type::DECIMAL128: return 5;
    case arrow::Type::FLOAT: return 6;
    case arrow::Type::DOUBLE: return 7;
    default: return -1;
  }
}

bool IsAtomic(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::LIST:
    case arrow::Type::STRUCT:
    case arrow::Type::MAP:
      return false;
    default:
      return true;
  }
}

std::shared_ptr<arrow::DataType> WiderDecimal(const arrow::Decimal128Type& a,
                                              const arrow::Decimal128Type& b) {
  const int32_t scale = std::max(a.scale(), b.scale());
  const int32_t integral = std::max(a.precision() - a.scale(), b.precision() - b.scale());
  return BoundedDecimal(integral + scale, scale);
}

// Spark's Cast.forceNullable for the casts widening can insert: whether casting a non-null
// `from` value to `to` may give null, which makes a widened element, value or field nullable.
bool ForcesNullable(const arrow::DataType& from, const arrow::DataType& to) {
  if (from.Equals(to) || from.id() == arrow::Type::NA) return false;
  if (from.id() == arrow::Type::STRING) {
    return to.id() != arrow::Type::BINARY && to.id() != arrow::Type::STRING;
  }
  const bool fractional = from.id() == arrow::Type::FLOAT || from.id() == arrow::Type::DOUBLE;
  if (fractional) {
    return arrow::is_integer(to.id()) || to.id() == arrow::Type::DECIMAL128 ||
           to.id() == arrow::Type::TIMESTAMP;
  }
  return false;
}

}  // namespace

std::shared_ptr<arrow::DataType> BoundedDecimal(int32_t precision, int32_t scale) {
  constexpr int32_t kMaxPrecision = 38;
  constexpr int32_t kMinimumAdjustedScale = 6;
  if (precision <= kMaxPrecision) return arrow::decimal128(precision, scale);
  const int32_t integral = precision - scale;
  const int32_t min_scale = std::min(scale, kMinimumAdjustedScale);
  const int32_t adjusted_scale = std::max(kMaxPrecision - integral, min_scale);
  return arrow::decimal128(kMaxPrecision, adjusted_scale);
}

std::shared_ptr<arrow::DataType> DecimalForIntegral(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::INT8: return arrow::decimal128(3, 0);
    case arrow::Type::INT16: return arrow::decimal128(5, 0);
    case arrow::Type::INT32: return arrow::decimal128(10, 0);
    case arrow::Type::INT64: return arrow::decimal128(20, 0);
    case arrow::Type::DECIMAL128:
      return arrow::decimal128(static_cast<const arrow::Decimal128Type&>(type).precision(),
                               static_cast<const arrow::Decimal128Type&>(type).scale());
    default: return nullptr;
  }
}

std::shared_ptr<arrow::DataType> DecimalForIntegralLiteral(const arrow::Scalar& value) {
  if (!value.is_valid) return nullptr;
  int64_t number = 0;
  switch (value.type->id()) {
    case arrow::Type::INT16: number = static_cast<const arrow::Int16Scalar&>(value).value; break;
    case arrow::Type::INT32: number = static_cast<const arrow::Int32Scalar&>(value).value; break;
    case arrow::Type::INT64: number = static_cast<const arrow::Int64Scalar&>(value).value; break;
    default: return DecimalForIntegral(*value.type);
  }
  // Digits of |number|, counted on the unsigned magnitude so INT64_MIN has its 19.
  uint64_t magnitude = number < 0 ? 0 - static_cast<uint64_t>(number)
                                  : static_cast<uint64_t>(number);
  int32_t digits = 1;
  while (magnitude >= 10) {
    magnitude /= 10;
    ++digits;
  }
  return arrow::decimal128(digits, 0);
}

std::shared_ptr<arrow::DataType> CommonType(const std::shared_ptr<arrow::DataType>& left,
                                            const std::shared_ptr<arrow::DataType>& right) {
  // Intervals of one family meet at the fields spanning both (Arrow sees one storage type).
  if (types::IsDayTimeInterval(*left) && types::IsDayTimeInterval(*right)) {
    return types::DayTimeInterval(
        types::Union(types::DayTimeFieldsOf(*left), types::DayTimeFieldsOf(*right)));
  }
  if (types::IsYearMonthInterval(*left) && types::IsYearMonthInterval(*right)) {
    return types::YearMonthInterval(
        types::Union(types::YearMonthFieldsOf(*left), types::YearMonthFieldsOf(*right)));
  }
  if (left->Equals(*right)) return left;
  if (left->id() == arrow::Type::NA) return right;
  if (right->id() == arrow::Type::NA) return left;
  const int left_rank = NumericRank(*left);
  const int right_rank = NumericRank(*right);
  if (left_rank > 0 && right_rank > 0) {
    if (left->id() == arrow::Type::DECIMAL128 || right->id() == arrow::Type::DECIMAL128) {
      if (left_rank > 5 || right_rank > 5) return arrow::float64();
      return WiderDecimal(static_cast<const arrow::Decimal128Type&>(*DecimalForIntegral(*left)),
                          static_cast<const arrow::Decimal128Type&>(*DecimalForIntegral(*right)));
    }
    return left_rank >= right_rank ? left : right;
  }
  const bool left_time = left->id() == arrow::Type::DATE32 || left->id() == arrow::Type::TIMESTAMP;
  const bool right_time =
      right->id() == arrow::Type::DATE32 || right->id() == arrow::Type::TIMESTAMP;
  if (left_time && right_time) {
    if (left->id() == arrow::Type::TIMESTAMP && right->id() == arrow::Type::TIMESTAMP) {
      // timestamp_ntz meets timestamp at timestamp (with the session zone).
      return arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
    }
    return left->id() == arrow::Type::TIMESTAMP ? left : right;
  }
  if (left->id() == arrow::Type::STRING && IsAtomic(*right) &&
      right->id() != arrow::Type::BINARY) {
    // ANSI: an integral meeting a string widens to bigint, as Spark's string promotion does.
    return NumericRank(*right) > 0 && NumericRank(*right) < 4 ? arrow::int64() : right;
  }
  if (right->id() == arrow::Type::STRING && IsAtomic(*left) && left->id() != arrow::Type::BINARY) {
    return NumericRank(*left) > 0 && NumericRank(*left) < 4 ? arrow::int64() : left;
  }
  if (left->id() == arrow::Type::LIST && right->id() == arrow::Type::LIST) {
    const auto& a = *left->field(0);
    const auto& b = *right->field(0);
    auto element = CommonType(a.type(), b.type());
    if (element == nullptr) return nullptr;
    return types::MakeArrayType(element, a.nullable() || b.nullable() ||
                                             ForcesNullable(*a.type(), *element) ||
                                             ForcesNullable(*b.type(), *element));
  }
  if (left->id() == arrow::Type::MAP && right->id() == arrow::Type::MAP) {
    const auto& a = static_cast<const arrow::MapType&>(*left);
    const auto& b = static_cast<const arrow::MapType&>(*right);
    auto key = CommonType(a.key_type(), b.key_type());
    if (key == nullptr || ForcesNullable(*a.key_type(), *key) ||
        ForcesNullable(*b.key_type(), *key)) {
      return nullptr;
    }
    auto value = CommonType(a.item_type(), b.item_type());
    if (value == nullptr) return nullptr;
    return types::MakeMapType(key, value, a.item_field()->nullable() ||
                                              b.item_field()->nullable() ||
                                              ForcesNullable(*a.item_type(), *value) ||
                                              ForcesNullable(*b.item_type(), *value));
  }
  if (left->id() == arrow::Type::STRUCT && right->id() == arrow::Type::STRUCT) {
    // Field by field, names matched case-insensitively; the left side names the result.
    if (left->num_fields() != right->num_fields()) return nullptr;
    arrow::FieldVector fields;
    for (int i = 0; i < left->num_fields(); ++i) {
      const auto& a = left->field(i);
      const auto& b = right->field(i);
      if (!arrow::internal::AsciiEqualsCaseInsensitive(a->name(), b->name())) return nullptr;
      auto type = CommonType(a->type(), b->type());
      if (type == nullptr) return nullptr;
      fields.push_back(arrow::field(a->name(), type,
                                    a->nullable() || b->nullable() ||
                                        ForcesNullable(*a->type(), *type) ||
                                        ForcesNullable(*b->type(), *type),
                                    a->metadata()));
    }
    return arrow::struct_(std::move(fields));
  }
  return nullptr;
}

std::shared_ptr<arrow::DataType> CommonType(
    const std::vector<std::shared_ptr<arrow::DataType>>& types) {
  if (types.empty()) return arrow::null();
  std::shared_ptr<arrow::DataType> common = types[0];
  for (size_t i = 1; i < types.size() && common; ++i) common = CommonType(common, types[i]);
  return common;
}

}  // namespace sluice::expr
