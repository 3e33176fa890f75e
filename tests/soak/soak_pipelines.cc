// The six pipelines of the crash-restart soak. Each one's input is deterministic per chunk and
// free of late rows, so its output is the same however the input is cut into batches: an
// interrupted run must end with exactly the rows of a run that never was.
#include <cstdio>
#include <fstream>

#include <arrow/array.h>
#include <arrow/scalar.h>
#include <arrow/table.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/data_stream_writer.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/delta_table.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/api/session.h"
#include "sluice/common/fault_points.h"
#include "soak/soak_pipeline.h"
#include "support/kafka_client.h"

namespace sluice::soak {
namespace {

namespace F = functions;
namespace fs = std::filesystem;
namespace kp = fault_points;
using testing::KafkaIsolation;
using testing::KafkaRecord;
using testing::KafkaTestClient;

constexpr const char* kMemoryProvider =
    "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider";
constexpr const char* kRocksDbProvider =
    "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";
/// 2026-06-10T10:00:00Z: the event times count seconds from here.
constexpr int64_t kEpochSeconds = 1781085600;

/// "2026-06-10T10:00:00Z" plus `seconds`.
std::string IsoTime(int64_t seconds) {
  time_t at = static_cast<time_t>(kEpochSeconds + seconds);
  struct tm parts;
  gmtime_r(&at, &parts);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

/// Writes `lines` as `folder`/chunk-<index>.json, landing it atomically (write, then rename)
/// as a streaming source folder needs. A chunk already there is left alone.
arrow::Status LandChunk(const fs::path& folder, int index, const std::string& lines) {
  char name[32];
  std::snprintf(name, sizeof(name), "chunk-%05d.json", index);
  std::error_code error;
  fs::create_directories(folder, error);
  if (error) return arrow::Status::IOError("Cannot create ", folder.string(), ": ", error.message());
  fs::path temporary = folder / (std::string(".") + name + ".tmp");
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << lines;
    if (!out.flush()) return arrow::Status::IOError("Cannot write ", temporary.string());
  }
  fs::rename(temporary, folder / name, error);
  if (error) return arrow::Status::IOError("Cannot rename ", temporary.string(), ": ", error.message());
  return arrow::Status::OK();
}

/// A session whose state stores are `provider`'s. RocksDB's working folders go under the run's
/// folder: a killed run cannot remove its own, and the run's folder goes with the soak's.
arrow::Result<std::shared_ptr<SparkSession>> Session(const char* provider,
                                                     const SoakRun* run = nullptr) {
  auto builder = SparkSession::builder()
                     .appName("soak")
                     .config("spark.sql.session.timeZone", "UTC")
                     .config("spark.sql.shuffle.partitions", "4")
                     .config("spark.sql.streaming.stateStore.providerClass", provider)
                     // Snapshots every other version, so that runs of a few batches write them
                     // too.
                     .config("spark.sql.streaming.stateStore.minDeltasForSnapshot", "2")
                     .config("spark.sql.streaming.stateStore.maintenanceInterval", "0");
  if (run != nullptr) builder.config("spark.local.dir", (run->folder / "local").string());
  return builder.getOrCreate();
}

/// Starts `writer` (already given its sink) with the run's checkpoint and availableNow, and
/// waits for the end of the input.
arrow::Status RunToEnd(DataStreamWriter writer, const SoakRun& run,
                       const std::optional<std::string>& path) {
  writer.option("checkpointLocation", run.checkpoint().string())
      .trigger(Trigger::AvailableNow());
  ARROW_ASSIGN_OR_RAISE(auto query, path ? writer.start(*path) : writer.start());
  return query->awaitTermination();
}

/// One string per row, the cells separated by '|'.
arrow::Result<std::vector<std::string>> Rows(const DataFrame& frame) {
  ARROW_ASSIGN_OR_RAISE(auto table, frame.collect());
  ARROW_ASSIGN_OR_RAISE(auto batch, table->CombineChunksToBatch());
  std::vector<std::string> rows;
  for (int64_t row = 0; row < batch->num_rows(); ++row) {
    std::string text;
    for (int column = 0; column < batch->num_columns(); ++column) {
      if (column > 0) text += '|';
      ARROW_ASSIGN_OR_RAISE(auto scalar, batch->column(column)->GetScalar(row));
      text += scalar->ToString();
    }
    rows.push_back(std::move(text));
  }
  return rows;
}

/// The kill points every pipeline passes: the batch loop and the checkpoint's own logs.
std::vector<FaultTarget> BatchLoopTargets() {
  return {{kp::kBeforeOffsetsWrite, ""}, {kp::kAfterOffsetsWrite, ""},
          {kp::kBeforeAddBatch, ""},     {kp::kAfterAddBatch, ""},
          {kp::kAfterCommit, ""},        {kp::kFileHalfWritten, "/offsets/"},
          {kp::kFileBeforeRename, "/offsets/"}, {kp::kFileBeforeRename, "/commits/"}};
}

std::vector<FaultTarget> With(std::vector<FaultTarget> extra) {
  std::vector<FaultTarget> targets = BatchLoopTargets();
  targets.insert(targets.end(), extra.begin(), extra.end());
  return targets;
}

/// Chunk `index` of the event files: forty events, ids 40 * index + 0..39, one second apart.
std::string EventLines(int index) {
  std::string lines;
  for (int64_t id = 40LL * index; id < 40LL * (index + 1); ++id) {
    lines += "{\"id\":" + std::to_string(id) + ",\"user\":\"u" + std::to_string(id % 7) +
             "\",\"amount\":" + std::to_string((id * 37) % 1000) + ",\"ts\":\"" + IsoTime(id) +
             "\"}\n";
  }
  return lines;
}

/// The event files as a stream, one file per batch.
DataFrame ReadEvents(const SparkSession& spark, const SoakInput& input) {
  return spark.readStream()
      .schema("id BIGINT, user STRING, amount BIGINT, ts TIMESTAMP")
      .option("maxFilesPerTrigger", int64_t{1})
      .json((input.folder / "events").string());
}

/// The rows of the run's output, a Delta table.
arrow::Result<std::vector<std::string>> DeltaRows(const SoakRun& run) {
  ARROW_ASSIGN_OR_RAISE(auto spark, Session(kMemoryProvider));
  return Rows(spark->read().format("delta").load(run.output().string()));
}

// ---- JSON files, filtered and projected, to a Parquet file sink ------------------------------

class FilesToParquet final : public SoakPipeline {
 public:
  std::string_view name() const override { return "files_to_parquet"; }
  std::vector<FaultTarget> kill_targets() const override {
    return With({{kp::kSinkFilesWritten, ""},
                 {kp::kFileHalfWritten, "part-"},
                 {kp::kFileHalfWritten, "_spark_metadata"},
                 {kp::kFileBeforeRename, "_spark_metadata"}});
  }
  arrow::Status AddInput(const SoakInput& input, int index) const override {
    return LandChunk(input.folder / "events", index, EventLines(index));
  }
  arrow::Status Run(const SoakInput& input, const SoakRun& run) const override {
    ARROW_ASSIGN_OR_RAISE(auto spark, Session(kMemoryProvider));
    auto kept = ReadEvents(*spark, input)
                    .where(F::col("amount") >= F::lit(100))
                    .select({F::col("id"), F::col("user"),
                             (F::col("amount") * F::lit(2)).alias("doubled"), F::col("ts")});
    return RunToEnd(kept.writeStream().format("parquet"), run, run.output().string());
  }
  arrow::Result<std::vector<std::string>> ReadOutput(const SoakInput&,
                                                     const SoakRun& run) const override {
    ARROW_ASSIGN_OR_RAISE(auto spark, Session(kMemoryProvider));
    return Rows(spark->read().parquet(run.output().string()));
  }
};

// ---- JSON files, a windowed count in append mode, to a Delta table ---------------------------

class WindowedFilesToDelta final : public SoakPipeline {
 public:
  std::string_view name() const override { return "windowed_files_to_delta"; }
  std::vector<FaultTarget> kill_targets() const override {
    return With({{kp::kDeltaFilesWritten, ""},
                 {kp::kFileHalfWritten, "part-"},
                 {kp::kFileHalfWritten, "_delta_log"},
                 {kp::kFileBeforeRename, "_delta_log"},
                 {kp::kFileHalfWritten, ".delta"},
                 {kp::kFileBeforeRename, ".snapshot"}});
  }
  arrow::Status AddInput(const SoakInput& input, int index) const override {
    return LandChunk(input.folder / "events", index, EventLines(index));
  }
  arrow::Status Run(const SoakInput& input, const SoakRun& run) const override {
    ARROW_ASSIGN_OR_RAISE(auto spark, Session(kMemoryProvider));
    auto windows = ReadEvents(*spark, input)
                       .withWatermark("ts", "30 seconds")
                       .groupBy({F::window(F::col("ts"), "20 seconds"), F::col("user")})
                       .agg({F::count(F::lit(1)).alias("events"),
                             F::sum(F::col("amount")).alias("amount")});
    return RunToEnd(windows.writeStream().format("delta").outputMode("append"), run,
                    run.output().string());
  }
  arrow::Result<std::vector<std::string>> ReadOutput(const SoakInput&,
                                                     const SoakRun& run) const override {
    ARROW_ASSIGN_OR_RAISE(auto spark, Session(kMemoryProvider));
    auto table = spark->read().format("delta").load(run.output().string());
    return Rows(table.select({F::col("window").getField("start").alias("start"),
                              F::col("user"), F::col("events"), F::col("amount")}));
  }
};

// ---- Two file streams joined on a key and a time range (RocksDB state), to Parquet ------------

class StreamJoin final : public SoakPipeline {
 public:
  std::string_view name() const override { return "stream_join"; }
  std::vector<FaultTarget> kill_targets() const override {
    return With({{kp::kSinkFilesWritten, ""},
                 {kp::kFileHalfWritten, "part-"},
                 {kp::kFileBeforeRename, ".changelog"},
                 {kp::kFileHalfWritten, ".snapshot"},
                 {kp::kFileBeforeRename, ".snapshot"}});
  }
  /// Chunk `index`: twenty impressions a minute apart from the previous chunk's; clicks on
  /// every fourth ad of this chunk (10 s later) and every other ad of the previous chunk (30 s
  /// later), all within the minute the join allows.
  arrow::Status AddInput(const SoakInput& input, int index) const override {
    std::string impressions, clicks;
    for (int k = 0; k < 20; ++k) {
      int64_t ad = 20LL * index + k;
      impressions += "{\"ad\":" + std::to_string(ad) + ",\"imp_ts\":\"" +
                     IsoTime(ImpressionSecond(index, k)) + "\"}\n";
      if (k % 4 == 1) {
        clicks += "{\"click_ad\":" + std::to_string(ad) + ",\"click_ts\":\"" +
                  IsoTime(ImpressionSecond(index, k) + 10) + "\"}\n";
      }
      if (index > 0 && k % 2 == 0) {
        clicks += "{\"click_ad\":" + std::to_string(ad - 20) + ",\"click_ts\":\"" +
                  IsoTime(ImpressionSecond(index - 1, k) + 30) + "\"}\n";
      }
    }
    ARROW_RETURN_NOT_OK(LandChunk(input.folder / "impressions", index, impressions));
    return LandChunk(input.folder / "clicks", index, clicks);
  }
  arrow::Status Run(const SoakInput& input, const SoakRun& run) const override {
    ARROW_ASSIGN_OR_RAISE(auto spark, Session(kRocksDbProvider, &run));
    auto impressions = spark->readStream()
                           .schema("ad BIGINT, imp_ts TIMESTAMP")
                           .option("maxFilesPerTrigger", int64_t{1})
                           .json((input.folder / "impressions").string())
                           .withWatermark("imp_ts", "2 minutes");
    auto clicks = spark->readStream()
                      .schema("click_ad BIGINT, click_ts TIMESTAMP")
                      .option("maxFilesPerTrigger", int64_t{1})
                      .json((input.folder / "clicks").string())
                      .withWatermark("click_ts", "2 minutes");
    auto joined = impressions.join(
        clicks, F::expr("ad = click_ad AND click_ts BETWEEN imp_ts AND imp_ts + "
                        "INTERVAL 1 MINUTE"));
    return RunToEnd(joined.writeStream().format("parquet"), run, run.output().string());
  }
  arrow::Result<std::vector<std::string>> ReadOutput(const SoakInput&,
                                                     const SoakRun& run) const override {
    ARROW_ASSIGN_OR_RAISE(auto spark, Session(kRocksDbProvider));
    return Rows(spark->read().parquet(run.output().string()));
  }

 private:
  static int64_t ImpressionSecond(int index, int k) { return 60LL * index + k; }
};

// ---- foreachBatch: the newest version of each key, MERGEd into a Delta table -----------------

class MergeUpsert final : public SoakPipeline {
 public:
  std::string_view name() const override { return "merge_upsert"; }
  std::vector<FaultTarget> kill_targets() const override {
    return With({{kp::kDeltaFilesWritten, ""},
                 {kp::kFileHalfWritten, "part-"},
                 {kp::kFileHalfWritten, "_delta_log"},
                 {kp::kFileBeforeRename, "_delta_log"}});
  }
  /// Chunk `index`: thirty updates of fifty keys (some twice in a chunk), versions ascending.
  arrow::Status AddInput(const SoakInput& input, int index) const override {
    std::string lines;
    for (int k = 0; k < 30; ++k) {
      int64_t version = 30LL * index + k;
      lines += "{\"key\":\"k" + std::to_string((7 * index + 3 * k) % 50) +
               "\",\"version\":" + std::to_string(version) + ",\"value\":\"v" +
               std::to_string(version) + "\"}\n";
    }
    return LandChunk(input.folder / "updates", index, lines);
  }
  arrow::Status Run(const SoakInput& input, const SoakRun& run) const override {
    ARROW_ASSIGN_OR_RAISE(auto spark, Session(kMemoryProvider));
    const std::string table = run.output().string();
    if (!DeltaTable::forPath(*spark, table).ok()) {
      // The empty table the stream merges into, created once (a Delta commit: all or nothing).
      ARROW_ASSIGN_OR_RAISE(auto empty, arrow::Table::MakeEmpty(arrow::schema(
                                            {arrow::field("key", arrow::utf8()),
                                             arrow::field("version", arrow::int64()),
                                             arrow::field("value", arrow::utf8())})));
      ARROW_RETURN_NOT_OK(spark->createDataFrame(empty).write().format("delta").save(table));
    }
    auto updates = spark->readStream()
                       .schema("key STRING, version BIGINT, value STRING")
                       .option("maxFilesPerTrigger", int64_t{1})
                       .json((input.folder / "updates").string());
    auto upsert = [table](const DataFrame& batch, int64_t) -> arrow::Status {
      auto newest =
          batch.groupBy({F::col("key")})
              .agg({F::max(F::struct_({F::col("version"), F::col("value")})).alias("newest")})
              .select({F::col("key"), F::col("newest").getField("version").alias("version"),
                       F::col("newest").getField("value").alias("value")});
      ARROW_ASSIGN_OR_RAISE(auto target, DeltaTable::forPath(batch.session(), table));
      // Idempotent: a batch run again after a crash finds its versions applied already.
      return target.alias("t")
          .merge(newest.alias("s"), "t.key = s.key")
          .whenMatchedUpdateAll("s.version > t.version")
          .whenNotMatchedInsertAll()
          .execute()
          .status();
    };
    return RunToEnd(updates.writeStream().foreachBatch(upsert), run, std::nullopt);
  }
  arrow::Result<std::vector<std::string>> ReadOutput(const SoakInput&,
                                                     const SoakRun& run) const override {
    return DeltaRows(run);
  }
};

// ---- Kafka to Kafka, exactly once -------------------------------------------------------------

/// Chunk `index` of a Kafka input: forty records of `value(id)`, keyed by id % 10.
arrow::Status ProduceChunk(const SoakInput& input, int index,
                           const std::function<std::string(int64_t)>& value) {
  std::vector<KafkaRecord> records;
  for (int64_t id = 40LL * index; id < 40LL * (index + 1); ++id) {
    records.push_back(KafkaRecord().WithKey("k" + std::to_string(id % 10)).WithValue(value(id)));
  }
  return KafkaTestClient(input.bootstrap).Produce(input.topic, records).status();
}

DataFrame ReadKafka(const SparkSession& spark, const SoakInput& input) {
  return spark.readStream()
      .format("kafka")
      .option("kafka.bootstrap.servers", input.bootstrap)
      .option("subscribe", input.topic)
      .option("startingOffsets", "earliest")
      .option("maxOffsetsPerTrigger", int64_t{50})
      .load();
}

class KafkaToKafka final : public SoakPipeline {
 public:
  std::string_view name() const override { return "kafka_to_kafka"; }
  bool uses_kafka() const override { return true; }
  std::vector<FaultTarget> kill_targets() const override {
    return With({{kp::kKafkaRecordsFlushed, ""}});
  }
  arrow::Status AddInput(const SoakInput& input, int index) const override {
    return ProduceChunk(input, index, [](int64_t id) { return "event-" + std::to_string(id); });
  }
  arrow::Status Run(const SoakInput& input, const SoakRun& run) const override {
    ARROW_ASSIGN_OR_RAISE(auto spark, Session(kMemoryProvider));
    auto upper = ReadKafka(*spark, input)
                     .selectExpr({"key", "upper(CAST(value AS STRING)) AS value"});
    return RunToEnd(upper.writeStream()
                        .format("kafka")
                        .option("kafka.bootstrap.servers", input.bootstrap)
                        .option("topic", run.topic)
                        .option("exactlyOnce", "true"),
                    run, std::nullopt);
  }
  arrow::Result<std::vector<std::string>> ReadOutput(const SoakInput& input,
                                                     const SoakRun& run) const override {
    ARROW_ASSIGN_OR_RAISE(auto records, KafkaTestClient(input.bootstrap)
                                            .ConsumeAll(run.topic, KafkaIsolation::kReadCommitted));
    std::vector<std::string> rows;
    for (const auto& record : records) {
      rows.push_back(record.key.value_or("null") + "|" + record.value.value_or("null"));
    }
    return rows;
  }
};

// ---- Kafka, dropDuplicates on an id, to a Delta table -----------------------------------------

class DedupKafkaToDelta final : public SoakPipeline {
 public:
  std::string_view name() const override { return "dedup_kafka_to_delta"; }
  bool uses_kafka() const override { return true; }
  std::vector<FaultTarget> kill_targets() const override {
    return With({{kp::kDeltaFilesWritten, ""},
                 {kp::kFileHalfWritten, "part-"},
                 {kp::kFileBeforeRename, "_delta_log"},
                 {kp::kFileHalfWritten, ".delta"},
                 {kp::kFileBeforeRename, ".snapshot"}});
  }
  /// Chunk `index`: thirty new events, five again from the previous chunk and five again
  /// from this one.
  arrow::Status AddInput(const SoakInput& input, int index) const override {
    return ProduceChunk(input, index, [](int64_t id) {
      int64_t slot = id % 40;
      int64_t first = id - slot;
      int64_t event = slot < 30                    ? id
                      : slot < 35 && first >= 40 ? first - 40 + 20 + (slot - 30)
                                                 : first + slot % 5;
      return "{\"event\":" + std::to_string(event) + ",\"ts\":\"" + IsoTime(event) + "\"}";
    });
  }
  arrow::Status Run(const SoakInput& input, const SoakRun& run) const override {
    ARROW_ASSIGN_OR_RAISE(auto spark, Session(kMemoryProvider));
    auto events = ReadKafka(*spark, input)
                      .select({F::from_json(F::col("value").cast("string"),
                                            "event BIGINT, ts TIMESTAMP")
                                   .alias("data")})
                      .selectExpr({"data.event AS event", "data.ts AS ts"});
    return RunToEnd(events.dropDuplicates({"event"}).writeStream().format("delta"), run,
                    run.output().string());
  }
  arrow::Result<std::vector<std::string>> ReadOutput(const SoakInput&,
                                                     const SoakRun& run) const override {
    return DeltaRows(run);
  }
};

}  // namespace

std::vector<std::unique_ptr<SoakPipeline>> AllPipelines() {
  std::vector<std::unique_ptr<SoakPipeline>> pipelines;
  pipelines.push_back(std::make_unique<FilesToParquet>());
  pipelines.push_back(std::make_unique<WindowedFilesToDelta>());
  pipelines.push_back(std::make_unique<StreamJoin>());
  pipelines.push_back(std::make_unique<MergeUpsert>());
  pipelines.push_back(std::make_unique<KafkaToKafka>());
  pipelines.push_back(std::make_unique<DedupKafkaToDelta>());
  return pipelines;
}

}  // namespace sluice::soak
