// Parsing of Spark's DDL type strings ("array<struct<a:int>>") and schema strings
// ("id BIGINT NOT NULL, name STRING COMMENT 'who'") into Arrow types and schemas.
#pragma once

#include <memory>
#include <string_view>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

namespace sluice::types {

/// Parses one Spark data type, as Spark's DataType.fromDDL / CatalystSqlParser.parseDataType:
/// case-insensitive keywords, every alias (tinyint/byte, smallint/short, int/integer,
/// bigint/long, float/real, dec/numeric/decimal(p[,s]), char(n)/varchar(n), timestamp_ltz,
/// timestamp without time zone, void), array<T>, map<K, V>, struct<a: T NOT NULL COMMENT 'c',
/// b T> with an optional colon, `quoted names`. The result follows the mapping of
/// spark_types.h. Errors carry Spark's classes: PARSE_SYNTAX_ERROR ("Syntax error at or near
/// 'x'." plus the line, position and a caret under the input), UNSUPPORTED_DATATYPE
/// ("Unsupported data type \"FOO\"."), DATATYPE_MISSING_SIZE, INCOMPLETE_TYPE_DEFINITION.*,
/// DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION and _LEGACY_ERROR_TEMP_1228 (scale > precision).
arrow::Result<std::shared_ptr<arrow::DataType>> ParseDataType(std::string_view ddl);

/// Parses a schema, as Spark's StructType.fromDDL and PySpark's schema strings: a comma list of
/// "name type [NOT NULL] [COMMENT 'text']" (the colon form "name: type" is accepted too), or a
/// whole "struct<...>". NOT NULL makes the field non-nullable; a comment is stored in the field
/// metadata under "comment". An empty string is a PARSE_SYNTAX_ERROR, as in Spark. Other errors
/// as for ParseDataType.
arrow::Result<std::shared_ptr<arrow::Schema>> ParseSchema(std::string_view ddl);

}  // namespace sluice::types
