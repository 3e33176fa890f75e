"""Stateful streaming scenarios: each runs on Spark micro-batch by micro-batch (generate.py) and
on Sluice (stateful_golden_test.cc, which has the same query written with the C++ API under the
same name).

A scenario is a dict:
    name    unique snake_case name; expected/<name>.json holds Spark's answer
    schema  the DDL schema of the streaming input
    steps   a list of steps, each a list of input rows (JSON arrays in schema order; timestamps
            as "YYYY-MM-DD HH:MM:SS" strings, read in UTC). Each step is one file of the file
            source, so one micro-batch of input, possibly followed by a no-data batch
    mode    the output mode: append, update or complete
    conf    optional extra Spark settings, e.g. spark.sql.streaming.multipleWatermarkPolicy
    query   the query, a function of the streaming input DataFrame

Unless a scenario says otherwise rows are (k, ts, v) and ts is written with t(seconds), the
seconds after 2024-01-01 00:00:00.
"""

from pyspark.sql import functions as F

KTV = "k STRING, ts TIMESTAMP, v INT"


def t(seconds):
    """The timestamp text of `seconds` after 2024-01-01 00:00:00 (under an hour)."""
    return f"2024-01-01 00:{seconds // 60:02d}:{seconds % 60:02d}"


def wm(df, delay="10 seconds"):
    return df.withWatermark("ts", delay)


def tumbling_count(df):
    return wm(df).groupBy(F.window("ts", "5 seconds")).count()


# The watermark moves 0 -> 10 -> 30 -> 50: rows of [5, 10) are late in the second batch, a row
# at 30 s arrives when the watermark is 30 s but its window ends at 35 s.
ADVANCING = [
    [["a", t(20), 1]],
    [["a", t(40), 2], ["a", t(15), 3], ["a", t(5), 4]],
    [["a", t(60), 5], ["a", t(30), 6]],
]

# Several keys over windows of 10 s, a watermark delay of 10 s.
KEYED = [
    [["a", t(1), 1], ["b", t(2), 2], ["a", t(12), 3]],
    [["b", t(14), 4], ["a", t(25), 5], ["a", t(3), 6]],
    [["b", t(31), 7], ["a", t(18), 8], ["c", t(45), 9]],
    [["c", t(70), 10]],
]

# Plain keys, no event time needed (ts still present).
PLAIN = [
    [["a", t(1), 1], ["b", t(2), 2], ["a", t(3), 3]],
    [["b", t(4), 4], ["c", t(5), None]],
    [],
    [["a", t(6), 10], ["c", t(7), 7], [None, t(8), 8]],
]

# Values for the aggregate functions: duplicates, nulls, a key whose values are all null.
VALUES = [
    [["a", t(1), 3], ["a", t(2), 1], ["b", t(3), None], ["a", t(4), 3]],
    [["b", t(5), 7], ["c", t(6), None], ["a", t(7), 10]],
    [["b", t(8), 7], ["a", t(9), -2], ["c", t(10), None]],
]

# Windowed values for aggregates in append mode (windows of 10 s, delay 5 s).
WINDOWED_VALUES = [
    [["a", t(1), 3], ["a", t(2), 1], ["a", t(4), None], ["a", t(11), 5]],
    [["a", t(5), 3], ["a", t(13), 2], ["a", t(17), 8]],
    [["a", t(40), 1]],
]

DUPLICATES = [
    [["a", t(10), 1], ["a", t(10), 1], ["b", t(11), 2], ["a", t(12), 1]],
    [["a", t(10), 1], ["b", t(11), 3], ["c", t(30), 4]],
    [["a", t(12), 1], ["a", t(45), 5], ["c", t(30), 4], ["b", t(21), 2]],
    [["a", t(10), 1], ["c", t(34), 4], ["b", t(46), 2]],
]

SESSIONS = [
    [["a", t(1), 1], ["a", t(4), 2], ["b", t(2), 3]],
    [["a", t(8), 4], ["a", t(20), 5], ["b", t(30), 6]],
    [["a", t(22), 7], ["b", t(50), 8]],
    [["a", t(80), 9]],
]

ONE_STEP = [[["a", t(1), 1], ["b", t(2), 2]]]


def union_of_two_watermarks(df):
    """Rows with k = 'a' get a delay of 10 s, rows with k = 'b' one of 30 s."""
    left = df.filter("k = 'a'").withWatermark("ts", "10 seconds")
    right = df.filter("k = 'b'").withWatermark("ts", "30 seconds")
    return left.union(right).groupBy(F.window("ts", "10 seconds")).count()


TWO_WATERMARKS = [
    [["a", t(20), 1], ["b", t(20), 2]],
    [["a", t(50), 3], ["b", t(30), 4]],
    [["a", t(35), 5], ["b", t(12), 6], ["b", t(5), 7]],
    [["b", t(90), 8], ["a", t(60), 9]],
]

SCENARIOS = [
    # ---- tumbling and sliding windows -------------------------------------------------------
    {"name": "tumbling_count_append", "schema": KTV, "steps": ADVANCING, "mode": "append",
     "query": tumbling_count},
    {"name": "tumbling_count_update", "schema": KTV, "steps": ADVANCING, "mode": "update",
     "query": tumbling_count},
    {"name": "tumbling_count_complete", "schema": KTV, "steps": ADVANCING, "mode": "complete",
     "query": tumbling_count},
    {"name": "tumbling_keyed_sum_append", "schema": KTV, "steps": KEYED, "mode": "append",
     "query": lambda df: wm(df).groupBy(F.window("ts", "10 seconds"), "k").agg(F.sum("v").alias("s"))},
    {"name": "tumbling_keyed_sum_update", "schema": KTV, "steps": KEYED, "mode": "update",
     "query": lambda df: wm(df).groupBy(F.window("ts", "10 seconds"), "k").agg(F.sum("v").alias("s"))},
    {"name": "tumbling_start_time_append", "schema": KTV, "steps": KEYED, "mode": "append",
     "query": lambda df: wm(df).groupBy(F.window("ts", "10 seconds", "10 seconds", "3 seconds")).count()},
    {"name": "sliding_count_append", "schema": KTV, "steps": KEYED, "mode": "append",
     "query": lambda df: wm(df).groupBy(F.window("ts", "10 seconds", "5 seconds")).count()},
    {"name": "sliding_start_time_append", "schema": KTV, "steps": KEYED, "mode": "append",
     "query": lambda df: wm(df).groupBy(F.window("ts", "10 seconds", "5 seconds", "2 seconds"), "k").count()},
    {"name": "sliding_start_time_update", "schema": KTV, "steps": KEYED, "mode": "update",
     "query": lambda df: wm(df).groupBy(F.window("ts", "10 seconds", "5 seconds", "2 seconds")).agg(
         F.max("v").alias("m"))},
    {"name": "sliding_start_time_complete", "schema": KTV, "steps": KEYED, "mode": "complete",
     "query": lambda df: wm(df).groupBy(F.window("ts", "10 seconds", "5 seconds", "2 seconds")).count()},
    {"name": "window_time_append", "schema": KTV, "steps": KEYED, "mode": "append",
     "query": lambda df: tumbling_count(df).select(
         F.window_time("window").alias("event_time"), "count")},
    # ---- global aggregation and plain keys --------------------------------------------------
    {"name": "global_count_update", "schema": KTV, "steps": PLAIN, "mode": "update",
     "query": lambda df: df.groupBy().agg(F.count("*").alias("n"), F.sum("v").alias("s"))},
    {"name": "global_count_complete", "schema": KTV, "steps": PLAIN, "mode": "complete",
     "query": lambda df: df.groupBy().agg(F.count("*").alias("n"), F.sum("v").alias("s"))},
    {"name": "keyed_update", "schema": KTV, "steps": PLAIN, "mode": "update",
     "query": lambda df: df.groupBy("k").agg(F.count("*").alias("n"), F.sum("v").alias("s"))},
    {"name": "keyed_complete", "schema": KTV, "steps": PLAIN, "mode": "complete",
     "query": lambda df: df.groupBy("k").agg(F.count("*").alias("n"), F.sum("v").alias("s"))},
    {"name": "keyed_watermark_not_key_update", "schema": KTV, "steps": KEYED, "mode": "update",
     "query": lambda df: wm(df).groupBy("k").count()},
    # One shuffle partition: with more, the sort's range partitioner samples its input in an
    # extra job that runs the aggregation again, and Spark's state counters come out doubled.
    {"name": "keyed_sorted_complete", "schema": KTV, "steps": PLAIN, "mode": "complete",
     "conf": {"spark.sql.shuffle.partitions": "1"},
     "query": lambda df: df.groupBy("k").count().orderBy(F.col("count").desc(), "k")},
    # Chained aggregations: rejected by default as a correctness risk of the global watermark
    # (error_chained_aggregation_*); with that check off Spark 4 runs them in update and complete.
    {"name": "chained_aggregation_update_unchecked", "schema": KTV, "steps": PLAIN, "mode": "update",
     "conf": {"spark.sql.streaming.statefulOperator.checkCorrectness.enabled": "false"},
     "query": lambda df: df.groupBy("k").count().groupBy("count").count()},
    {"name": "chained_aggregation_complete_unchecked", "schema": KTV, "steps": PLAIN, "mode": "complete",
     "conf": {"spark.sql.streaming.statefulOperator.checkCorrectness.enabled": "false"},
     "query": lambda df: df.groupBy("k").count().groupBy("count").count()},
    # A stateful operator after an aggregation, allowed in append mode: windows of windows.
    {"name": "chained_window_aggregation_append", "schema": KTV, "steps": KEYED, "mode": "append",
     "query": lambda df: tumbling_count(df)
         .select(F.window_time("window").alias("wt"), "count")
         .groupBy(F.window("wt", "20 seconds")).agg(F.sum("count").alias("n"))},
    # Spark 4.0.1 accepts a dropDuplicates after an aggregation in update mode.
    {"name": "dedup_after_aggregation_update", "schema": KTV, "steps": PLAIN, "mode": "update",
     "query": lambda df: df.groupBy("k").count().dropDuplicates(["k"])},
    # ---- watermark advance and late rows ----------------------------------------------------
    # Windows of 5 s, delay 10 s: a row whose window ends exactly at the watermark is late, a
    # row exactly at the watermark whose window ends after it is not.
    {"name": "late_rows_at_watermark_append", "schema": KTV, "mode": "append", "query": tumbling_count,
     "steps": [
         [["a", t(30), 1]],
         [["a", t(20), 2], ["a", t(19), 3], ["a", t(15), 4], ["a", t(14), 5]],
         [["a", t(35), 6], ["a", t(25), 7], ["a", t(24), 8]],
         [["a", t(31), 9]],
     ]},
    # Rows a little behind the maximum but within the delay are counted.
    {"name": "late_rows_within_delay_append", "schema": KTV, "mode": "append",
     "query": lambda df: wm(df, "20 seconds").groupBy(F.window("ts", "10 seconds")).count(),
     "steps": [
         [["a", t(50), 1], ["a", t(45), 2]],
         [["a", t(35), 3], ["a", t(31), 4], ["a", t(29), 5], ["a", t(60), 6]],
         [["a", t(41), 7], ["a", t(40), 8], ["a", t(39), 9]],
         [["a", t(100), 10]],
     ]},
    # dropDuplicates with the event time in the key: a row exactly at the watermark is late.
    {"name": "late_rows_dedup_at_watermark", "schema": KTV, "mode": "append",
     "query": lambda df: wm(df).dropDuplicates(["k", "ts"]),
     "steps": [
         [["a", t(30), 1]],
         [["a", t(20), 2], ["b", t(21), 3], ["c", t(19), 4], ["a", t(30), 5]],
         [["b", t(21), 6], ["d", t(25), 7]],
     ]},
    {"name": "late_rows_update", "schema": KTV, "steps": ADVANCING, "mode": "update",
     "query": lambda df: wm(df).groupBy(F.window("ts", "5 seconds"), "k").agg(F.sum("v").alias("s"))},
    {"name": "watermark_delay_zero_append", "schema": KTV, "mode": "append",
     "query": lambda df: wm(df, "0 seconds").groupBy(F.window("ts", "5 seconds")).count(),
     "steps": [
         [["a", t(12), 1]],
         [["a", t(9), 2], ["a", t(10), 3], ["a", t(14), 4]],
         [["a", t(15), 5]],
     ]},
    # ---- multiple watermarks -----------------------------------------------------------------
    {"name": "two_watermarks_min", "schema": KTV, "steps": TWO_WATERMARKS, "mode": "append",
     "conf": {"spark.sql.streaming.multipleWatermarkPolicy": "min"}, "query": union_of_two_watermarks},
    {"name": "two_watermarks_max", "schema": KTV, "steps": TWO_WATERMARKS, "mode": "append",
     "conf": {"spark.sql.streaming.multipleWatermarkPolicy": "max"}, "query": union_of_two_watermarks},
    # ---- aggregate functions ----------------------------------------------------------------
    {"name": "agg_count_sum_avg_mean", "schema": KTV, "steps": VALUES, "mode": "update",
     "query": lambda df: df.groupBy("k").agg(
         F.count("v").alias("n"), F.count("*").alias("rows"), F.sum("v").alias("s"),
         F.avg("v").alias("a"), F.mean("v").alias("m"))},
    {"name": "agg_min_max", "schema": KTV, "steps": VALUES, "mode": "update",
     "query": lambda df: df.groupBy("k").agg(
         F.min("v").alias("lo"), F.max("v").alias("hi"), F.min("ts").alias("first_ts"))},
    {"name": "agg_first_last", "schema": KTV, "steps": VALUES, "mode": "update",
     "query": lambda df: df.groupBy("k").agg(
         F.first("v").alias("f"), F.last("v").alias("l"),
         F.first("v", ignorenulls=True).alias("fn"), F.last("v", ignorenulls=True).alias("ln"))},
    {"name": "agg_count_if", "schema": KTV, "steps": VALUES, "mode": "update",
     "query": lambda df: df.groupBy("k").agg(F.count_if(F.col("v") > 2).alias("big"))},
    {"name": "agg_collect_list_sorted", "schema": KTV, "steps": VALUES, "mode": "update",
     "query": lambda df: df.groupBy("k").agg(F.array_sort(F.collect_list("v")).alias("vs"))},
    {"name": "agg_collect_set_sorted", "schema": KTV, "steps": VALUES, "mode": "complete",
     "query": lambda df: df.groupBy("k").agg(F.array_sort(F.collect_set("v")).alias("vs"))},
    {"name": "agg_approx_count_distinct", "schema": KTV, "steps": VALUES, "mode": "update",
     "query": lambda df: df.groupBy("k").agg(F.approx_count_distinct("v").alias("d"))},
    {"name": "agg_stddev_variance", "schema": KTV, "steps": VALUES, "mode": "update",
     "query": lambda df: df.groupBy("k").agg(F.stddev("v").alias("sd"), F.variance("v").alias("var"))},
    {"name": "agg_all_windowed_append", "schema": KTV, "steps": WINDOWED_VALUES, "mode": "append",
     "query": lambda df: wm(df, "5 seconds").groupBy(F.window("ts", "10 seconds")).agg(
         F.count("v").alias("n"), F.sum("v").alias("s"), F.avg("v").alias("a"),
         F.min("v").alias("lo"), F.max("v").alias("hi"), F.first("v").alias("f"),
         F.last("v").alias("l"), F.count_if(F.col("v") >= 3).alias("ge3"),
         F.array_sort(F.collect_list("v")).alias("vs"), F.array_sort(F.collect_set("v")).alias("vset"),
         F.approx_count_distinct("v").alias("d"), F.stddev("v").alias("sd"),
         F.variance("v").alias("var"), F.mean("v").alias("m"))},
    # ---- deduplication ----------------------------------------------------------------------
    {"name": "dedup_all_columns", "schema": KTV, "steps": DUPLICATES, "mode": "append",
     "query": lambda df: df.dropDuplicates()},
    {"name": "dedup_subset", "schema": KTV, "steps": DUPLICATES, "mode": "append",
     "query": lambda df: df.dropDuplicates(["k"])},
    {"name": "dedup_event_time_evicts", "schema": KTV, "steps": DUPLICATES, "mode": "append",
     "query": lambda df: wm(df).dropDuplicates(["k", "ts"])},
    {"name": "dedup_watermark_not_key", "schema": KTV, "steps": DUPLICATES, "mode": "append",
     "query": lambda df: wm(df).dropDuplicates(["k", "v"])},
    {"name": "dedup_then_count_update", "schema": KTV, "steps": DUPLICATES, "mode": "update",
     "query": lambda df: df.dropDuplicates(["k", "v"]).groupBy("k").count()},
    {"name": "dedup_within_watermark", "schema": KTV, "steps": DUPLICATES, "mode": "append",
     "query": lambda df: wm(df).dropDuplicatesWithinWatermark(["k"])},
    # ---- session windows --------------------------------------------------------------------
    {"name": "session_static_gap_append", "schema": KTV, "steps": SESSIONS, "mode": "append",
     "query": lambda df: wm(df).groupBy(F.session_window("ts", "5 seconds"), "k").agg(
         F.count("*").alias("n"), F.sum("v").alias("s"))},
    {"name": "session_dynamic_gap_append", "schema": KTV, "steps": SESSIONS, "mode": "append",
     "query": lambda df: wm(df).groupBy(
         F.session_window("ts", F.expr("CASE WHEN k = 'a' THEN '5 seconds' ELSE '20 seconds' END")),
         "k").count()},
    {"name": "session_static_gap_complete", "schema": KTV, "steps": SESSIONS, "mode": "complete",
     "query": lambda df: wm(df).groupBy(F.session_window("ts", "5 seconds"), "k").count()},
    # ---- null keys and null event times -----------------------------------------------------
    {"name": "null_keys_windowed_update", "schema": KTV, "mode": "update",
     "query": lambda df: wm(df).groupBy(F.window("ts", "10 seconds"), "k").count(),
     "steps": [
         [[None, t(1), 1], ["a", t(2), 2], [None, t(3), 3]],
         [[None, t(4), 4], [None, t(25), 5]],
         [["a", t(40), 6]],
     ]},
    {"name": "null_event_time_append", "schema": KTV, "mode": "append", "query": tumbling_count,
     "steps": [
         [["a", None, 1], ["a", t(20), 2]],
         [["a", None, 3]],
         [["a", t(40), 4], ["a", None, 5]],
     ]},
    {"name": "null_event_time_dedup", "schema": KTV, "mode": "append",
     "query": lambda df: wm(df).dropDuplicates(["k", "ts"]),
     "steps": [
         [["a", None, 1], ["a", t(20), 2], ["a", None, 3]],
         [["a", None, 4], ["b", None, 5], ["a", t(50), 6]],
         [["a", t(20), 7], ["b", None, 8]],
     ]},
    # ---- rejected queries (spec section 4) --------------------------------------------------
    {"name": "error_append_aggregation_without_watermark", "schema": KTV, "steps": ONE_STEP,
     "mode": "append", "query": lambda df: df.groupBy("k").count()},
    {"name": "error_append_window_without_watermark", "schema": KTV, "steps": ONE_STEP,
     "mode": "append", "query": lambda df: df.groupBy(F.window("ts", "5 seconds")).count()},
    {"name": "error_append_aggregation_watermark_not_key", "schema": KTV, "steps": ONE_STEP,
     "mode": "append", "query": lambda df: wm(df).groupBy("k").count()},
    {"name": "error_complete_without_aggregation", "schema": KTV, "steps": ONE_STEP,
     "mode": "complete", "query": lambda df: df.select("k", "v")},
    {"name": "error_update_session_window", "schema": KTV, "steps": ONE_STEP, "mode": "update",
     "query": lambda df: wm(df).groupBy(F.session_window("ts", "5 seconds"), "k").count()},
    {"name": "error_sort_without_aggregation", "schema": KTV, "steps": ONE_STEP, "mode": "append",
     "query": lambda df: df.orderBy("v")},
    {"name": "error_sort_after_aggregation_update", "schema": KTV, "steps": ONE_STEP,
     "mode": "update", "query": lambda df: df.groupBy("k").count().orderBy("k")},
    {"name": "error_limit_update", "schema": KTV, "steps": ONE_STEP, "mode": "update",
     "query": lambda df: df.groupBy("k").count().limit(1)},
    {"name": "error_distinct_aggregate", "schema": KTV, "steps": ONE_STEP, "mode": "update",
     "query": lambda df: df.groupBy("k").agg(F.count_distinct("v").alias("d"))},
    {"name": "error_chained_aggregation_update", "schema": KTV, "steps": ONE_STEP, "mode": "update",
     "query": lambda df: df.groupBy("k").count().groupBy("count").count()},
    {"name": "error_chained_aggregation_complete", "schema": KTV, "steps": ONE_STEP,
     "mode": "complete", "query": lambda df: df.groupBy("k").count().groupBy("count").count()},
    {"name": "error_dedup_within_watermark_without_watermark", "schema": KTV, "steps": ONE_STEP,
     "mode": "append", "query": lambda df: df.dropDuplicatesWithinWatermark(["k"])},
]
