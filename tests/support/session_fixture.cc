#include "support/session_fixture.h"

#include <arrow/array/array_base.h>
#include <arrow/json/from_string.h>

#include "sluice/common/errors.h"
#include "sluice/types/ddl_parser.h"

namespace sluice::testing {

void SessionTest::SetUp() {
  auto session = SparkSession::builder().appName("test").getOrCreate();
  ASSERT_TRUE(session.ok()) << session.status().ToString();
  spark_ = *session;
}

std::shared_ptr<arrow::Table> SessionTest::Table(const std::string& ddl_schema,
                                                 const std::vector<std::string>& json_columns) {
  auto schema = types::ParseSchema(ddl_schema).ValueOrDie();
  arrow::ArrayVector columns;
  for (int i = 0; i < schema->num_fields(); ++i) {
    columns.push_back(
        arrow::json::ArrayFromJSONString(schema->field(i)->type(), json_columns.at(i))
            .ValueOrDie());
  }
  return arrow::Table::Make(schema, columns);
}

std::shared_ptr<arrow::Array> SessionTest::Array(const std::string& type_name,
                                                 const std::string& json) {
  auto type = types::ParseDataType(type_name).ValueOrDie();
  return arrow::json::ArrayFromJSONString(type, json).ValueOrDie();
}

DataFrame SessionTest::Frame(const std::string& ddl_schema,
                             const std::vector<std::string>& json_columns) {
  return spark_->createDataFrame(Table(ddl_schema, json_columns));
}

::testing::AssertionResult HasErrorClass(const arrow::Status& status,
                                         const std::string& error_class) {
  if (status.ok()) return ::testing::AssertionFailure() << "expected " << error_class << ", got OK";
  auto actual = ErrorClassOf(status);
  if (actual && *actual == error_class) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected " << error_class << ", got "
                                       << status.ToString();
}

}  // namespace sluice::testing
