// The queries of tests/golden_stateful/scenarios.py written with the C++ DataFrame API, by
// scenario name. Each must be the same query as its PySpark twin, operator for operator, so
// that Spark's batches (expected/<name>.json) are the answer to it. Included by
// stateful_golden_test.cc only.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "sluice/api/dataframe.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"

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
  };
  return *queries;
}

}  // namespace sluice::golden_stateful
