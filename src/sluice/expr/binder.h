#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <arrow/result.h>

#include "sluice/common/session_config.h"
#include "sluice/expr/attribute.h"
#include "sluice/expr/bound_expression.h"
#include "sluice/expr/expression.h"
#include "sluice/expr/function_registry.h"

namespace sluice::expr {

/// Replaces an aggregate call found while binding (e.g. by a reference to the aggregate's output
/// column); given the call, its bound arguments and whether it said DISTINCT.
using AggregateHandler = std::function<arrow::Result<BoundExprPtr>(
    const Call& call, std::vector<BoundExprPtr> args)>;

/// What names resolve against: the input's columns, the session, the functions, and whether
/// aggregate calls are allowed here.
struct BindScope {
  const AttributeList* attributes = nullptr;
  const SessionConfig* config = nullptr;
  const FunctionRegistry* registry = nullptr;
  /// Null where aggregates are not allowed (filters, plain projections of aggregates).
  AggregateHandler aggregate_handler;
};

/// Resolves `expr` against `scope`: columns to input positions, functions to kernels, implicit
/// casts inserted. Errors are Spark's analysis errors (UNRESOLVED_COLUMN.WITH_SUGGESTION,
/// AMBIGUOUS_REFERENCE, UNRESOLVED_ROUTINE, DATATYPE_MISMATCH.*).
arrow::Result<BoundExprPtr> Bind(const Expr& expr, const BindScope& scope);

/// One output column of a select list.
struct NamedExpr {
  BoundExprPtr expr;
  std::string name;
  /// When the output is an input column passed through unchanged: its attribute, so the output
  /// keeps the id and qualifier (df["a"] keeps resolving after select).
  std::optional<Attribute> passthrough;
};

/// Binds a select list: expands `*` and `t.*` / `struct.*`, and names each output the way Spark
/// does (alias, column name, struct field name, or the expression's SQL).
arrow::Result<std::vector<NamedExpr>> BindSelectList(const std::vector<ExprPtr>& exprs,
                                                     const BindScope& scope);

/// The name of the field `e` reads when it is a struct field access (`s.f`), else nullopt.
std::optional<std::string> StructFieldName(const BoundExpr& e);

/// Functions the binder implements itself rather than the registry (coalesce, nvl, ifnull,
/// nullif, if, iff, and, or), for listings such as SHOW FUNCTIONS.
const std::vector<std::string>& BinderFunctionNames();

/// Whether `expr` contains a window expression (`f OVER (...)`).
bool ContainsWindow(const Expr& expr);

/// Whether `expr` contains a call of an aggregate function of `registry` (outside window
/// expressions, whose aggregates are computed per row).
bool ContainsAggregate(const Expr& expr, const FunctionRegistry& registry);

/// Spark's UNRESOLVED_COLUMN.WITH_SUGGESTION error for `name`, suggesting the nearest of
/// `attributes`.
arrow::Status UnresolvedColumnError(const std::string& name, const AttributeList& attributes);

}  // namespace sluice::expr
