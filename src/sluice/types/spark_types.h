// The fixed mapping between Spark SQL data types and Arrow types, used by the whole engine.
//
//   boolean -> boolean            byte/tinyint -> int8       short/smallint -> int16
//   int/integer -> int32          long/bigint -> int64       float/real -> float32
//   double -> float64             decimal(p,s) -> decimal128(p,s)
//   string/char(n)/varchar(n) -> utf8                        binary -> binary
//   date -> date32                timestamp -> timestamp(us, "UTC")
//   timestamp_ntz -> timestamp(us) without time zone         void -> null
//   array<T> -> list(field "element", T), nullability of the element field = containsNull
//   map<K,V> -> map(K, V), nullability of the value field = valueContainsNull
//   struct<a:T,...> -> struct, a field comment lives in the field metadata under "comment"
//   interval day..second -> duration[us]   interval year..month -> month_interval
//                                          (with their fields: interval_types.h)
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

namespace sluice::types {

/// Largest precision of Spark's DecimalType (and of Arrow's decimal128).
inline constexpr int32_t kMaxDecimalPrecision = 38;
/// Precision of a bare `decimal` in DDL and JSON: decimal means decimal(10,0).
inline constexpr int32_t kDefaultDecimalPrecision = 10;
/// Field metadata key holding a column comment, as in Spark's StructField metadata.
inline constexpr std::string_view kCommentMetadataKey = "comment";
/// Field metadata key holding a column's DEFAULT expression, as in Spark's StructField metadata.
inline constexpr std::string_view kCurrentDefaultMetadataKey = "CURRENT_DEFAULT";
/// Name of the child field of every list type built for a Spark array.
inline constexpr std::string_view kArrayElementFieldName = "element";

/// Spark's TimestampType (timestamp_ltz): timestamp(MICRO, "UTC"). Never null, shared instance.
std::shared_ptr<arrow::DataType> TimestampLtzType();

/// Spark's TimestampNTZType: timestamp(MICRO) without a time zone. Never null, shared instance.
std::shared_ptr<arrow::DataType> TimestampNtzType();

/// Spark's DecimalType(precision, scale) as decimal128. Fails like Spark's constructor does:
/// DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION above 38, NEGATIVE_SCALE_DISALLOWED for a negative
/// scale, _LEGACY_ERROR_TEMP_1228 when the scale exceeds the precision.
arrow::Result<std::shared_ptr<arrow::DataType>> MakeDecimalType(int32_t precision, int32_t scale);

/// Spark's ArrayType(element, contains_null): list(field("element", element, contains_null)).
std::shared_ptr<arrow::DataType> MakeArrayType(std::shared_ptr<arrow::DataType> element,
                                               bool contains_null = true);

/// Spark's MapType(key, value, value_contains_null): an Arrow map whose key field is not
/// nullable and whose value field has the given nullability.
std::shared_ptr<arrow::DataType> MakeMapType(std::shared_ptr<arrow::DataType> key,
                                             std::shared_ptr<arrow::DataType> value,
                                             bool value_contains_null = true);

/// The comment of a column (field metadata "comment"), if it has one.
std::optional<std::string> FieldComment(const arrow::Field& field);

/// The DEFAULT expression of a column (field metadata "CURRENT_DEFAULT"), if it has one.
std::optional<std::string> FieldCurrentDefault(const arrow::Field& field);

/// True if `type` is exactly one of the Arrow types of the Spark mapping above, recursively
/// (a list child named "element", timestamps in microseconds with "UTC" or no zone, ...).
bool IsSparkArrowType(const arrow::DataType& type);

/// Normalizes an Arrow type read from a file or produced by another library to the Spark
/// mapping: large/view strings -> utf8, large/view/fixed-size binaries -> binary, every list
/// flavour -> list<element>, date64 -> date32, timestamps of any unit -> microseconds (with a
/// zone -> "UTC", without -> no zone), uint8/16/32 -> the next wider signed integer, uint64 ->
/// decimal(20,0), float16 -> float32, decimal32/64/256 (precision <= 38) -> decimal128,
/// dictionary and run-end encoded -> their value type, extension types -> their storage type.
/// Types without a Spark counterpart (time, duration, interval, union, ...) fail with
/// UNSUPPORTED_ARROWTYPE naming the type. Field names, nullability and metadata are kept.
arrow::Result<std::shared_ptr<arrow::DataType>> ToSparkArrowType(
    const std::shared_ptr<arrow::DataType>& type);

/// ToSparkArrowType applied to every column; an error names the offending column. Schema-level
/// metadata is kept.
arrow::Result<std::shared_ptr<arrow::Schema>> ToSparkArrowSchema(const arrow::Schema& schema);

// Classification of Spark-mapped types. Each predicate looks at the Arrow type id (and the time
// zone for timestamps), so pass types that went through ToSparkArrowType.

/// ByteType, ShortType, IntegerType, LongType (int8..int64).
bool IsIntegral(const arrow::DataType& type);
/// FloatType and DoubleType.
bool IsFloatingPoint(const arrow::DataType& type);
/// DecimalType (decimal128).
bool IsDecimal(const arrow::DataType& type);
/// Spark's FractionalType: float, double and decimal.
bool IsFractional(const arrow::DataType& type);
/// Spark's NumericType: integral or fractional.
bool IsNumeric(const arrow::DataType& type);
/// StringType (utf8).
bool IsString(const arrow::DataType& type);
/// BinaryType (binary).
bool IsBinary(const arrow::DataType& type);
/// BooleanType.
bool IsBoolean(const arrow::DataType& type);
/// DateType (date32).
bool IsDate(const arrow::DataType& type);
/// Spark's TimestampType (timestamp_ltz): an Arrow timestamp with a time zone.
bool IsTimestamp(const arrow::DataType& type);
/// Spark's TimestampNTZType: an Arrow timestamp without a time zone.
bool IsTimestampNtz(const arrow::DataType& type);
/// Spark's DatetimeType: date, timestamp or timestamp_ntz.
bool IsDatetime(const arrow::DataType& type);
/// NullType (void).
bool IsVoid(const arrow::DataType& type);
/// ArrayType (list).
bool IsArray(const arrow::DataType& type);
/// MapType (map).
bool IsMap(const arrow::DataType& type);
/// StructType (struct).
bool IsStruct(const arrow::DataType& type);
/// Array, map or struct: a type with children.
bool IsComplex(const arrow::DataType& type);

}  // namespace sluice::types
