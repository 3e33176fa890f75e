#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sluice/api/column.h"
#include "sluice/api/dataframe.h"
#include "sluice/plan/group_state.h"
#include "sluice/plan/stateful_processor.h"

namespace sluice {

/// df.groupBy(keys), as PySpark's GroupedData: aggregates per group with agg(), or the
/// shorthands count(), sum(), avg()/mean(), min(), max(). The result has the keys first (named
/// after them), then the aggregates. A cheap value; errors surface in the resulting DataFrame.
class GroupedData {
 public:
  GroupedData(DataFrame input, std::vector<Column> keys)
      : input_(std::move(input)), keys_(std::move(keys)) {}

  /// One output column per aggregate expression, e.g. agg({sum("a"), (count("*") * 2)}).
  DataFrame agg(std::vector<Column> aggregates) const;
  /// The number of rows of each group, in a column named `count`.
  DataFrame count() const;
  /// sum(c) of each named column, or of every numeric column when none is named.
  DataFrame sum(const std::vector<std::string>& columns = {}) const;
  DataFrame avg(const std::vector<std::string>& columns = {}) const;
  DataFrame mean(const std::vector<std::string>& columns = {}) const { return avg(columns); }
  DataFrame min(const std::vector<std::string>& columns = {}) const;
  DataFrame max(const std::vector<std::string>& columns = {}) const;

  /// flatMapGroupsWithState (PySpark: applyInPandasWithState): calls `function` with each key
  /// that has rows in a micro-batch (its rows, and its state kept across batches), and with
  /// each key whose timeout passed; the output is what the calls return, rows of
  /// `output_schema`. `output_mode` ("append" or "update") is how the calls' rows are meant
  /// and must suit the query's; `timeout` is NoTimeout, ProcessingTimeTimeout or
  /// EventTimeTimeout (which needs a watermark). In a batch query each key is called once,
  /// without state.
  DataFrame flatMapGroupsWithState(plan::FlatMapGroupsWithStateFunction function,
                                   std::shared_ptr<arrow::Schema> output_schema,
                                   std::shared_ptr<arrow::Schema> state_schema,
                                   const std::string& output_mode,
                                   const std::string& timeout = "NoTimeout") const;

  /// The function of mapGroupsWithState: one output row per call, a struct of the output
  /// schema.
  using MapGroupsWithStateFunction =
      std::function<arrow::Result<std::shared_ptr<arrow::StructScalar>>(
          const std::shared_ptr<arrow::StructScalar>& key,
          const std::shared_ptr<arrow::RecordBatch>& rows, plan::GroupState& state)>;

  /// mapGroupsWithState: as flatMapGroupsWithState with exactly one row per call, in update
  /// mode.
  DataFrame mapGroupsWithState(MapGroupsWithStateFunction function,
                               std::shared_ptr<arrow::Schema> output_schema,
                               std::shared_ptr<arrow::Schema> state_schema,
                               const std::string& timeout = "NoTimeout") const;

  /// transformWithState (Spark 4.0): `processor` declares its state variables in init() and
  /// handles each key's rows of a micro-batch and each of its timers that expire; the output
  /// is what the handlers return, rows of `output_schema`. `output_mode` is "append" or
  /// "update"; `time_mode` None, ProcessingTime or EventTime (timers follow the watermark).
  DataFrame transformWithState(std::shared_ptr<plan::StatefulProcessor> processor,
                               std::shared_ptr<arrow::Schema> output_schema,
                               const std::string& output_mode,
                               const std::string& time_mode = "None") const;
  /// transformWithState with an initial state: a batch DataFrame grouped by keys of the same
  /// types, whose rows reach handleInitialState in the query's first batch.
  DataFrame transformWithState(std::shared_ptr<plan::StatefulProcessor> processor,
                               std::shared_ptr<arrow::Schema> output_schema,
                               const std::string& output_mode, const std::string& time_mode,
                               const GroupedData& initial_state) const;

 private:
  DataFrame TransformWithStateOf(std::shared_ptr<plan::StatefulProcessor> processor,
                                 std::shared_ptr<arrow::Schema> output_schema,
                                 const std::string& output_mode, const std::string& time_mode,
                                 plan::PlanPtr initial_state,
                                 const std::vector<expr::ExprPtr>& initial_keys) const;
  DataFrame Shorthand(const std::string& function, const std::vector<std::string>& columns) const;

  DataFrame input_;
  std::vector<Column> keys_;
};

/// GROUP BY as SQL writes it: groups `input` by `keys` and outputs exactly `select_list`, in
/// which the keys appear only where it names them (`SELECT count(*), k ... GROUP BY k`); time
/// and session windows are planned as in groupBy().agg(). Without keys, one group.
DataFrame AggregateSelectList(const DataFrame& input, std::vector<Column> keys,
                              std::vector<Column> select_list);

}  // namespace sluice
