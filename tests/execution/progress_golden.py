"""Prints the Spark 4.0.1 texts that progress_test.cc expects.

Run with a Python that has pyspark 4.0.1 (Java 17). Two kinds of cases:
  * Reports Spark builds from given figures: the progress is read with Spark's own JSON reader
    (StreamingQueryProgress.fromJson) and printed with `prettyJson` and `json`, so every value is
    under control (offsets of any shape, NaN and infinite rates, null name).
  * A real query (file source, observe, watermark, windowed aggregation, memory sink) whose
    reports carry event-time statistics, a state operator with custom metrics and observed
    metrics. Its durations and rates differ on every run; the test copies the figures of the run
    it quotes into its structs.
"""
import json
import os
import tempfile

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

spark = (SparkSession.builder.master("local[1]")
         .config("spark.sql.shuffle.partitions", "2")
         .config("spark.ui.enabled", "false").getOrCreate())
jvm = spark._jvm


def show(label, report):
    print(f"== {label} prettyJson")
    print(report.prettyJson())
    print(f"== {label} json")
    print(report.json())


progress_reader = getattr(jvm.org.apache.spark.sql.streaming,
                          "StreamingQueryProgress$").__getattr__("MODULE$")


def source(description, start, end, latest, rows, input_rate, processed_rate, metrics=None):
    return {"description": description, "startOffset": start, "endOffset": end,
            "latestOffset": latest, "numInputRows": rows, "inputRowsPerSecond": input_rate,
            "processedRowsPerSecond": processed_rate, "metrics": metrics or {}}


def operator(name, figures, custom):
    keys = ["numRowsTotal", "numRowsUpdated", "allUpdatesTimeMs", "numRowsRemoved",
            "allRemovalsTimeMs", "commitTimeMs", "memoryUsedBytes", "numRowsDroppedByWatermark",
            "numShufflePartitions", "numStateStoreInstances"]
    return dict(operatorName=name, customMetrics=custom, **dict(zip(keys, figures)))


# Nested (Kafka-like) offsets, texts that are not JSON, NaN and infinite rates, a null name.
kafka = {
    "id": "11111111-2222-3333-4444-555555555555", "runId": "66666666-7777-8888-9999-000000000000",
    "name": None, "timestamp": "2024-01-02T03:04:05.006Z", "batchId": 7, "batchDuration": 12,
    "durationMs": {"triggerExecution": 12, "addBatch": 5}, "eventTime": {}, "stateOperators": [],
    "sources": [
        source("KafkaV2[Subscribe[topic]]", '{"topic":{"2":10,"0":5,"1":-2}}',
               '{"topic":{"2":12,"0":7,"1":3}, "x":[1,2.5,[],{}], "y":true, "z":null, '
               '"w":1e2, "v":"a\\"b\\n\\u0001/\u00e9"}',
               "not json", 4, "NaN", "Infinity",
               {"maxOffsetsBehindLatest": "0", "avgOffsetsBehindLatest": "0.0"}),
        source("MemoryStream[value#1]", "3", "  5 ", "", 1, 1.0e7, 1.0e-4)],
    "sink": {"description": "ForeachBatchSink", "numOutputRows": -1, "metrics": {"k": "v"}},
    "observedMetrics": {}}
show("kafka", progress_reader.fromJson(json.dumps(kafka)))

# Two state operators (one without custom metrics) and rates summed over two sources.
operators = {
    "id": "0a0b0c0d-0e0f-1011-1213-141516171819", "runId": "a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90",
    "name": "dedup", "timestamp": "2024-02-29T23:59:59.999Z", "batchId": 12,
    "batchDuration": 1001,
    "durationMs": {"triggerExecution": 1001, "addBatch": 900, "walCommit": 30,
                   "commitOffsets": 20, "getBatch": 1, "latestOffset": 2, "queryPlanning": 48},
    "eventTime": {"watermark": "2024-02-29T23:59:49.999Z"},
    "stateOperators": [
        operator("dedupe", [10, 3, 4, 1, 2, 7, 4096, 5, 200, 200], {}),
        operator("symmetricHashJoin", [0, 0, 0, 0, 0, 0, 0, 0, 1, 4],
                 {"rocksdbBytesCopied": -1, "SnapshotLastUploaded.partition_0_default": 12})],
    "sources": [
        source("RateStreamV2[rowsPerSecond=1, rampUpTimeSeconds=0, numPartitions=default",
               "41", "42", "42", 1, 0.30000000000000004, 0.999000999000999),
        source("TextSocketV2[host: localhost, port: 9999]", "-1", "0", None, 2, 1.23456789e8,
               1.0e-5)],
    "sink": {"description": "org.apache.spark.sql.execution.streaming.ConsoleTable$@5e4c8b3",
             "numOutputRows": 3, "metrics": {}},
    "observedMetrics": {}}
show("operators", progress_reader.fromJson(json.dumps(operators)))

status_class = jvm.org.apache.spark.sql.streaming.StreamingQueryStatus
show("status idle", status_class("Waiting for data to arrive", False, False))
show("status active", status_class("Processing new data", True, True))
show("status escaped", status_class('Say "hi"\n\ttab', True, False))

# A real stateful query: its first report has event-time statistics, a state operator with the
# HDFS state store's custom metrics, and observed metrics.
base = tempfile.mkdtemp()
os.makedirs(base + "/in")
with open(base + "/in/a.json", "w") as f:
    f.write('{"ts":"2024-01-01T00:00:01Z","k":"a","v":1.5}\n'
            '{"ts":"2024-01-01T00:00:12Z","k":"b","v":2.25}\n'
            '{"ts":"2024-01-01T00:00:04Z","k":"a","v":3.0}\n')
events = spark.readStream.schema("ts TIMESTAMP, k STRING, v DOUBLE").json(base + "/in")
observed = events.observe("metric", F.count(F.lit(1)).alias("rows"), F.max("v").alias("maxv"),
                          F.min("k").alias("mink"), F.max("ts").alias("maxts"))
windowed = (observed.withWatermark("ts", "5 seconds")
            .groupBy(F.window("ts", "10 seconds"), "k").agg(F.sum("v").alias("s")))
query = (windowed.writeStream.format("memory").queryName("agg").outputMode("append")
         .option("checkpointLocation", base + "/checkpoint").start())
query.processAllAvailable()
first = query._jsq.recentProgress()[0]
show("stateful", first)
query.stop()
