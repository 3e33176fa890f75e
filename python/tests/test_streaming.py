import json
import os
import subprocess
import sys
import threading
import time

import pytest

from sluice.errors import AnalysisException, IllegalArgumentException, PySparkValueError, \
    StreamingQueryException
from sluice.sql import Row
from sluice.sql import functions as F
from sluice.sql.streaming import StreamingQueryListener


def write_json_files(folder, batches):
    folder.mkdir(parents=True, exist_ok=True)
    for i, rows in enumerate(batches):
        (folder / ("part-%03d.json" % i)).write_text(
            "".join(json.dumps(r) + "\n" for r in rows))


@pytest.fixture
def landing(tmp_path):
    folder = tmp_path / "landing"
    write_json_files(folder, [[{"k": "a", "v": 1}, {"k": "b", "v": 2}],
                              [{"k": "a", "v": 3}], [{"k": "c", "v": 4}]])
    return folder


def read_landing(spark, folder):
    return (spark.readStream.schema("k STRING, v INT").option("maxFilesPerTrigger", 1)
            .json(str(folder)))


def test_foreach_batch_gets_each_batch(spark, landing, tmp_path):
    seen = []

    def collect(batch_df, batch_id):
        seen.append((batch_id, sorted(tuple(r) for r in batch_df.collect())))

    query = (read_landing(spark, landing).writeStream.foreachBatch(collect)
             .option("checkpointLocation", str(tmp_path / "ckpt"))
             .trigger(availableNow=True).start())
    query.awaitTermination()
    assert seen == [(0, [("a", 1), ("b", 2)]), (1, [("a", 3)]), (2, [("c", 4)])]
    assert not query.isActive
    assert query.exception() is None


def test_foreach_batch_failure_keeps_the_python_traceback(spark, landing, tmp_path):
    def explode(batch_df, batch_id):
        raise ZeroDivisionError("boom in batch %d" % batch_id)

    query = (read_landing(spark, landing).writeStream.foreachBatch(explode)
             .option("checkpointLocation", str(tmp_path / "ckpt"))
             .trigger(availableNow=True).start())
    with pytest.raises(StreamingQueryException) as error:
        query.awaitTermination()
    message = str(error.value)
    assert error.value.getErrorClass() == "STREAM_FAILED"
    assert "Traceback (most recent call last)" in message
    assert "ZeroDivisionError: boom in batch 0" in message
    assert "in explode" in message
    assert isinstance(query.exception(), StreamingQueryException)


def test_memory_sink_with_complete_mode(spark, landing, tmp_path):
    query = (read_landing(spark, landing).groupBy("k").agg(F.sum("v").alias("total"))
             .writeStream.outputMode("complete").format("memory").queryName("totals_by_key")
             .option("checkpointLocation", str(tmp_path / "ckpt")).start())
    try:
        query.processAllAvailable()
        rows = spark.table("totals_by_key").orderBy("k").collect()
        assert rows == [Row(k="a", total=4), Row(k="b", total=2), Row(k="c", total=4)]
        assert query.name == "totals_by_key"
        assert spark.streams.get(query.id).runId == query.runId
        assert query.id in [q.id for q in spark.streams.active]
    finally:
        query.stop()
    assert not query.isActive


def test_progress_is_shaped_like_pyspark(spark, landing, tmp_path):
    query = (read_landing(spark, landing).writeStream.format("noop")
             .queryName("progress_shape").option("checkpointLocation", str(tmp_path / "ckpt"))
             .trigger(availableNow=True).start())
    assert query.awaitTermination(60) is True
    progress = query.lastProgress
    assert isinstance(progress, dict)
    for key in ("id", "runId", "name", "timestamp", "batchId", "numInputRows",
                "durationMs", "sources", "sink"):
        assert key in progress, key
    assert progress["name"] == "progress_shape"
    assert progress["id"] == query.id
    assert [p["batchId"] for p in query.recentProgress][:3] == [0, 1, 2]
    assert sum(p["numInputRows"] for p in query.recentProgress) == 4
    assert progress.sources[0].description.startswith("FileStreamSource")
    assert json.loads(progress.json)["batchId"] == progress.batchId
    assert set(query.status) == {"message", "isDataAvailable", "isTriggerActive"}


def test_rate_source_with_processing_time_trigger(spark, tmp_path):
    query = (spark.readStream.format("rate").option("rowsPerSecond", 100).load()
             .select("value").writeStream.format("memory").queryName("rate_rows")
             .trigger(processingTime="200 milliseconds").start())
    try:
        deadline = time.time() + 30
        while time.time() < deadline and spark.table("rate_rows").count() < 10:
            time.sleep(0.1)
        assert spark.table("rate_rows").count() >= 10
        assert query.awaitTermination(0.1) is False
    finally:
        query.stop()


class RecordingListener(StreamingQueryListener):
    def __init__(self):
        self.events = []
        self.done = threading.Event()

    def onQueryStarted(self, event):
        self.events.append(("started", event.id, event.name))

    def onQueryProgress(self, event):
        self.events.append(("progress", event.progress.batchId, event.progress.numInputRows))

    def onQueryIdle(self, event):
        self.events.append(("idle", event.id))

    def onQueryTerminated(self, event):
        self.events.append(("terminated", event.id, event.exception))
        self.done.set()


def test_listener_receives_pyspark_events(spark, landing, tmp_path):
    listener = RecordingListener()
    spark.streams.addListener(listener)
    try:
        query = (read_landing(spark, landing).writeStream.format("noop").queryName("listened")
                 .option("checkpointLocation", str(tmp_path / "ckpt"))
                 .trigger(availableNow=True).start())
        query.awaitTermination()
        assert listener.done.wait(10)
    finally:
        spark.streams.removeListener(listener)
    events = [e for e in listener.events if e[0] != "idle"]
    assert events[0][0] == "started" and str(events[0][1]) == query.id
    assert events[0][2] == "listened"
    assert [e[1:] for e in events if e[0] == "progress"][:3] == [(0, 2), (1, 1), (2, 1)]
    assert events[-1] == ("terminated", events[0][1], None)


def test_listener_sees_the_failure(spark, landing, tmp_path):
    listener = RecordingListener()
    spark.streams.addListener(listener)
    try:
        query = (read_landing(spark, landing).writeStream
                 .foreachBatch(lambda df, i: 1 / 0)
                 .option("checkpointLocation", str(tmp_path / "ckpt"))
                 .trigger(availableNow=True).start())
        with pytest.raises(StreamingQueryException):
            query.awaitTermination()
        assert listener.done.wait(10)
    finally:
        spark.streams.removeListener(listener)
    assert "ZeroDivisionError" in listener.events[-1][2]


def test_foreach_with_a_function_and_with_a_writer(spark, landing, tmp_path):
    rows = []
    query = (read_landing(spark, landing).writeStream.foreach(lambda row: rows.append(row.v))
             .option("checkpointLocation", str(tmp_path / "c1"))
             .trigger(availableNow=True).start())
    query.awaitTermination()
    assert sorted(rows) == [1, 2, 3, 4]

    class Writer:
        def __init__(self):
            self.calls = []

        def open(self, partition_id, epoch_id):
            self.calls.append(("open", epoch_id))
            return epoch_id != 1

        def process(self, row):
            self.calls.append(("process", row.k))

        def close(self, error):
            self.calls.append(("close", error))

    writer = Writer()
    query = (read_landing(spark, landing).writeStream.foreach(writer)
             .option("checkpointLocation", str(tmp_path / "c2"))
             .trigger(availableNow=True).start())
    query.awaitTermination()
    assert writer.calls == [("open", 0), ("process", "a"), ("process", "b"), ("close", None),
                            ("open", 1), ("close", None),
                            ("open", 2), ("process", "c"), ("close", None)]


def test_trigger_arguments_are_checked(spark):
    writer = spark.readStream.format("rate").load().writeStream
    with pytest.raises(PySparkValueError):
        writer.trigger()
    with pytest.raises(PySparkValueError):
        writer.trigger(processingTime="1 second", once=True)
    with pytest.raises(PySparkValueError):
        writer.trigger(availableNow=False)


def test_bad_processing_time_fails_start(spark):
    writer = (spark.readStream.format("rate").load().writeStream.format("noop")
              .trigger(processingTime="soon"))
    with pytest.raises(IllegalArgumentException):
        writer.start()


def test_write_stream_on_a_batch_dataframe(spark):
    with pytest.raises(AnalysisException) as error:
        spark.range(3).writeStream.format("noop").start()
    assert error.value.getErrorClass() == "WRITE_STREAM_NOT_ALLOWED"


def test_await_any_termination(spark, landing, tmp_path):
    spark.streams.resetTerminated()
    query = (read_landing(spark, landing).writeStream.format("noop")
             .option("checkpointLocation", str(tmp_path / "ckpt"))
             .trigger(once=True).start())
    assert spark.streams.awaitAnyTermination(60) is True
    assert query.awaitTermination(10) is True


def test_stream_stream_left_outer_join_pads_rows_the_watermark_passes(spark, tmp_path):
    # Clicks joined with the impressions they follow within 10 s; an impression without a
    # click comes out padded with nulls once the watermark passes it.
    def ts(seconds):
        return "2024-01-01 00:%02d:%02d" % (seconds // 60, seconds % 60)

    events = tmp_path / "events"
    write_json_files(events, [
        [{"kind": "impression", "ad": "a", "ts": ts(10)},
         {"kind": "impression", "ad": "b", "ts": ts(12)},
         {"kind": "click", "ad": "a", "ts": ts(15)}],
        [{"kind": "impression", "ad": "c", "ts": ts(60)},
         {"kind": "click", "ad": "c", "ts": ts(61)}],
    ])
    stream = (spark.readStream.schema("kind STRING, ad STRING, ts TIMESTAMP")
              .option("maxFilesPerTrigger", 1).json(str(events)))
    impressions = (stream.where("kind = 'impression'")
                   .select(F.col("ad").alias("i_ad"), F.col("ts").alias("i_ts"))
                   .withWatermark("i_ts", "10 seconds"))
    clicks = (stream.where("kind = 'click'")
              .select(F.col("ad").alias("c_ad"), F.col("ts").alias("c_ts"))
              .withWatermark("c_ts", "10 seconds"))
    joined = impressions.join(
        clicks, F.expr("i_ad = c_ad AND c_ts BETWEEN i_ts AND i_ts + INTERVAL 10 SECONDS"),
        "left_outer")
    query = (joined.writeStream.format("memory").queryName("ad_clicks")
             .option("checkpointLocation", str(tmp_path / "ckpt"))
             .trigger(availableNow=True).start())
    query.awaitTermination()
    rows = sorted((r.i_ad, r.c_ad) for r in spark.sql("SELECT * FROM ad_clicks").collect())
    assert rows == [("a", "a"), ("b", None), ("c", "c")]
    operators = query.lastProgress["stateOperators"]
    assert [op["operatorName"] for op in operators] == ["symmetricHashJoin"]


def test_state_of_a_query_reads_back_as_tables(spark, landing, tmp_path):
    checkpoint = str(tmp_path / "ckpt")
    query = (read_landing(spark, landing).groupBy("k").count().writeStream.format("noop")
             .outputMode("update").option("checkpointLocation", checkpoint)
             .trigger(availableNow=True).start())
    query.awaitTermination()
    state = spark.read.format("statestore").load(checkpoint)
    assert sorted((r.key.k, r.value["count"]) for r in state.collect()) == \
        [("a", 2), ("b", 1), ("c", 1)]
    first = spark.read.format("statestore").option("batchId", 0).load(checkpoint)
    assert sorted(r.key.k for r in first.collect()) == ["a", "b"]
    changes = (spark.read.format("statestore").option("readChangeFeed", True)
               .option("changeStartBatchId", 1).load(checkpoint))
    assert sorted((r.batch_id, r.change_type, r.key.k) for r in changes.collect()) == \
        [(1, "update", "a"), (2, "update", "c")]
    operators = spark.read.format("state-metadata").load(checkpoint).collect()
    assert [(r.operatorName, r.stateStoreName, r.maxBatchId) for r in operators] == \
        [("stateStoreSave", "default", 2)]


def test_apply_in_pandas_with_state_keeps_a_state_per_key(spark, tmp_path):
    import pandas as pd
    from sluice.sql.streaming.state import GroupStateTimeout

    def ts(seconds):
        return "2024-01-01 00:%02d:%02d" % (seconds // 60, seconds % 60)

    events = tmp_path / "events"
    write_json_files(events, [
        [{"user": "a", "ts": ts(10)}, {"user": "a", "ts": ts(12)}, {"user": "b", "ts": ts(15)}],
        [{"user": "c", "ts": ts(40)}],
        [{"user": "c", "ts": ts(45)}],
        [{"user": "e", "ts": ts(100)}],
    ])

    def sessions(key, pdfs, state):
        # A user's clicks until the watermark passes 10 s after the latest one.
        if state.hasTimedOut:
            (clicks,) = state.get
            state.remove()
            yield pd.DataFrame({"user": [key[0]], "clicks": [clicks]})
            return
        clicks = state.get[0] if state.exists else 0
        latest = None
        for pdf in pdfs:
            clicks += len(pdf)
            latest = pdf["ts"].max()
        state.update((clicks,))
        state.setTimeoutTimestamp(int(latest.timestamp() * 1000) + 10000)

    stream = (spark.readStream.schema("user STRING, ts TIMESTAMP")
              .option("maxFilesPerTrigger", 1).json(str(events)))
    query = (stream.withWatermark("ts", "10 seconds").groupBy("user")
             .applyInPandasWithState(sessions, "user STRING, clicks LONG", "clicks LONG",
                                     "append", GroupStateTimeout.EventTimeTimeout)
             .writeStream.format("memory").queryName("user_sessions")
             .option("checkpointLocation", str(tmp_path / "ckpt"))
             .trigger(availableNow=True).start())
    query.awaitTermination()
    rows = sorted(tuple(r) for r in spark.sql("SELECT * FROM user_sessions").collect())
    assert rows == [("a", 2), ("b", 1), ("c", 2)]


def test_apply_in_pandas_with_state_failure_keeps_the_python_traceback(spark, landing, tmp_path):
    def explode(key, pdfs, state):
        raise ZeroDivisionError("boom for %s" % key[0])
        yield  # a generator, as PySpark's functions are

    query = (read_landing(spark, landing).groupBy("k")
             .applyInPandasWithState(explode, "k STRING", "n LONG", "update", "NoTimeout")
             .writeStream.format("noop").outputMode("update")
             .option("checkpointLocation", str(tmp_path / "ckpt"))
             .trigger(availableNow=True).start())
    with pytest.raises(StreamingQueryException) as error:
        query.awaitTermination()
    assert "ZeroDivisionError: boom for" in str(error.value)


def test_group_state_checks_its_use(spark, landing, tmp_path):
    problems = []

    def check(key, pdfs, state):
        for bad in (lambda: state.get, lambda: state.update(None), lambda: state.update((1, 2)),
                    lambda: state.setTimeoutDuration(1000)):
            try:
                bad()
                problems.append("accepted")
            except Exception as error:  # noqa: BLE001 - the message is what is checked
                problems.append(type(error).__name__ + ": " + str(error))
        state.update((len(list(pdfs)),))
        return iter([])

    query = (read_landing(spark, landing).groupBy("k")
             .applyInPandasWithState(check, "k STRING", "n LONG", "update", "NoTimeout")
             .writeStream.format("noop").outputMode("update")
             .option("checkpointLocation", str(tmp_path / "ckpt"))
             .trigger(availableNow=True).start())
    query.awaitTermination()
    assert "State is either not defined" in problems[0]
    assert "'null' is not a valid state value" in problems[1]
    assert "The state has 2 fields" in problems[2]
    assert "processing time timeout" in problems[3]


def test_transform_with_state_in_pandas_runs_a_processor(spark, tmp_path):
    import pandas as pd
    from sluice.sql.streaming.stateful_processor import StatefulProcessor

    class Tally(StatefulProcessor):
        def init(self, handle):
            self.count = handle.getValueState("count", "count BIGINT")
            self.seen = handle.getListState("seen", "v INT")
            self.per_value = handle.getMapState("perValue", "v INT", "n BIGINT")

        def handleInputRows(self, key, rows, timerValues):
            count = self.count.get()[0] if self.count.exists() else 0
            for pdf in rows:
                count += len(pdf)
                for v in pdf["v"]:
                    v = int(v)
                    self.seen.appendValue((v,))
                    n = self.per_value.getValue((v,))
                    self.per_value.updateValue((v,), ((n[0] if n else 0) + 1,))
            self.count.update((count,))
            yield pd.DataFrame({"k": [key[0]], "rows": [count],
                                "seen": [len(list(self.seen.get()))],
                                "distinct": [len(list(self.per_value.keys()))]})

    events = tmp_path / "events"
    write_json_files(events, [[{"k": "a", "v": 1}, {"k": "a", "v": 2}, {"k": "b", "v": 1}],
                              [{"k": "a", "v": 2}]])
    query = (spark.readStream.schema("k STRING, v INT").option("maxFilesPerTrigger", 1)
             .json(str(events)).groupBy("k")
             .transformWithStateInPandas(Tally(), "k STRING, rows LONG, seen LONG, distinct LONG",
                                         "Update", "None")
             .writeStream.format("memory").queryName("tallies").outputMode("update")
             .option("checkpointLocation", str(tmp_path / "ckpt"))
             .trigger(availableNow=True).start())
    query.awaitTermination()
    rows = sorted(tuple(r) for r in spark.sql("SELECT * FROM tallies").collect())
    assert rows == [("a", 2, 2, 2), ("a", 3, 3, 2), ("b", 1, 1, 1)]


def test_transform_with_state_in_pandas_timers_in_event_time(spark, tmp_path):
    import pandas as pd
    from sluice.sql.streaming.stateful_processor import StatefulProcessor

    class Sessions(StatefulProcessor):
        def init(self, handle):
            self.handle = handle
            self.count = handle.getValueState("count", "count BIGINT")

        def handleInputRows(self, key, rows, timerValues):
            count = self.count.get()[0] if self.count.exists() else 0
            latest = None
            for pdf in rows:
                count += len(pdf)
                latest = pdf["ts"].max()
            self.count.update((count,))
            for timer in list(self.handle.listTimers()):
                self.handle.deleteTimer(timer)
            self.handle.registerTimer(int(latest.timestamp() * 1000) + 10000)
            return iter([])

        def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
            count = self.count.get()[0]
            self.count.clear()
            yield pd.DataFrame({"user": [key[0]], "clicks": [count]})

    def ts(seconds):
        return "2024-01-01 00:%02d:%02d" % (seconds // 60, seconds % 60)

    events = tmp_path / "events"
    write_json_files(events, [
        [{"user": "a", "ts": ts(10)}, {"user": "a", "ts": ts(12)}, {"user": "b", "ts": ts(15)}],
        [{"user": "c", "ts": ts(40)}],
        [{"user": "e", "ts": ts(100)}],
    ])
    query = (spark.readStream.schema("user STRING, ts TIMESTAMP")
             .option("maxFilesPerTrigger", 1).json(str(events))
             .withWatermark("ts", "10 seconds").groupBy("user")
             .transformWithStateInPandas(Sessions(), "user STRING, clicks LONG", "Append",
                                         "EventTime")
             .writeStream.format("memory").queryName("tws_sessions")
             .option("checkpointLocation", str(tmp_path / "ckpt"))
             .trigger(availableNow=True).start())
    query.awaitTermination()
    rows = sorted(tuple(r) for r in spark.sql("SELECT * FROM tws_sessions").collect())
    assert rows == [("a", 2), ("b", 1), ("c", 1)]


def test_transform_with_state_in_pandas_takes_an_initial_state(spark, tmp_path):
    import pandas as pd
    from sluice.sql.streaming.stateful_processor import StatefulProcessor

    class Count(StatefulProcessor):
        def init(self, handle):
            self.count = handle.getValueState("count", "count BIGINT")

        def handleInitialState(self, key, initialState, timerValues):
            self.count.update((int(initialState["n"].sum()),))

        def handleInputRows(self, key, rows, timerValues):
            count = self.count.get()[0] if self.count.exists() else 0
            count += sum(len(pdf) for pdf in rows)
            self.count.update((count,))
            yield pd.DataFrame({"k": [key[0]], "count": [count]})

    events = tmp_path / "events"
    write_json_files(events, [[{"k": "a"}, {"k": "c"}]])
    initial = spark.createDataFrame([("a", 10), ("b", 20)], "key STRING, n LONG")
    query = (spark.readStream.schema("k STRING").json(str(events)).groupBy("k")
             .transformWithStateInPandas(Count(), "k STRING, count LONG", "Update", "None",
                                         initialState=initial.groupBy("key"))
             .writeStream.format("memory").queryName("seeded").outputMode("update")
             .option("checkpointLocation", str(tmp_path / "ckpt"))
             .trigger(availableNow=True).start())
    query.awaitTermination()
    assert sorted(tuple(r) for r in spark.sql("SELECT * FROM seeded").collect()) == \
        [("a", 11), ("c", 1)]


def test_a_failed_querys_temporary_checkpoint_goes_when_the_process_exits(tmp_path):
    # As Spark's: kept after the failure, to look into, and deleted at exit.
    script = """
import os
from sluice.errors import StreamingQueryException
from sluice.sql import SparkSession
spark = SparkSession.builder.getOrCreate()
query = (spark.readStream.format("rate-micro-batch").option("rowsPerBatch", 1).load()
         .writeStream.foreachBatch(lambda df, i: 1 / 0).start())
try:
    query.awaitTermination()
except StreamingQueryException:
    print(sorted(name for name in os.listdir(os.environ["TMPDIR"])
                 if name.startswith("temporary-")))
"""
    temp = tmp_path / "tmp"
    temp.mkdir()
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=120, env=dict(os.environ, TMPDIR=str(temp)))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("['temporary-"), result.stdout + result.stderr
    assert not [p for p in temp.iterdir() if p.name.startswith("temporary-")]
