#include "sluice/api/time_window_rewrite.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>

#include <arrow/scalar.h>

#include "sluice/api/star_expansion.h"
#include "sluice/common/errors.h"
#include "sluice/plan/filter.h"
#include "sluice/plan/generate.h"
#include "sluice/plan/project.h"

namespace sluice {

namespace {

using expr::Expr;
using expr::ExprKind;
using expr::ExprPtr;

bool IsWindowCall(const Expr& e) {
  if (e.kind() != ExprKind::kCall) return false;
  const auto& name = static_cast<const expr::Call&>(e).name();
  return name.size() == 6 && std::equal(name.begin(), name.end(), "window", [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == b;
         });
}

// Every window(...) call in `e` (not inside another window call).
void CollectWindowCalls(const ExprPtr& e, std::vector<ExprPtr>& found) {
  if (IsWindowCall(*e)) {
    found.push_back(e);
    return;
  }
  for (const auto& child : e->children()) CollectWindowCalls(child, found);
}


// The arguments of the internal __time_windows(time, window, slide, start): the slide defaults
// to the window duration, the start time to 0.
arrow::Result<std::vector<ExprPtr>> WindowArguments(const Expr& call) {
  std::vector<ExprPtr> args = call.children();
  if (args.size() < 2 || args.size() > 4) {
    return SparkError("WRONG_NUM_ARGS.WITHOUT_SUGGESTION",
                      "The `window` requires [2, 3, 4] parameters but the actual number is " +
                          std::to_string(args.size()) + ".");
  }
  if (args.size() == 2) args.push_back(args[1]);
  if (args.size() == 3) args.push_back(expr::Lit(arrow::MakeScalar(int64_t{0})));
  return args;
}

// As Spark's TimeWindowing, a window over the event-time column is itself an event time
// (stateful operators evict a window once the watermark passes its end).
std::shared_ptr<const plan::Generate> WithWindowEventTime(
    std::shared_ptr<const plan::Generate> generate) {
  const auto& windows = generate->collection();  // __time_windows(time, ...)
  if (windows->children().empty()) return generate;
  const auto& time = windows->children()[0];
  if (time->kind() != expr::BoundKind::kColumn) return generate;
  const auto& input = generate->children()[0]->output();
  const auto& delay = input[static_cast<const expr::BoundColumn&>(*time).index()]
                          .event_time_delay_ms;
  if (!delay) return generate;
  expr::AttributeList output = generate->output();
  output.back().event_time_delay_ms = delay;
  return generate->WithOutput(std::move(output));
}

// A window without a slide, or with the window's own text as its slide, is tumbling.
bool IsTumbling(const Expr& call) {
  const auto& args = call.children();
  return args.size() == 2 || (args.size() >= 3 && args[2]->ToString() == args[1]->ToString());
}

// A tumbling window puts each row into exactly one window, so, as Spark plans it, a projection
// computes it (`window` after the child's columns) over the rows whose time is not null;
// nothing is exploded or copied.
arrow::Result<plan::PlanPtr> PlanTumblingWindow(plan::PlanPtr child, std::vector<ExprPtr> args,
                                                const plan::AnalysisContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto filtered,
                        plan::Filter::Make(child, expr::CallFunction("isnotnull", {args[0]}),
                                           context));
  std::vector<ExprPtr> exprs;
  for (const auto& attribute : child->output()) {
    exprs.push_back(std::make_shared<expr::ColumnRef>(std::vector<std::string>{attribute.name},
                                                      attribute.id));
  }
  exprs.push_back(std::make_shared<expr::Alias>(
      expr::CallFunction("__tumbling_window", std::move(args)), "window"));
  ARROW_ASSIGN_OR_RAISE(auto project, plan::Project::Make(filtered, exprs, context));
  // As Spark's TimeWindowing, a window over the event-time column is itself an event time.
  expr::AttributeList output = project->output();
  const auto& window = project->exprs().back().expr;
  const auto& time = window->children()[0];
  if (time->kind() == expr::BoundKind::kColumn) {
    output.back().event_time_delay_ms =
        filtered->output()[static_cast<const expr::BoundColumn&>(*time).index()]
            .event_time_delay_ms;
  }
  return std::make_shared<plan::Project>(filtered, project->exprs(), std::move(output));
}

}  // namespace

arrow::Result<TimeWindowedInput> PlanTimeWindows(plan::PlanPtr child,
                                                 std::vector<ExprPtr> exprs,
                                                 const plan::AnalysisContext& context) {
  std::vector<ExprPtr> calls;
  for (const auto& e : exprs) CollectWindowCalls(e, calls);
  if (calls.empty()) return TimeWindowedInput{std::move(child), std::move(exprs)};
  for (const auto& call : calls) {
    if (call->ToString() != calls[0]->ToString()) {
      return SparkError("UNSUPPORTED_EXPR_FOR_OPERATOR",
                        "Multiple time/session window expressions would result in a cartesian "
                        "product of rows, therefore they are currently not supported: " +
                            calls[0]->ToString() + ", " + call->ToString() + ".");
    }
  }
  std::vector<ExprPtr> expanded = ExpandUnqualifiedStar(std::move(exprs), *child);
  ARROW_ASSIGN_OR_RAISE(auto args, WindowArguments(*calls[0]));
  plan::PlanPtr windowed;
  if (IsTumbling(*calls[0])) {
    ARROW_ASSIGN_OR_RAISE(windowed, PlanTumblingWindow(std::move(child), std::move(args), context));
  } else {
    auto windows = expr::CallFunction("__time_windows", std::move(args));
    auto generator = std::make_shared<expr::Alias>(
        expr::CallFunction("explode", {std::move(windows)}), "window");
    ARROW_ASSIGN_OR_RAISE(auto generate,
                          plan::Generate::Make(std::move(child), generator, context));
    windowed = WithWindowEventTime(std::move(generate));
  }
  const auto& window = windowed->output().back();
  auto reference =
      std::make_shared<expr::ColumnRef>(std::vector<std::string>{window.name}, window.id);
  for (auto& e : expanded) e = expr::ReplaceSubexpressions(e, IsWindowCall, reference);
  return TimeWindowedInput{std::move(windowed), std::move(expanded)};
}

}  // namespace sluice
