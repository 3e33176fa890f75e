// Golden texts printed by Spark 4.0.1. The reports quoted from real runs carry that run's
// figures in the structs below; the others Spark built from the same figures (the cases and the
// script that prints them: progress_golden.py next to this file). Source and sink folders of
// the real runs are renamed from the run's temporary folders to /data/....
#include "sluice/execution/progress.h"

#include <iterator>
#include <limits>
#include <string_view>
#include <utility>

#include <gtest/gtest.h>

#include "sluice/execution/iso_timestamp.h"

namespace sluice::execution {
namespace {

// The durations every micro-batch reports, by Spark's names.
std::map<std::string, int64_t> Durations(int64_t add_batch, int64_t commit_offsets,
                                         int64_t get_batch, int64_t latest_offset,
                                         int64_t query_planning, int64_t trigger_execution,
                                         int64_t wal_commit) {
  return {{"addBatch", add_batch},         {"commitOffsets", commit_offsets},
          {"getBatch", get_batch},         {"latestOffset", latest_offset},
          {"queryPlanning", query_planning}, {"triggerExecution", trigger_execution},
          {"walCommit", wal_commit}};
}

SourceProgress Source(std::string description, std::optional<std::string> start,
                      std::optional<std::string> end, std::optional<std::string> latest,
                      int64_t rows, double input_rate, double processed_rate) {
  SourceProgress source;
  source.description = std::move(description);
  source.start_offset = std::move(start);
  source.end_offset = std::move(end);
  source.latest_offset = std::move(latest);
  source.num_input_rows = rows;
  source.input_rows_per_second = input_rate;
  source.processed_rows_per_second = processed_rate;
  return source;
}

SinkProgress Sink(std::string description, int64_t rows) {
  SinkProgress sink;
  sink.description = std::move(description);
  sink.num_output_rows = rows;
  return sink;
}

StateOperatorProgress Operator(std::string name, std::vector<int64_t> figures) {
  StateOperatorProgress op;
  op.operator_name = std::move(name);
  int64_t* const fields[] = {&op.num_rows_total,         &op.num_rows_updated,
                             &op.all_updates_time_ms,    &op.num_rows_removed,
                             &op.all_removals_time_ms,   &op.commit_time_ms,
                             &op.memory_used_bytes,      &op.num_rows_dropped_by_watermark,
                             &op.num_shuffle_partitions, &op.num_state_store_instances};
  EXPECT_EQ(figures.size(), std::size(fields));
  for (size_t i = 0; i < figures.size() && i < std::size(fields); ++i) *fields[i] = figures[i];
  return op;
}

// A file source into a parquet sink, trigger(availableNow=True), query name "refq"; Spark's
// prettyJson of its one report.
constexpr std::string_view kFileSinkPrettyJson = R"json({
  "id" : "ef3f4134-f11b-41ec-9cfb-5fd698983ea9",
  "runId" : "78c0a0ec-cf79-4eb8-8b90-7753645c97ba",
  "name" : "refq",
  "timestamp" : "2026-11-30T17:39:33.546Z",
  "batchId" : 0,
  "batchDuration" : 1789,
  "numInputRows" : 2,
  "inputRowsPerSecond" : 0.0,
  "processedRowsPerSecond" : 1.1179429849077698,
  "durationMs" : {
    "addBatch" : 1197,
    "commitOffsets" : 117,
    "getBatch" : 47,
    "latestOffset" : 45,
    "queryPlanning" : 288,
    "triggerExecution" : 1784,
    "walCommit" : 70
  },
  "stateOperators" : [ ],
  "sources" : [ {
    "description" : "FileStreamSource[file:/data/in]",
    "startOffset" : null,
    "endOffset" : {
      "logOffset" : 0
    },
    "latestOffset" : null,
    "numInputRows" : 2,
    "inputRowsPerSecond" : 0.0,
    "processedRowsPerSecond" : 1.1179429849077698
  } ],
  "sink" : {
    "description" : "FileSink[file:/data/out]",
    "numOutputRows" : -1
  }
})json";

TEST(StreamingQueryProgressTest, FileSourceIntoFileSinkPrettyJson) {
  StreamingQueryProgress progress;
  progress.id = "ef3f4134-f11b-41ec-9cfb-5fd698983ea9";
  progress.run_id = "78c0a0ec-cf79-4eb8-8b90-7753645c97ba";
  progress.name = "refq";
  progress.timestamp_ms = 1796060373546;  // 2026-11-30T17:39:33.546Z
  progress.batch_id = 0;
  progress.batch_duration_ms = 1789;
  progress.duration_ms = Durations(1197, 117, 47, 45, 288, 1784, 70);
  progress.sources.push_back(Source("FileStreamSource[file:/data/in]", std::nullopt,
                                    R"({"logOffset":0})", std::nullopt, 2, 0.0,
                                    1.1179429849077698));
  progress.sink = Sink("FileSink[file:/data/out]", -1);
  EXPECT_EQ(progress.PrettyJson(), kFileSinkPrettyJson);
}

// The same folder (one more file) into the memory sink, query name "mem"; Spark's json of its
// last report.
constexpr std::string_view kMemorySinkJson = R"json({"id":"f538e374-c11f-4977-8fd1-329b5b963fe3","runId":"cb03a7b8-fe4c-45eb-85ca-01d142ffb1fd","name":"mem","timestamp":"2026-11-30T17:39:35.697Z","batchId":0,"batchDuration":402,"numInputRows":3,"inputRowsPerSecond":0.0,"processedRowsPerSecond":7.462686567164178,"durationMs":{"addBatch":208,"commitOffsets":57,"getBatch":16,"latestOffset":54,"queryPlanning":28,"triggerExecution":402,"walCommit":36},"stateOperators":[],"sources":[{"description":"FileStreamSource[file:/data/in]","startOffset":null,"endOffset":{"logOffset":0},"latestOffset":null,"numInputRows":3,"inputRowsPerSecond":0.0,"processedRowsPerSecond":7.462686567164178}],"sink":{"description":"MemorySink","numOutputRows":3}})json";

TEST(StreamingQueryProgressTest, FileSourceIntoMemorySinkJson) {
  StreamingQueryProgress progress;
  progress.id = "f538e374-c11f-4977-8fd1-329b5b963fe3";
  progress.run_id = "cb03a7b8-fe4c-45eb-85ca-01d142ffb1fd";
  progress.name = "mem";
  progress.timestamp_ms = 1796060375697;  // 2026-11-30T17:39:35.697Z
  progress.duration_ms = Durations(208, 57, 16, 54, 28, 402, 36);
  progress.batch_duration_ms = 402;
  progress.sources.push_back(Source("FileStreamSource[file:/data/in]", std::nullopt,
                                    R"({"logOffset":0})", std::nullopt, 3, 0.0,
                                    7.462686567164178));
  progress.sink = Sink("MemorySink", 3);
  EXPECT_EQ(progress.Json(), kMemorySinkJson);
}

// progress_golden.py's real query: a JSON file source, observe("metric", count, max, min,
// max(ts)), withWatermark("ts", "5 seconds"), groupBy(window(ts, "10 seconds"), k).sum(v) in
// append mode into the memory sink; its first report.
constexpr std::string_view kStatefulPrettyJson = R"json({
  "id" : "fb0d57e4-4d13-45a4-b852-98541b532940",
  "runId" : "6e0fe755-c785-409c-ba68-8ecc04d1f7df",
  "name" : "agg",
  "timestamp" : "2026-11-30T17:51:14.602Z",
  "batchId" : 0,
  "batchDuration" : 30097,
  "numInputRows" : 3,
  "inputRowsPerSecond" : 0.0,
  "processedRowsPerSecond" : 0.09967770874173505,
  "durationMs" : {
    "addBatch" : 21425,
    "commitOffsets" : 1517,
    "getBatch" : 751,
    "latestOffset" : 693,
    "queryPlanning" : 4789,
    "triggerExecution" : 30087,
    "walCommit" : 765
  },
  "eventTime" : {
    "avg" : "2024-01-01T00:00:05.666Z",
    "max" : "2024-01-01T00:00:12.000Z",
    "min" : "2024-01-01T00:00:01.000Z",
    "watermark" : "1970-01-01T00:00:00.000Z"
  },
  "stateOperators" : [ {
    "operatorName" : "stateStoreSave",
    "numRowsTotal" : 2,
    "numRowsUpdated" : 2,
    "allUpdatesTimeMs" : 826,
    "numRowsRemoved" : 0,
    "allRemovalsTimeMs" : 1042,
    "commitTimeMs" : 433,
    "memoryUsedBytes" : 1072,
    "numRowsDroppedByWatermark" : 0,
    "numShufflePartitions" : 2,
    "numStateStoreInstances" : 2,
    "customMetrics" : {
      "loadedMapCacheHitCount" : 0,
      "loadedMapCacheMissCount" : 0,
      "stateOnCurrentVersionSizeBytes" : 784
    }
  } ],
  "sources" : [ {
    "description" : "FileStreamSource[file:/data/events]",
    "startOffset" : null,
    "endOffset" : {
      "logOffset" : 0
    },
    "latestOffset" : null,
    "numInputRows" : 3,
    "inputRowsPerSecond" : 0.0,
    "processedRowsPerSecond" : 0.09967770874173505
  } ],
  "sink" : {
    "description" : "MemorySink",
    "numOutputRows" : 0
  },
  "observedMetrics" : {
    "metric" : {
      "rows" : 3,
      "maxv" : 3.0,
      "mink" : "a",
      "maxts" : "2024-01-01 00:00:12"
    }
  }
})json";
constexpr std::string_view kStatefulJson = R"json({"id":"fb0d57e4-4d13-45a4-b852-98541b532940","runId":"6e0fe755-c785-409c-ba68-8ecc04d1f7df","name":"agg","timestamp":"2026-11-30T17:51:14.602Z","batchId":0,"batchDuration":30097,"numInputRows":3,"inputRowsPerSecond":0.0,"processedRowsPerSecond":0.09967770874173505,"durationMs":{"addBatch":21425,"commitOffsets":1517,"getBatch":751,"latestOffset":693,"queryPlanning":4789,"triggerExecution":30087,"walCommit":765},"eventTime":{"avg":"2024-01-01T00:00:05.666Z","max":"2024-01-01T00:00:12.000Z","min":"2024-01-01T00:00:01.000Z","watermark":"1970-01-01T00:00:00.000Z"},"stateOperators":[{"operatorName":"stateStoreSave","numRowsTotal":2,"numRowsUpdated":2,"allUpdatesTimeMs":826,"numRowsRemoved":0,"allRemovalsTimeMs":1042,"commitTimeMs":433,"memoryUsedBytes":1072,"numRowsDroppedByWatermark":0,"numShufflePartitions":2,"numStateStoreInstances":2,"customMetrics":{"loadedMapCacheHitCount":0,"loadedMapCacheMissCount":0,"stateOnCurrentVersionSizeBytes":784}}],"sources":[{"description":"FileStreamSource[file:/data/events]","startOffset":null,"endOffset":{"logOffset":0},"latestOffset":null,"numInputRows":3,"inputRowsPerSecond":0.0,"processedRowsPerSecond":0.09967770874173505}],"sink":{"description":"MemorySink","numOutputRows":0},"observedMetrics":{"metric":{"rows":3,"maxv":3.0,"mink":"a","maxts":"2024-01-01 00:00:12"}}})json";

TEST(StreamingQueryProgressTest, StatefulQueryWithEventTimeAndObservedMetrics) {
  StreamingQueryProgress progress;
  progress.id = "fb0d57e4-4d13-45a4-b852-98541b532940";
  progress.run_id = "6e0fe755-c785-409c-ba68-8ecc04d1f7df";
  progress.name = "agg";
  progress.timestamp_ms = 1796061074602;  // 2026-11-30T17:51:14.602Z
  progress.batch_duration_ms = 30097;
  progress.duration_ms = Durations(21425, 1517, 751, 693, 4789, 30087, 765);
  progress.event_time = {{"avg", FormatIsoTimestamp(1704067205666)},
                         {"max", FormatIsoTimestamp(1704067212000)},
                         {"min", FormatIsoTimestamp(1704067201000)},
                         {"watermark", FormatIsoTimestamp(0)}};
  StateOperatorProgress save =
      Operator("stateStoreSave", {2, 2, 826, 0, 1042, 433, 1072, 0, 2, 2});
  save.custom_metrics = {{"stateOnCurrentVersionSizeBytes", 784},
                         {"loadedMapCacheMissCount", 0},
                         {"loadedMapCacheHitCount", 0}};
  progress.state_operators.push_back(save);
  progress.sources.push_back(Source("FileStreamSource[file:/data/events]", std::nullopt,
                                    R"({"logOffset":0})", std::nullopt, 3, 0.0,
                                    0.09967770874173505));
  progress.sink = Sink("MemorySink", 0);
  // A row's members keep the order of its schema (not sorted, unlike the maps).
  progress.observed_metrics = {
      {"metric", R"({"rows":3,"maxv":3.0,"mink":"a","maxts":"2024-01-01 00:00:12"})"}};
  EXPECT_EQ(progress.PrettyJson(), kStatefulPrettyJson);
  EXPECT_EQ(progress.Json(), kStatefulJson);
}

// Offsets of every JSON shape (a Kafka-like nested object, numbers in other spellings, escapes),
// offsets that are not JSON, NaN and infinite rates (left out, also from the sums over the
// sources), a query without a name, and source and sink metrics.
constexpr std::string_view kEmbeddedPrettyJson = R"json({
  "id" : "11111111-2222-3333-4444-555555555555",
  "runId" : "66666666-7777-8888-9999-000000000000",
  "name" : null,
  "timestamp" : "2024-01-02T03:04:05.006Z",
  "batchId" : 7,
  "batchDuration" : 12,
  "numInputRows" : 5,
  "durationMs" : {
    "addBatch" : 5,
    "triggerExecution" : 12
  },
  "stateOperators" : [ ],
  "sources" : [ {
    "description" : "KafkaV2[Subscribe[topic]]",
    "startOffset" : {
      "topic" : {
        "2" : 10,
        "0" : 5,
        "1" : -2
      }
    },
    "endOffset" : {
      "topic" : {
        "2" : 12,
        "0" : 7,
        "1" : 3
      },
      "x" : [ 1, 2.5, [ ], { } ],
      "y" : true,
      "z" : null,
      "w" : 100.0,
      "v" : "a\"b\n\u0001/é"
    },
    "latestOffset" : "not json",
    "numInputRows" : 4,
    "metrics" : {
      "avgOffsetsBehindLatest" : "0.0",
      "maxOffsetsBehindLatest" : "0"
    }
  }, {
    "description" : "MemoryStream[value#1]",
    "startOffset" : 3,
    "endOffset" : 5,
    "latestOffset" : "",
    "numInputRows" : 1,
    "inputRowsPerSecond" : 1.0E7,
    "processedRowsPerSecond" : 1.0E-4
  } ],
  "sink" : {
    "description" : "ForeachBatchSink",
    "numOutputRows" : -1,
    "metrics" : {
      "k" : "v"
    }
  }
})json";
constexpr std::string_view kEmbeddedJson = R"json({"id":"11111111-2222-3333-4444-555555555555","runId":"66666666-7777-8888-9999-000000000000","name":null,"timestamp":"2024-01-02T03:04:05.006Z","batchId":7,"batchDuration":12,"numInputRows":5,"durationMs":{"addBatch":5,"triggerExecution":12},"stateOperators":[],"sources":[{"description":"KafkaV2[Subscribe[topic]]","startOffset":{"topic":{"2":10,"0":5,"1":-2}},"endOffset":{"topic":{"2":12,"0":7,"1":3},"x":[1,2.5,[],{}],"y":true,"z":null,"w":100.0,"v":"a\"b\n\u0001/é"},"latestOffset":"not json","numInputRows":4,"metrics":{"avgOffsetsBehindLatest":"0.0","maxOffsetsBehindLatest":"0"}},{"description":"MemoryStream[value#1]","startOffset":3,"endOffset":5,"latestOffset":"","numInputRows":1,"inputRowsPerSecond":1.0E7,"processedRowsPerSecond":1.0E-4}],"sink":{"description":"ForeachBatchSink","numOutputRows":-1,"metrics":{"k":"v"}}})json";

TEST(StreamingQueryProgressTest, EmbeddedOffsetsNonFiniteRatesAndMetrics) {
  StreamingQueryProgress progress;
  progress.id = "11111111-2222-3333-4444-555555555555";
  progress.run_id = "66666666-7777-8888-9999-000000000000";
  progress.timestamp_ms = 1704164645006;  // 2024-01-02T03:04:05.006Z
  progress.batch_id = 7;
  progress.batch_duration_ms = 12;
  progress.duration_ms = {{"triggerExecution", 12}, {"addBatch", 5}};
  SourceProgress kafka = Source(
      "KafkaV2[Subscribe[topic]]", R"({"topic":{"2":10,"0":5,"1":-2}})",
      R"({"topic":{"2":12,"0":7,"1":3}, "x":[1,2.5,[],{}], "y":true, "z":null, )"
      R"("w":1e2, "v":"a\"b\n\u0001/é"})",
      "not json", 4, std::numeric_limits<double>::quiet_NaN(),
      std::numeric_limits<double>::infinity());
  kafka.metrics = {{"maxOffsetsBehindLatest", "0"}, {"avgOffsetsBehindLatest", "0.0"}};
  progress.sources.push_back(kafka);
  progress.sources.push_back(Source("MemoryStream[value#1]", "3", "  5 ", "", 1, 1.0e7, 1.0e-4));
  progress.sink = Sink("ForeachBatchSink", -1);
  progress.sink.metrics = {{"k", "v"}};
  EXPECT_EQ(progress.PrettyJson(), kEmbeddedPrettyJson);
  EXPECT_EQ(progress.Json(), kEmbeddedJson);
}

// Two state operators (the first without custom metrics, whose member is then left out) and
// rates summed over two sources in their order.
constexpr std::string_view kOperatorsPrettyJson = R"json({
  "id" : "0a0b0c0d-0e0f-1011-1213-141516171819",
  "runId" : "a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90",
  "name" : "dedup",
  "timestamp" : "2024-02-29T23:59:59.999Z",
  "batchId" : 12,
  "batchDuration" : 1001,
  "numInputRows" : 3,
  "inputRowsPerSecond" : 1.234567893E8,
  "processedRowsPerSecond" : 0.999010999000999,
  "durationMs" : {
    "addBatch" : 900,
    "commitOffsets" : 20,
    "getBatch" : 1,
    "latestOffset" : 2,
    "queryPlanning" : 48,
    "triggerExecution" : 1001,
    "walCommit" : 30
  },
  "eventTime" : {
    "watermark" : "2024-02-29T23:59:49.999Z"
  },
  "stateOperators" : [ {
    "operatorName" : "dedupe",
    "numRowsTotal" : 10,
    "numRowsUpdated" : 3,
    "allUpdatesTimeMs" : 4,
    "numRowsRemoved" : 1,
    "allRemovalsTimeMs" : 2,
    "commitTimeMs" : 7,
    "memoryUsedBytes" : 4096,
    "numRowsDroppedByWatermark" : 5,
    "numShufflePartitions" : 200,
    "numStateStoreInstances" : 200
  }, {
    "operatorName" : "symmetricHashJoin",
    "numRowsTotal" : 0,
    "numRowsUpdated" : 0,
    "allUpdatesTimeMs" : 0,
    "numRowsRemoved" : 0,
    "allRemovalsTimeMs" : 0,
    "commitTimeMs" : 0,
    "memoryUsedBytes" : 0,
    "numRowsDroppedByWatermark" : 0,
    "numShufflePartitions" : 1,
    "numStateStoreInstances" : 4,
    "customMetrics" : {
      "SnapshotLastUploaded.partition_0_default" : 12,
      "rocksdbBytesCopied" : -1
    }
  } ],
  "sources" : [ {
    "description" : "RateStreamV2[rowsPerSecond=1, rampUpTimeSeconds=0, numPartitions=default",
    "startOffset" : 41,
    "endOffset" : 42,
    "latestOffset" : 42,
    "numInputRows" : 1,
    "inputRowsPerSecond" : 0.30000000000000004,
    "processedRowsPerSecond" : 0.999000999000999
  }, {
    "description" : "TextSocketV2[host: localhost, port: 9999]",
    "startOffset" : -1,
    "endOffset" : 0,
    "latestOffset" : null,
    "numInputRows" : 2,
    "inputRowsPerSecond" : 1.23456789E8,
    "processedRowsPerSecond" : 1.0E-5
  } ],
  "sink" : {
    "description" : "org.apache.spark.sql.execution.streaming.ConsoleTable$@5e4c8b3",
    "numOutputRows" : 3
  }
})json";
constexpr std::string_view kOperatorsJson = R"json({"id":"0a0b0c0d-0e0f-1011-1213-141516171819","runId":"a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90","name":"dedup","timestamp":"2024-02-29T23:59:59.999Z","batchId":12,"batchDuration":1001,"numInputRows":3,"inputRowsPerSecond":1.234567893E8,"processedRowsPerSecond":0.999010999000999,"durationMs":{"addBatch":900,"commitOffsets":20,"getBatch":1,"latestOffset":2,"queryPlanning":48,"triggerExecution":1001,"walCommit":30},"eventTime":{"watermark":"2024-02-29T23:59:49.999Z"},"stateOperators":[{"operatorName":"dedupe","numRowsTotal":10,"numRowsUpdated":3,"allUpdatesTimeMs":4,"numRowsRemoved":1,"allRemovalsTimeMs":2,"commitTimeMs":7,"memoryUsedBytes":4096,"numRowsDroppedByWatermark":5,"numShufflePartitions":200,"numStateStoreInstances":200},{"operatorName":"symmetricHashJoin","numRowsTotal":0,"numRowsUpdated":0,"allUpdatesTimeMs":0,"numRowsRemoved":0,"allRemovalsTimeMs":0,"commitTimeMs":0,"memoryUsedBytes":0,"numRowsDroppedByWatermark":0,"numShufflePartitions":1,"numStateStoreInstances":4,"customMetrics":{"SnapshotLastUploaded.partition_0_default":12,"rocksdbBytesCopied":-1}}],"sources":[{"description":"RateStreamV2[rowsPerSecond=1, rampUpTimeSeconds=0, numPartitions=default","startOffset":41,"endOffset":42,"latestOffset":42,"numInputRows":1,"inputRowsPerSecond":0.30000000000000004,"processedRowsPerSecond":0.999000999000999},{"description":"TextSocketV2[host: localhost, port: 9999]","startOffset":-1,"endOffset":0,"latestOffset":null,"numInputRows":2,"inputRowsPerSecond":1.23456789E8,"processedRowsPerSecond":1.0E-5}],"sink":{"description":"org.apache.spark.sql.execution.streaming.ConsoleTable$@5e4c8b3","numOutputRows":3}})json";

TEST(StreamingQueryProgressTest, StateOperatorsAndRatesSummedOverSources) {
  StreamingQueryProgress progress;
  progress.id = "0a0b0c0d-0e0f-1011-1213-141516171819";
  progress.run_id = "a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90";
  progress.name = "dedup";
  progress.timestamp_ms = 1709251199999;  // 2024-02-29T23:59:59.999Z
  progress.batch_id = 12;
  progress.batch_duration_ms = 1001;
  progress.duration_ms = Durations(900, 20, 1, 2, 48, 1001, 30);
  progress.event_time = {{"watermark", FormatIsoTimestamp(1709251189999)}};
  progress.state_operators.push_back(
      Operator("dedupe", {10, 3, 4, 1, 2, 7, 4096, 5, 200, 200}));
  StateOperatorProgress join = Operator("symmetricHashJoin", {0, 0, 0, 0, 0, 0, 0, 0, 1, 4});
  join.custom_metrics = {{"rocksdbBytesCopied", -1},
                         {"SnapshotLastUploaded.partition_0_default", 12}};
  progress.state_operators.push_back(join);
  progress.sources.push_back(
      Source("RateStreamV2[rowsPerSecond=1, rampUpTimeSeconds=0, numPartitions=default", "41",
             "42", "42", 1, 0.30000000000000004, 0.999000999000999));
  progress.sources.push_back(Source("TextSocketV2[host: localhost, port: 9999]", "-1", "0",
                                    std::nullopt, 2, 1.23456789e8, 1.0e-5));
  progress.sink = Sink("org.apache.spark.sql.execution.streaming.ConsoleTable$@5e4c8b3", 3);
  EXPECT_EQ(progress.num_input_rows(), 3);
  EXPECT_EQ(progress.PrettyJson(), kOperatorsPrettyJson);
  EXPECT_EQ(progress.Json(), kOperatorsJson);
}

// Spark builds these with the constructor StreamingQueryStatus(message, isDataAvailable,
// isTriggerActive).
constexpr std::string_view kStatusIdlePrettyJson = R"json({
  "message" : "Waiting for data to arrive",
  "isDataAvailable" : false,
  "isTriggerActive" : false
})json";
constexpr std::string_view kStatusIdleJson = R"json({"message":"Waiting for data to arrive","isDataAvailable":false,"isTriggerActive":false})json";
constexpr std::string_view kStatusActivePrettyJson = R"json({
  "message" : "Processing new data",
  "isDataAvailable" : true,
  "isTriggerActive" : true
})json";
constexpr std::string_view kStatusActiveJson = R"json({"message":"Processing new data","isDataAvailable":true,"isTriggerActive":true})json";
constexpr std::string_view kStatusEscapedPrettyJson = R"json({
  "message" : "Say \"hi\"\n\ttab",
  "isDataAvailable" : true,
  "isTriggerActive" : false
})json";
constexpr std::string_view kStatusEscapedJson = R"json({"message":"Say \"hi\"\n\ttab","isDataAvailable":true,"isTriggerActive":false})json";

TEST(StreamingQueryStatusTest, JsonAndPrettyJson) {
  const struct {
    StreamingQueryStatus status;
    std::string_view pretty;
    std::string_view compact;
  } cases[] = {
      {{"Waiting for data to arrive", false, false}, kStatusIdlePrettyJson, kStatusIdleJson},
      {{"Processing new data", true, true}, kStatusActivePrettyJson, kStatusActiveJson},
      {{"Say \"hi\"\n\ttab", true, false}, kStatusEscapedPrettyJson, kStatusEscapedJson},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(c.status.PrettyJson(), c.pretty);
    EXPECT_EQ(c.status.Json(), c.compact);
  }
}

// java.time's DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'") in UTC, the formatter
// of Spark's ProgressReporter, on these instants.
TEST(StreamingQueryProgressTest, TimestampsAsJavaTimePrintsThem) {
  const std::pair<int64_t, std::string_view> cases[] = {
      {0, "1970-01-01T00:00:00.000Z"},
      {-1, "1969-12-31T23:59:59.999Z"},
      {1764524373546, "2025-11-30T17:39:33.546Z"},
      {1709251199999, "2024-02-29T23:59:59.999Z"},
  };
  for (const auto& [millis, text] : cases) {
    StreamingQueryProgress progress;
    progress.timestamp_ms = millis;
    const std::string json = progress.Json();
    const std::string member = "\"timestamp\":\"" + std::string(text) + "\"";
    EXPECT_NE(json.find(member), std::string::npos) << json;
  }
}

}  // namespace
}  // namespace sluice::execution

namespace sluice::execution {
namespace {

TEST(IsoTimestampTest, PrintsTheYearOfTheEraAsJava) {
  EXPECT_EQ(FormatIsoTimestamp(1796060373546), "2026-11-30T17:39:33.546Z");
  EXPECT_EQ(FormatIsoTimestamp(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(FormatIsoTimestamp(-1), "1969-12-31T23:59:59.999Z");
  // java.time.Instant.ofEpochMilli(-100000000000000L) formatted with yyyy: 1200 (BC).
  EXPECT_EQ(FormatIsoTimestamp(-100000000000000), "1200-02-15T14:13:20.000Z");
  EXPECT_EQ(FormatIsoTimestamp(253402300800000), "+10000-01-01T00:00:00.000Z");
}

}  // namespace
}  // namespace sluice::execution
