#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <arrow/result.h>

#include "sluice/plan/analysis_context.h"
#include "sluice/plan/logical_plan.h"

namespace sluice::plan {

/// withWatermark(eventTime, delay): marks a timestamp column as the event time of the rows
/// below it. In a batch query it changes nothing; in a micro-batch it observes each batch's
/// event times so the loop can advance the watermark (max event time - delay).
class EventTimeWatermark final : public LogicalPlan {
 public:
  /// Resolves `event_time` in `child` (a timestamp column: EVENT_TIME_IS_NOT_ON_TIMESTAMP_TYPE
  /// otherwise) and parses `delay` as an interval ("10 minutes"; negative refused).
  static arrow::Result<std::shared_ptr<const EventTimeWatermark>> Make(
      PlanPtr child, const std::string& event_time, const std::string& delay,
      const AnalysisContext& context);

  /// The position of the event-time column in the output.
  int column() const { return column_; }
  int64_t delay_ms() const { return delay_ms_; }
  std::string Describe() const override;

  EventTimeWatermark(PlanPtr child, int column, int64_t delay_ms, std::string delay_text)
      : LogicalPlan(PlanKind::kEventTimeWatermark, {child},
                    MarkEventTime(child->output(), column, delay_ms)),
        column_(column),
        delay_ms_(delay_ms),
        delay_text_(std::move(delay_text)) {}

 private:
  /// `output` with `column` marked as the event time with `delay_ms`; as in Spark, a column
  /// marked by an earlier withWatermark is no longer the event time.
  static expr::AttributeList MarkEventTime(expr::AttributeList output, int column,
                                           int64_t delay_ms);

  int column_;
  int64_t delay_ms_;
  std::string delay_text_;
};

}  // namespace sluice::plan
