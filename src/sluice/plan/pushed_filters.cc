#include "sluice/plan/pushed_filters.h"

#include <algorithm>

#include "sluice/expr/bound_rewrite.h"
#include "sluice/expr/function_registry.h"
#include "sluice/plan/aggregate.h"
#include "sluice/plan/event_time_watermark.h"
#include "sluice/plan/filter.h"
#include "sluice/plan/join.h"
#include "sluice/plan/project.h"

namespace sluice::plan {

namespace {

using expr::BoundExprPtr;
using expr::BoundKind;

/// `e IS NOT NULL`.
BoundExprPtr IsNotNull(const BoundExprPtr& e) {
  const auto* resolver = expr::FunctionRegistry::Builtins().FindScalar("isnotnull");
  auto resolved = (*resolver)(expr::CallSite{"isnotnull", {e}, nullptr}).ValueOrDie();
  return std::make_shared<expr::BoundCall>("isnotnull", resolved.args, resolved.return_type,
                                           resolved.nullable, resolved.can_fail, resolved.kernel,
                                           "(" + e->sql() + " IS NOT NULL)");
}

/// `conditions` over a child whose column i is `columns[i]`: those that can move (`below`)
/// and those reading a column with no such expression (null), which stay (`stuck`).
void Substitute(const Conditions& conditions, const std::vector<BoundExprPtr>& columns,
                Conditions* below, Conditions* stuck) {
  for (const auto& condition : conditions) {
    auto moved = expr::SubstituteColumns(condition, [&](const expr::BoundColumn& column) {
      const auto index = static_cast<size_t>(column.index());
      return index < columns.size() ? columns[index] : nullptr;
    });
    if (moved) {
      below->push_back(std::move(moved));
    } else {
      stuck->push_back(condition);
    }
  }
}

/// Whether `condition` reads some column, all of them in [begin, end).
bool ReadsOnly(const BoundExprPtr& condition, int begin, int end) {
  auto read = expr::ColumnsRead(*condition);
  return !read.empty() &&
         std::all_of(read.begin(), read.end(), [&](int c) { return c >= begin && c < end; });
}

/// The conditions reading only columns [begin, end), shifted to start at column 0.
Conditions OnlyColumns(const Conditions& conditions, int begin, int end) {
  Conditions out;
  for (const auto& condition : conditions) {
    auto read = expr::ColumnsRead(*condition);
    if (read.empty() || !std::all_of(read.begin(), read.end(),
                                     [&](int c) { return c >= begin && c < end; })) {
      continue;
    }
    out.push_back(expr::SubstituteColumns(condition, [&](const expr::BoundColumn& column) {
      return std::make_shared<expr::BoundColumn>(column.index() - begin, column.type(),
                                                 column.nullable(), column.sql());
    }));
  }
  return out;
}

/// True when a null in any column `e` reads makes `e` null (Spark's NullIntolerant all the way
/// down): comparisons, arithmetic, negation and casts over columns and constants.
bool NullIntolerant(const expr::BoundExpr& e) {
  switch (e.kind()) {
    case BoundKind::kColumn:
    case BoundKind::kLiteral:
      return true;
    case BoundKind::kCall: {
      static const char* const kIntolerant[] = {"=", "<>", "!=", "<", "<=", ">", ">=",
                                                "+", "-", "*", "/", "%", "negative", "cast",
                                                "between"};
      const auto& name = static_cast<const expr::BoundCall&>(e).function_name();
      if (std::find(std::begin(kIntolerant), std::end(kIntolerant), name) ==
          std::end(kIntolerant)) {
        return false;
      }
      for (const auto& child : e.children()) {
        if (!NullIntolerant(*child)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/// A node with one child and its columns, which passes every condition on to it.
PushDown PassOn(Conditions conditions) {
  PushDown result;
  result.into_children.push_back(std::move(conditions));
  return result;
}

/// A node whose conditions all stop at it; its children start afresh.
PushDown StopAll(const LogicalPlan& node, Conditions conditions) {
  PushDown result;
  result.into_children.resize(node.children().size());
  result.stop = std::move(conditions);
  return result;
}

PushDown ThroughProject(const Project& project, const Conditions& conditions) {
  std::vector<BoundExprPtr> columns;
  for (const auto& named : project.exprs()) columns.push_back(named.expr);
  PushDown result;
  result.into_children.resize(1);
  Substitute(conditions, columns, &result.into_children[0], &result.stop);
  return result;
}

PushDown ThroughWatermark(const EventTimeWatermark& watermark, Conditions conditions) {
  // Conditions that read the event time stay above withWatermark.
  PushDown result;
  result.into_children.resize(1);
  for (auto& condition : conditions) {
    auto read = expr::ColumnsRead(*condition);
    const bool reads_event_time =
        std::find(read.begin(), read.end(), watermark.column()) != read.end();
    (reads_event_time ? result.stop : result.into_children[0]).push_back(std::move(condition));
  }
  return result;
}

/// Conditions on grouping keys only go below an aggregation (not a deduplication, nor the
/// merging of session windows).
PushDown ThroughAggregate(const Aggregate& aggregate, const Conditions& conditions) {
  std::vector<BoundExprPtr> columns;
  const bool sessions = aggregate.children()[0]->kind() == PlanKind::kMergeSessionWindows;
  if (!aggregate.is_deduplicate() && !sessions) {
    for (const auto& result : aggregate.results()) {
      BoundExprPtr key;
      if (result.expr->kind() == BoundKind::kColumn) {
        const int index = static_cast<const expr::BoundColumn&>(*result.expr).index();
        const auto& source = aggregate.intermediate_sources()[index];
        if (source.kind == Aggregate::Source::Kind::kKey) {
          key = aggregate.grouping()[source.index].expr;
        }
      }
      columns.push_back(std::move(key));
    }
  }
  PushDown result;
  result.into_children.resize(1);
  Substitute(conditions, columns, &result.into_children[0], &result.stop);
  return result;
}

PushDown ThroughJoin(const Join& join, const Conditions& above) {
  const int left_width = static_cast<int>(join.children()[0]->output().size());
  const int right_width = static_cast<int>(join.children()[1]->output().size());
  const JoinType type = join.join_type();
  const bool inner = type == JoinType::kInner || type == JoinType::kCross;
  // Which side a condition may go to: a filter above the join, a conjunct of its condition,
  // or a not-null inferred from the condition (Spark's PushPredicateThroughJoin and
  // InferFiltersFromConstraints).
  const bool above_to_left = inner || type == JoinType::kLeftOuter ||
                             type == JoinType::kLeftSemi || type == JoinType::kLeftAnti;
  const bool above_to_right = inner || type == JoinType::kRightOuter;
  const bool on_to_left = inner || type == JoinType::kLeftSemi || type == JoinType::kRightOuter;
  const bool on_to_right = inner || type == JoinType::kLeftSemi ||
                           type == JoinType::kLeftOuter || type == JoinType::kLeftAnti;

  PushDown result;
  result.into_children.resize(2);
  Conditions& left = result.into_children[0];
  Conditions& right = result.into_children[1];
  for (const auto& condition : above) {
    if (above_to_left && ReadsOnly(condition, 0, left_width)) continue;
    if (above_to_right && ReadsOnly(condition, left_width, left_width + right_width)) continue;
    result.stop.push_back(condition);
  }
  auto add = [](Conditions* to, Conditions conditions) {
    to->insert(to->end(), conditions.begin(), conditions.end());
  };
  if (above_to_left) add(&left, OnlyColumns(above, 0, left_width));
  if (above_to_right) add(&right, OnlyColumns(above, left_width, left_width + right_width));

  Conditions on;
  if (join.residual()) {
    Conditions conjuncts;
    expr::SplitConjuncts(join.residual(), &conjuncts);
    for (const auto& conjunct : conjuncts) {
      on.push_back(conjunct);
      if (!NullIntolerant(*conjunct)) continue;
      for (int column : expr::ColumnsRead(*conjunct)) {
        const auto& attribute = column < left_width
                                    ? join.children()[0]->output()[column]
                                    : join.children()[1]->output()[column - left_width];
        on.push_back(IsNotNull(std::make_shared<expr::BoundColumn>(
            column, attribute.type, attribute.nullable, attribute.name)));
      }
    }
  }
  if (on_to_left) add(&left, OnlyColumns(on, 0, left_width));
  if (on_to_right) add(&right, OnlyColumns(on, left_width, left_width + right_width));
  // Equi-join keys under `=` are never null in a matching row.
  for (size_t k = 0; k < join.left_keys().size(); ++k) {
    if (join.null_safe()[k]) continue;
    if (on_to_left && NullIntolerant(*join.left_keys()[k])) {
      left.push_back(IsNotNull(join.left_keys()[k]));
    }
    if (on_to_right && NullIntolerant(*join.right_keys()[k])) {
      right.push_back(IsNotNull(join.right_keys()[k]));
    }
  }
  return result;
}

}  // namespace

PushDown PushThrough(const LogicalPlan& node, Conditions conditions) {
  switch (node.kind()) {
    case PlanKind::kFilter:
      expr::SplitConjuncts(static_cast<const Filter&>(node).condition(), &conditions);
      return PassOn(std::move(conditions));
    case PlanKind::kSubqueryAlias:
      return PassOn(std::move(conditions));
    case PlanKind::kUnion: {
      PushDown result;
      result.into_children.assign(node.children().size(), conditions);
      return result;
    }
    case PlanKind::kProject:
      return ThroughProject(static_cast<const Project&>(node), conditions);
    case PlanKind::kEventTimeWatermark:
      return ThroughWatermark(static_cast<const EventTimeWatermark&>(node),
                              std::move(conditions));
    case PlanKind::kAggregate:
      return ThroughAggregate(static_cast<const Aggregate&>(node), conditions);
    case PlanKind::kJoin:
      return ThroughJoin(static_cast<const Join&>(node), conditions);
    default:
      // The conditions stop at the other operators (and at scans).
      return StopAll(node, std::move(conditions));
  }
}

BoundExprPtr Conjunction(const Conditions& conditions) {
  BoundExprPtr combined;
  for (const auto& condition : conditions) {
    combined = combined == nullptr
                   ? condition
                   : std::make_shared<expr::BoundLogical>(
                         BoundKind::kAnd, combined, condition,
                         "(" + combined->sql() + " AND " + condition->sql() + ")");
  }
  return combined;
}

}  // namespace sluice::plan
