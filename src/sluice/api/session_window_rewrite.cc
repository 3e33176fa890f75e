#include "sluice/api/session_window_rewrite.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include <arrow/scalar.h>

#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"
#include "sluice/plan/filter.h"
#include "sluice/plan/project.h"
#include "sluice/plan/session_window_merge.h"

namespace sluice {

namespace {

using expr::Expr;
using expr::ExprKind;
using expr::ExprPtr;

constexpr const char* kSessionColumn = "session_window";

bool IsCallOf(const Expr& e, std::string_view name) {
  return e.kind() == ExprKind::kCall &&
         AsciiLower(static_cast<const expr::Call&>(e).name()) == name;
}

bool IsSessionWindowCall(const Expr& e) { return IsCallOf(e, "session_window"); }

const Expr& Unaliased(const Expr& e) {
  if (e.kind() == ExprKind::kAlias) return Unaliased(*static_cast<const expr::Alias&>(e).child());
  return e;
}

// The text of every window(...) and session_window(...) call in `e` (not inside another one).
void CollectWindowCalls(const ExprPtr& e, std::vector<ExprPtr>& sessions,
                        std::set<std::string>& all) {
  const bool session = IsSessionWindowCall(*e);
  if (session || IsCallOf(*e, "window")) {
    if (session) sessions.push_back(e);
    all.insert(e->ToString());
    return;
  }
  for (const auto& child : e->children()) CollectWindowCalls(child, sessions, all);
}


// Child columns as references by id, so that names shadowed by the session column (or repeated
// after a join) still reach the right column.
std::vector<ExprPtr> ReferencesTo(const expr::AttributeList& attributes) {
  std::vector<ExprPtr> references;
  for (const auto& attribute : attributes) {
    references.push_back(std::make_shared<expr::ColumnRef>(
        std::vector<std::string>{attribute.name}, attribute.id));
  }
  return references;
}

// Project [__session_window(time, gap) AS session_window, child columns...]. As Spark's
// SessionWindowing, a session over the event-time column is itself an event time.
arrow::Result<std::shared_ptr<const plan::Project>> ProjectSessions(
    plan::PlanPtr child, const Expr& call, const plan::AnalysisContext& context) {
  std::vector<ExprPtr> exprs = {std::make_shared<expr::Alias>(
      expr::CallFunction("__session_window", call.children()), kSessionColumn)};
  for (auto& reference : ReferencesTo(child->output())) exprs.push_back(std::move(reference));
  ARROW_ASSIGN_OR_RAISE(auto project, plan::Project::Make(child, exprs, context));
  const auto& sessions = project->exprs()[0].expr;
  if (sessions->children().empty()) return project;
  const auto& time = sessions->children()[0];
  if (time->kind() != expr::BoundKind::kColumn) return project;
  const auto& delay =
      child->output()[static_cast<const expr::BoundColumn&>(*time).index()].event_time_delay_ms;
  if (!delay) return project;
  expr::AttributeList output = project->output();
  output[0].event_time_delay_ms = delay;
  return std::make_shared<plan::Project>(std::move(child), project->exprs(), std::move(output));
}

}  // namespace

arrow::Result<SessionWindowedInput> PlanSessionWindows(plan::PlanPtr child,
                                                       std::vector<ExprPtr> exprs,
                                                       size_t num_grouping_keys,
                                                       const plan::AnalysisContext& context) {
  std::vector<ExprPtr> calls;
  std::set<std::string> distinct_calls;
  for (const auto& e : exprs) CollectWindowCalls(e, calls, distinct_calls);
  if (calls.empty()) return SessionWindowedInput{std::move(child), std::move(exprs)};
  if (distinct_calls.size() > 1) {
    return SparkError("_LEGACY_ERROR_TEMP_1039",
                      "Multiple time/session window expressions would result in a cartesian "
                      "product of rows, therefore they are currently not supported.");
  }
  const Expr& call = *calls[0];
  if (call.children().size() != 2) {
    return SparkError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                      "The `session_window` requires 2 parameters but the actual number is " +
                          std::to_string(call.children().size()) +
                          ". Please, refer to "
                          "'https://spark.apache.org/docs/latest/sql-ref-functions.html' for a "
                          "fix.");
  }
  // `*` in a select list is expanded against the input before the session column joins it, as
  // Spark resolves the star before it plans the session window. Keys keep their positions.
  std::vector<ExprPtr> expanded;
  const size_t num_keys = std::min(num_grouping_keys, exprs.size());
  for (size_t i = 0; i < exprs.size(); ++i) {
    if (i >= num_keys && exprs[i]->kind() == ExprKind::kStar &&
        static_cast<const expr::Star&>(*exprs[i]).target().empty()) {
      for (auto& reference : ReferencesTo(child->output())) expanded.push_back(std::move(reference));
    } else {
      expanded.push_back(std::move(exprs[i]));
    }
  }

  ARROW_ASSIGN_OR_RAISE(auto project, ProjectSessions(child, call, context));
  const auto& session = project->output()[0];
  auto reference =
      std::make_shared<expr::ColumnRef>(std::vector<std::string>{session.name}, session.id);
  // Rows with a null time, or whose gap is null, unparsable or not positive, have no session.
  auto field = [&](const char* name) -> ExprPtr {
    return std::make_shared<expr::Extract>(reference, expr::Lit(arrow::MakeScalar(name)));
  };
  ARROW_ASSIGN_OR_RAISE(
      auto filter,
      plan::Filter::Make(project, expr::CallFunction(">", {field("end"), field("start")}),
                         context));
  plan::PlanPtr input = filter;

  std::vector<ExprPtr> other_keys;
  bool grouped_by_session = false;
  for (size_t k = 0; k < num_keys; ++k) {
    if (IsSessionWindowCall(Unaliased(*expanded[k]))) {
      grouped_by_session = true;
    } else {
      other_keys.push_back(
          expr::ReplaceSubexpressions(expanded[k], IsSessionWindowCall, reference));
    }
  }
  if (grouped_by_session) {
    ARROW_ASSIGN_OR_RAISE(input, plan::MergeSessionWindows::Make(std::move(input), other_keys,
                                                                 /*session_column=*/0, context));
  }
  for (auto& e : expanded) e = expr::ReplaceSubexpressions(e, IsSessionWindowCall, reference);
  return SessionWindowedInput{std::move(input), std::move(expanded)};
}

}  // namespace sluice
