// Comparing what a query returned with Spark's answer in canonical JSON (tests/golden/README.md),
// for the golden tests of streaming queries.
#pragma once

#include <string>

#include <arrow/table.h>
#include <simdjson.h>

namespace sluice::testing {

/// "" when `table` holds exactly the rows of `expected` (canonical JSON rows) in any order,
/// otherwise the rows that differ (the first 20, and how many more).
std::string CompareRows(const arrow::Table& table, simdjson::dom::array expected);

/// "" when `schema` has the columns of `expected` ({"name", "type"} with Spark's simple type
/// names), otherwise how they differ.
std::string CompareColumns(const arrow::Schema& schema, simdjson::dom::array expected);

}  // namespace sluice::testing
