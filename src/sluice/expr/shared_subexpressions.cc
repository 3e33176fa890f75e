#include "sluice/expr/shared_subexpressions.h"

#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <unordered_map>

#include <arrow/scalar.h>
#include <arrow/type.h>

#include "sluice/expr/bound_rewrite.h"

namespace sluice::expr {

namespace {

// Whether each child of `e` is evaluated on every row `e` is: all arguments of a call, only the
// first condition of a CASE, the left side of AND/OR and the first coalesce argument.
bool ChildAlwaysEvaluated(const BoundExpr& e, size_t child) {
  return e.kind() == BoundKind::kCall || child == 0;
}

// Structural identity of bound expressions: two nodes with the same key compute the same
// values from the same input. A call's kernel is decided by its name and its arguments as
// written (site_args), which may hold what its children do not (from_json's options); its SQL
// alone may not tell (Spark names from_json(j, 'a INT', map(...)) `from_json(j)`).
class Keys {
 public:
  const std::string& Of(const BoundExpr& e) {
    auto found = keys_.find(&e);
    if (found != keys_.end()) return found->second;
    std::string key;
    switch (e.kind()) {
      case BoundKind::kColumn:
        key.append("#").append(std::to_string(static_cast<const BoundColumn&>(e).index()));
        break;
      case BoundKind::kLiteral: {
        const auto& value = *static_cast<const BoundLiteral&>(e).value();
        key.append(value.is_valid ? "'" : "null");
        if (value.is_valid) key.append(value.ToString());
        break;
      }
      default:
        key.append(std::to_string(static_cast<int>(e.kind()))).append(":").append(e.sql());
        key.append(e.nullable() ? "?" : "").append(e.can_fail() ? "!" : "");
        if (e.kind() == BoundKind::kCall) {
          const auto& call = static_cast<const BoundCall&>(e);
          key.append(":").append(call.function_name()).append("[");
          for (const auto& arg : call.site_args()) key.append(Of(*arg)).append(",");
          key.append("]");
        }
        key.append("(");
        for (const auto& child : e.children()) key.append(Of(*child)).append(",");
        key.append(")");
    }
    key.append(":").append(e.type()->ToString());
    return keys_.emplace(&e, std::move(key)).first->second;
  }

 private:
  std::unordered_map<const BoundExpr*, std::string> keys_;
};

// A distinct subexpression that may be shared.
struct Candidate {
  BoundExprPtr expr;  // its first occurrence
  size_t size = 0;    // nodes in its tree
  size_t first_seen = 0;
  bool evaluated_on_every_row = false;  // some occurrence is
};

size_t TreeSize(const BoundExpr& e) {
  size_t size = 1;
  for (const auto& child : e.children()) size += TreeSize(*child);
  return size;
}

bool IsLeaf(const BoundExpr& e) {
  return e.kind() == BoundKind::kColumn || e.kind() == BoundKind::kLiteral;
}

}  // namespace

SharedSubexpressions::SharedSubexpressions(const std::vector<BoundExprPtr>& exprs,
                                           int input_columns)
    : input_columns_(input_columns) {
  Keys keys;
  std::unordered_map<std::string, Candidate> candidates;
  std::function<void(const BoundExprPtr&, bool)> collect = [&](const BoundExprPtr& e,
                                                               bool every_row) {
    if (IsLeaf(*e) || ColumnsRead(*e).empty()) return;
    auto [entry, added] = candidates.try_emplace(keys.Of(*e));
    Candidate& candidate = entry->second;
    if (added) {
      candidate.expr = e;
      candidate.size = TreeSize(*e);
      candidate.first_seen = candidates.size();
    }
    candidate.evaluated_on_every_row = candidate.evaluated_on_every_row || every_row;
    for (size_t c = 0; c < e->children().size(); ++c) {
      collect(e->children()[c], every_row && ChildAlwaysEvaluated(*e, c));
    }
  };
  for (const auto& e : exprs) collect(e, true);

  // Largest first, so that whether a subexpression is shared is settled before those inside
  // it are counted: inside a shared one, they occur once, in its single evaluation.
  std::vector<const Candidate*> by_size;
  for (const auto& [key, candidate] : candidates) by_size.push_back(&candidate);
  std::sort(by_size.begin(), by_size.end(), [](const Candidate* a, const Candidate* b) {
    return a->size != b->size ? a->size > b->size : a->first_seen < b->first_seen;
  });
  std::set<std::string> shared_keys;
  for (const Candidate* candidate : by_size) {
    // One that can fail where only some rows would evaluate it is not computed for all rows.
    if (candidate->expr->can_fail() && !candidate->evaluated_on_every_row) continue;
    const std::string& target = keys.Of(*candidate->expr);
    int occurrences = 0;
    std::set<std::string> visited_shared;
    std::function<void(const BoundExpr&)> count = [&](const BoundExpr& e) {
      const std::string& key = keys.Of(e);
      if (key == target) {
        ++occurrences;
        return;
      }
      if (shared_keys.count(key) && !visited_shared.insert(key).second) return;
      for (const auto& child : e.children()) count(*child);
    };
    for (const auto& e : exprs) count(*e);
    if (occurrences >= 2) shared_keys.insert(target);
  }

  // Smallest first: each shared subexpression reads the ones inside it from their columns.
  std::vector<const Candidate*> chosen;
  for (auto it = by_size.rbegin(); it != by_size.rend(); ++it) {
    if (shared_keys.count(keys.Of(*(*it)->expr))) chosen.push_back(*it);
  }
  std::unordered_map<std::string, BoundExprPtr> columns;
  std::function<BoundExprPtr(const BoundExprPtr&, bool)> rewrite =
      [&](const BoundExprPtr& e, bool at_root) -> BoundExprPtr {
    if (IsLeaf(*e)) return e;
    if (!at_root) {
      auto column = columns.find(keys.Of(*e));
      if (column != columns.end()) return column->second;
    }
    std::vector<BoundExprPtr> children;
    bool changed = false;
    for (const auto& child : e->children()) {
      children.push_back(rewrite(child, false));
      changed = changed || children.back() != child;
    }
    return changed ? WithChildren(e, std::move(children)) : e;
  };
  for (const Candidate* candidate : chosen) {
    const BoundExprPtr& e = candidate->expr;
    shared_.push_back(rewrite(e, true));
    columns.emplace(keys.Of(*e),
                    std::make_shared<BoundColumn>(input_columns + static_cast<int>(columns.size()),
                                                  e->type(), e->nullable(), e->sql()));
  }
  for (const auto& e : exprs) exprs_.push_back(rewrite(e, false));
}

arrow::Result<std::shared_ptr<arrow::RecordBatch>> SharedSubexpressions::Extend(
    std::shared_ptr<arrow::RecordBatch> batch, const EvalContext& context) const {
  if (shared_.empty()) return batch;
  if (batch->num_columns() != input_columns_) {
    return arrow::Status::Invalid("A batch of ", batch->num_columns(),
                                  " columns reached expressions bound to ", input_columns_);
  }
  arrow::FieldVector fields = batch->schema()->fields();
  arrow::ArrayVector columns = batch->columns();
  for (const auto& e : shared_) {
    ARROW_ASSIGN_OR_RAISE(auto values, EvaluateToArray(*e, *batch, context));
    fields.push_back(arrow::field("shared" + std::to_string(columns.size()), e->type(),
                                  e->nullable()));
    columns.push_back(std::move(values));
    batch = arrow::RecordBatch::Make(arrow::schema(fields), batch->num_rows(), columns);
  }
  return batch;
}

}  // namespace sluice::expr
