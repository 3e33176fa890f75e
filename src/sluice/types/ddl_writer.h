// Spark's DDL form of a schema (StructType.toDDL), the inverse of ParseSchema in ddl_parser.h.
#pragma once

#include <string>

#include <arrow/type_fwd.h>

namespace sluice::types {

/// Spark's StructField.toDDL: "name TYPE[ NOT NULL][ DEFAULT expr][ COMMENT 'text']", the name
/// in backticks unless it matches [a-zA-Z_][a-zA-Z0-9_]*.
std::string FieldToDdl(const arrow::Field& field);

/// Spark's StructType.toDDL: the fields' DDL joined by "," without spaces, e.g.
/// "a INT,b STRING NOT NULL,`c d` ARRAY<BIGINT> COMMENT 'x'". ParseSchema reads it back.
std::string ToDdl(const arrow::Schema& schema);

}  // namespace sluice::types
