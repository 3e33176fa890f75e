#pragma once

// Calls one registered string or regex function on hand-built arguments (columns of one batch, or
// literals) without going through the SQL parser, for the function-area tests.

#include <memory>
#include <string>
#include <vector>

#include <arrow/api.h>
#include <arrow/compute/initialize.h>
#include <arrow/json/from_string.h>
#include <gtest/gtest.h>

#include "sluice/common/errors.h"
#include "sluice/common/session_config.h"
#include "sluice/expr/bound_expression.h"
#include "sluice/expr/function_registry.h"
#include "sluice/types/ddl_parser.h"

namespace sluice::testing {

class StringCallTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_TRUE(arrow::compute::Initialize().ok()); }

  static std::shared_ptr<arrow::DataType> Type(const std::string& spark_type) {
    return types::ParseDataType(spark_type).ValueOrDie();
  }

  /// A column of the batch the next Call evaluates over, named `name`.
  expr::BoundExprPtr Col(const std::string& spark_type, const std::string& json,
                         std::string name = "") {
    auto array = arrow::json::ArrayFromJSONString(Type(spark_type), json).ValueOrDie();
    if (name.empty()) name = "c" + std::to_string(columns_.size());
    const int index = static_cast<int>(columns_.size());
    columns_.push_back(array);
    fields_.push_back(arrow::field(name, array->type()));
    return std::make_shared<expr::BoundColumn>(index, array->type(), true, name);
  }

  /// A literal; `sql` is how Spark prints it.
  static expr::BoundExprPtr Lit(const std::string& spark_type, const std::string& json,
                                std::string sql = "lit") {
    auto array = arrow::json::ArrayFromJSONString(Type(spark_type), "[" + json + "]")
                     .ValueOrDie();
    return std::make_shared<expr::BoundLiteral>(array->GetScalar(0).ValueOrDie(),
                                                std::move(sql));
  }

  /// Resolves `name(args)` and returns the bound call (type, nullability, kernel).
  arrow::Result<expr::BoundExprPtr> Resolve(const std::string& name,
                                            std::vector<expr::BoundExprPtr> args) {
    const auto* resolver = expr::FunctionRegistry::Builtins().FindScalar(name);
    if (resolver == nullptr) return arrow::Status::Invalid("no function ", name);
    expr::CallSite site{name, args, &config_};
    ARROW_ASSIGN_OR_RAISE(auto resolved, (*resolver)(site));
    return std::make_shared<expr::BoundCall>(name, resolved.args, resolved.return_type,
                                             resolved.nullable, resolved.can_fail,
                                             resolved.kernel, name + "(...)");
  }

  /// Evaluates `name(args)` over the columns made so far (or one row when there are none).
  arrow::Result<std::shared_ptr<arrow::Array>> Call(const std::string& name,
                                                    std::vector<expr::BoundExprPtr> args) {
    ARROW_ASSIGN_OR_RAISE(auto bound, Resolve(name, std::move(args)));
    const int64_t rows = columns_.empty() ? 1 : columns_[0]->length();
    auto batch = arrow::RecordBatch::Make(arrow::schema(fields_), rows, columns_);
    expr::EvalContext context;
    context.config = &config_;
    return expr::EvaluateToArray(*bound, *batch, context);
  }

  /// The expected array of a Spark type from JSON text.
  static std::shared_ptr<arrow::Array> Expected(const std::string& spark_type,
                                                const std::string& json) {
    return arrow::json::ArrayFromJSONString(Type(spark_type), json).ValueOrDie();
  }

  void ExpectCall(const std::string& name, std::vector<expr::BoundExprPtr> args,
                  const std::string& spark_type, const std::string& json) {
    auto result = Call(name, std::move(args));
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    auto expected = Expected(spark_type, json);
    EXPECT_TRUE((*result)->Equals(*expected))
        << name << ": got " << (*result)->ToString() << "\nexpected " << expected->ToString()
        << "\n types " << (*result)->type()->ToString() << " vs " << expected->type()->ToString();
  }

  void ExpectError(const std::string& name, std::vector<expr::BoundExprPtr> args,
                   const std::string& error_class) {
    auto result = Call(name, std::move(args));
    ASSERT_FALSE(result.ok()) << name << " gave " << (*result)->ToString();
    EXPECT_EQ(ErrorClassOf(result.status()).value_or("<none>"), error_class)
        << result.status().ToString();
  }

  void Reset() {
    columns_.clear();
    fields_.clear();
  }

  SessionConfig config_;
  arrow::ArrayVector columns_;
  arrow::FieldVector fields_;
};

}  // namespace sluice::testing
