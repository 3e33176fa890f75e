#include "sluice/physical/planner.h"

#include "sluice/common/errors.h"
#include "sluice/physical/event_time_watermark_operator.h"
#include "sluice/physical/generate_operator.h"
#include "sluice/physical/groups_with_state_operator.h"
#include "sluice/physical/hash_aggregate.h"
#include "sluice/physical/hash_join.h"
#include "sluice/physical/limit_operator.h"
#include "sluice/physical/pane_aggregation.h"
#include "sluice/physical/project_operator.h"
#include "sluice/physical/read_ahead_stream.h"
#include "sluice/physical/scan_operator.h"
#include "sluice/physical/session_window_merge_operator.h"
#include "sluice/physical/sort_operator.h"
#include "sluice/physical/streaming_aggregate.h"
#include "sluice/physical/streaming_deduplicate.h"
#include "sluice/physical/streaming_join.h"
#include "sluice/physical/transform_with_state_operator.h"
#include "sluice/physical/streaming_session_aggregate.h"
#include "sluice/physical/union_operator.h"
#include "sluice/physical/window_operator.h"
#include "sluice/plan/aggregate.h"
#include "sluice/plan/event_time_watermark.h"
#include "sluice/plan/filter.h"
#include "sluice/plan/flat_map_groups_with_state.h"
#include "sluice/plan/generate.h"
#include "sluice/plan/join.h"
#include "sluice/plan/limit.h"
#include "sluice/plan/project.h"
#include "sluice/plan/pushed_filters.h"
#include "sluice/plan/relation.h"
#include "sluice/plan/required_columns.h"
#include "sluice/plan/session_window_merge.h"
#include "sluice/plan/sort.h"
#include "sluice/plan/transform_with_state.h"
#include "sluice/plan/union.h"
#include "sluice/plan/window.h"

namespace sluice::physical {

namespace {

arrow::Result<BatchStreamPtr> ExecuteWith(const plan::LogicalPlan& node,
                                          const ExecContext& context, plan::Conditions pushed,
                                          const plan::ColumnUses& required);

/// Runs `node`, of whose output `required` is read, with its children run with `into[i]`
/// pushed down to their outputs.
arrow::Result<BatchStreamPtr> ExecuteNode(const plan::LogicalPlan& node,
                                          const ExecContext& context,
                                          const std::vector<plan::Conditions>& into,
                                          const plan::ColumnUses& required) {
  const std::vector<plan::ColumnUses> required_of = plan::RequiredOfChildren(node, required);
  auto child = [&](size_t i) {
    return ExecuteWith(*node.children()[i], context,
                       i < into.size() ? into[i] : plan::Conditions(), required_of[i]);
  };
  // The input of a stateful operator, run ahead of it when it may (read_ahead_stream.h).
  auto ahead = [](const plan::LogicalPlan& input_node, BatchStreamPtr input) {
    return MayRunAhead(input_node) ? RunAhead(std::move(input)) : std::move(input);
  };
  switch (node.kind()) {
    case plan::PlanKind::kRelation:
      return MakeScan(static_cast<const plan::Relation&>(node), required, context);
    case plan::PlanKind::kProject: {
      ARROW_ASSIGN_OR_RAISE(auto input, child(0));
      return MakeProject(static_cast<const plan::Project&>(node), plan::ReadFlags(required),
                         std::move(input), context);
    }
    case plan::PlanKind::kFilter: {
      ARROW_ASSIGN_OR_RAISE(auto input, child(0));
      // Pushing filters down, the filter's conditions went on into its child (PushThrough
      // passes them all on) and run where Spark's pushdown stops them: the filter is moved, as
      // Spark's optimizer moves it, not run a second time here. Run again, Nexmark q21's
      // regexp_extract over each url was looked up three times instead of twice.
      if (!into.empty()) return input;
      return MakeFilter(static_cast<const plan::Filter&>(node), required,
                        std::move(input), context);
    }
    case plan::PlanKind::kAggregate: {
      const auto& input_node = *node.children()[0];
      if (context.stateful != nullptr && node.is_streaming() &&
          input_node.kind() == plan::PlanKind::kMergeSessionWindows) {
        // On a stream, sessions are merged with the ones kept in state, not within the batch
        // (nothing is pushed below the merging of sessions). The rows need only what the
        // aggregation and the merging read.
        const auto& sessions = *input_node.children()[0];
        const plan::ColumnUses rows_read =
            plan::RequiredOfChildren(input_node, required_of[0])[0];
        ARROW_ASSIGN_OR_RAISE(auto rows, ExecuteWith(sessions, context, {}, rows_read));
        return MakeStreamingSessionAggregate(
            static_cast<const plan::Aggregate&>(node),
            static_cast<const plan::MergeSessionWindows&>(input_node),
            ahead(sessions, std::move(rows)), context);
      }
      if (context.stateful != nullptr && node.is_streaming() &&
          (into.empty() || into[0].empty()) &&
          PaneAggregation::Applies(static_cast<const plan::Aggregate&>(node))) {
        // A sliding window aggregated per pane: the rows are not exploded into their windows
        // (unless conditions pushed to the explosion must see the windows).
        const auto& rows_node = *input_node.children()[0];
        const plan::ColumnUses rows_read =
            plan::RequiredOfChildren(input_node, required_of[0])[0];
        ARROW_ASSIGN_OR_RAISE(auto rows, ExecuteWith(rows_node, context, {}, rows_read));
        return MakeStreamingAggregate(static_cast<const plan::Aggregate&>(node),
                                      ahead(rows_node, std::move(rows)), context,
                                      /*per_pane=*/true);
      }
      ARROW_ASSIGN_OR_RAISE(auto input, child(0));
      if (context.stateful != nullptr && node.is_streaming()) {
        const auto& aggregate = static_cast<const plan::Aggregate&>(node);
        input = ahead(input_node, std::move(input));
        if (aggregate.is_deduplicate()) {
          return MakeStreamingDeduplicate(aggregate, std::move(input), context);
        }
        return MakeStreamingAggregate(aggregate, std::move(input), context);
      }
      return MakeHashAggregate(static_cast<const plan::Aggregate&>(node), std::move(input),
                               context);
    }
    case plan::PlanKind::kSort: {
      ARROW_ASSIGN_OR_RAISE(auto input, child(0));
      return MakeSort(static_cast<const plan::Sort&>(node), std::move(input), context);
    }
    case plan::PlanKind::kLimit: {
      ARROW_ASSIGN_OR_RAISE(auto input, child(0));
      return MakeLimit(static_cast<const plan::Limit&>(node), std::move(input));
    }
    case plan::PlanKind::kUnion: {
      std::vector<BatchStreamPtr> inputs;
      for (size_t i = 0; i < node.children().size(); ++i) {
        ARROW_ASSIGN_OR_RAISE(auto input, child(i));
        inputs.push_back(std::move(input));
      }
      return MakeUnion(static_cast<const plan::Union&>(node), std::move(inputs));
    }
    case plan::PlanKind::kJoin: {
      ARROW_ASSIGN_OR_RAISE(auto left, child(0));
      ARROW_ASSIGN_OR_RAISE(auto right, child(1));
      if (context.stateful != nullptr && node.children()[0]->is_streaming() &&
          node.children()[1]->is_streaming()) {
        return MakeStreamingJoin(static_cast<const plan::Join&>(node),
                                 ahead(*node.children()[0], std::move(left)),
                                 ahead(*node.children()[1], std::move(right)),
                                 {plan::ReadFlags(required_of[0]), plan::ReadFlags(required_of[1])},
                                 context);
      }
      return MakeHashJoin(static_cast<const plan::Join&>(node), std::move(left),
                          std::move(right), context);
    }
    case plan::PlanKind::kGenerate: {
      ARROW_ASSIGN_OR_RAISE(auto input, child(0));
      return MakeGenerate(static_cast<const plan::Generate&>(node), plan::ReadFlags(required),
                          std::move(input), context);
    }
    case plan::PlanKind::kEventTimeWatermark: {
      ARROW_ASSIGN_OR_RAISE(auto input, child(0));
      return MakeEventTimeWatermark(static_cast<const plan::EventTimeWatermark&>(node),
                                    std::move(input), context);
    }
    case plan::PlanKind::kMergeSessionWindows: {
      ARROW_ASSIGN_OR_RAISE(auto input, child(0));
      return MakeMergeSessionWindows(static_cast<const plan::MergeSessionWindows&>(node),
                                     std::move(input), context);
    }
    case plan::PlanKind::kWindow: {
      ARROW_ASSIGN_OR_RAISE(auto input, child(0));
      return MakeWindow(static_cast<const plan::Window&>(node), std::move(input), context);
    }
    case plan::PlanKind::kFlatMapGroupsWithState: {
      ARROW_ASSIGN_OR_RAISE(auto input, child(0));
      return MakeFlatMapGroupsWithState(static_cast<const plan::FlatMapGroupsWithState&>(node),
                                        std::move(input), context);
    }
    case plan::PlanKind::kTransformWithState: {
      ARROW_ASSIGN_OR_RAISE(auto input, child(0));
      BatchStreamPtr initial_state;
      if (node.children().size() > 1) {
        ARROW_ASSIGN_OR_RAISE(initial_state, child(1));
      }
      return MakeTransformWithState(static_cast<const plan::TransformWithState&>(node),
                                    std::move(input), std::move(initial_state), context);
    }
    case plan::PlanKind::kSubqueryAlias:
      return child(0);
    default:
      break;
  }
  return SparkError("UNSUPPORTED_FEATURE",
                    "The plan node '" + node.Describe() + "' cannot be executed yet.");
}

arrow::Result<BatchStreamPtr> ExecuteWith(const plan::LogicalPlan& node,
                                          const ExecContext& context, plan::Conditions pushed,
                                          const plan::ColumnUses& required) {
  if (!context.push_down_filters) return ExecuteNode(node, context, {}, required);
  plan::PushDown step = plan::PushThrough(node, std::move(pushed));
  // The conditions that stop here read the node's output too.
  plan::ColumnUses read = required;
  for (const auto& condition : step.stop) plan::MarkColumnsRead(*condition, read);
  ARROW_ASSIGN_OR_RAISE(auto stream, ExecuteNode(node, context, step.into_children, read));
  if (step.stop.empty()) return stream;
  return MakeFilter(plan::Conjunction(step.stop), required, std::move(stream),
                    context);
}

}  // namespace

arrow::Result<BatchStreamPtr> Execute(const plan::LogicalPlan& node, const ExecContext& context) {
  return ExecuteWith(node, context, {}, plan::AllColumns(node));
}

}  // namespace sluice::physical
