#pragma once

#include <memory>
#include <string>
#include <vector>

#include <arrow/result.h>

#include "sluice/expr/bound_expression.h"
#include "sluice/expr/expression.h"
#include "sluice/plan/analysis_context.h"
#include "sluice/plan/logical_plan.h"

namespace sluice::plan {

enum class JoinType { kInner, kCross, kLeftOuter, kRightOuter, kFullOuter, kLeftSemi, kLeftAnti };

/// Parses PySpark's `how` (inner, cross, outer/full/fullouter/full_outer, left/leftouter/
/// left_outer, right/rightouter/right_outer, semi/leftsemi/left_semi, anti/leftanti/left_anti),
/// case-insensitively; UNSUPPORTED_JOIN_TYPE otherwise.
arrow::Result<JoinType> ParseJoinType(const std::string& how);

/// Spark's name of a join type ("Inner", "LeftOuter", ...), as explain prints it.
std::string JoinTypeName(JoinType type);

/// A join of two plans. The ON condition is split into equi-join keys (conjuncts `l = r` or `l <=> r` where
/// one side reads only left columns and the other only right columns: rows match when the keys
/// are equal and, for `=`, not null) and a residual condition checked on each candidate pair. The output
/// is the left columns then the right columns (only the left ones for semi and anti joins);
/// the side(s) that may be missing a match become nullable. Qualifiers are kept, so `t.a` and
/// `u.a` resolve above the join.
class Join final : public LogicalPlan {
 public:
  /// `condition` may be null (a cross join, or an inner join without condition).
  static arrow::Result<std::shared_ptr<const Join>> Make(PlanPtr left, PlanPtr right,
                                                         JoinType type,
                                                         const expr::ExprPtr& condition,
                                                         const AnalysisContext& context);

  /// join(other, usingColumns, how): equality on the named columns, which appear once in the
  /// output, first (from the left side; from the right for a right join; coalesced for a full
  /// join), followed by the other left and right columns.
  static arrow::Result<PlanPtr> MakeUsing(PlanPtr left, PlanPtr right, JoinType type,
                                          const std::vector<std::string>& using_columns,
                                          const AnalysisContext& context);

  JoinType join_type() const { return type_; }
  /// Key expressions, bound against the left and the right child's output, pairwise of the
  /// same type.
  const std::vector<expr::BoundExprPtr>& left_keys() const { return left_keys_; }
  const std::vector<expr::BoundExprPtr>& right_keys() const { return right_keys_; }
  /// Per key pair: true for `l <=> r` (null matches null), false for `l = r`.
  const std::vector<bool>& null_safe() const { return null_safe_; }
  /// The rest of the condition (or null), bound against the left columns followed by the right
  /// columns.
  const expr::BoundExprPtr& residual() const { return residual_; }
  std::string Describe() const override;

  Join(PlanPtr left, PlanPtr right, JoinType type, std::vector<expr::BoundExprPtr> left_keys,
       std::vector<expr::BoundExprPtr> right_keys, std::vector<bool> null_safe,
       expr::BoundExprPtr residual, std::string condition_sql, expr::AttributeList output)
      : LogicalPlan(PlanKind::kJoin, {std::move(left), std::move(right)}, std::move(output)),
        type_(type),
        left_keys_(std::move(left_keys)),
        right_keys_(std::move(right_keys)),
        null_safe_(std::move(null_safe)),
        residual_(std::move(residual)),
        condition_sql_(std::move(condition_sql)) {}

 private:
  JoinType type_;
  std::vector<expr::BoundExprPtr> left_keys_;
  std::vector<expr::BoundExprPtr> right_keys_;
  std::vector<bool> null_safe_;
  expr::BoundExprPtr residual_;
  std::string condition_sql_;
};

}  // namespace sluice::plan
