// Spark's textual names of data types: simpleString, typeName (JSON schema and printSchema) and
// sql (DDL), computed from Arrow types under the mapping of spark_types.h.
#pragma once

#include <string>
#include <string_view>

#include <arrow/type_fwd.h>

// The type constructors and predicates (IsNumeric, IsIntegral, IsString, IsTimestamp, ...) and
// ToSparkArrowType live in spark_types.h; included here so that one include gives both.
#include "sluice/types/spark_types.h"

namespace sluice::types {

/// Spark's `spark.sql.debug.maxToStringFields` default: simpleString of a struct with more fields
/// lists this many minus one and then "... N more fields".
inline constexpr int kDefaultMaxToStringFields = 25;

/// Spark's DataType.simpleString: "int", "bigint", "decimal(10,2)", "timestamp_ntz", "void",
/// "array<int>", "map<string,int>", "struct<a:int,b:string>". Types outside the Spark mapping
/// are named as ToSparkArrowType would normalize them (large_utf8 -> "string", uint32 ->
/// "bigint"); types that cannot be normalized fall back to Arrow's own ToString().
std::string SimpleString(const arrow::DataType& type,
                         int max_fields = kDefaultMaxToStringFields);

/// Spark's DataType.typeName, used in the JSON schema and by printSchema: "integer", "long",
/// "short", "byte", "boolean", "float", "double", "decimal(10,2)", "string", "binary", "date",
/// "timestamp", "timestamp_ntz", "void", "array", "map", "struct". Same fallbacks as
/// SimpleString.
std::string TypeName(const arrow::DataType& type);

/// Spark's DataType.sql, as used by StructType.toDDL: "INT", "DECIMAL(10,2)", "ARRAY<INT>",
/// "MAP<STRING, INT>", "STRUCT<a: INT NOT NULL COMMENT 'c', `b c`: STRING>". Same fallbacks as
/// SimpleString.
std::string SqlString(const arrow::DataType& type);

/// Spark's QuotingUtils.quoteIfNeeded: returns `name` unchanged if it matches
/// [a-zA-Z_][a-zA-Z0-9_]*, otherwise wraps it in backticks with inner backticks doubled.
std::string QuoteIfNeeded(std::string_view name);

/// Spark's QuotingUtils.escapeSingleQuotedString, used for COMMENT '...' in DDL: every single
/// quote becomes \' and nothing else changes.
std::string EscapeSingleQuotedString(std::string_view text);

}  // namespace sluice::types
