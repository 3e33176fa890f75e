#pragma once

// Calls one registered scalar function on hand-built arguments (columns of one batch, or
// literals) without going through the SQL parser, for the function-area tests.

#include <memory>
#include <string>
#include <vector>

#include <arrow/api.h>
#include <arrow/compute/api.h>
#include <arrow/compute/initialize.h>
#include <arrow/json/from_string.h>
#include <gtest/gtest.h>

#include "sluice/common/errors.h"
#include "sluice/common/json_string.h"
#include "sluice/common/session_config.h"
#include "sluice/expr/bound_expression.h"
#include "sluice/expr/function_registry.h"
#include "sluice/types/ddl_parser.h"
#include "sluice/types/spark_type_names.h"

namespace sluice::testing {

/// `call` with a kernel that also adds the number of rows it is given to `*rows_seen`.
inline std::shared_ptr<expr::BoundCall> CountingRows(const expr::BoundCall& call,
                                                     int64_t* rows_seen) {
  expr::Kernel counting = [inner = call.kernel(), rows_seen](
                              const std::vector<arrow::Datum>& values,
                              const expr::EvalContext& context, int64_t rows) {
    *rows_seen += rows;
    return inner(values, context, rows);
  };
  return std::make_shared<expr::BoundCall>(call.function_name(), call.children(), call.type(),
                                           call.nullable(), call.can_fail(), counting,
                                           call.sql(), call.site_args(),
                                           call.costly_per_value());
}

class FunctionCallTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_TRUE(arrow::compute::Initialize().ok()); }

  static std::shared_ptr<arrow::DataType> Type(const std::string& spark_type) {
    return types::ParseDataType(spark_type).ValueOrDie();
  }

  /// `type` with decimals replaced by strings, for reading decimals written as JSON strings.
  static std::shared_ptr<arrow::DataType> DecimalsAsText(const std::shared_ptr<arrow::DataType>& type) {
    switch (type->id()) {
      case arrow::Type::DECIMAL128: return arrow::utf8();
      case arrow::Type::LIST:
        return arrow::list(arrow::field(
            "element", DecimalsAsText(static_cast<const arrow::ListType&>(*type).value_type())));
      default: return type;
    }
  }

  /// An array from JSON text; decimals are given as strings ("1.50").
  static std::shared_ptr<arrow::Array> FromJson(const std::shared_ptr<arrow::DataType>& type,
                                                const std::string& json) {
    auto direct = arrow::json::ArrayFromJSONString(type, json);
    if (direct.ok()) return *direct;
    // Floating point NaN and infinities are written as strings: read them as bare tokens.
    std::string bare = json;
    for (const std::string token : {"NaN", "Infinity"}) {
      for (size_t at = bare.find("\"" + token + "\""); at != std::string::npos;
           at = bare.find("\"" + token + "\"")) {
        bare.replace(at, token.size() + 2, token);
      }
    }
    auto special = arrow::json::ArrayFromJSONString(type, bare);
    if (special.ok()) return *special;
    auto text = arrow::json::ArrayFromJSONString(DecimalsAsText(type), json).ValueOrDie();
    return arrow::compute::Cast(text, type).ValueOrDie().make_array();
  }

  /// c0, c1, ...: the name of the next column made without one. Appended rather than written
  /// as "c" + std::to_string(...), which GCC 12 warns of wrongly (-Wstringop-overflow) in every
  /// test that inlines it.
  std::string DefaultColumnName() const {
    std::string name = "c";
    name += std::to_string(columns_.size());
    return name;
  }

  /// A column holding `array`.
  expr::BoundExprPtr ColArray(std::shared_ptr<arrow::Array> array, std::string name = "") {
    if (name.empty()) name = DefaultColumnName();
    const int index = static_cast<int>(columns_.size());
    columns_.push_back(array);
    fields_.push_back(arrow::field(name, array->type()));
    return std::make_shared<expr::BoundColumn>(index, array->type(), true, name);
  }

  /// A column of the batch the next Call evaluates over, named `name`.
  expr::BoundExprPtr Col(const std::string& spark_type, const std::string& json,
                         std::string name = "") {
    auto array = FromJson(Type(spark_type), json);
    if (name.empty()) name = DefaultColumnName();
    const int index = static_cast<int>(columns_.size());
    columns_.push_back(array);
    fields_.push_back(arrow::field(name, array->type()));
    return std::make_shared<expr::BoundColumn>(index, array->type(), true, name);
  }

  /// A literal; `sql` is how Spark prints it.
  static expr::BoundExprPtr Lit(const std::string& spark_type, const std::string& json,
                                std::string sql = "lit") {
    auto array = FromJson(Type(spark_type), "[" + json + "]");
    return std::make_shared<expr::BoundLiteral>(array->GetScalar(0).ValueOrDie(),
                                                std::move(sql));
  }

  /// A string literal of `value`, printed by Spark as the value itself.
  static expr::BoundExprPtr StringLit(const std::string& value) {
    std::string json;
    AppendJsonString(value, &json);
    return Lit("string", json, value);
  }
  static expr::BoundExprPtr IntLit(int value) { return Lit("int", std::to_string(value)); }
  /// An untyped NULL, as a bare `NULL` in Spark SQL.
  static expr::BoundExprPtr NullLit() { return Lit("void", "null", "NULL"); }

  /// Resolves `name(args)` and returns the bound call (type, nullability, kernel).
  arrow::Result<expr::BoundExprPtr> Resolve(const std::string& name,
                                            std::vector<expr::BoundExprPtr> args) {
    const auto* resolver = expr::FunctionRegistry::Builtins().FindScalar(name);
    if (resolver == nullptr) return arrow::Status::Invalid("no function ", name);
    expr::CallSite site{name, args, &config_};
    ARROW_ASSIGN_OR_RAISE(auto resolved, (*resolver)(site));
    return std::make_shared<expr::BoundCall>(name, resolved.args, resolved.return_type,
                                             resolved.nullable, resolved.can_fail,
                                             resolved.kernel, name + "(...)",
                                             std::vector<expr::BoundExprPtr>{},
                                             resolved.costly_per_value);
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
    return FromJson(Type(spark_type), json);
  }

  void ExpectCall(const std::string& name, std::vector<expr::BoundExprPtr> args,
                  const std::string& spark_type, const std::string& json) {
    auto result = Call(name, std::move(args));
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    auto expected = Expected(spark_type, json);
    if (!(*result)->type()->Equals(*expected->type()) &&
        types::SimpleString(*(*result)->type()) == types::SimpleString(*expected->type())) {
      // Same Spark type, different nullability of nested fields: compare the values.
      auto cast = arrow::compute::Cast(expected, (*result)->type());
      if (cast.ok()) expected = cast->make_array();
    }
    EXPECT_TRUE((*result)->Equals(*expected, arrow::EqualOptions().nans_equal(true)))
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
