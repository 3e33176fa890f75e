#include "sluice/plan/join_state_eviction.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include <arrow/scalar.h>

#include "sluice/expr/bound_rewrite.h"
#include "sluice/types/interval_types.h"

namespace sluice::plan {

namespace {

using expr::BoundExpr;
using expr::BoundKind;

/// The columns of the residual condition's input that belong to `side`: the left columns come
/// first, then the right ones.
struct SideColumns {
  int begin = 0;
  int end = 0;
  bool Contains(int index) const { return index >= begin && index < end; }
};

SideColumns ColumnsOf(const Join& join, JoinSide side) {
  const int left = static_cast<int>(join.children()[0]->output().size());
  const int right = static_cast<int>(join.children()[1]->output().size());
  return side == JoinSide::kLeft ? SideColumns{0, left} : SideColumns{left, left + right};
}

JoinSide Other(JoinSide side) {
  return side == JoinSide::kLeft ? JoinSide::kRight : JoinSide::kLeft;
}

const LogicalPlan& Child(const Join& join, JoinSide side) {
  return *join.children()[side == JoinSide::kLeft ? 0 : 1];
}

/// The first column of `side`'s output with a watermark, if any.
std::optional<int> WatermarkColumn(const Join& join, JoinSide side) {
  const auto& output = Child(join, side).output();
  for (size_t i = 0; i < output.size(); ++i) {
    if (output[i].event_time_delay_ms) return static_cast<int>(i);
  }
  return std::nullopt;
}

bool ReadsWatermarkedColumn(const BoundExpr& e, const expr::AttributeList& input) {
  if (e.kind() == BoundKind::kColumn) {
    return input[static_cast<const expr::BoundColumn&>(e).index()].event_time_delay_ms
        .has_value();
  }
  for (const auto& child : e.children()) {
    if (ReadsWatermarkedColumn(*child, input)) return true;
  }
  return false;
}

void CollectColumns(const BoundExpr& e, std::set<int>* out) {
  if (e.kind() == BoundKind::kColumn) out->insert(static_cast<const expr::BoundColumn&>(e).index());
  for (const auto& child : e.children()) CollectColumns(*child, out);
}

/// One addend of a time expression written as a sum: a column or a constant, maybe negated.
struct Term {
  const BoundExpr* leaf = nullptr;
  bool negated = false;
};

bool IsNumericOrTimestamp(const arrow::DataType& type) {
  return arrow::is_integer(type.id()) || arrow::is_floating(type.id()) ||
         arrow::is_decimal(type.id()) || type.id() == arrow::Type::TIMESTAMP;
}

/// Splits `e` into the terms it adds up; false when it is not such a sum (a function other
/// than +, -, unary minus and numeric or timestamp casts).
bool CollectTerms(const BoundExpr& e, bool negate, std::vector<Term>* out) {
  switch (e.kind()) {
    case BoundKind::kColumn:
    case BoundKind::kLiteral:
      out->push_back({&e, negate});
      return true;
    case BoundKind::kCall: {
      const auto& name = static_cast<const expr::BoundCall&>(e).function_name();
      const auto& args = e.children();
      if (name == "+" && args.size() == 2) {
        return CollectTerms(*args[0], negate, out) && CollectTerms(*args[1], negate, out);
      }
      if (name == "-" && args.size() == 2) {
        return CollectTerms(*args[0], negate, out) && CollectTerms(*args[1], !negate, out);
      }
      if (name == "negative" && args.size() == 1) return CollectTerms(*args[0], !negate, out);
      if (name == "cast" && args.size() == 1 && IsNumericOrTimestamp(*e.type())) {
        return CollectTerms(*args[0], negate, out);
      }
      return false;
    }
    default:
      return false;
  }
}

/// A constant term in microseconds: intervals as they are, numbers as seconds.
std::optional<double> ConstantMicros(const expr::BoundLiteral& literal) {
  const auto& value = *literal.value();
  if (!value.is_valid) return std::nullopt;
  if (types::IsDayTimeInterval(*value.type)) {
    return static_cast<double>(static_cast<const arrow::DurationScalar&>(value).value);
  }
  const auto id = value.type->id();
  // Months, timestamps and the rest bound nothing.
  if (!arrow::is_integer(id) && !arrow::is_floating(id) && !arrow::is_decimal(id)) {
    return std::nullopt;
  }
  auto as_double = value.CastTo(arrow::float64());
  if (!as_double.ok()) return std::nullopt;
  return static_cast<const arrow::DoubleScalar&>(**as_double).value * 1e6;
}

/// Solves `smaller < larger` for the time of `side`: the constants (microseconds) added to
/// the other side's watermark to give the time at or below which `side`'s rows can no longer
/// satisfy it. nullopt when the comparison is not of that form.
std::optional<double> SolveLessThan(const Join& join, JoinSide side, const BoundExpr& smaller,
                                    const BoundExpr& larger) {
  const SideColumns mine = ColumnsOf(join, side);
  const SideColumns theirs = ColumnsOf(join, Other(side));
  std::set<int> columns;
  CollectColumns(smaller, &columns);
  CollectColumns(larger, &columns);
  int own = 0, other = 0;
  for (int c : columns) (mine.Contains(c) ? own : other) += 1;
  if (own > 1 || other > 1) return std::nullopt;

  // smaller - larger < 0, as a sum of terms.
  std::vector<Term> terms;
  if (!CollectTerms(smaller, false, &terms) || !CollectTerms(larger, true, &terms)) {
    return std::nullopt;
  }
  const Term* constraint = nullptr;
  for (const Term& term : terms) {
    if (term.leaf->kind() != BoundKind::kColumn) continue;
    if (!mine.Contains(static_cast<const expr::BoundColumn&>(*term.leaf).index())) continue;
    if (constraint != nullptr) return std::nullopt;
    constraint = &term;
  }
  // Only `-ownTime` solves to `ownTime > watermark + constants`, a lower bound.
  if (constraint == nullptr || !constraint->negated) return std::nullopt;
  const auto& left_output = join.children()[0]->output();
  const auto& right_output = join.children()[1]->output();
  double sum = 0;
  bool has_watermark = false;
  for (const Term& term : terms) {
    if (&term == constraint) continue;
    double value;
    if (term.leaf->kind() == BoundKind::kColumn) {
      const int index = static_cast<const expr::BoundColumn&>(*term.leaf).index();
      if (!theirs.Contains(index)) return std::nullopt;
      const auto& attribute = theirs.begin == 0 ? left_output[index]
                                                : right_output[index - theirs.begin];
      // Only the other side's watermarked column has a known value: the watermark.
      if (!attribute.event_time_delay_ms) return std::nullopt;
      has_watermark = true;
      value = 0;  // the watermark itself, added by StateWatermarkMs
    } else {
      auto micros = ConstantMicros(static_cast<const expr::BoundLiteral&>(*term.leaf));
      if (!micros) return std::nullopt;
      value = *micros;
    }
    sum += term.negated ? -value : value;
  }
  // Spark also solves comparisons that read no watermarked column, so `lv > 2` bounds the
  // left side at 2 s after the epoch, and with the smallest bound winning such a join never
  // evicts; a bound must come from the other side's watermark here.
  if (!has_watermark) return std::nullopt;
  return sum;
}

std::vector<JoinStateEviction::Bound> TimeRangeBounds(const Join& join, JoinSide side) {
  std::vector<JoinStateEviction::Bound> bounds;
  if (!join.residual() || !WatermarkColumn(join, Other(side))) return bounds;
  std::vector<expr::BoundExprPtr> conjuncts;
  expr::SplitConjuncts(join.residual(), &conjuncts);
  // Each comparison of the conjuncts; `a BETWEEN lo AND hi` is `a >= lo` and `a <= hi`.
  struct Comparison {
    std::string name;
    const BoundExpr* a;
    const BoundExpr* b;
  };
  std::vector<Comparison> comparisons;
  for (const auto& owned : conjuncts) {
    const BoundExpr* conjunct = owned.get();
    if (conjunct->kind() != BoundKind::kCall) continue;
    const auto& name = static_cast<const expr::BoundCall*>(conjunct)->function_name();
    const auto& args = conjunct->children();
    if (name == "between" && args.size() == 4) {
      comparisons.push_back({">=", args[0].get(), args[1].get()});
      comparisons.push_back({"<=", args[2].get(), args[3].get()});
    } else if (args.size() == 2) {
      comparisons.push_back({name, args[0].get(), args[1].get()});
    }
  }
  for (const Comparison& comparison : comparisons) {
    const std::string& name = comparison.name;
    const auto& a = *comparison.a;
    const auto& b = *comparison.b;
    std::optional<double> solved;
    bool inclusive = false;
    if (name == "<") {
      solved = SolveLessThan(join, side, a, b);
    } else if (name == "<=") {
      solved = SolveLessThan(join, side, a, b);
      inclusive = true;
    } else if (name == ">") {
      solved = SolveLessThan(join, side, b, a);
    } else if (name == ">=") {
      solved = SolveLessThan(join, side, b, a);
      inclusive = true;
    }
    if (solved) bounds.push_back({*solved, inclusive});
  }
  return bounds;
}

}  // namespace

std::optional<int64_t> JoinStateEviction::StateWatermarkMs(int64_t watermark_ms) const {
  switch (kind) {
    case Kind::kNever:
      return std::nullopt;
    case Kind::kByKey:
      return watermark_ms;
    case Kind::kByValue: {
      std::optional<int64_t> lowest;
      for (const Bound& bound : bounds) {
        // As Spark computes it: in double microseconds, truncated to milliseconds.
        auto ms = static_cast<int64_t>(
            (static_cast<double>(watermark_ms) * 1000.0 + bound.offset_micros) / 1000.0);
        if (bound.inclusive) ms -= 1;
        lowest = lowest ? std::min(*lowest, ms) : ms;
      }
      return lowest;
    }
  }
  return std::nullopt;
}

JoinStateEviction StateEvictionOf(const Join& join, JoinSide side) {
  JoinStateEviction eviction;
  const auto& input = Child(join, side).output();
  const auto& keys = side == JoinSide::kLeft ? join.left_keys() : join.right_keys();
  for (size_t k = 0; k < keys.size(); ++k) {
    if (ReadsWatermarkedColumn(*keys[k], input)) {
      eviction.kind = JoinStateEviction::Kind::kByKey;
      eviction.key_index = static_cast<int>(k);
      eviction.key_is_window = keys[k]->type()->id() == arrow::Type::STRUCT;
      return eviction;
    }
  }
  auto column = WatermarkColumn(join, side);
  if (!column) return eviction;
  auto bounds = TimeRangeBounds(join, side);
  if (bounds.empty()) return eviction;
  eviction.kind = JoinStateEviction::Kind::kByValue;
  eviction.value_column = *column;
  eviction.value_is_window = input[*column].type->id() == arrow::Type::STRUCT;
  eviction.bounds = std::move(bounds);
  return eviction;
}

bool WatermarkInJoinKeys(const Join& join) {
  auto is_watermarked_column = [](const expr::BoundExprPtr& key,
                                  const expr::AttributeList& input) {
    return key->kind() == BoundKind::kColumn &&
           input[static_cast<const expr::BoundColumn&>(*key).index()].event_time_delay_ms;
  };
  for (const auto& key : join.left_keys()) {
    if (is_watermarked_column(key, join.children()[0]->output())) return true;
  }
  for (const auto& key : join.right_keys()) {
    if (is_watermarked_column(key, join.children()[1]->output())) return true;
  }
  return false;
}

bool HasTimeRangeCondition(const Join& join, JoinSide side) {
  return !TimeRangeBounds(join, side).empty();
}

}  // namespace sluice::plan
