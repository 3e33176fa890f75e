#include "sluice/plan/event_time_watermark.h"

#include <arrow/type.h>

#include "sluice/common/durations.h"
#include "sluice/common/errors.h"
#include "sluice/expr/binder.h"
#include "sluice/expr/call_checks.h"
#include "sluice/plan/project.h"

namespace sluice::plan {

arrow::Result<std::shared_ptr<const EventTimeWatermark>> EventTimeWatermark::Make(
    PlanPtr child, const std::string& event_time, const std::string& delay,
    const AnalysisContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto bound,
                        expr::Bind(*expr::Col(event_time), ScopeOf(*child, context)));
  if (bound->kind() != expr::BoundKind::kColumn) {
    return SparkError("UNRESOLVED_COLUMN.WITHOUT_SUGGESTION",
                      "A column with name " + QuoteIdentifier(event_time) +
                          " cannot be resolved for withWatermark.");
  }
  const auto& type = *bound->type();
  bool is_timestamp = type.id() == arrow::Type::TIMESTAMP &&
                      !static_cast<const arrow::TimestampType&>(type).timezone().empty();
  if (!is_timestamp) {
    return SparkError("EVENT_TIME_IS_NOT_ON_TIMESTAMP_TYPE",
                      "The event time " + QuoteIdentifier(event_time) +
                          " has the invalid type \"" + expr::SqlTypeName(type) +
                          "\", but expected \"TIMESTAMP\".");
  }
  ARROW_ASSIGN_OR_RAISE(int64_t delay_ms, ParseIntervalMs(delay, "withWatermark"));
  if (delay_ms < 0) {
    return SparkError("INVALID_INTERVAL_FORMAT.INVALID_VALUE",
                      "delay threshold (" + delay + ") should not be negative.");
  }
  int column = static_cast<const expr::BoundColumn&>(*bound).index();
  return std::make_shared<EventTimeWatermark>(std::move(child), column, delay_ms, delay);
}

expr::AttributeList EventTimeWatermark::MarkEventTime(expr::AttributeList output, int column,
                                                     int64_t delay_ms) {
  for (auto& attribute : output) attribute.event_time_delay_ms.reset();
  output[column].event_time_delay_ms = delay_ms;
  return output;
}

std::string EventTimeWatermark::Describe() const {
  const auto& attribute = output()[column_];
  return "EventTimeWatermark " + attribute.name + "#" + std::to_string(attribute.id) + ", " +
         delay_text_;
}

}  // namespace sluice::plan
