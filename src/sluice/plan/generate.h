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

/// Whether `expr` (looking through aliases) is a call of a generator: explode, explode_outer,
/// posexplode, posexplode_outer, inline, inline_outer.
bool IsGeneratorCall(const expr::Expr& expr);

/// A select list where one top-level expression is a generator call (df.select(col("id"),
/// explode(col("arr")))): a Generate node under a Project that puts the generated columns where
/// the generator stood. More than one generator is UNSUPPORTED_GENERATOR.MULTI_GENERATOR.
arrow::Result<PlanPtr> ProjectWithGenerator(PlanPtr child, const std::vector<expr::ExprPtr>& exprs,
                                            const AnalysisContext& context);

/// A generator applied to every input row: explode(array) yields one row per element (column
/// `col`), explode(map) one per entry (`key`, `value`), posexplode adds the position `pos`
/// (int) first, inline expands an array of structs into its fields. The *_outer forms yield one
/// row of nulls for a null or empty collection; the others drop such rows. The output is the
/// child's columns followed by the generated ones.
class Generate final : public LogicalPlan {
 public:
  /// Binds `generator` (a generator call, possibly under an alias naming its single output)
  /// against `child`.
  static arrow::Result<std::shared_ptr<const Generate>> Make(PlanPtr child,
                                                             const expr::ExprPtr& generator,
                                                             const AnalysisContext& context);

  /// The collection argument.
  const expr::BoundExprPtr& collection() const { return collection_; }
  bool outer() const { return outer_; }
  bool with_position() const { return with_position_; }
  bool is_inline() const { return inline_; }
  /// The generated columns (the tail of output()).
  expr::AttributeList generated() const;
  std::string Describe() const override;
  /// The same node with `output` (the same columns, with other metadata).
  std::shared_ptr<const Generate> WithOutput(expr::AttributeList output) const {
    return std::make_shared<Generate>(children()[0], collection_, outer_, with_position_, inline_,
                                      sql_, std::move(output));
  }

  Generate(PlanPtr child, expr::BoundExprPtr collection, bool outer, bool with_position,
           bool is_inline, std::string sql, expr::AttributeList output)
      : LogicalPlan(PlanKind::kGenerate, {std::move(child)}, std::move(output)),
        collection_(std::move(collection)),
        outer_(outer),
        with_position_(with_position),
        inline_(is_inline),
        sql_(std::move(sql)) {}

 private:
  expr::BoundExprPtr collection_;
  bool outer_;
  bool with_position_;
  bool inline_;
  std::string sql_;
};

}  // namespace sluice::plan
