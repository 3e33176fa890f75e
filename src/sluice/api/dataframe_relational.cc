// The relational operators of DataFrame and GroupedData: each builds one analyzed plan node.
#include <arrow/type.h>

#include "sluice/api/dataframe.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/api/session_state.h"
#include "sluice/api/session_window_rewrite.h"
#include "sluice/api/time_window_rewrite.h"
#include "sluice/common/errors.h"
#include "sluice/plan/aggregate.h"
#include "sluice/plan/flat_map_groups_with_state.h"
#include "sluice/plan/join.h"
#include "sluice/plan/limit.h"
#include "sluice/plan/sort.h"
#include "sluice/plan/transform_with_state.h"
#include "sluice/plan/union.h"

namespace sluice {

namespace {

std::vector<expr::ExprPtr> ExprsOf(const std::vector<Column>& columns) {
  std::vector<expr::ExprPtr> exprs;
  exprs.reserve(columns.size());
  for (const auto& column : columns) exprs.push_back(column.expr());
  return exprs;
}

template <typename T>
arrow::Result<plan::PlanPtr> AsPlan(arrow::Result<std::shared_ptr<const T>> node) {
  ARROW_RETURN_NOT_OK(node.status());
  return plan::PlanPtr(*std::move(node));
}

bool IsNumeric(const arrow::DataType& type) {
  return arrow::is_integer(type.id()) || arrow::is_floating(type.id()) ||
         type.id() == arrow::Type::DECIMAL128;
}

}  // namespace

DataFrame DataFrame::orderBy(std::vector<Column> keys) const {
  if (!ok()) return *this;
  return With(AsPlan(plan::Sort::Make(plan_, ExprsOf(keys), session_->analysis_context())));
}

DataFrame DataFrame::limit(int64_t n) const {
  if (!ok()) return *this;
  return With(AsPlan(plan::Limit::Make(plan_, n)));
}

DataFrame DataFrame::distinct() const { return dropDuplicates({}); }

DataFrame DataFrame::dropDuplicates(const std::vector<std::string>& subset) const {
  if (!ok()) return *this;
  return With(
      AsPlan(plan::Aggregate::MakeDeduplicate(plan_, subset, session_->analysis_context())));
}

DataFrame DataFrame::dropDuplicatesWithinWatermark(const std::vector<std::string>& subset) const {
  if (!ok()) return *this;
  return With(AsPlan(plan::Aggregate::MakeDeduplicate(
      plan_, subset, session_->analysis_context(),
      plan::Aggregate::Deduplication::kWithinWatermark)));
}

DataFrame DataFrame::union_(const DataFrame& other) const {
  if (!ok()) return *this;
  if (!other.ok()) return other;
  return With(AsPlan(plan::Union::Make({plan_, other.plan_}, session_->analysis_context())));
}

DataFrame DataFrame::unionByName(const DataFrame& other, bool allow_missing_columns) const {
  if (!ok()) return *this;
  if (!other.ok()) return other;
  return With(AsPlan(plan::Union::MakeByName(plan_, other.plan_, allow_missing_columns,
                                             session_->analysis_context())));
}

DataFrame DataFrame::join(const DataFrame& other, const Column& on,
                          const std::string& how) const {
  if (!ok()) return *this;
  if (!other.ok()) return other;
  auto type = plan::ParseJoinType(how);
  if (!type.ok()) return DataFrame(session_, type.status());
  return With(AsPlan(
      plan::Join::Make(plan_, other.plan_, *type, on.expr(), session_->analysis_context())));
}

DataFrame DataFrame::join(const DataFrame& other, const std::vector<std::string>& using_columns,
                          const std::string& how) const {
  if (!ok()) return *this;
  if (!other.ok()) return other;
  auto type = plan::ParseJoinType(how);
  if (!type.ok()) return DataFrame(session_, type.status());
  return With(plan::Join::MakeUsing(plan_, other.plan_, *type, using_columns,
                                    session_->analysis_context()));
}

DataFrame DataFrame::crossJoin(const DataFrame& other) const {
  if (!ok()) return *this;
  if (!other.ok()) return other;
  return With(AsPlan(plan::Join::Make(plan_, other.plan_, plan::JoinType::kCross, nullptr,
                                      session_->analysis_context())));
}

GroupedData DataFrame::groupBy(std::vector<Column> keys) const {
  return GroupedData(*this, std::move(keys));
}

DataFrame DataFrame::agg(std::vector<Column> aggregates) const {
  return AggregateSelectList(*this, {}, std::move(aggregates));
}

namespace {

// Groups `input` by `keys` with `aggregates` as the output list after the keys (when
// `keys_in_output`) or alone.
DataFrame Aggregate(const DataFrame& input, const std::vector<Column>& grouping,
                    const std::vector<Column>& aggregates, bool keys_in_output) {
  if (!input.ok()) return input;
  const auto context = input.session()->analysis_context();
  // window(time, ...) among the keys or aggregates groups by the rows' time windows.
  std::vector<expr::ExprPtr> exprs = ExprsOf(grouping);
  for (const auto& aggregate : aggregates) exprs.push_back(aggregate.expr());
  // session_window(time, gap) among the keys groups by the merged sessions of the other keys.
  auto sessions = PlanSessionWindows(input.plan(), std::move(exprs), grouping.size(), context);
  if (!sessions.ok()) return DataFrame(input.session(), sessions.status());
  auto windowed = PlanTimeWindows(sessions->child, std::move(sessions->exprs), context);
  if (!windowed.ok()) return DataFrame(input.session(), windowed.status());
  std::vector<expr::ExprPtr> keys(windowed->exprs.begin(),
                                  windowed->exprs.begin() + grouping.size());
  std::vector<expr::ExprPtr> values(windowed->exprs.begin() + grouping.size(),
                                    windowed->exprs.end());
  auto node = plan::Aggregate::Make(windowed->child, std::move(keys), std::move(values), context,
                                    keys_in_output);
  if (!node.ok()) return DataFrame(input.session(), node.status());
  return DataFrame(input.session(), plan::PlanPtr(*std::move(node)));
}

}  // namespace

DataFrame GroupedData::agg(std::vector<Column> aggregates) const {
  return Aggregate(input_, keys_, aggregates, /*keys_in_output=*/true);
}

DataFrame AggregateSelectList(const DataFrame& input, std::vector<Column> keys,
                              std::vector<Column> select_list) {
  return Aggregate(input, keys, select_list, /*keys_in_output=*/false);
}

DataFrame GroupedData::flatMapGroupsWithState(plan::FlatMapGroupsWithStateFunction function,
                                              std::shared_ptr<arrow::Schema> output_schema,
                                              std::shared_ptr<arrow::Schema> state_schema,
                                              const std::string& output_mode,
                                              const std::string& timeout) const {
  if (!input_.ok()) return input_;
  auto mode = plan::ParseOutputMode(output_mode);
  if (!mode.ok()) return DataFrame(input_.session(), mode.status());
  auto parsed_timeout = plan::ParseGroupStateTimeout(timeout);
  if (!parsed_timeout.ok()) return DataFrame(input_.session(), parsed_timeout.status());
  auto node = plan::FlatMapGroupsWithState::Make(
      input_.plan(), ExprsOf(keys_), std::move(function), std::move(output_schema),
      std::move(state_schema), *mode, *parsed_timeout, /*is_map=*/false,
      input_.session()->analysis_context());
  if (!node.ok()) return DataFrame(input_.session(), node.status());
  return DataFrame(input_.session(), plan::PlanPtr(*std::move(node)));
}

DataFrame GroupedData::mapGroupsWithState(MapGroupsWithStateFunction function,
                                          std::shared_ptr<arrow::Schema> output_schema,
                                          std::shared_ptr<arrow::Schema> state_schema,
                                          const std::string& timeout) const {
  if (!input_.ok()) return input_;
  auto parsed_timeout = plan::ParseGroupStateTimeout(timeout);
  if (!parsed_timeout.ok()) return DataFrame(input_.session(), parsed_timeout.status());
  // One row per call: the row the function returns, as a batch of one.
  plan::FlatMapGroupsWithStateFunction one_row =
      [function = std::move(function), output_schema](
          const std::shared_ptr<arrow::StructScalar>& key,
          const std::shared_ptr<arrow::RecordBatch>& rows,
          plan::GroupState& state) -> arrow::Result<std::shared_ptr<arrow::RecordBatch>> {
    ARROW_ASSIGN_OR_RAISE(auto row, function(key, rows, state));
    if (row == nullptr) {
      return SparkError("ILLEGAL_ARGUMENT",
                        "The function of mapGroupsWithState must return one row.");
    }
    ARROW_ASSIGN_OR_RAISE(auto array, arrow::MakeArrayFromScalar(*row, 1));
    return arrow::RecordBatch::FromStructArray(array).Map(
        [&](std::shared_ptr<arrow::RecordBatch> batch) {
          return arrow::RecordBatch::Make(output_schema, 1, batch->columns());
        });
  };
  auto node = plan::FlatMapGroupsWithState::Make(
      input_.plan(), ExprsOf(keys_), std::move(one_row), output_schema,
      std::move(state_schema), plan::OutputMode::kUpdate, *parsed_timeout, /*is_map=*/true,
      input_.session()->analysis_context());
  if (!node.ok()) return DataFrame(input_.session(), node.status());
  return DataFrame(input_.session(), plan::PlanPtr(*std::move(node)));
}

DataFrame GroupedData::transformWithState(std::shared_ptr<plan::StatefulProcessor> processor,
                                          std::shared_ptr<arrow::Schema> output_schema,
                                          const std::string& output_mode,
                                          const std::string& time_mode,
                                          const GroupedData& initial_state) const {
  if (!initial_state.input_.ok()) return initial_state.input_;
  return TransformWithStateOf(std::move(processor), std::move(output_schema), output_mode,
                              time_mode, initial_state.input_.plan(),
                              ExprsOf(initial_state.keys_));
}

DataFrame GroupedData::transformWithState(std::shared_ptr<plan::StatefulProcessor> processor,
                                          std::shared_ptr<arrow::Schema> output_schema,
                                          const std::string& output_mode,
                                          const std::string& time_mode) const {
  return TransformWithStateOf(std::move(processor), std::move(output_schema), output_mode,
                              time_mode, nullptr, {});
}

DataFrame GroupedData::TransformWithStateOf(std::shared_ptr<plan::StatefulProcessor> processor,
                                            std::shared_ptr<arrow::Schema> output_schema,
                                            const std::string& output_mode,
                                            const std::string& time_mode,
                                            plan::PlanPtr initial_state,
                                            const std::vector<expr::ExprPtr>& initial_keys) const {
  if (!input_.ok()) return input_;
  auto mode = plan::ParseOutputMode(output_mode);
  if (!mode.ok()) return DataFrame(input_.session(), mode.status());
  auto parsed_time_mode = plan::ParseTimeMode(time_mode);
  if (!parsed_time_mode.ok()) return DataFrame(input_.session(), parsed_time_mode.status());
  auto node = plan::TransformWithState::Make(
      input_.plan(), ExprsOf(keys_), std::move(processor), std::move(output_schema), *mode,
      *parsed_time_mode, input_.session()->analysis_context(), std::move(initial_state),
      initial_keys);
  if (!node.ok()) return DataFrame(input_.session(), node.status());
  return DataFrame(input_.session(), plan::PlanPtr(*std::move(node)));
}

DataFrame GroupedData::count() const {
  return agg({Column(expr::CallFunction("count", {expr::Lit(arrow::MakeScalar(int32_t{1}))}))
                  .alias("count")});
}

DataFrame GroupedData::Shorthand(const std::string& function,
                                 const std::vector<std::string>& columns) const {
  if (!input_.ok()) return input_;
  std::vector<std::string> names = columns;
  if (names.empty()) {
    for (const auto& attribute : input_.plan()->output()) {
      if (IsNumeric(*attribute.type)) names.push_back(attribute.name);
    }
  }
  std::vector<Column> aggregates;
  for (const auto& name : names) {
    aggregates.emplace_back(expr::CallFunction(function, {expr::Col(name)}));
  }
  return agg(std::move(aggregates));
}

DataFrame GroupedData::sum(const std::vector<std::string>& columns) const {
  return Shorthand("sum", columns);
}
DataFrame GroupedData::avg(const std::vector<std::string>& columns) const {
  return Shorthand("avg", columns);
}
DataFrame GroupedData::min(const std::vector<std::string>& columns) const {
  return Shorthand("min", columns);
}
DataFrame GroupedData::max(const std::vector<std::string>& columns) const {
  return Shorthand("max", columns);
}

}  // namespace sluice
