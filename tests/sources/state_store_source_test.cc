// The state data sources on checkpoints written by real queries: the rows of a store at any
// retained batch and the changes batch by batch, with either provider, and clear errors for
// bad options. Their answers for the same queries as Spark's are in tests/golden_stateful.
#include <filesystem>
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/state/state_store_provider_factory.h"
#include "support/stream_test.h"

namespace sluice::testing {
namespace {

namespace F = functions;

class StateStoreSourceTest : public StreamTest,
                             public ::testing::WithParamInterface<const char*> {
 protected:
  void SetUp() override {
    StreamTest::SetUp();
    ASSERT_TRUE(spark_->conf().set("spark.sql.shuffle.partitions", "3").ok());
    ASSERT_TRUE(spark_->conf().set("spark.sql.streaming.stateStore.providerClass", GetParam()).ok());
  }

  /// Three batches of a running count per key, leaving state in the checkpoint.
  void RunCounts() {
    auto input = MemoryStream("k STRING");
    auto counts = spark_->readStream().load(input).groupBy({F::col("k")}).count();
    TestStream(counts,
               {AddData(input, {"[\"a\", \"b\"]"}), CheckLastBatch({"[\"a\",1]", "[\"b\",1]"}),
                AddData(input, {"[\"a\", \"c\"]"}), CheckLastBatch({"[\"a\",2]", "[\"c\",1]"}),
                AddData(input, {"[\"a\"]"}), CheckLastBatch({"[\"a\",3]"})},
               "update");
  }

  DataFrameReader State() const {
    DataFrameReader reader = spark_->read();
    reader.format("statestore");
    return reader;
  }

  std::vector<std::string> Rows(const DataFrame& df) {
    auto table = df.drop({"partition_id"}).collect();
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    if (!table.ok()) return {};
    auto rows = RowsOf(**table);
    std::sort(rows.begin(), rows.end());
    return rows;
  }

  void ExpectError(const DataFrame& df, const std::string& error_class,
                   const std::string& mentions) {
    auto table = df.collect();
    ASSERT_FALSE(table.ok());
    EXPECT_TRUE(HasErrorClass(table.status(), error_class)) << table.status().ToString();
    EXPECT_NE(table.status().message().find(mentions), std::string::npos)
        << table.status().ToString();
  }
};

TEST_P(StateStoreSourceTest, ReadsTheRowsOfAnyRetainedBatch) {
  RunCounts();
  EXPECT_EQ(Rows(State().load(checkpoint_)),
            (std::vector<std::string>{"[[\"a\"],[3]]", "[[\"b\"],[1]]", "[[\"c\"],[1]]"}));
  EXPECT_EQ(Rows(State().option("batchId", int64_t{0}).load(checkpoint_)),
            (std::vector<std::string>{"[[\"a\"],[1]]", "[[\"b\"],[1]]"}));
  auto table = State().load(checkpoint_).collect();
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_EQ((*table)->schema()->ToString(),
            "key: struct<k: string>\nvalue: struct<count: int64 not null>\n"
            "partition_id: int32 not null");
}

TEST_P(StateStoreSourceTest, ReadsTheChangesBatchByBatch) {
  RunCounts();
  auto changes = State()
                     .option("readChangeFeed", true)
                     .option("changeStartBatchId", int64_t{1})
                     .load(checkpoint_);
  EXPECT_EQ(Rows(changes), (std::vector<std::string>{"[1,\"update\",[\"a\"],[2]]",
                                                     "[1,\"update\",[\"c\"],[1]]",
                                                     "[2,\"update\",[\"a\"],[3]]"}));
}

TEST_P(StateStoreSourceTest, DescribesTheOperators) {
  RunCounts();
  DataFrameReader reader = spark_->read();
  reader.format("state-metadata");
  auto table = reader.load(checkpoint_).collect();
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_EQ(RowsOf(**table),
            (std::vector<std::string>{"[0,\"stateStoreSave\",\"default\",3,0,2,null]"}));
}

TEST_P(StateStoreSourceTest, RefusesBadOptionsNamingThem) {
  ExpectError(State().load(scratch_dir_ / "nothing"),
              "STDS_COMMITTED_BATCH_UNAVAILABLE", "No committed batch");
  RunCounts();
  ExpectError(State().option("batchId", int64_t{-1}).load(checkpoint_),
              "STDS_INVALID_OPTION_VALUE.IS_NEGATIVE", "'batchId'");
  ExpectError(State().option("batchId", int64_t{7}).load(checkpoint_),
              "STDS_INVALID_OPTION_VALUE.WITH_MESSAGE", "last committed batch 2");
  ExpectError(State().option("readChangeFeed", true).load(checkpoint_),
              "STDS_REQUIRED_OPTION_UNSPECIFIED", "changeStartBatchId");
  ExpectError(State().option("readChangeFeed", true).option("batchId", int64_t{1}).load(checkpoint_),
              "STDS_CONFLICT_OPTIONS", "batchId");
  ExpectError(State().option("joinSide", "left").load(checkpoint_),
              "STDS_INVALID_OPTION_VALUE.WITH_MESSAGE", "not a stream-stream join");
  ExpectError(State().option("joinSide", "middle").load(checkpoint_),
              "STDS_INVALID_OPTION_VALUE.WITH_MESSAGE", "left,right,none");
  ExpectError(State().option("stateVarName", "count").load(checkpoint_),
              "STDS_INVALID_OPTION_VALUE.WITH_MESSAGE", "only a transformWithState operator");
  ExpectError(State().option("storeName", "other").load(checkpoint_),
              "STDS_FAILED_TO_READ_STATE_SCHEMA", "its stores are default");
  ExpectError(State().option("operatorId", int64_t{4}).load(checkpoint_),
              "STDS_FAILED_TO_READ_OPERATOR_METADATA", "state/4/_metadata/metadata");
}

TEST_P(StateStoreSourceTest, ACheckpointKeepsHowItsStateWasPartitioned) {
  // A checkpoint written before Sluice pinned its state partitioning (offsets without
  // sluice.sql.streaming.statePartitioningVersion) spread keys by the hash of their encoded
  // bytes; restarted, it must find each key where it left it.
  ASSERT_TRUE(spark_->conf().set("sluice.sql.streaming.statePartitioningVersion", "1").ok());
  auto input = MemoryStream("k STRING");
  auto counts = spark_->readStream().load(input).groupBy({F::col("k")}).count();
  auto forget_pinned_partitioning = [this](StreamingQuery&) {
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(checkpoint_) / "offsets")) {
      if (entry.path().filename().string().front() == '.') continue;
      std::ifstream in(entry.path());
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      const std::string pinned = ",\"sluice.sql.streaming.statePartitioningVersion\":\"1\"";
      const size_t at = text.find(pinned);
      ASSERT_NE(at, std::string::npos) << text;
      text.erase(at, pinned.size());
      std::ofstream(entry.path(), std::ios::trunc) << text;
    }
    ASSERT_TRUE(spark_->conf().set("sluice.sql.streaming.statePartitioningVersion", "2").ok());
  };
  TestStream(counts,
             {AddData(input, {R"(["a", "b", "c", "d", "e", "f"])"}),
              CheckLastBatch({R"(["a",1])", R"(["b",1])", R"(["c",1])", R"(["d",1])",
                              R"(["e",1])", R"(["f",1])"}),
              AssertOnQuery("offsets as an older Sluice wrote them", forget_pinned_partitioning),
              StopStream(), StartStream(),
              AddData(input, {R"(["a", "b", "c", "d", "e", "f"])"}),
              CheckLastBatch({R"(["a",2])", R"(["b",2])", R"(["c",2])", R"(["d",2])",
                              R"(["e",2])", R"(["f",2])"})},
             "update");
  // New batches keep the checkpoint's partitioning, unpinned as before.
  std::ifstream last(std::filesystem::path(checkpoint_) / "offsets" / "1");
  std::string text((std::istreambuf_iterator<char>(last)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.find("statePartitioningVersion"), std::string::npos) << text;
}

// Spark 4.0.1 keys a deduplication's state by its subset, in the subset's order
// (dropDuplicates(["b", "a"]) on columns a, b, c): the key schema and the partition of each key
// below are what Spark's state reader gave on the same rows with 3 shuffle partitions.
TEST_P(StateStoreSourceTest, ADeduplicationKeysItsStateInTheSubsetsOrderAsSpark) {
  auto input = MemoryStream("a BIGINT, b STRING, c BIGINT");
  auto deduplicated = spark_->readStream().load(input).dropDuplicates({"b", "a"});
  TestStream(deduplicated,
             {AddData(input, {"[0, 1, 2, 3, 4, 5]", R"(["x0", "x1", "x2", "x0", "x1", "x2"])",
                              "[0, 1, 2, 3, 4, 5]"}),
              CheckNewAnswer({"[0,\"x0\",0]", "[1,\"x1\",1]", "[2,\"x2\",2]",
                              "[3,\"x0\",3]", "[4,\"x1\",4]", "[5,\"x2\",5]"})});
  auto state = State().load(checkpoint_);
  auto table = state.select({F::col("partition_id"), F::col("key")}).collect();
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_EQ((*table)->schema()->field(1)->type()->ToString(),
            "struct<b: string, a: int64>");
  auto rows = RowsOf(**table);
  std::sort(rows.begin(), rows.end());
  EXPECT_EQ(rows, (std::vector<std::string>{
                      R"([0,["x0", 0]])", R"([0,["x1", 4]])", R"([0,["x2", 5]])",
                      R"([1,["x1", 1]])", R"([2,["x0", 3]])", R"([2,["x2", 2]])"}));
}

// Checkpoints written before statePartitioningVersion 3 keyed a deduplication by the input's
// column order with the event time first; restarted, they keep that layout, so every key is
// still found and its duplicates dropped.
TEST_P(StateStoreSourceTest, AnEarlierDeduplicationCheckpointKeepsItsKeyLayout) {
  ASSERT_TRUE(spark_->conf().set("sluice.sql.streaming.statePartitioningVersion", "2").ok());
  auto input = MemoryStream("k STRING, ts TIMESTAMP, v BIGINT");
  auto deduplicated = spark_->readStream()
                          .load(input)
                          .withWatermark("ts", "10 seconds")
                          .dropDuplicates({"v", "ts", "k"});
  const std::string first = R"(["a", "b"])";
  const std::string times = R"(["2024-01-01 00:00:01", "2024-01-01 00:00:02"])";
  TestStream(deduplicated,
             {AddData(input, {first, times, "[1, 2]"}),
              CheckNewAnswer({R"(["a","2024-01-01T00:00:01.000000Z",1])",
                              R"(["b","2024-01-01T00:00:02.000000Z",2])"}),
              StopStream(),
              AssertOnQuery("a newer default", [this](StreamingQuery&) {
                ASSERT_TRUE(
                    spark_->conf().set("sluice.sql.streaming.statePartitioningVersion", "3").ok());
              }),
              StartStream(), AddData(input, {first, times, "[1, 2]"}), CheckNewAnswer({})});
  auto key = State().load(checkpoint_).select({F::col("key")}).collect();
  ASSERT_TRUE(key.ok()) << key.status().ToString();
  EXPECT_EQ((*key)->schema()->field(0)->type()->ToString(),
            "struct<ts: timestamp[us, tz=UTC], k: string, v: int64>");
}

INSTANTIATE_TEST_SUITE_P(Providers, StateStoreSourceTest,
                         ::testing::Values(state::kHdfsBackedProviderClass,
                                           state::kRocksDbProviderClass),
                         [](const auto& info) { return info.index == 0 ? "Default" : "RocksDb"; });

}  // namespace
}  // namespace sluice::testing
