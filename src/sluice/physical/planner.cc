#include "sluice/physical/planner.h"

#include "sluice/common/errors.h"
#include "sluice/physical/event_time_watermark_operator.h"
#include "sluice/physical/generate_operator.h"
#include "sluice/physical/hash_aggregate.h"
#include "sluice/physical/hash_join.h"
#include "sluice/physical/limit_operator.h"
#include "sluice/physical/project_operator.h"
#include "sluice/physical/scan_operator.h"
#include "sluice/physical/session_window_merge_operator.h"
#include "sluice/physical/sort_operator.h"
#include "sluice/physical/streaming_aggregate.h"
#include "sluice/physical/streaming_deduplicate.h"
#include "sluice/physical/streaming_join.h"
#include "sluice/physical/streaming_session_aggregate.h"
#include "sluice/physical/union_operator.h"
#include "sluice/physical/window_operator.h"
#include "sluice/plan/aggregate.h"
#include "sluice/plan/event_time_watermark.h"
#include "sluice/plan/filter.h"
#include "sluice/plan/generate.h"
#include "sluice/plan/join.h"
#include "sluice/plan/limit.h"
#include "sluice/plan/project.h"
#include "sluice/plan/relation.h"
#include "sluice/plan/session_window_merge.h"
#include "sluice/plan/sort.h"
#include "sluice/plan/union.h"
#include "sluice/plan/window.h"

namespace sluice::physical {

arrow::Result<BatchStreamPtr> Execute(const plan::LogicalPlan& node, const ExecContext& context) {
  switch (node.kind()) {
    case plan::PlanKind::kRelation:
      return MakeScan(static_cast<const plan::Relation&>(node), context);
    case plan::PlanKind::kProject: {
      ARROW_ASSIGN_OR_RAISE(auto input, Execute(*node.children()[0], context));
      return MakeProject(static_cast<const plan::Project&>(node), std::move(input), context);
    }
    case plan::PlanKind::kFilter: {
      ARROW_ASSIGN_OR_RAISE(auto input, Execute(*node.children()[0], context));
      return MakeFilter(static_cast<const plan::Filter&>(node), std::move(input), context);
    }
    case plan::PlanKind::kAggregate: {
      const auto& child = *node.children()[0];
      if (context.stateful != nullptr && node.is_streaming() &&
          child.kind() == plan::PlanKind::kMergeSessionWindows) {
        // On a stream, sessions are merged with the ones kept in state, not within the batch.
        ARROW_ASSIGN_OR_RAISE(auto rows, Execute(*child.children()[0], context));
        return MakeStreamingSessionAggregate(
            static_cast<const plan::Aggregate&>(node),
            static_cast<const plan::MergeSessionWindows&>(child), std::move(rows), context);
      }
      ARROW_ASSIGN_OR_RAISE(auto input, Execute(child, context));
      if (context.stateful != nullptr && node.is_streaming()) {
        const auto& aggregate = static_cast<const plan::Aggregate&>(node);
        if (aggregate.is_deduplicate()) {
          return MakeStreamingDeduplicate(aggregate, std::move(input), context);
        }
        return MakeStreamingAggregate(aggregate, std::move(input), context);
      }
      return MakeHashAggregate(static_cast<const plan::Aggregate&>(node), std::move(input),
                               context);
    }
    case plan::PlanKind::kSort: {
      ARROW_ASSIGN_OR_RAISE(auto input, Execute(*node.children()[0], context));
      return MakeSort(static_cast<const plan::Sort&>(node), std::move(input), context);
    }
    case plan::PlanKind::kLimit: {
      ARROW_ASSIGN_OR_RAISE(auto input, Execute(*node.children()[0], context));
      return MakeLimit(static_cast<const plan::Limit&>(node), std::move(input));
    }
    case plan::PlanKind::kUnion: {
      std::vector<BatchStreamPtr> inputs;
      for (const auto& child : node.children()) {
        ARROW_ASSIGN_OR_RAISE(auto input, Execute(*child, context));
        inputs.push_back(std::move(input));
      }
      return MakeUnion(static_cast<const plan::Union&>(node), std::move(inputs));
    }
    case plan::PlanKind::kJoin: {
      ARROW_ASSIGN_OR_RAISE(auto left, Execute(*node.children()[0], context));
      ARROW_ASSIGN_OR_RAISE(auto right, Execute(*node.children()[1], context));
      if (context.stateful != nullptr && node.children()[0]->is_streaming() &&
          node.children()[1]->is_streaming()) {
        return MakeStreamingJoin(static_cast<const plan::Join&>(node), std::move(left),
                                 std::move(right), context);
      }
      return MakeHashJoin(static_cast<const plan::Join&>(node), std::move(left),
                          std::move(right), context);
    }
    case plan::PlanKind::kGenerate: {
      ARROW_ASSIGN_OR_RAISE(auto input, Execute(*node.children()[0], context));
      return MakeGenerate(static_cast<const plan::Generate&>(node), std::move(input), context);
    }
    case plan::PlanKind::kEventTimeWatermark: {
      ARROW_ASSIGN_OR_RAISE(auto input, Execute(*node.children()[0], context));
      return MakeEventTimeWatermark(static_cast<const plan::EventTimeWatermark&>(node),
                                    std::move(input), context);
    }
    case plan::PlanKind::kMergeSessionWindows: {
      ARROW_ASSIGN_OR_RAISE(auto input, Execute(*node.children()[0], context));
      return MakeMergeSessionWindows(static_cast<const plan::MergeSessionWindows&>(node),
                                     std::move(input), context);
    }
    case plan::PlanKind::kWindow: {
      ARROW_ASSIGN_OR_RAISE(auto input, Execute(*node.children()[0], context));
      return MakeWindow(static_cast<const plan::Window&>(node), std::move(input), context);
    }
    case plan::PlanKind::kSubqueryAlias:
      return Execute(*node.children()[0], context);
    default:
      break;
  }
  return SparkError("UNSUPPORTED_FEATURE",
                    "The plan node '" + node.Describe() + "' cannot be executed yet.");
}

}  // namespace sluice::physical
