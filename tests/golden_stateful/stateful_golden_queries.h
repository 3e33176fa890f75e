// The queries of tests/golden_stateful/scenarios.py written with the C++ DataFrame API, by
// scenario name. Each must be the same query as its PySpark twin, operator for operator, so
// that Spark's batches (expected/<name>.json) are the answer to it. Included by
// stateful_golden_test.cc only.
#pragma once

#include <functional>
#include <map>
#include <string>

#include <arrow/builder.h>
#include <arrow/scalar.h>

#include "sluice/api/dataframe.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/api/session_state.h"
#include "sluice/plan/data_source.h"
#include "sluice/plan/relation.h"

namespace sluice::golden_stateful {

/// Builds a scenario's query from its streaming input (k STRING, ts TIMESTAMP, v INT).
using QueryBuilder = std::function<DataFrame(const DataFrame& input)>;

namespace detail {

namespace F = functions;

inline Column Col(const std::string& name) { return F::col(name); }

inline DataFrame Wm(const DataFrame& df, const std::string& delay = "10 seconds") {
  return df.withWatermark("ts", delay);
}

inline DataFrame TumblingCount(const DataFrame& df) {
  return Wm(df).groupBy({F::window(Col("ts"), "5 seconds")}).count();
}

inline DataFrame UnionOfTwoWatermarks(const DataFrame& df) {
  DataFrame left = df.filter(std::string("k = 'a'")).withWatermark("ts", "10 seconds");
  DataFrame right = df.filter(std::string("k = 'b'")).withWatermark("ts", "30 seconds");
  return left.union_(right).groupBy({F::window(Col("ts"), "10 seconds")}).count();
}

inline DataFrame ChainedCount(const DataFrame& df) {
  return df.groupBy({Col("k")}).count().groupBy({Col("count")}).count();
}

// F.count("*") in PySpark.
inline Column CountRows() { return F::count(F::lit(1)); }

// PySpark's F.array_sort and F.session_window have no C++ wrapper: they are called by name, as
// F.call_function would.
inline Column ArraySort(const Column& array) { return F::call_function("array_sort", {array}); }

inline Column SessionWindow(const Column& gap) {
  return F::call_function("session_window", {Col("ts"), gap});
}

// ---- joins: the helpers of scenarios.py

// One side of a join: the rows of `side` ("L" or "R"), columns prefixed with its letter, with
// a watermark on its time unless `delay` is empty.
inline DataFrame JoinSide(const DataFrame& df, const std::string& side,
                          const std::string& delay = "10 seconds") {
  const std::string p = side == "L" ? "l" : "r";
  DataFrame out = df.where("side = '" + side + "'")
                      .select({Col("k").alias(p + "k"), Col("ts").alias(p + "ts"),
                               Col("v").alias(p + "v")});
  return delay.empty() ? out : out.withWatermark(p + "ts", delay);
}

inline const char* kTimeRange =
    "lk = rk AND rts >= lts - INTERVAL 5 SECONDS AND rts <= lts + INTERVAL 5 SECONDS";

inline DataFrame TimeRangeJoin(const DataFrame& df, const std::string& how,
                               const std::string& left_delay = "10 seconds",
                               const std::string& right_delay = "10 seconds") {
  return JoinSide(df, "L", left_delay)
      .join(JoinSide(df, "R", right_delay), F::expr(kTimeRange), how);
}

inline DataFrame WindowedSide(const DataFrame& df, const std::string& side) {
  const std::string p = side == "L" ? "l" : "r";
  return JoinSide(df, side).select(
      {Col(p + "k"), F::window(Col(p + "ts"), "10 seconds").alias(p + "w"), Col(p + "v")});
}

inline DataFrame WindowJoin(const DataFrame& df, const std::string& how) {
  DataFrame left = WindowedSide(df, "L");
  DataFrame right = WindowedSide(df, "R");
  return left.join(right, (left["lk"] == right["rk"]) && (left["lw"] == right["rw"]), how);
}

// The static side of stream-static joins: (sk, name) rows, as createDataFrame makes them.
inline DataFrame StaticSide(const DataFrame& df) {
  arrow::StringBuilder keys, names;
  for (const auto& [key, name] : std::vector<std::pair<std::string, std::string>>{
           {"a", "alpha"}, {"b", "beta"}, {"z", "zeta"}}) {
    (void)keys.Append(key);
    (void)names.Append(name);
  }
  auto table = arrow::Table::Make(
      arrow::schema({arrow::field("sk", arrow::utf8()), arrow::field("name", arrow::utf8())}),
      {keys.Finish().ValueOrDie(), names.Finish().ValueOrDie()});
  auto source = std::make_shared<plan::InMemorySource>(table);
  return DataFrame(df.session(),
                   plan::Relation::Make(std::move(source), df.session()->analysis_context()));
}

inline DataFrame StreamStatic(const DataFrame& df, const std::string& how) {
  return df.join(StaticSide(df), Col("k") == Col("sk"), how);
}

inline DataFrame StaticStream(const DataFrame& df, const std::string& how) {
  return StaticSide(df).join(df, Col("sk") == Col("k"), how);
}

// ---- arbitrary stateful processing: the functions of scenarios.py

inline std::shared_ptr<arrow::Schema> CountOutput() {
  return arrow::schema({arrow::field("k", arrow::utf8()), arrow::field("count", arrow::int64()),
                        arrow::field("what", arrow::utf8())});
}

inline std::shared_ptr<arrow::Schema> CountStateSchema() {
  return arrow::schema({arrow::field("count", arrow::int64())});
}

inline int64_t StateCount(const plan::GroupState& state) {
  if (!state.exists()) return 0;
  return std::static_pointer_cast<arrow::Int64Scalar>(state.getOption()->value[0])->value;
}

inline arrow::Status SetCount(plan::GroupState& state, int64_t count) {
  return state.update(std::make_shared<arrow::StructScalar>(
      arrow::ScalarVector{std::make_shared<arrow::Int64Scalar>(count)},
      std::make_shared<arrow::StructType>(CountStateSchema()->fields())));
}

inline arrow::Result<std::shared_ptr<arrow::RecordBatch>> CountRow(
    const std::shared_ptr<arrow::StructScalar>& key, int64_t count, const std::string& what) {
  arrow::StringBuilder keys, whats;
  arrow::Int64Builder counts;
  ARROW_RETURN_NOT_OK(keys.Append(std::static_pointer_cast<arrow::StringScalar>(key->value[0])
                                      ->ToString()));
  ARROW_RETURN_NOT_OK(counts.Append(count));
  ARROW_RETURN_NOT_OK(whats.Append(what));
  ARROW_ASSIGN_OR_RAISE(auto k, keys.Finish());
  ARROW_ASSIGN_OR_RAISE(auto c, counts.Finish());
  ARROW_ASSIGN_OR_RAISE(auto w, whats.Finish());
  return arrow::RecordBatch::Make(CountOutput(), 1, {k, c, w});
}

inline arrow::Result<std::shared_ptr<arrow::RecordBatch>> RunningCount(
    const std::shared_ptr<arrow::StructScalar>& key,
    const std::shared_ptr<arrow::RecordBatch>& rows, plan::GroupState& state) {
  const int64_t count = StateCount(state) + rows->num_rows();
  if (count >= 3) {
    state.remove();
    return CountRow(key, count, "done");
  }
  ARROW_RETURN_NOT_OK(SetCount(state, count));
  return CountRow(key, count, "counting");
}

inline arrow::Result<std::shared_ptr<arrow::RecordBatch>> EventTimeSession(
    const std::shared_ptr<arrow::StructScalar>& key,
    const std::shared_ptr<arrow::RecordBatch>& rows, plan::GroupState& state) {
  if (state.hasTimedOut()) {
    const int64_t count = StateCount(state);
    state.remove();
    return CountRow(key, count, "expired");
  }
  const auto& times = static_cast<const arrow::TimestampArray&>(*rows->GetColumnByName("ts"));
  int64_t latest_ms = 0;
  for (int64_t i = 0; i < times.length(); ++i) {
    latest_ms = std::max(latest_ms, times.Value(i) / 1000);
  }
  ARROW_RETURN_NOT_OK(SetCount(state, StateCount(state) + rows->num_rows()));
  ARROW_RETURN_NOT_OK(state.setTimeoutTimestamp(latest_ms + 10'000));
  return nullptr;
}

inline plan::StateRow OneLong(const std::string& name, int64_t value) {
  return std::make_shared<arrow::StructScalar>(
      arrow::ScalarVector{std::make_shared<arrow::Int64Scalar>(value)},
      std::make_shared<arrow::StructType>(arrow::FieldVector{arrow::field(name, arrow::int64())}));
}

inline plan::StateRow OneInt(const std::string& name, int32_t value) {
  return std::make_shared<arrow::StructScalar>(
      arrow::ScalarVector{std::make_shared<arrow::Int32Scalar>(value)},
      std::make_shared<arrow::StructType>(arrow::FieldVector{arrow::field(name, arrow::int32())}));
}

inline int64_t LongIn(const plan::StateRow& row) {
  return row == nullptr ? 0 : std::static_pointer_cast<arrow::Int64Scalar>(row->value[0])->value;
}

// RunningCountProcessor of scenarios.py.
class RunningCountProcessor final : public plan::StatefulProcessor {
 public:
  arrow::Status init(plan::StatefulProcessorHandle& handle, plan::TimeMode) override {
    ARROW_ASSIGN_OR_RAISE(count_, handle.getValueState(
                                      "count", arrow::schema({arrow::field("count", arrow::int64())})));
    ARROW_ASSIGN_OR_RAISE(per_value_,
                          handle.getMapState("perValue",
                                             arrow::schema({arrow::field("v", arrow::int32())}),
                                             arrow::schema({arrow::field("n", arrow::int64())})));
    ARROW_ASSIGN_OR_RAISE(seen_, handle.getListState(
                                     "seen", arrow::schema({arrow::field("v", arrow::int32())})));
    return arrow::Status::OK();
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> handleInputRows(
      const plan::StateRow& key, const std::shared_ptr<arrow::RecordBatch>& rows,
      const plan::TimerValues&) override {
    ARROW_ASSIGN_OR_RAISE(auto stored, count_->get());
    const int64_t count = LongIn(stored) + rows->num_rows();
    const auto& values = static_cast<const arrow::Int32Array&>(*rows->GetColumnByName("v"));
    for (int64_t i = 0; i < values.length(); ++i) {
      auto v = OneInt("v", values.Value(i));
      ARROW_ASSIGN_OR_RAISE(auto seen, per_value_->getValue(v));
      ARROW_RETURN_NOT_OK(per_value_->updateValue(v, OneLong("n", LongIn(seen) + 1)));
      ARROW_RETURN_NOT_OK(seen_->appendValue(v));
    }
    ARROW_ASSIGN_OR_RAISE(auto entries, per_value_->iterator());
    const std::string distinct = std::to_string(entries.size());
    if (count >= 4) {
      ARROW_RETURN_NOT_OK(count_->clear());
      ARROW_RETURN_NOT_OK(per_value_->clear());
      ARROW_RETURN_NOT_OK(seen_->clear());
      return CountRow(key, count, "done " + distinct);
    }
    ARROW_RETURN_NOT_OK(count_->update(OneLong("count", count)));
    return CountRow(key, count, "counting " + distinct);
  }

 private:
  std::shared_ptr<plan::ValueState> count_;
  std::shared_ptr<plan::MapState> per_value_;
  std::shared_ptr<plan::ListState> seen_;
};

// EventTimeSessionProcessor of scenarios.py.
class EventTimeSessionProcessor final : public plan::StatefulProcessor {
 public:
  arrow::Status init(plan::StatefulProcessorHandle& handle, plan::TimeMode) override {
    handle_ = &handle;
    ARROW_ASSIGN_OR_RAISE(count_, handle.getValueState(
                                      "count", arrow::schema({arrow::field("count", arrow::int64())})));
    return arrow::Status::OK();
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> handleInputRows(
      const plan::StateRow&, const std::shared_ptr<arrow::RecordBatch>& rows,
      const plan::TimerValues&) override {
    ARROW_ASSIGN_OR_RAISE(auto stored, count_->get());
    ARROW_RETURN_NOT_OK(count_->update(OneLong("count", LongIn(stored) + rows->num_rows())));
    const auto& times = static_cast<const arrow::TimestampArray&>(*rows->GetColumnByName("ts"));
    int64_t latest_ms = 0;
    for (int64_t i = 0; i < times.length(); ++i) {
      latest_ms = std::max(latest_ms, times.Value(i) / 1000);
    }
    ARROW_ASSIGN_OR_RAISE(auto timers, handle_->listTimers());
    for (int64_t timer : timers) ARROW_RETURN_NOT_OK(handle_->deleteTimer(timer));
    ARROW_RETURN_NOT_OK(handle_->registerTimer(latest_ms + 10'000));
    return nullptr;
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> handleExpiredTimer(
      const plan::StateRow& key, const plan::TimerValues&,
      const plan::ExpiredTimerInfo& info) override {
    ARROW_ASSIGN_OR_RAISE(auto stored, count_->get());
    ARROW_RETURN_NOT_OK(count_->clear());
    return CountRow(key, LongIn(stored), "expired at " + std::to_string(info.expiry_time_ms / 1000));
  }

 private:
  plan::StatefulProcessorHandle* handle_ = nullptr;
  std::shared_ptr<plan::ValueState> count_;
};

}  // namespace detail

/// Scenario name -> its query, the C++ twin of the PySpark query of scenarios.py.
inline const std::map<std::string, QueryBuilder>& Queries() {
  using namespace detail;  // NOLINT: the table below reads like the PySpark it mirrors
  static const auto* queries = new std::map<std::string, QueryBuilder>{
      // ---- tumbling and sliding windows
      {"tumbling_count_append", TumblingCount},
      {"tumbling_count_update", TumblingCount},
      {"tumbling_count_complete", TumblingCount},
      {"tumbling_keyed_sum_append",
       [](const DataFrame& df) {
         return Wm(df).groupBy({F::window(Col("ts"), "10 seconds"), Col("k")})
             .agg({F::sum(Col("v")).alias("s")});
       }},
      {"tumbling_keyed_sum_update",
       [](const DataFrame& df) {
         return Wm(df).groupBy({F::window(Col("ts"), "10 seconds"), Col("k")})
             .agg({F::sum(Col("v")).alias("s")});
       }},
      {"tumbling_keyed_count_update_change_feed",
       [](const DataFrame& df) {
         return Wm(df).groupBy({F::window(Col("ts"), "10 seconds"), Col("k")}).count();
       }},
      {"tumbling_start_time_append",
       [](const DataFrame& df) {
         return Wm(df)
             .groupBy({F::window(Col("ts"), "10 seconds", "10 seconds", "3 seconds")})
             .count();
       }},
      {"sliding_count_append",
       [](const DataFrame& df) {
         return Wm(df).groupBy({F::window(Col("ts"), "10 seconds", "5 seconds")}).count();
       }},
      {"sliding_start_time_append",
       [](const DataFrame& df) {
         return Wm(df)
             .groupBy({F::window(Col("ts"), "10 seconds", "5 seconds", "2 seconds"), Col("k")})
             .count();
       }},
      {"sliding_start_time_update",
       [](const DataFrame& df) {
         return Wm(df)
             .groupBy({F::window(Col("ts"), "10 seconds", "5 seconds", "2 seconds")})
             .agg({F::max(Col("v")).alias("m")});
       }},
      {"sliding_start_time_complete",
       [](const DataFrame& df) {
         return Wm(df)
             .groupBy({F::window(Col("ts"), "10 seconds", "5 seconds", "2 seconds")})
             .count();
       }},
      {"window_time_append",
       [](const DataFrame& df) {
         return TumblingCount(df).select(
             {F::window_time(Col("window")).alias("event_time"), Col("count")});
       }},
      // ---- global aggregation and plain keys
      {"global_count_update",
       [](const DataFrame& df) {
         return df.groupBy({}).agg({CountRows().alias("n"), F::sum(Col("v")).alias("s")});
       }},
      {"global_count_complete",
       [](const DataFrame& df) {
         return df.groupBy({}).agg({CountRows().alias("n"), F::sum(Col("v")).alias("s")});
       }},
      {"keyed_update",
       [](const DataFrame& df) {
         return df.groupBy({Col("k")}).agg({CountRows().alias("n"), F::sum(Col("v")).alias("s")});
       }},
      {"keyed_complete",
       [](const DataFrame& df) {
         return df.groupBy({Col("k")}).agg({CountRows().alias("n"), F::sum(Col("v")).alias("s")});
       }},
      {"keyed_watermark_not_key_update",
       [](const DataFrame& df) { return Wm(df).groupBy({Col("k")}).count(); }},
      {"keyed_sorted_complete",
       [](const DataFrame& df) {
         return df.groupBy({Col("k")}).count().orderBy({Col("count").desc(), Col("k")});
       }},
      {"chained_aggregation_update_unchecked", ChainedCount},
      {"chained_aggregation_complete_unchecked", ChainedCount},
      {"chained_window_aggregation_append",
       [](const DataFrame& df) {
         return TumblingCount(df)
             .select({F::window_time(Col("window")).alias("wt"), Col("count")})
             .groupBy({F::window(Col("wt"), "20 seconds")})
             .agg({F::sum(Col("count")).alias("n")});
       }},
      {"dedup_after_aggregation_update",
       [](const DataFrame& df) { return df.groupBy({Col("k")}).count().dropDuplicates({"k"}); }},
      // ---- watermark advance and late rows
      {"late_rows_at_watermark_append", TumblingCount},
      {"late_rows_within_delay_append",
       [](const DataFrame& df) {
         return Wm(df, "20 seconds").groupBy({F::window(Col("ts"), "10 seconds")}).count();
       }},
      {"late_rows_dedup_at_watermark",
       [](const DataFrame& df) { return Wm(df).dropDuplicates({"k", "ts"}); }},
      {"late_rows_update",
       [](const DataFrame& df) {
         return Wm(df).groupBy({F::window(Col("ts"), "5 seconds"), Col("k")})
             .agg({F::sum(Col("v")).alias("s")});
       }},
      {"watermark_delay_zero_append",
       [](const DataFrame& df) {
         return Wm(df, "0 seconds").groupBy({F::window(Col("ts"), "5 seconds")}).count();
       }},
      // ---- multiple watermarks
      {"two_watermarks_min", UnionOfTwoWatermarks},
      {"two_watermarks_max", UnionOfTwoWatermarks},
      // ---- aggregate functions
      {"agg_count_sum_avg_mean",
       [](const DataFrame& df) {
         return df.groupBy({Col("k")}).agg(
             {F::count(Col("v")).alias("n"), CountRows().alias("rows"),
              F::sum(Col("v")).alias("s"), F::avg(Col("v")).alias("a"),
              F::mean(Col("v")).alias("m")});
       }},
      {"agg_min_max",
       [](const DataFrame& df) {
         return df.groupBy({Col("k")}).agg({F::min(Col("v")).alias("lo"),
                                            F::max(Col("v")).alias("hi"),
                                            F::min(Col("ts")).alias("first_ts")});
       }},
      {"agg_first_last",
       [](const DataFrame& df) {
         return df.groupBy({Col("k")}).agg(
             {F::first(Col("v")).alias("f"), F::last(Col("v")).alias("l"),
              F::first(Col("v"), true).alias("fn"), F::last(Col("v"), true).alias("ln")});
       }},
      {"agg_count_if",
       [](const DataFrame& df) {
         return df.groupBy({Col("k")}).agg({F::count_if(Col("v") > F::lit(2)).alias("big")});
       }},
      {"agg_collect_list_sorted",
       [](const DataFrame& df) {
         return df.groupBy({Col("k")}).agg({ArraySort(F::collect_list(Col("v"))).alias("vs")});
       }},
      {"agg_collect_set_sorted",
       [](const DataFrame& df) {
         return df.groupBy({Col("k")}).agg({ArraySort(F::collect_set(Col("v"))).alias("vs")});
       }},
      {"agg_approx_count_distinct",
       [](const DataFrame& df) {
         return df.groupBy({Col("k")}).agg({F::approx_count_distinct(Col("v")).alias("d")});
       }},
      {"agg_stddev_variance",
       [](const DataFrame& df) {
         return df.groupBy({Col("k")}).agg(
             {F::stddev(Col("v")).alias("sd"), F::variance(Col("v")).alias("var")});
       }},
      {"agg_all_windowed_append",
       [](const DataFrame& df) {
         return Wm(df, "5 seconds")
             .groupBy({F::window(Col("ts"), "10 seconds")})
             .agg({F::count(Col("v")).alias("n"), F::sum(Col("v")).alias("s"),
                   F::avg(Col("v")).alias("a"), F::min(Col("v")).alias("lo"),
                   F::max(Col("v")).alias("hi"), F::first(Col("v")).alias("f"),
                   F::last(Col("v")).alias("l"), F::count_if(Col("v") >= F::lit(3)).alias("ge3"),
                   ArraySort(F::collect_list(Col("v"))).alias("vs"),
                   ArraySort(F::collect_set(Col("v"))).alias("vset"),
                   F::approx_count_distinct(Col("v")).alias("d"),
                   F::stddev(Col("v")).alias("sd"), F::variance(Col("v")).alias("var"),
                   F::mean(Col("v")).alias("m")});
       }},
      // ---- deduplication
      {"dedup_all_columns", [](const DataFrame& df) { return df.dropDuplicates(); }},
      {"dedup_subset", [](const DataFrame& df) { return df.dropDuplicates({"k"}); }},
      {"dedup_event_time_evicts",
       [](const DataFrame& df) { return Wm(df).dropDuplicates({"k", "ts"}); }},
      {"dedup_subset_order",
       [](const DataFrame& df) { return Wm(df).dropDuplicates({"v", "ts", "k"}); }},
      {"dedup_five_names",
       [](const DataFrame& df) { return df.dropDuplicates({"k", "ts", "v", "w", "x"}); }},
      {"dedup_watermark_not_key",
       [](const DataFrame& df) { return Wm(df).dropDuplicates({"k", "v"}); }},
      {"dedup_within_watermark",
       [](const DataFrame& df) { return Wm(df).dropDuplicatesWithinWatermark({"k"}); }},
      {"error_dedup_within_watermark_without_watermark",
       [](const DataFrame& df) { return df.dropDuplicatesWithinWatermark({"k"}); }},
      {"dedup_then_count_update",
       [](const DataFrame& df) {
         return df.dropDuplicates({"k", "v"}).groupBy({Col("k")}).count();
       }},
      // ---- session windows
      {"session_static_gap_append",
       [](const DataFrame& df) {
         return Wm(df).groupBy({SessionWindow(F::lit("5 seconds")), Col("k")})
             .agg({CountRows().alias("n"), F::sum(Col("v")).alias("s")});
       }},
      {"session_dynamic_gap_append",
       [](const DataFrame& df) {
         return Wm(df)
             .groupBy({SessionWindow(F::expr("CASE WHEN k = 'a' THEN '5 seconds' ELSE "
                                             "'20 seconds' END")),
                       Col("k")})
             .count();
       }},
      {"session_static_gap_complete",
       [](const DataFrame& df) {
         return Wm(df).groupBy({SessionWindow(F::lit("5 seconds")), Col("k")}).count();
       }},
      // ---- null keys and null event times
      {"null_keys_windowed_update",
       [](const DataFrame& df) {
         return Wm(df).groupBy({F::window(Col("ts"), "10 seconds"), Col("k")}).count();
       }},
      {"null_event_time_append", TumblingCount},
      {"null_event_time_dedup",
       [](const DataFrame& df) { return Wm(df).dropDuplicates({"k", "ts"}); }},
      // ---- arbitrary stateful processing
      {"groups_with_state_running_count_update",
       [](const DataFrame& df) {
         return df.groupBy({Col("k")}).flatMapGroupsWithState(RunningCount, CountOutput(),
                                                              CountStateSchema(), "update");
       }},
      {"groups_with_state_running_count_append",
       [](const DataFrame& df) {
         return df.groupBy({Col("k")}).flatMapGroupsWithState(RunningCount, CountOutput(),
                                                              CountStateSchema(), "append");
       }},
      {"groups_with_state_event_time_timeout",
       [](const DataFrame& df) {
         return Wm(df).groupBy({Col("k")}).flatMapGroupsWithState(
             EventTimeSession, CountOutput(), CountStateSchema(), "append", "EventTimeTimeout");
       }},
      {"error_groups_with_state_event_time_without_watermark",
       [](const DataFrame& df) {
         return df.groupBy({Col("k")}).flatMapGroupsWithState(
             EventTimeSession, CountOutput(), CountStateSchema(), "append", "EventTimeTimeout");
       }},
      {"error_groups_with_state_update_in_append",
       [](const DataFrame& df) {
         return df.groupBy({Col("k")}).flatMapGroupsWithState(RunningCount, CountOutput(),
                                                              CountStateSchema(), "update");
       }},
      {"transform_with_state_running_count_update",
       [](const DataFrame& df) {
         return df.groupBy({Col("k")}).transformWithState(
             std::make_shared<RunningCountProcessor>(), CountOutput(), "update");
       }},
      {"transform_with_state_event_time_timers",
       [](const DataFrame& df) {
         return Wm(df).groupBy({Col("k")}).transformWithState(
             std::make_shared<EventTimeSessionProcessor>(), CountOutput(), "append", "EventTime");
       }},
      // ---- filters Spark pushes below withWatermark
      {"filter_after_watermark_append",
       [](const DataFrame& df) {
         return Wm(df).where("v > 1").groupBy({F::window(Col("ts"), "10 seconds")}).count();
       }},
      {"filter_on_key_above_aggregation_append",
       [](const DataFrame& df) {
         return Wm(df)
             .groupBy({F::window(Col("ts"), "10 seconds"), Col("k")})
             .count()
             .where("k = 'a'");
       }},
      {"filter_on_event_time_after_watermark_append",
       [](const DataFrame& df) {
         return Wm(df)
             .where(Col("ts") < F::lit("2024-01-01 00:00:50").cast("timestamp"))
             .groupBy({F::window(Col("ts"), "10 seconds")})
             .count();
       }},
      // ---- rejected queries
      {"error_append_aggregation_without_watermark",
       [](const DataFrame& df) { return df.groupBy({Col("k")}).count(); }},
      {"error_append_window_without_watermark",
       [](const DataFrame& df) { return df.groupBy({F::window(Col("ts"), "5 seconds")}).count(); }},
      {"error_append_aggregation_watermark_not_key",
       [](const DataFrame& df) { return Wm(df).groupBy({Col("k")}).count(); }},
      {"error_complete_without_aggregation",
       [](const DataFrame& df) { return df.select({Col("k"), Col("v")}); }},
      {"error_update_session_window",
       [](const DataFrame& df) {
         return Wm(df).groupBy({SessionWindow(F::lit("5 seconds")), Col("k")}).count();
       }},
      {"error_sort_without_aggregation",
       [](const DataFrame& df) { return df.orderBy({Col("v")}); }},
      {"error_sort_after_aggregation_update",
       [](const DataFrame& df) { return df.groupBy({Col("k")}).count().orderBy({Col("k")}); }},
      {"error_limit_update",
       [](const DataFrame& df) { return df.groupBy({Col("k")}).count().limit(1); }},
      {"error_distinct_aggregate",
       [](const DataFrame& df) {
         return df.groupBy({Col("k")}).agg({F::count_distinct({Col("v")}).alias("d")});
       }},
      {"error_chained_aggregation_update", ChainedCount},
      {"error_chained_aggregation_complete", ChainedCount},
      // ---- stream-static joins
      {"join_stream_static_inner", [](const DataFrame& df) { return StreamStatic(df, "inner"); }},
      {"join_stream_static_left_outer",
       [](const DataFrame& df) { return StreamStatic(df, "left_outer"); }},
      {"join_stream_static_left_semi",
       [](const DataFrame& df) { return StreamStatic(df, "left_semi"); }},
      {"join_stream_static_left_anti",
       [](const DataFrame& df) { return StreamStatic(df, "left_anti"); }},
      {"join_static_stream_inner", [](const DataFrame& df) { return StaticStream(df, "inner"); }},
      {"join_static_stream_right_outer",
       [](const DataFrame& df) { return StaticStream(df, "right_outer"); }},
      {"join_stream_static_then_count_update",
       [](const DataFrame& df) {
         return StreamStatic(df, "inner").groupBy({Col("name")}).count();
       }},
      {"error_join_stream_static_right_outer",
       [](const DataFrame& df) { return StreamStatic(df, "right_outer"); }},
      {"error_join_stream_static_full_outer",
       [](const DataFrame& df) { return StreamStatic(df, "full_outer"); }},
      {"error_join_static_stream_left_outer",
       [](const DataFrame& df) { return StaticStream(df, "left_outer"); }},
      {"error_join_static_stream_left_anti",
       [](const DataFrame& df) { return StaticStream(df, "left_anti"); }},
      // ---- stream-stream joins
      {"join_inner_without_watermark",
       [](const DataFrame& df) {
         return JoinSide(df, "L", "").join(JoinSide(df, "R", ""), Col("lk") == Col("rk"));
       }},
      {"join_inner_time_range", [](const DataFrame& df) { return TimeRangeJoin(df, "inner"); }},
      {"join_left_outer_time_range",
       [](const DataFrame& df) { return TimeRangeJoin(df, "left_outer"); }},
      {"join_right_outer_time_range",
       [](const DataFrame& df) { return TimeRangeJoin(df, "right_outer"); }},
      {"join_full_outer_time_range",
       [](const DataFrame& df) { return TimeRangeJoin(df, "full_outer"); }},
      {"join_right_outer_time_range_unmatched_right",
       [](const DataFrame& df) { return TimeRangeJoin(df, "right_outer"); }},
      {"join_full_outer_time_range_unmatched_right",
       [](const DataFrame& df) { return TimeRangeJoin(df, "full_outer"); }},
      {"join_left_semi_time_range",
       [](const DataFrame& df) { return TimeRangeJoin(df, "left_semi"); }},
      {"join_left_outer_right_watermark_only",
       [](const DataFrame& df) { return TimeRangeJoin(df, "left_outer", ""); }},
      {"join_full_outer_right_watermark_only",
       [](const DataFrame& df) { return TimeRangeJoin(df, "full_outer", ""); }},
      {"join_left_outer_side_condition",
       [](const DataFrame& df) {
         return JoinSide(df, "L").join(
             JoinSide(df, "R"), F::expr(std::string(kTimeRange) + " AND lv % 2 = 1"),
             "left_outer");
       }},
      {"join_left_outer_null_key",
       [](const DataFrame& df) { return TimeRangeJoin(df, "left_outer"); }},
      {"join_inner_right_side_condition",
       [](const DataFrame& df) {
         return JoinSide(df, "L").join(JoinSide(df, "R"),
                                       F::expr(std::string(kTimeRange) + " AND rv < 15"),
                                       "inner");
       }},
      {"join_inner_null_key_watermark",
       [](const DataFrame& df) { return TimeRangeJoin(df, "inner"); }},
      {"join_inner_window_key", [](const DataFrame& df) { return WindowJoin(df, "inner"); }},
      {"join_then_window_count_append",
       [](const DataFrame& df) { return WindowJoin(df, "inner").groupBy({Col("lw")}).count(); }},
      {"join_left_outer_window_key",
       [](const DataFrame& df) { return WindowJoin(df, "left_outer"); }},
      {"join_right_outer_window_key",
       [](const DataFrame& df) { return WindowJoin(df, "right_outer"); }},
      {"join_full_outer_window_key",
       [](const DataFrame& df) { return WindowJoin(df, "full_outer"); }},
      {"join_left_semi_window_key",
       [](const DataFrame& df) { return WindowJoin(df, "left_semi"); }},
      {"error_join_stream_stream_update",
       [](const DataFrame& df) { return TimeRangeJoin(df, "inner"); }},
      {"error_join_left_outer_without_watermark",
       [](const DataFrame& df) { return TimeRangeJoin(df, "left_outer", "", ""); }},
      {"error_join_left_outer_left_watermark_only",
       [](const DataFrame& df) { return TimeRangeJoin(df, "left_outer", "10 seconds", ""); }},
      {"error_join_full_outer_without_watermark",
       [](const DataFrame& df) { return TimeRangeJoin(df, "full_outer", "", ""); }},
      {"error_join_stream_stream_left_anti",
       [](const DataFrame& df) { return TimeRangeJoin(df, "left_anti"); }},
  };
  return *queries;
}

}  // namespace sluice::golden_stateful
