// Resolving a MERGE's expressions against the columns of its target and source, with Delta's
// error for a name that does not resolve.
#pragma once

#include <set>
#include <string>
#include <vector>

#include <arrow/result.h>
#include <arrow/status.h>

#include "sluice/expr/attribute.h"
#include "sluice/expr/bound_expression.h"
#include "sluice/expr/expression.h"
#include "sluice/plan/analysis_context.h"

namespace sluice::delta {

/// DELTA_MERGE_UNRESOLVED_EXPRESSION: `what` in `clause` is not one of the columns of `scope`
/// (which the message lists), with the binder's own message when `cause` has one.
arrow::Status Unresolved(const std::string& what, const std::string& clause,
                         const expr::AttributeList& scope, const arrow::Status& cause);

/// `e` bound against `scope`; an unresolvable column becomes Delta's error naming the clause.
arrow::Result<expr::BoundExprPtr> BindIn(const expr::ExprPtr& e, const std::string& clause,
                                         const expr::AttributeList& scope,
                                         const plan::AnalysisContext& context);

/// Every input column index `e` reads.
void CollectColumns(const expr::BoundExpr& e, std::set<int>* columns);

/// The conjuncts of `e` (split on AND).
void Conjuncts(const expr::ExprPtr& e, std::vector<expr::ExprPtr>* out);

}  // namespace sluice::delta
