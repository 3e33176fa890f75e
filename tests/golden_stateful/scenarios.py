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
    input_rows_comparable
            optional, False when Spark's source counts only the rows passing filters pushed
            into its reader (see README.md): numInputRows is then not compared
    read_state
            optional, reads of the checkpoint once the query stopped, each a dict of the
            state data source's options plus "format" (statestore by default, state-metadata)
    query   the query, a function of the streaming input DataFrame

Unless a scenario says otherwise rows are (k, ts, v) and ts is written with t(seconds), the
seconds after 2024-01-01 00:00:00.
"""

import pandas as pd
from pyspark.sql import functions as F
from pyspark.sql.streaming.state import GroupStateTimeout
from pyspark.sql.streaming.stateful_processor import StatefulProcessor

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


# ---- joins ------------------------------------------------------------------------------------
# Both sides of a stream-stream join come from the one input (a self-join, as in Spark's
# StreamingJoinSuite), so each step is one micro-batch for both sides: rows with side = 'L' are
# the left stream (lk, lts, lv), rows with side = 'R' the right one (rk, rts, rv).
SKTV = "side STRING, k STRING, ts TIMESTAMP, v INT"


def join_side(df, side, delay="10 seconds"):
    """One side of a join: the rows of `side` ('L' or 'R'), columns prefixed with its letter."""
    p = side.lower()
    out = df.where(f"side = '{side}'").select(
        F.col("k").alias(p + "k"), F.col("ts").alias(p + "ts"), F.col("v").alias(p + "v"))
    return out.withWatermark(p + "ts", delay) if delay else out


# Rows match when their keys are equal and their times at most 5 s apart.
TIME_RANGE = "lk = rk AND rts >= lts - INTERVAL 5 SECONDS AND rts <= lts + INTERVAL 5 SECONDS"


def time_range_join(df, how, left_delay="10 seconds", right_delay="10 seconds"):
    return join_side(df, "L", left_delay).join(
        join_side(df, "R", right_delay), F.expr(TIME_RANGE), how)


def windowed_side(df, side):
    """A side with its 10-second tumbling window as a join key (Nexmark q8's shape)."""
    p = side.lower()
    return join_side(df, side).select(
        F.col(p + "k"), F.window(p + "ts", "10 seconds").alias(p + "w"), F.col(p + "v"))


def window_join(df, how):
    left, right = windowed_side(df, "L"), windowed_side(df, "R")
    return left.join(right, (left.lk == right.rk) & (left.lw == right.rw), how)


# A watermark delay of 10 s on both sides: the watermark moves 0 -> 2 -> 20 -> 50 -> 90 s. Rows
# are matched within a batch, against the other side's state, and once only; unmatched rows
# leave the state (padded with nulls by an outer join) once the watermark passes them.
JOIN_STEPS = [
    [["L", "a", t(10), 1], ["L", "b", t(12), 2], ["R", "a", t(13), 10], ["R", "c", t(15), 11]],
    [["R", "b", t(30), 12], ["L", "c", t(16), 3], ["L", "a", t(40), 4], ["R", "a", t(20), 13],
     ["R", "a", t(11), 17]],
    [["L", "x", t(8), 5], ["R", "c", t(18), 14], ["L", "d", t(60), 6], ["R", "d", t(62), 15]],
    [["L", "e", t(100), 7], ["R", "e", t(100), 16]],
]

# JOIN_STEPS with a right row of a key no left row has (y) in step 2, already past the right
# side's state watermark when no no-data batch moved the watermark before it.
JOIN_STEPS_UNMATCHED_RIGHT = JOIN_STEPS[:2] + [JOIN_STEPS[2] + [["R", "y", t(9), 18]]] + JOIN_STEPS[3:]

# A left row with a null key matches nothing; a left outer join pads it once the watermark
# passes it. (Only on the preserved side: Spark filters null keys out of the other side before
# its source counts the rows, which a memory source cannot mirror.)
NULL_KEY_JOIN_STEPS = [
    [["L", "a", t(10), 1], ["L", None, t(11), 2], ["R", "a", t(12), 10]],
    [["L", None, t(30), 3], ["R", "b", t(31), 11]],
    [["L", "c", t(60), 4], ["R", "c", t(61), 12]],
]

# Windows of 10 s as join keys: the rows of a key meet when they fall in the same window.
WINDOW_JOIN_STEPS = [
    [["L", "a", t(1), 1], ["R", "a", t(4), 10], ["L", "b", t(3), 2], ["R", "c", t(12), 11]],
    [["R", "b", t(8), 12], ["L", "c", t(18), 3], ["L", "a", t(25), 4], ["R", "b", t(21), 13]],
    [["L", "d", t(5), 5], ["R", "a", t(29), 14], ["L", "e", t(50), 6], ["R", "e", t(55), 15]],
    [["L", "f", t(90), 7], ["R", "f", t(91), 16]],
]

ONE_STEP_SIDES = [[["L", "a", t(1), 1], ["R", "a", t(2), 2]]]

# PLAIN without its null key (Spark filters null keys out of an inner join's stream before its
# source counts the rows).
PLAIN_KEYS = [[row for row in step if row[0] is not None] for step in PLAIN]

# The static side of stream-static joins (a static DataFrame, re-read every batch).
STATIC_ROWS = [("a", "alpha"), ("b", "beta"), ("z", "zeta")]
STATIC_SCHEMA = "sk STRING, name STRING"


def static_side(df):
    return df.sparkSession.createDataFrame(STATIC_ROWS, STATIC_SCHEMA)


def stream_static(df, how):
    return df.join(static_side(df), F.col("k") == F.col("sk"), how)


def static_stream(df, how):
    return static_side(df).join(df, F.col("sk") == F.col("k"), how)


# ---- arbitrary stateful processing -----------------------------------------------------------
# applyInPandasWithState is PySpark's flatMapGroupsWithState; the C++ twins use the latter.
COUNT_OUTPUT = "k STRING, count BIGINT, what STRING"


def count_row(key, count, what):
    return pd.DataFrame({"k": [key[0]], "count": [count], "what": [what]})


def running_count(key, pdfs, state):
    """Counts a key's rows; at 3 it emits "done" and forgets the key."""
    count = (state.get[0] if state.exists else 0) + sum(len(pdf) for pdf in pdfs)
    if count >= 3:
        state.remove()
        yield count_row(key, count, "done")
    else:
        state.update((count,))
        yield count_row(key, count, "counting")


def event_time_session(key, pdfs, state):
    """Counts a key's rows until the watermark passes 10 s after its latest row, then emits the
    count as "expired" and forgets the key."""
    if state.hasTimedOut:
        count = state.get[0]
        state.remove()
        yield count_row(key, count, "expired")
        return
    count = state.get[0] if state.exists else 0
    latest = None
    for pdf in pdfs:
        count += len(pdf)
        newest = pdf["ts"].max()
        latest = newest if latest is None or newest > latest else latest
    state.update((count,))
    state.setTimeoutTimestamp(int(latest.timestamp() * 1000) + 10000)


GROUP_STEPS = [
    [["a", t(1), 1], ["b", t(2), 2], ["a", t(3), 3]],
    [["b", t(4), 4]],
    [],
    [["a", t(6), 5], ["c", t(7), 6], ["a", t(8), 7], ["b", t(9), 8]],
]

# Keys time out once the watermark (10 s behind) passes 10 s after their latest row; a row at
# 5 s comes after the watermark reached 30 s and is dropped.
SESSION_STEPS = [
    [["a", t(10), 1], ["a", t(12), 2], ["b", t(15), 3]],
    [["c", t(40), 4]],
    [["d", t(5), 5], ["c", t(45), 6]],
    [["e", t(100), 7]],
]


# transformWithState: Spark runs it on the RocksDB provider only.
ROCKSDB = {"spark.sql.streaming.stateStore.providerClass":
           "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider"}
# Spark reads a RocksDB store's change feed from its changelogs, which it writes only when
# asked to; Sluice's RocksDB provider always does.
ROCKSDB_WITH_CHANGELOG = {
    **ROCKSDB,
    "spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled": "true"}


class RunningCountProcessor(StatefulProcessor):
    """Counts a key's rows (value state), its distinct v (map state) and keeps the v seen (list
    state); at 4 rows it emits "done" and forgets the key."""

    def init(self, handle):
        self.count = handle.getValueState("count", "count BIGINT")
        self.per_value = handle.getMapState("perValue", "v INT", "n BIGINT")
        self.seen = handle.getListState("seen", "v INT")

    def handleInputRows(self, key, rows, timerValues):
        count = self.count.get()[0] if self.count.exists() else 0
        for pdf in rows:
            count += len(pdf)
            for v in pdf["v"]:
                v = int(v)
                seen = self.per_value.getValue((v,))[0] if self.per_value.containsKey((v,)) else 0
                self.per_value.updateValue((v,), (seen + 1,))
                self.seen.appendValue((v,))
        distinct = len(list(self.per_value.keys()))
        if count >= 4:
            self.count.clear()
            self.per_value.clear()
            self.seen.clear()
            yield count_row(key, count, "done %d" % distinct)
        else:
            self.count.update((count,))
            yield count_row(key, count, "counting %d" % distinct)

    def close(self):
        pass


class EventTimeSessionProcessor(StatefulProcessor):
    """Counts a key's rows until its event-time timer, 10 s after its latest row, expires;
    then emits the count and forgets the key."""

    def init(self, handle):
        self.handle = handle
        self.count = handle.getValueState("count", "count BIGINT")

    def handleInputRows(self, key, rows, timerValues):
        count = self.count.get()[0] if self.count.exists() else 0
        latest = None
        for pdf in rows:
            count += len(pdf)
            newest = pdf["ts"].max()
            latest = newest if latest is None or newest > latest else latest
        self.count.update((count,))
        for timer in list(self.handle.listTimers()):
            self.handle.deleteTimer(timer)
        self.handle.registerTimer(int(latest.timestamp() * 1000) + 10000)
        return iter([])

    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
        count = self.count.get()[0]
        self.count.clear()
        yield count_row(key, count, "expired at %d" % (expiredTimerInfo.getExpiryTimeInMs() // 1000))

    def close(self):
        pass


SCENARIOS = [
    # ---- tumbling and sliding windows -------------------------------------------------------
    {"name": "tumbling_count_append", "schema": KTV, "steps": ADVANCING, "mode": "append",
     "query": tumbling_count,
     # A window put and, once the watermark passes it, removed.
     "read_state": [{"readChangeFeed": "true", "changeStartBatchId": "0"}]},
    {"name": "tumbling_keyed_count_update_change_feed", "schema": KTV, "steps": KEYED,
     "mode": "update",
     "query": lambda df: wm(df).groupBy(F.window("ts", "10 seconds"), "k").count(),
     "read_state": [{"readChangeFeed": "true", "changeStartBatchId": "0"}]},
    {"name": "tumbling_count_update", "schema": KTV, "steps": ADVANCING, "mode": "update",
     "query": tumbling_count,
     "read_state": [{}, {"batchId": 1},
                    {"readChangeFeed": "true", "changeStartBatchId": "0"},
                    {"format": "state-metadata"}]},
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
     "query": lambda df: df.dropDuplicates(["k"]), "read_state": [{}]},
    {"name": "dedup_event_time_evicts", "schema": KTV, "steps": DUPLICATES, "mode": "append",
     "query": lambda df: wm(df).dropDuplicates(["k", "ts"]),
     "read_state": [{}, {"batchId": 1}]},
    # The state key takes the subset's order, the event time in the middle of it.
    {"name": "dedup_subset_order", "schema": KTV, "steps": DUPLICATES, "mode": "append",
     "query": lambda df: wm(df).dropDuplicates(["v", "ts", "k"]),
     "read_state": [{}, {"batchId": 1}]},
    # Five names: Spark's Set orders them by their hashes, here x, ts, v, w, k.
    {"name": "dedup_five_names", "schema": KTV + ", w INT, x INT",
     "steps": [[row + [row[2] * 2, 7] for row in step] for step in DUPLICATES],
     "mode": "append",
     "query": lambda df: df.dropDuplicates(["k", "ts", "v", "w", "x"]), "read_state": [{}]},
    {"name": "dedup_watermark_not_key", "schema": KTV, "steps": DUPLICATES, "mode": "append",
     "query": lambda df: wm(df).dropDuplicates(["k", "v"])},
    {"name": "dedup_then_count_update", "schema": KTV, "steps": DUPLICATES, "mode": "update",
     "query": lambda df: df.dropDuplicates(["k", "v"]).groupBy("k").count()},
    {"name": "dedup_within_watermark", "schema": KTV, "steps": DUPLICATES, "mode": "append",
     "query": lambda df: wm(df).dropDuplicatesWithinWatermark(["k"]),
     "read_state": [{}, {"batchId": 2}]},
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
    {"name": "transform_with_state_running_count_update", "schema": KTV,
     "conf": ROCKSDB_WITH_CHANGELOG,
     "steps": GROUP_STEPS + [[["a", t(10), 1], ["a", t(11), 1], ["b", t(12), 2]]],
     "mode": "update",
     "query": lambda df: df.groupBy("k").transformWithStateInPandas(
         RunningCountProcessor(), COUNT_OUTPUT, "Update", "None"),
     "read_state": [{"stateVarName": "count"}, {"stateVarName": "perValue"},
                    {"stateVarName": "perValue", "flattenCollectionTypes": "false"},
                    {"stateVarName": "seen"},
                    {"stateVarName": "seen", "flattenCollectionTypes": "false"},
                    # Every put: the last batch updates a's perValue entry of 1 twice.
                    {"stateVarName": "perValue", "readChangeFeed": "true",
                     "changeStartBatchId": "0"},
                    {"stateVarName": "count", "readChangeFeed": "true",
                     "changeStartBatchId": "0"}]},
    {"name": "transform_with_state_event_time_timers", "schema": KTV, "conf": ROCKSDB,
     "steps": SESSION_STEPS, "mode": "append",
     "query": lambda df: wm(df).groupBy("k").transformWithStateInPandas(
         EventTimeSessionProcessor(), COUNT_OUTPUT, "Append", "EventTime"),
     "read_state": [{"readRegisteredTimers": "true"}, {"stateVarName": "count"}]},
    # ---- filters Spark pushes below withWatermark ------------------------------------------
    {"name": "filter_after_watermark_append", "schema": KTV, "mode": "append",
     "input_rows_comparable": False,
     "query": lambda df: wm(df).where("v > 1").groupBy(F.window("ts", "10 seconds")).count(),
     "steps": [
         [["a", t(5), 5]],
         [["a", t(60), 0], ["b", t(15), 3]],
         [["a", t(6), 5], ["a", t(40), 2]],
     ]},
    {"name": "filter_on_key_above_aggregation_append", "schema": KTV, "mode": "append",
     "input_rows_comparable": False,
     "query": lambda df: wm(df).groupBy(F.window("ts", "10 seconds"), "k").count().where(
         "k = 'a'"),
     "steps": [
         [["a", t(5), 1]],
         [["b", t(60), 2], ["a", t(15), 3]],
         [["a", t(6), 4], ["a", t(40), 5]],
     ]},
    {"name": "filter_on_event_time_after_watermark_append", "schema": KTV, "mode": "append",
     "query": lambda df: wm(df).where(F.col("ts") < F.lit("2024-01-01 00:00:50").cast(
         "timestamp")).groupBy(F.window("ts", "10 seconds")).count(),
     "steps": [
         [["a", t(5), 1], ["a", t(1), 2]],
         [["a", t(60), 3]],
         [["a", t(70), 4]],
     ]},
    # ---- arbitrary stateful processing ------------------------------------------------------
    {"name": "groups_with_state_running_count_update", "schema": KTV, "steps": GROUP_STEPS,
     "mode": "update",
     "query": lambda df: df.groupBy("k").applyInPandasWithState(
         running_count, COUNT_OUTPUT, "count BIGINT", "update", GroupStateTimeout.NoTimeout)},
    {"name": "groups_with_state_running_count_append", "schema": KTV, "steps": GROUP_STEPS,
     "mode": "append",
     "query": lambda df: df.groupBy("k").applyInPandasWithState(
         running_count, COUNT_OUTPUT, "count BIGINT", "append", GroupStateTimeout.NoTimeout)},
    {"name": "groups_with_state_event_time_timeout", "schema": KTV, "steps": SESSION_STEPS,
     "mode": "append",
     "query": lambda df: wm(df).groupBy("k").applyInPandasWithState(
         event_time_session, COUNT_OUTPUT, "count BIGINT", "append",
         GroupStateTimeout.EventTimeTimeout)},
    {"name": "error_groups_with_state_event_time_without_watermark", "schema": KTV,
     "steps": ONE_STEP, "mode": "append",
     "query": lambda df: df.groupBy("k").applyInPandasWithState(
         event_time_session, COUNT_OUTPUT, "count BIGINT", "append",
         GroupStateTimeout.EventTimeTimeout)},
    {"name": "error_groups_with_state_update_in_append", "schema": KTV, "steps": ONE_STEP,
     "mode": "append",
     "query": lambda df: df.groupBy("k").applyInPandasWithState(
         running_count, COUNT_OUTPUT, "count BIGINT", "update", GroupStateTimeout.NoTimeout)},
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
    # ---- stream-static joins -------------------------------------------------------------
    {"name": "join_stream_static_inner", "schema": KTV, "steps": PLAIN_KEYS, "mode": "append",
     "query": lambda df: stream_static(df, "inner")},
    {"name": "join_stream_static_left_outer", "schema": KTV, "steps": PLAIN, "mode": "append",
     "query": lambda df: stream_static(df, "left_outer")},
    {"name": "join_stream_static_left_semi", "schema": KTV, "steps": PLAIN_KEYS, "mode": "append",
     "query": lambda df: stream_static(df, "left_semi")},
    {"name": "join_stream_static_left_anti", "schema": KTV, "steps": PLAIN, "mode": "append",
     "query": lambda df: stream_static(df, "left_anti")},
    {"name": "join_static_stream_inner", "schema": KTV, "steps": PLAIN_KEYS, "mode": "append",
     "query": lambda df: static_stream(df, "inner")},
    {"name": "join_static_stream_right_outer", "schema": KTV, "steps": PLAIN, "mode": "append",
     "query": lambda df: static_stream(df, "right_outer")},
    {"name": "join_stream_static_then_count_update", "schema": KTV, "steps": PLAIN_KEYS,
     "mode": "update", "query": lambda df: stream_static(df, "inner").groupBy("name").count()},
    {"name": "error_join_stream_static_right_outer", "schema": KTV, "steps": ONE_STEP,
     "mode": "append", "query": lambda df: stream_static(df, "right_outer")},
    {"name": "error_join_stream_static_full_outer", "schema": KTV, "steps": ONE_STEP,
     "mode": "append", "query": lambda df: stream_static(df, "full_outer")},
    {"name": "error_join_static_stream_left_outer", "schema": KTV, "steps": ONE_STEP,
     "mode": "append", "query": lambda df: static_stream(df, "left_outer")},
    {"name": "error_join_static_stream_left_anti", "schema": KTV, "steps": ONE_STEP,
     "mode": "append", "query": lambda df: static_stream(df, "left_anti")},
    # ---- stream-stream joins -------------------------------------------------------------
    {"name": "join_inner_without_watermark", "schema": SKTV, "steps": JOIN_STEPS,
     "mode": "append",
     "read_state": [{"joinSide": "left"}, {"joinSide": "right", "batchId": 1},
                    {"storeName": "left-keyToNumValues"},
                    {"storeName": "right-keyWithIndexToValue"},
                    {"storeName": "left-keyToNumValues", "readChangeFeed": "true",
                     "changeStartBatchId": "1"},
                    # Every put: key a's count once per row appended, and the matched flag
                    # of a row kept from an earlier batch.
                    {"storeName": "right-keyToNumValues", "readChangeFeed": "true",
                     "changeStartBatchId": "0"},
                    {"storeName": "left-keyWithIndexToValue", "readChangeFeed": "true",
                     "changeStartBatchId": "0"},
                    {"format": "state-metadata"}],
     "query": lambda df: join_side(df, "L", None).join(
         join_side(df, "R", None), F.col("lk") == F.col("rk"))},
    {"name": "join_inner_time_range", "schema": SKTV, "steps": JOIN_STEPS, "mode": "append",
     "query": lambda df: time_range_join(df, "inner")},
    {"name": "join_left_outer_time_range", "schema": SKTV, "steps": JOIN_STEPS, "mode": "append",
     "query": lambda df: time_range_join(df, "left_outer"),
     "read_state": [{"storeName": "left-keyWithIndexToValue", "batchId": 4},
                    {"storeName": "right-keyWithIndexToValue", "batchId": 3},
                    # Eviction by value: each removal fills its hole with the key's last row.
                    {"storeName": "right-keyWithIndexToValue", "readChangeFeed": "true",
                     "changeStartBatchId": "0"},
                    {"storeName": "right-keyToNumValues", "readChangeFeed": "true",
                     "changeStartBatchId": "0"},
                    {"storeName": "left-keyWithIndexToValue", "readChangeFeed": "true",
                     "changeStartBatchId": "0"}]},
    {"name": "join_right_outer_time_range", "schema": SKTV, "steps": JOIN_STEPS, "mode": "append",
     "query": lambda df: time_range_join(df, "right_outer")},
    {"name": "join_full_outer_time_range", "schema": SKTV, "steps": JOIN_STEPS, "mode": "append",
     "query": lambda df: time_range_join(df, "full_outer")},
    {"name": "join_right_outer_time_range_unmatched_right", "schema": SKTV,
     "steps": JOIN_STEPS_UNMATCHED_RIGHT, "mode": "append",
     "query": lambda df: time_range_join(df, "right_outer")},
    {"name": "join_full_outer_time_range_unmatched_right", "schema": SKTV,
     "steps": JOIN_STEPS_UNMATCHED_RIGHT, "mode": "append",
     "query": lambda df: time_range_join(df, "full_outer")},
    {"name": "join_left_semi_time_range", "schema": SKTV, "steps": JOIN_STEPS, "mode": "append",
     "query": lambda df: time_range_join(df, "left_semi")},
    {"name": "join_left_outer_right_watermark_only", "schema": SKTV, "steps": JOIN_STEPS,
     "mode": "append", "query": lambda df: time_range_join(df, "left_outer", left_delay=None)},
    # A full outer join needs one side's state to be bounded, not both: right rows stay.
    {"name": "join_full_outer_right_watermark_only", "schema": SKTV, "steps": JOIN_STEPS,
     "mode": "append", "query": lambda df: time_range_join(df, "full_outer", left_delay=None)},
    {"name": "join_right_outer_window_key", "schema": SKTV, "steps": WINDOW_JOIN_STEPS,
     "mode": "append", "query": lambda df: window_join(df, "right_outer")},
    {"name": "join_left_outer_side_condition", "schema": SKTV, "steps": JOIN_STEPS,
     "mode": "append",
     "query": lambda df: join_side(df, "L").join(
         join_side(df, "R"), F.expr(TIME_RANGE + " AND lv % 2 = 1"), "left_outer")},
    {"name": "join_left_outer_null_key", "schema": SKTV, "steps": NULL_KEY_JOIN_STEPS,
     "mode": "append", "query": lambda df: time_range_join(df, "left_outer")},
    # Conditions Spark pushes below withWatermark: the rows they drop never move the watermark.
    {"name": "join_inner_right_side_condition", "schema": SKTV, "steps": JOIN_STEPS,
     "mode": "append", "input_rows_comparable": False,
     "query": lambda df: join_side(df, "L").join(
         join_side(df, "R"), F.expr(TIME_RANGE + " AND rv < 15"), "inner")},
    {"name": "join_inner_null_key_watermark", "schema": SKTV, "mode": "append",
     "input_rows_comparable": False, "query": lambda df: time_range_join(df, "inner"),
     "steps": [
         [["L", "a", t(10), 1], ["R", "a", t(12), 10]],
         [["L", None, t(90), 2], ["L", "b", t(30), 3], ["R", "b", t(31), 11]],
         [["L", "c", t(25), 4], ["R", "c", t(26), 12]],
     ]},
    {"name": "join_inner_window_key", "schema": SKTV, "steps": WINDOW_JOIN_STEPS,
     "mode": "append", "query": lambda df: window_join(df, "inner")},
    # Two stateful operators: the join's output, counted per window once the watermark
    # closes it.
    {"name": "join_then_window_count_append", "schema": SKTV, "steps": WINDOW_JOIN_STEPS,
     "mode": "append",
     "query": lambda df: window_join(df, "inner").groupBy("lw").count()},
    {"name": "join_left_outer_window_key", "schema": SKTV, "steps": WINDOW_JOIN_STEPS,
     "mode": "append", "query": lambda df: window_join(df, "left_outer"),
     # Eviction by key: a key's count and every row under it.
     "read_state": [{"storeName": "left-keyWithIndexToValue", "readChangeFeed": "true",
                     "changeStartBatchId": "0"},
                    {"storeName": "left-keyToNumValues", "readChangeFeed": "true",
                     "changeStartBatchId": "0"},
                    {"storeName": "right-keyToNumValues", "readChangeFeed": "true",
                     "changeStartBatchId": "0"}]},
    {"name": "join_full_outer_window_key", "schema": SKTV, "steps": WINDOW_JOIN_STEPS,
     "mode": "append", "query": lambda df: window_join(df, "full_outer")},
    {"name": "join_left_semi_window_key", "schema": SKTV, "steps": WINDOW_JOIN_STEPS,
     "mode": "append", "query": lambda df: window_join(df, "left_semi")},
    {"name": "error_join_stream_stream_update", "schema": SKTV, "steps": ONE_STEP_SIDES,
     "mode": "update", "query": lambda df: time_range_join(df, "inner")},
    {"name": "error_join_left_outer_without_watermark", "schema": SKTV, "steps": ONE_STEP_SIDES,
     "mode": "append",
     "query": lambda df: time_range_join(df, "left_outer", left_delay=None, right_delay=None)},
    {"name": "error_join_left_outer_left_watermark_only", "schema": SKTV,
     "steps": ONE_STEP_SIDES, "mode": "append",
     "query": lambda df: time_range_join(df, "left_outer", right_delay=None)},
    {"name": "error_join_full_outer_without_watermark", "schema": SKTV,
     "steps": ONE_STEP_SIDES, "mode": "append",
     "query": lambda df: time_range_join(df, "full_outer", left_delay=None, right_delay=None)},
    {"name": "error_join_stream_stream_left_anti", "schema": SKTV, "steps": ONE_STEP_SIDES,
     "mode": "append", "query": lambda df: time_range_join(df, "left_anti")},
]


def repeated(names, suffix, conf):
    """The scenarios `names` once more, as `<name><suffix>`, with the settings `conf` added and
    without their state reads (those name batches and stores of the first run)."""
    return [{**{key: value for key, value in s.items() if key != "read_state"},
             "name": s["name"] + suffix, "conf": {**s.get("conf", {}), **conf}}
            for s in SCENARIOS if s["name"] in names]


# Without no-data batches, a batch with rows also moves the watermark: its rows, the eviction
# and the timers of the new watermark meet in one batch. These scenarios run once more that way.
NO_DATA_BATCHES_OFF = {"spark.sql.streaming.noDataMicroBatches.enabled": "false"}
WITHOUT_NO_DATA_BATCHES = {
    "late_rows_update", "late_rows_at_watermark_append", "sliding_start_time_update",
    "chained_window_aggregation_append", "two_watermarks_min", "dedup_event_time_evicts",
    "dedup_within_watermark", "null_event_time_dedup", "session_static_gap_append",
    "session_dynamic_gap_append", "groups_with_state_event_time_timeout",
    "transform_with_state_event_time_timers", "join_left_outer_time_range",
    "join_full_outer_time_range", "join_left_semi_time_range", "join_left_outer_window_key",
    "join_then_window_count_append", "tumbling_keyed_sum_update", "keyed_watermark_not_key_update",
    "null_keys_windowed_update", "chained_aggregation_update_unchecked", "agg_all_windowed_append",
    "filter_after_watermark_append", "groups_with_state_running_count_append",
    "join_inner_time_range", "join_right_outer_time_range", "join_left_outer_right_watermark_only",
    "join_full_outer_right_watermark_only", "join_right_outer_window_key",
    "join_full_outer_window_key", "join_left_semi_window_key", "join_inner_null_key_watermark",
    "join_left_outer_null_key", "join_left_outer_side_condition",
    "join_right_outer_time_range_unmatched_right", "join_full_outer_time_range_unmatched_right",
}
# The same answers from the RocksDB provider: each operator's state, written and read back
# through it, batch by batch.
ON_ROCKSDB = {
    "tumbling_count_append", "tumbling_keyed_sum_update", "sliding_start_time_update",
    "keyed_complete", "agg_all_windowed_append", "dedup_event_time_evicts",
    "dedup_within_watermark", "session_static_gap_append", "session_dynamic_gap_append",
    "groups_with_state_event_time_timeout", "join_left_outer_time_range",
    "join_full_outer_window_key", "join_left_semi_time_range",
}
SCENARIOS += (repeated(WITHOUT_NO_DATA_BATCHES, "_without_no_data_batches", NO_DATA_BATCHES_OFF)
              + repeated(ON_ROCKSDB, "_on_rocksdb", ROCKSDB))
