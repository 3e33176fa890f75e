// Spark's JSON form of schemas and data types (DataType.json / DataType.fromJson), the form
// found in Delta logs, Parquet footers written by Spark and state store schema files.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

namespace sluice::types {

/// Field metadata key listing (one per line) the metadata keys whose values are JSON text
/// rather than strings, so that numbers, booleans, arrays and objects in Spark's field metadata
/// survive a round trip through Arrow's string-only metadata. Never written to JSON itself.
inline constexpr std::string_view kJsonValuedMetadataKeysKey = "sluice.json_valued_keys";

/// Spark's compact StructType.json, byte for byte:
/// {"type":"struct","fields":[{"name":"a","type":"integer","nullable":true,"metadata":{}}]},
/// arrays as {"type":"array","elementType":...,"containsNull":...}, maps as
/// {"type":"map","keyType":...,"valueType":...,"valueContainsNull":...}. Field metadata is
/// written in its Arrow order; keys starting with "PARQUET:" or "ARROW:" (added by Arrow's
/// readers, not by Spark) are left out. Types outside the Spark mapping are named as
/// TypeName() names them.
std::string SchemaToJson(const arrow::Schema& schema);

/// Spark's compact DataType.json of one type: "\"integer\"" (a JSON string) for atomic types,
/// an object for arrays, maps and structs.
std::string DataTypeToJson(const arrow::DataType& type);

/// Reads Spark's JSON form of a data type (whitespace anywhere, keys in any order, "nullable"
/// and "metadata" of a field optional, "null" accepted for void, "timestamp_ltz" for
/// timestamp, char(n)/varchar(n) read as string, a user-defined type read as its sqlType).
/// Errors: malformed JSON text is Invalid naming the parser's complaint; an unknown type is
/// INVALID_JSON_DATA_TYPE, a malformed field _LEGACY_ERROR_TEMP_3250, a Spark type that has no
/// Arrow mapping here (interval, variant, collated string) UNSUPPORTED_DATATYPE.
arrow::Result<std::shared_ptr<arrow::DataType>> DataTypeFromJson(std::string_view json);

/// Reads Spark's JSON form of a schema; the top level must be a struct, otherwise
/// FAILED_PARSE_STRUCT_TYPE. Other errors as for DataTypeFromJson.
arrow::Result<std::shared_ptr<arrow::Schema>> SchemaFromJson(std::string_view json);

}  // namespace sluice::types
