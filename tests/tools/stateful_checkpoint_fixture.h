// Real checkpoints for the checkpoint and state commands: streaming queries with state, run
// on either state store provider, stopped with their checkpoint left behind.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <arrow/io/file.h>
#include <gtest/gtest.h>
#include <parquet/arrow/reader.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/state/state_store_provider_factory.h"
#include "support/stream_test.h"

namespace sluice::testing {

/// A stream test on the provider class given as the parameter, with 2 shuffle partitions.
class StatefulCheckpointTest : public StreamTest,
                               public ::testing::WithParamInterface<const char*> {
 protected:
  void SetUp() override {
    StreamTest::SetUp();
    ASSERT_TRUE(spark_->conf().set("spark.sql.shuffle.partitions", "2").ok());
    ASSERT_TRUE(
        spark_->conf().set("spark.sql.streaming.stateStore.providerClass", GetParam()).ok());
  }

  /// Rows (k, t) deduplicated on (k, event time t seconds, watermark 10 seconds), then counted
  /// per k, in two batches: a 1, b 1 (t up to 20 s), then a 2, c 1 (t up to 25 s). The final
  /// counts are a 2, b 1, c 1; the watermark after the second batch is 15 s.
  void RunDedupedCounts() {
    namespace F = functions;
    auto input = MemoryStream("k STRING, t INT");
    auto counts = spark_->readStream()
                      .load(input)
                      .withColumn("eventTime", F::timestamp_seconds(F::col("t")))
                      .withWatermark("eventTime", "10 seconds")
                      .dropDuplicates({"k", "eventTime"})
                      .groupBy({F::col("k")})
                      .count();
    started_ms_ = NowMs();
    TestStream(counts,
               {AddData(input, {R"(["a", "b", "a"])", "[5, 20, 5]"}),
                CheckNewAnswer({R"(["a",1])", R"(["b",1])"}),
                AddData(input, {R"(["a", "c", "b"])", "[25, 12, 20]"}),
                CheckNewAnswer({R"(["a",2])", R"(["c",1])"}),
                AssertOnQuery("all processed",
                              [](StreamingQuery& query) {
                                ASSERT_TRUE(query.processAllAvailable().ok());
                              })},
               "update");
    finished_ms_ = NowMs();
  }

  /// A stream-stream inner join on k of left rows (a, 5 s), (b, 6 s) and right rows (a, 7 s):
  /// both left rows stay in the left side's state.
  void RunJoin() {
    namespace F = functions;
    auto input = MemoryStream("side STRING, k STRING, t INT");
    auto df = spark_->readStream().load(input);
    auto side = [&](const std::string& name, const std::string& prefix) {
      return df.where("side = '" + name + "'")
          .select({F::col("k").alias(prefix + "k"),
                   F::timestamp_seconds(F::col("t")).alias(prefix + "ts")})
          .withWatermark(prefix + "ts", "10 seconds");
    };
    auto joined = side("L", "l").join(side("R", "r"), F::expr("lk = rk"), "inner")
                      .select({F::col("lk"), F::col("lts").cast("long"),
                               F::col("rts").cast("long")});
    TestStream(joined,
               {AddData(input, {R"(["L", "L", "R"])", R"(["a", "b", "a"])", "[5, 6, 7]"}),
                CheckAnswer({R"(["a",5,7])"})});
  }

  static int64_t NowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }

  int64_t started_ms_ = 0;
  int64_t finished_ms_ = 0;
};

/// The rows of the Parquet file at `path`, read by Arrow's own Parquet reader.
inline arrow::Result<std::shared_ptr<arrow::Table>> ReadParquetFile(const std::string& path) {
  ARROW_ASSIGN_OR_RAISE(auto file, arrow::io::ReadableFile::Open(path));
  ARROW_ASSIGN_OR_RAISE(auto reader,
                        parquet::arrow::OpenFile(file, arrow::default_memory_pool()));
  return reader->ReadTable();
}

/// The parameter names of the two providers.
inline std::string ProviderName(const ::testing::TestParamInfo<const char*>& info) {
  return info.index == 0 ? "Default" : "RocksDb";
}

}  // namespace sluice::testing
