#pragma once

#include <memory>

#include <arrow/table.h>
#include <gtest/gtest.h>

#include "sluice/api/session.h"

namespace sluice::testing {

/// A test fixture with a fresh session (UTC, ANSI on) and helpers to build small inputs.
class SessionTest : public ::testing::Test {
 protected:
  void SetUp() override;

  /// A table from one JSON array literal per column (Arrow's ArrayFromJSONString),
  /// e.g. Table("a INT, b STRING", {"[1, 2, null]", "[\"x\", null, \"z\"]"}).
  std::shared_ptr<arrow::Table> Table(const std::string& ddl_schema,
                                      const std::vector<std::string>& json_columns);
  /// An array of a Spark type given by name from a JSON literal: Array("int", "[1, null]").
  std::shared_ptr<arrow::Array> Array(const std::string& type_name, const std::string& json);
  DataFrame Frame(const std::string& ddl_schema, const std::vector<std::string>& json_columns);

  std::shared_ptr<SparkSession> spark_;
};

/// Asserts `status` failed with Spark error class `error_class`.
::testing::AssertionResult HasErrorClass(const arrow::Status& status,
                                         const std::string& error_class);

}  // namespace sluice::testing
