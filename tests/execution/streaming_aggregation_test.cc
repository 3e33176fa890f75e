// Streaming aggregation end to end: state kept across batches and restarts, each output mode's
// rows, watermark eviction and late drops, no-data batches, the state folder. The expected
// rows of the scenarios below are those of Spark's own suites (StreamingAggregationSuite and
// EventTimeWatermarkSuite run the same inputs), or the batch engine's answer over all the
// input (a streaming aggregation ends where the batch aggregation of the same rows does).
#include <filesystem>

#include <gtest/gtest.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/checkpoint/atomic_file.h"
#include "sluice/state/state_store_provider_factory.h"
#include "support/stream_test.h"

namespace sluice::testing {
namespace {

namespace F = functions;
namespace fs = std::filesystem;

class StreamingAggregationTest : public StreamTest {
 protected:
  void SetUp() override {
    StreamTest::SetUp();
    // Spark's suites run with few partitions; several keep the partitioning honest.
    ASSERT_TRUE(spark_->conf().set("spark.sql.shuffle.partitions", "5").ok());
  }

  /// (k STRING, t INT seconds) -> 5-second sessions per k with a watermark `delay` behind
  /// t, as (session start in seconds, k, count).
  DataFrame SessionCounts(const std::shared_ptr<sources::MemoryStream>& input,
                          const std::string& delay) {
    return spark_->readStream()
        .load(input)
        .withColumn("ts", F::timestamp_seconds(F::col("t")))
        .withWatermark("ts", delay)
        .groupBy({F::session_window(F::col("ts"), "5 seconds"), F::col("k")})
        .count()
        .select({F::col("session_window").getField("start").cast("long"), F::col("k"),
                 F::col("count")});
  }

  /// value INT -> count(*) per value.
  DataFrame CountsByValue(const std::shared_ptr<sources::MemoryStream>& input) {
    return spark_->readStream().load(input).groupBy({F::col("value")}).agg({F::count(F::lit(1))});
  }

  /// Spark's EventTimeWatermarkSuite query: seconds -> 5-second windows with a 10-second
  /// watermark, as (window start in seconds, count).
  DataFrame WindowedCounts(const std::shared_ptr<sources::MemoryStream>& input) {
    return spark_->readStream()
        .load(input)
        .withColumn("eventTime", F::timestamp_seconds(F::col("value")))
        .withWatermark("eventTime", "10 seconds")
        .groupBy({F::window(F::col("eventTime"), "5 seconds").alias("window")})
        .agg({F::count(F::lit(1)).alias("count")})
        .select({F::col("window").getField("start").cast("long"), F::col("count")});
  }

  /// The last batch's state operator holds `rows_total` rows and dropped
  /// `dropped_by_watermark` late rows (not checked when negative).
  StreamAction AssertStateOperator(const std::string& what, int64_t rows_total,
                                   int64_t dropped_by_watermark = -1) {
    return AssertOnQuery(what, [=](StreamingQuery& query) {
      auto progress = query.lastProgress();
      ASSERT_TRUE(progress.has_value());
      ASSERT_EQ(progress->state_operators.size(), 1u);
      EXPECT_EQ(progress->state_operators[0].num_rows_total, rows_total);
      if (dropped_by_watermark >= 0) {
        EXPECT_EQ(progress->state_operators[0].num_rows_dropped_by_watermark,
                  dropped_by_watermark);
      }
    });
  }
};

TEST_F(StreamingAggregationTest, UpdateModeEmitsTheKeysEachBatchChanged) {
  auto input = MemoryStream("value INT");
  TestStream(CountsByValue(input),
             {AddData(input, {"[3]"}), CheckLastBatch({"[3,1]"}), AddData(input, {"[3, 2]"}),
              CheckLastBatch({"[3,2]", "[2,1]"}), StopStream(), StartStream(),
              AddData(input, {"[3, 2, 1]"}), CheckLastBatch({"[3,3]", "[2,2]", "[1,1]"}),
              AddData(input, {"[4, 4, 4, 4]"}), CheckLastBatch({"[4,4]"})},
             "update");
}

TEST_F(StreamingAggregationTest, UpdateModeEmitsOneFormOfFloatingPointKeys) {
  // -0.0 groups with 0.0 and is output as 0.0, as Spark normalizes floating-point keys, even
  // when the batch met -0.0 first; the same for a key nested in a struct.
  auto input = MemoryStream("value DOUBLE");
  auto df = spark_->readStream()
                .load(input)
                .groupBy({F::col("value"), F::struct_({F::col("value")}).alias("nested")})
                .agg({F::count(F::lit(1))});
  TestStream(df,
             {AddData(input, {"[-0.0, 0.0, 1.5]"}),
              CheckLastBatch({"[0,[0],2]", "[1.5,[1.5],1]"}), AddData(input, {"[-0.0]"}),
              CheckLastBatch({"[0,[0],3]"})},
             "update");
}

TEST_F(StreamingAggregationTest, CompleteModeEmitsTheWholeResultEachBatch) {
  auto input = MemoryStream("value INT");
  TestStream(CountsByValue(input),
             {AddData(input, {"[3]"}), CheckLastBatch({"[3,1]"}), AddData(input, {"[2]"}),
              CheckLastBatch({"[3,1]", "[2,1]"}), StopStream(), StartStream(),
              AddData(input, {"[3, 2, 1]"}), CheckLastBatch({"[3,2]", "[2,2]", "[1,1]"}),
              AddData(input, {"[4, 4, 4, 4]"}),
              CheckLastBatch({"[4,4]", "[3,2]", "[2,2]", "[1,1]"})},
             "complete");
}

TEST_F(StreamingAggregationTest, GlobalAggregationKeepsOneRow) {
  auto input = MemoryStream("value INT");
  auto df = spark_->readStream().load(input).agg(
      {F::count(F::lit(1)), F::sum(F::col("value"))});
  TestStream(df,
             {AddData(input, {"[1, 2]"}), CheckLastBatch({"[2,3]"}), AddData(input, {"[10]"}),
              CheckLastBatch({"[3,13]"}), StopStream(), StartStream(), AddData(input, {"[5]"}),
              CheckLastBatch({"[4,18]"})},
             "complete");
}

TEST_F(StreamingAggregationTest, AppendModeEmitsAWindowOnceTheWatermarkPassesItsEnd) {
  auto input = MemoryStream("value INT");
  TestStream(WindowedCounts(input),
             {AddData(input, {"[10, 11, 12, 13, 14, 15]"}), CheckNewAnswer({}),
              // The watermark moves to 15 s: a batch without data closes [10, 15).
              AddData(input, {"[25]"}), CheckNewAnswer({"[10,5]"}),
              AssertStateOperator("two windows open", 2, 0),
              // 10 is behind the watermark: dropped.
              AddData(input, {"[10]"}), CheckNewAnswer({}),
              AssertStateOperator("one late row", 2, 1)});
}

TEST_F(StreamingAggregationTest, UpdateModeEvictsWindowsBelowTheWatermark) {
  auto input = MemoryStream("value INT");
  TestStream(WindowedCounts(input),
             {AddData(input, {"[10, 11, 12, 13, 14, 15]"}), CheckNewAnswer({"[10,5]", "[15,1]"}),
              AddData(input, {"[25]"}), CheckNewAnswer({"[25,1]"}),
              AssertStateOperator("[10, 15) evicted", 2, 0),
              // 10 is behind the watermark: dropped. The watermark moves to 16 s.
              AddData(input, {"[10, 25, 26, 26]"}), CheckNewAnswer({"[25,4]"}),
              AssertStateOperator("[25, 30) updated", 2)},
             "update");
}

TEST_F(StreamingAggregationTest, AppendModeSurvivesRestartsWithItsWindows) {
  auto input = MemoryStream("value INT");
  TestStream(WindowedCounts(input),
             {AddData(input, {"[10, 11, 12]"}), CheckNewAnswer({}), StopStream(), StartStream(),
              AddData(input, {"[13, 14, 15]"}), CheckNewAnswer({}), StopStream(),
              AddData(input, {"[25]"}), StartStream(), CheckNewAnswer({"[10,5]"}),
              AddData(input, {"[26, 31]"}), CheckNewAnswer({"[15,1]"})});
}

// The inputs of the golden scenario session_static_gap_append, with restarts between the
// steps: the open sessions survive them, and the closed ones are the ones Spark emits.
TEST_F(StreamingAggregationTest, SessionWindowsSurviveRestarts) {
  auto input = MemoryStream("k STRING, t INT");
  auto df = SessionCounts(input, "10 seconds");
  TestStream(df, {AddData(input, {"[\"a\", \"a\", \"b\"]", "[1, 4, 2]"}), CheckAnswer({}),
                  StopStream(), StartStream(),
                  AddData(input, {"[\"a\", \"a\", \"b\"]", "[8, 20, 30]"}),
                  CheckAnswer({"[1,\"a\",3]", "[2,\"b\",1]"}), StopStream(), StartStream(),
                  AddData(input, {"[\"a\", \"b\"]", "[22, 50]"}),
                  CheckNewAnswer({"[20,\"a\",2]", "[30,\"b\",1]"}), StopStream(),
                  StartStream(), AddData(input, {"[\"a\"]", "[80]"}),
                  CheckNewAnswer({"[50,\"b\",1]"})});
}

// Sessions of a key arriving out of order, within a batch and against the sessions the key
// keeps: each key's sessions are merged in order of their starts (a five-second gap merges the
// events at 1 and 3, kept and new; 12 and 20 stay apart).
TEST_F(StreamingAggregationTest, SessionsOutOfOrderMergeByTheirStarts) {
  auto input = MemoryStream("k STRING, t INT");
  auto df = SessionCounts(input, "100 seconds");
  TestStream(df, {AddData(input, {"[\"a\", \"a\"]", "[20, 3]"}), CheckAnswer({}),
                  AddData(input, {"[\"a\", \"a\"]", "[12, 1]"}), CheckAnswer({}),
                  AddData(input, {"[\"a\"]", "[300]"}),
                  CheckNewAnswer({"[1,\"a\",2]", "[12,\"a\",1]", "[20,\"a\",1]"})});
}

TEST_F(StreamingAggregationTest, EveryAggregateMergesAcrossBatchesAsTheBatchEngineComputes) {
  const std::string schema = "k INT, v DOUBLE, s STRING";
  auto input = MemoryStream(schema);
  const std::vector<std::string> first = {"[1, 1, 2, 2, 1]", "[1.5, null, 2.5, -1, 4]",
                                          "[\"a\", \"b\", null, \"c\", \"a\"]"};
  const std::vector<std::string> second = {"[2, 1, 3]", "[8, 0.25, null]",
                                           "[\"d\", \"a\", \"e\"]"};
  auto aggregates = [](const DataFrame& df) {
    return df.groupBy({F::col("k")}).agg(
        {F::count(F::col("v")), F::sum(F::col("v")), F::avg(F::col("v")),
         F::min(F::col("s")), F::max(F::col("v")), F::first(F::col("s")),
         F::last(F::col("s")), F::count_if(F::col("v") > F::lit(1.0)),
         F::expr("array_sort(collect_list(s))"),
         F::expr("array_sort(collect_set(s))"),
         // Moments merged in another order differ in the last bits: compare them rounded.
         F::approx_count_distinct(F::col("s")), F::round(F::stddev(F::col("v")), 9),
         F::round(F::variance(F::col("v")), 9), F::mean(F::col("v"))});
  };
  auto all = Frame(schema, {"[1, 1, 2, 2, 1, 2, 1, 3]", "[1.5, null, 2.5, -1, 4, 8, 0.25, null]",
                            "[\"a\", \"b\", null, \"c\", \"a\", \"d\", \"a\", \"e\"]"});
  auto expected = aggregates(all).collect();
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  TestStream(aggregates(spark_->readStream().load(input)),
             {AddData(input, first), StopStream(), StartStream(), AddData(input, second),
              CheckLastBatch(RowsOf(**expected))},
             "complete");
}

TEST_F(StreamingAggregationTest, KeepsOneStoreFolderPerPartitionWithADeltaPerBatch) {
  auto input = MemoryStream("value INT");
  TestStream(CountsByValue(input),
             {AddData(input, {"[1, 2, 3]"}), CheckLastBatch({"[1,1]", "[2,1]", "[3,1]"}),
              AddData(input, {"[1]"}), CheckLastBatch({"[1,2]"})},
             "update");
  for (int partition = 0; partition < 5; ++partition) {
    fs::path folder = fs::path(checkpoint_) / "state" / "0" / std::to_string(partition);
    EXPECT_TRUE(fs::exists(folder / "1.delta")) << folder;
    EXPECT_TRUE(fs::exists(folder / "2.delta")) << folder;
  }
}

TEST_F(StreamingAggregationTest, PinsTheShufflePartitionsOfItsFirstRun) {
  auto input = MemoryStream("value INT");
  TestStream(CountsByValue(input),
             {AddData(input, {"[1, 2, 3]"}), CheckLastBatch({"[1,1]", "[2,1]", "[3,1]"}),
              StopStream(), AssertOnQuery("fewer partitions asked", [this](StreamingQuery&) {
                ASSERT_TRUE(spark_->conf().set("spark.sql.shuffle.partitions", "2").ok());
              }),
              StartStream(), AddData(input, {"[1, 2, 3]"}),
              CheckLastBatch({"[1,2]", "[2,2]", "[3,2]"}),
              AssertStateOperator("still five partitions", 3, 0)},
             "update");
  EXPECT_TRUE(fs::exists(fs::path(checkpoint_) / "state" / "0" / "4" / "2.delta"));
}

TEST_F(StreamingAggregationTest, ReportsTheDefaultProvidersMetricsAsSparkDoes) {
  auto input = MemoryStream("value INT");
  auto custom = [](const std::string& name, int64_t expected) {
    return AssertOnQuery(name, [=](StreamingQuery& query) {
      auto progress = query.lastProgress();
      ASSERT_TRUE(progress.has_value());
      ASSERT_EQ(progress->state_operators.size(), 1u);
      const auto& metrics = progress->state_operators[0].custom_metrics;
      ASSERT_TRUE(metrics.count(name)) << name;
      EXPECT_EQ(metrics.at(name), expected) << name;
    });
  };
  // Counted over each provider's life and summed over the 5 partitions: the first batch loads
  // the empty version 0; each later one finds its version in memory; a restart reads files.
  TestStream(CountsByValue(input),
             {AddData(input, {"[1]"}), CheckLastBatch({"[1,1]"}),
              custom("loadedMapCacheHitCount", 0), custom("loadedMapCacheMissCount", 0),
              AddData(input, {"[1]"}), CheckLastBatch({"[1,2]"}),
              custom("loadedMapCacheHitCount", 5), custom("loadedMapCacheMissCount", 0),
              StopStream(), StartStream(), AddData(input, {"[1]"}), CheckLastBatch({"[1,3]"}),
              custom("loadedMapCacheHitCount", 0), custom("loadedMapCacheMissCount", 5)},
             "update");
}

TEST_F(StreamingAggregationTest, RecordsTheOperatorInSparksMetadataFile) {
  auto input = MemoryStream("value INT");
  TestStream(CountsByValue(input), {AddData(input, {"[1]"}), CheckLastBatch({"[1,1]"})},
             "update");
  auto metadata = checkpoint::ReadWholeFile(checkpoint_ + "/state/0/_metadata/metadata");
  ASSERT_TRUE(metadata.ok()) << metadata.status().ToString();
  // Spark 4.0.1 writes exactly this for a keyed aggregation over 5 partitions.
  EXPECT_EQ(*metadata,
            "v1\n{\"operatorInfo\":{\"operatorId\":0,\"operatorName\":\"stateStoreSave\"},"
            "\"stateStoreInfo\":[{\"storeName\":\"default\",\"numColsPrefixKey\":0,"
            "\"numPartitions\":5}]}");
  EXPECT_TRUE(fs::exists(fs::path(checkpoint_) / "state" / "0" / "0" / "_metadata" / "schema"));
}

TEST_F(StreamingAggregationTest, RefusesToRestartWithDifferentAggregatesOrKeys) {
  auto input = MemoryStream("value INT");
  TestStream(CountsByValue(input), {AddData(input, {"[1]"}), CheckLastBatch({"[1,1]"})},
             "update");
  auto restart = [&](const DataFrame& df) {
    return df.writeStream()
        .format("memory")
        .queryName("changed")
        .outputMode("update")
        .option("checkpointLocation", checkpoint_)
        .start();
  };
  auto source = spark_->readStream().load(input);
  auto other_aggregate =
      restart(source.groupBy({F::col("value")}).agg({F::sum(F::col("value"))}));
  ASSERT_FALSE(other_aggregate.ok());
  EXPECT_TRUE(HasErrorClass(other_aggregate.status(), "STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE"))
      << other_aggregate.status().ToString();
  EXPECT_NE(other_aggregate.status().message().find("stateStoreSave"), std::string::npos);
  auto other_key = restart(source.groupBy({F::col("value").cast("string").alias("value")})
                               .agg({F::count(F::lit(1))}));
  ASSERT_FALSE(other_key.ok());
  EXPECT_TRUE(HasErrorClass(other_key.status(), "STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE"))
      << other_key.status().ToString();
}


class StreamingAggregationCrashTest
    : public StreamingAggregationTest,
      public ::testing::WithParamInterface<
          std::tuple<execution::CrashPoint, int64_t, std::string>> {};

// Batches 0-3 are: data, no-data (the watermark moved), data, no-data that emits [10, 15).
// Each state store provider (the third parameter) recovers the same way.
TEST_P(StreamingAggregationCrashTest, RestartGivesTheOutputOfAnUninterruptedRun) {
  auto [point, batch, provider] = GetParam();
  ASSERT_TRUE(spark_->conf().set("spark.sql.streaming.stateStore.providerClass", provider).ok());
  auto input = MemoryStream("value INT");
  StartOptions crashing;
  crashing.crash_hook = KillOnceAt(point, batch);
  TestStream(WindowedCounts(input),
             {StartStream(crashing), AddData(input, {"[10, 11, 12, 13, 14, 15]"}),
              AssertOnQuery("runs or dies",
                            [](StreamingQuery& query) { (void)query.processAllAvailable(); }),
              AddData(input, {"[25]"}),
              AssertOnQuery("runs or dies",
                            [](StreamingQuery& query) { (void)query.processAllAvailable(); }),
              StopStream(), StartStream(), AddData(input, {"[16, 40]"}),
              CheckAnswer({"[10,5]", "[15,2]", "[25,1]"})});
}

INSTANTIATE_TEST_SUITE_P(
    EveryCrashPoint, StreamingAggregationCrashTest,
    ::testing::Combine(::testing::Values(execution::CrashPoint::kBeforeOffsetsWrite,
                                         execution::CrashPoint::kAfterOffsetsWrite,
                                         execution::CrashPoint::kBeforeAddBatch,
                                         execution::CrashPoint::kAfterAddBatch,
                                         execution::CrashPoint::kAfterCommit),
                       ::testing::Values(int64_t{0}, int64_t{2}, int64_t{3}),
                       ::testing::Values(std::string(state::kHdfsBackedProviderClass),
                                         std::string(state::kRocksDbProviderClass))));

}  // namespace
}  // namespace sluice::testing
