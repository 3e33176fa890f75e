#include "sluice/types/spark_type_names.h"

#include <algorithm>
#include <string>

#include <arrow/extension_type.h>
#include <arrow/type.h>
#include <arrow/util/checked_cast.h>

#include "sluice/types/interval_types.h"

namespace sluice::types {

namespace {

using arrow::internal::checked_cast;

/// The Spark type an Arrow type stands for, following ToSparkArrowType's normalization.
enum class Kind {
  kVoid,
  kBoolean,
  kByte,
  kShort,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kDecimal,
  kString,
  kBinary,
  kDate,
  kTimestamp,
  kTimestampNtz,
  kArray,
  kMap,
  kStruct,
  kOther,
};

/// Strips encodings that do not change the logical type: dictionary, run-end, extension.
const arrow::DataType& Logical(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::DICTIONARY:
      return Logical(*checked_cast<const arrow::DictionaryType&>(type).value_type());
    case arrow::Type::RUN_END_ENCODED:
      return Logical(*checked_cast<const arrow::RunEndEncodedType&>(type).value_type());
    case arrow::Type::EXTENSION:
      return Logical(*checked_cast<const arrow::ExtensionType&>(type).storage_type());
    default:
      return type;
  }
}

bool IsSupportedDecimal(const arrow::DataType& type) {
  const auto& decimal = checked_cast<const arrow::DecimalType&>(type);
  return decimal.precision() <= kMaxDecimalPrecision && decimal.scale() >= 0 &&
         decimal.scale() <= decimal.precision();
}

/// `type` must already be Logical().
Kind KindOf(const arrow::DataType& type) {
  switch (type.id()) {
    case arrow::Type::NA:
      return Kind::kVoid;
    case arrow::Type::BOOL:
      return Kind::kBoolean;
    case arrow::Type::INT8:
      return Kind::kByte;
    case arrow::Type::INT16:
    case arrow::Type::UINT8:
      return Kind::kShort;
    case arrow::Type::INT32:
    case arrow::Type::UINT16:
      return Kind::kInt;
    case arrow::Type::INT64:
    case arrow::Type::UINT32:
      return Kind::kLong;
    case arrow::Type::HALF_FLOAT:
    case arrow::Type::FLOAT:
      return Kind::kFloat;
    case arrow::Type::DOUBLE:
      return Kind::kDouble;
    case arrow::Type::UINT64:
      return Kind::kDecimal;
    case arrow::Type::DECIMAL32:
    case arrow::Type::DECIMAL64:
    case arrow::Type::DECIMAL128:
    case arrow::Type::DECIMAL256:
      return IsSupportedDecimal(type) ? Kind::kDecimal : Kind::kOther;
    case arrow::Type::STRING:
    case arrow::Type::LARGE_STRING:
    case arrow::Type::STRING_VIEW:
      return Kind::kString;
    case arrow::Type::BINARY:
    case arrow::Type::LARGE_BINARY:
    case arrow::Type::BINARY_VIEW:
    case arrow::Type::FIXED_SIZE_BINARY:
      return Kind::kBinary;
    case arrow::Type::DATE32:
    case arrow::Type::DATE64:
      return Kind::kDate;
    case arrow::Type::TIMESTAMP:
      return checked_cast<const arrow::TimestampType&>(type).timezone().empty()
                 ? Kind::kTimestampNtz
                 : Kind::kTimestamp;
    case arrow::Type::MAP:
      return Kind::kMap;
    case arrow::Type::LIST:
    case arrow::Type::LARGE_LIST:
    case arrow::Type::LIST_VIEW:
    case arrow::Type::LARGE_LIST_VIEW:
    case arrow::Type::FIXED_SIZE_LIST:
      return Kind::kArray;
    case arrow::Type::STRUCT:
      return Kind::kStruct;
    default:
      return Kind::kOther;
  }
}

/// "decimal(p,s)" for a type of Kind::kDecimal.
std::string DecimalName(const arrow::DataType& type) {
  if (type.id() == arrow::Type::UINT64) return "decimal(20,0)";
  const auto& decimal = checked_cast<const arrow::DecimalType&>(type);
  return "decimal(" + std::to_string(decimal.precision()) + "," +
         std::to_string(decimal.scale()) + ")";
}

/// simpleString of the atomic kinds; empty for complex kinds and kOther.
std::string AtomicSimpleString(Kind kind, const arrow::DataType& type) {
  switch (kind) {
    case Kind::kVoid:
      return "void";
    case Kind::kBoolean:
      return "boolean";
    case Kind::kByte:
      return "tinyint";
    case Kind::kShort:
      return "smallint";
    case Kind::kInt:
      return "int";
    case Kind::kLong:
      return "bigint";
    case Kind::kFloat:
      return "float";
    case Kind::kDouble:
      return "double";
    case Kind::kDecimal:
      return DecimalName(type);
    case Kind::kString:
      return "string";
    case Kind::kBinary:
      return "binary";
    case Kind::kDate:
      return "date";
    case Kind::kTimestamp:
      return "timestamp";
    case Kind::kTimestampNtz:
      return "timestamp_ntz";
    default:
      return "";
  }
}

std::string ToUpper(std::string text) {
  for (char& c : text) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return text;
}

bool IsAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }

const arrow::Field& ListElement(const arrow::DataType& type) {
  return *checked_cast<const arrow::BaseListType&>(type).value_field();
}

const arrow::MapType& AsMap(const arrow::DataType& type) {
  return checked_cast<const arrow::MapType&>(type);
}

/// Spark's StructField.sql: "name: TYPE[ NOT NULL][ COMMENT 'text']".
std::string FieldSql(const arrow::Field& field) {
  std::string sql = QuoteIfNeeded(field.name()) + ": " + SqlString(*field.type());
  if (!field.nullable()) sql += " NOT NULL";
  if (auto comment = FieldComment(field)) {
    sql += " COMMENT '" + EscapeSingleQuotedString(*comment) + "'";
  }
  return sql;
}

}  // namespace

std::string SimpleString(const arrow::DataType& type, int max_fields) {
  const arrow::DataType& logical = Logical(type);
  if (IsDayTimeInterval(logical) || IsYearMonthInterval(logical)) {
    return IntervalTypeName(logical, /*upper=*/false);
  }
  Kind kind = KindOf(logical);
  switch (kind) {
    case Kind::kArray:
      return "array<" + SimpleString(*ListElement(logical).type(), max_fields) + ">";
    case Kind::kMap:
      return "map<" + SimpleString(*AsMap(logical).key_type(), max_fields) + "," +
             SimpleString(*AsMap(logical).item_type(), max_fields) + ">";
    case Kind::kStruct: {
      // Spark's truncatedString: past max_fields, keep max_fields - 1 and count the rest.
      const int total = logical.num_fields();
      const int shown = total > max_fields ? std::max(0, max_fields - 1) : total;
      std::string text = "struct<";
      for (int i = 0; i < shown; ++i) {
        if (i > 0) text += ",";
        const auto& field = *logical.field(i);
        text += field.name() + ":" + SimpleString(*field.type(), max_fields);
      }
      if (shown < total) {
        if (shown > 0) text += ",";
        text += "... " + std::to_string(total - shown) + " more fields";
      }
      return text + ">";
    }
    case Kind::kOther:
      return type.ToString();
    default:
      return AtomicSimpleString(kind, logical);
  }
}

std::string TypeName(const arrow::DataType& type) {
  const arrow::DataType& logical = Logical(type);
  if (IsDayTimeInterval(logical) || IsYearMonthInterval(logical)) {
    return IntervalTypeName(logical, /*upper=*/false);
  }
  Kind kind = KindOf(logical);
  switch (kind) {
    case Kind::kByte:
      return "byte";
    case Kind::kShort:
      return "short";
    case Kind::kInt:
      return "integer";
    case Kind::kLong:
      return "long";
    case Kind::kArray:
      return "array";
    case Kind::kMap:
      return "map";
    case Kind::kStruct:
      return "struct";
    case Kind::kOther:
      return type.ToString();
    default:
      return AtomicSimpleString(kind, logical);
  }
}

std::string SqlString(const arrow::DataType& type) {
  const arrow::DataType& logical = Logical(type);
  if (IsDayTimeInterval(logical) || IsYearMonthInterval(logical)) {
    return IntervalTypeName(logical, /*upper=*/true);
  }
  Kind kind = KindOf(logical);
  switch (kind) {
    case Kind::kArray:
      return "ARRAY<" + SqlString(*ListElement(logical).type()) + ">";
    case Kind::kMap:
      return "MAP<" + SqlString(*AsMap(logical).key_type()) + ", " +
             SqlString(*AsMap(logical).item_type()) + ">";
    case Kind::kStruct: {
      std::string text = "STRUCT<";
      for (int i = 0; i < logical.num_fields(); ++i) {
        if (i > 0) text += ", ";
        text += FieldSql(*logical.field(i));
      }
      return text + ">";
    }
    case Kind::kOther:
      return type.ToString();
    default:
      return ToUpper(AtomicSimpleString(kind, logical));
  }
}

std::string EscapeSingleQuotedString(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (char c : text) {
    if (c == '\'') escaped.push_back('\\');
    escaped.push_back(c);
  }
  return escaped;
}

std::string QuoteIfNeeded(std::string_view name) {
  bool plain = !name.empty() && (IsAsciiLetter(name[0]) || name[0] == '_');
  for (size_t i = 1; plain && i < name.size(); ++i) {
    plain = IsAsciiLetter(name[i]) || IsAsciiDigit(name[i]) || name[i] == '_';
  }
  if (plain) return std::string(name);
  std::string quoted = "`";
  for (char c : name) {
    if (c == '`') quoted.push_back('`');
    quoted.push_back(c);
  }
  quoted.push_back('`');
  return quoted;
}

}  // namespace sluice::types
