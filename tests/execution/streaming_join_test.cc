// Stream-stream joins across batches and restarts: matches found in state, outer rows padded
// with nulls once the watermark passes them, the same output after a crash at any step, state
// that stays bounded, and the checkpoint layout Spark gives a join's state. The batch-by-batch
// answers of every join type come from Spark in tests/golden_stateful.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>

#include <gtest/gtest.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/data_stream_writer.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/functions.h"
#include "sluice/checkpoint/atomic_file.h"
#include "sluice/state/state_file_format.h"
#include "sluice/state/state_store_provider_factory.h"
#include "support/stream_test.h"

namespace sluice::testing {
namespace {

namespace F = functions;

class StreamingJoinTest : public StreamTest {
 protected:
  void SetUp() override {
    StreamTest::SetUp();
    ASSERT_TRUE(spark_->conf().set("spark.sql.shuffle.partitions", "3").ok());
  }

  /// Rows (side, k, t): side "L" or "R", t in seconds.
  std::shared_ptr<sources::MemoryStream> Input() {
    return MemoryStream("side STRING, k STRING, t INT");
  }

  static DataFrame Side(const DataFrame& input, const std::string& side) {
    const std::string p = side == "L" ? "l" : "r";
    return input.where("side = '" + side + "'")
        .select({F::col("k").alias(p + "k"), F::timestamp_seconds(F::col("t")).alias(p + "ts")})
        .withWatermark(p + "ts", "10 seconds");
  }

  /// Rows of each side with equal keys and times at most 5 s apart, as (lk, lt, rk, rt).
  DataFrame TimeRangeJoin(const std::shared_ptr<sources::MemoryStream>& input,
                          const std::string& how) {
    auto df = spark_->readStream().load(input);
    return Side(df, "L")
        .join(Side(df, "R"),
              F::expr("lk = rk AND rts BETWEEN lts - INTERVAL 5 SECONDS AND "
                      "lts + INTERVAL 5 SECONDS"),
              how)
        .select({F::col("lk"), F::col("lts").cast("long"), F::col("rk"),
                 F::col("rts").cast("long")});
  }

  /// The left rows with a right row of the same key at most 30 s later, as (lk, lt).
  DataFrame LeftSemiJoin(const std::shared_ptr<sources::MemoryStream>& input) {
    auto df = spark_->readStream().load(input);
    return Side(df, "L")
        .join(Side(df, "R"),
              F::expr("lk = rk AND rts BETWEEN lts AND lts + INTERVAL 30 SECONDS"), "left_semi")
        .select({F::col("lk"), F::col("lts").cast("long")});
  }

  static StreamAction Rows(const std::shared_ptr<sources::MemoryStream>& input,
                           const std::vector<std::tuple<std::string, std::string, int>>& rows) {
    std::string sides = "[", keys = "[", times = "[";
    for (size_t i = 0; i < rows.size(); ++i) {
      const auto& [side, key, time] = rows[i];
      const char* comma = i == 0 ? "" : ",";
      sides.append(comma).append("\"").append(side).append("\"");
      keys.append(comma).append("\"").append(key).append("\"");
      times.append(comma).append(std::to_string(time));
    }
    return AddData(input, {sides + "]", keys + "]", times + "]"});
  }

  static StreamAction ProcessOrDie() {
    return AssertOnQuery("runs or dies",
                         [](StreamingQuery& query) { (void)query.processAllAvailable(); });
  }

  static StreamAction AssertStateRowsAtMost(int64_t most) {
    return AssertOnQuery("state rows bounded", [=](StreamingQuery& query) {
      auto progress = query.lastProgress();
      ASSERT_TRUE(progress.has_value());
      ASSERT_EQ(progress->state_operators.size(), 1u);
      EXPECT_EQ(progress->state_operators[0].operator_name, "symmetricHashJoin");
      EXPECT_LE(progress->state_operators[0].num_rows_total, most);
    });
  }
};

TEST_F(StreamingJoinTest, LeftOuterPadsUnmatchedRowsOnceTheWatermarkPassesThem) {
  auto input = Input();
  TestStream(TimeRangeJoin(input, "left_outer"),
             {Rows(input, {{"L", "a", 10}, {"L", "b", 12}, {"R", "a", 13}}),
              CheckNewAnswer({"[\"a\",10,\"a\",13]"}),
              // The watermark moves to 30 s: b (12 s) can no longer meet a right row.
              Rows(input, {{"L", "c", 40}, {"R", "c", 41}, {"R", "d", 45}}),
              CheckNewAnswer({"[\"c\",40,\"c\",41]", "[\"b\",12,null,null]"}),
              // A right row for b now is late and dropped; c matched and is never padded.
              Rows(input, {{"R", "b", 14}, {"L", "e", 80}, {"R", "e", 82}}),
              CheckNewAnswer({"[\"e\",80,\"e\",82]"})});
}

TEST_F(StreamingJoinTest, LeftSemiEmitsALeftRowOnceWhateverMatchesLater) {
  auto input = Input();
  auto semi = LeftSemiJoin(input);
  TestStream(semi, {Rows(input, {{"L", "a", 10}, {"R", "a", 11}, {"R", "a", 12}}),
                    CheckNewAnswer({"[\"a\",10]"}), Rows(input, {{"R", "a", 13}, {"L", "b", 14}}),
                    CheckNewAnswer({}), Rows(input, {{"R", "b", 15}, {"R", "b", 16}}),
                    CheckNewAnswer({"[\"b\",14]"})});
}

// The join takes a side's rows in slices (64K rows); a batch of several gives what one pass
// over its rows gives: every right row of the first batch kept under the one key, at indexes
// that follow from slice to slice, and each met by the left row of the next batch.
TEST_F(StreamingJoinTest, ABatchOfManySlicesJoinsAsOnePassWould) {
  constexpr int kRightRows = 150'000;
  auto input = Input();
  std::vector<std::tuple<std::string, std::string, int>> first = {{"L", "a", 10}};
  for (int i = 0; i < kRightRows; ++i) first.emplace_back("R", "a", 11);
  TestStream(TimeRangeJoin(input, "inner"),
             {Rows(input, first),
              CheckNewAnswer(std::vector<std::string>(kRightRows, "[\"a\",10,\"a\",11]")),
              Rows(input, {{"L", "a", 12}}),
              CheckNewAnswer(std::vector<std::string>(kRightRows, "[\"a\",12,\"a\",11]"))});
}

// A side's slices are kept in the state while the next one is worked out; the other side's
// rows of the same batch meet every one of them, the last slice's included. With either
// provider: the two sides' stores are then read and written from two threads at once.
class StreamingJoinSlicesTest : public StreamingJoinTest,
                                public ::testing::WithParamInterface<std::string> {};

TEST_P(StreamingJoinSlicesTest, TheOtherSideMeetsEverySliceOfTheSameBatch) {
  ASSERT_TRUE(
      spark_->conf().set("spark.sql.streaming.stateStore.providerClass", GetParam()).ok());
  constexpr int kLeftRows = 150'000;
  auto input = Input();
  std::vector<std::tuple<std::string, std::string, int>> rows;
  for (int i = 0; i < kLeftRows; ++i) rows.emplace_back("L", "a", 10);
  rows.emplace_back("R", "a", 11);
  TestStream(TimeRangeJoin(input, "inner"),
             {Rows(input, rows),
              CheckNewAnswer(std::vector<std::string>(kLeftRows, "[\"a\",10,\"a\",11]"))});
}

INSTANTIATE_TEST_SUITE_P(EveryProvider, StreamingJoinSlicesTest,
                         ::testing::Values(std::string(state::kHdfsBackedProviderClass),
                                           std::string(state::kRocksDbProviderClass)));

// A left semi join emits its left row at the first right row that meets it, and the right
// rows of the slices after it read that it matched.
TEST_F(StreamingJoinTest, ALeftSemiRowMetInManySlicesIsEmittedOnce) {
  auto input = Input();
  auto semi = LeftSemiJoin(input);
  std::vector<std::tuple<std::string, std::string, int>> rows = {{"L", "a", 10}};
  for (int i = 0; i < 150'000; ++i) rows.emplace_back("R", "a", 11);
  TestStream(semi, {Rows(input, rows), CheckNewAnswer({"[\"a\",10]"})});
}

class StreamingJoinCrashTest : public StreamingJoinTest,
                               public ::testing::WithParamInterface<
                                   std::tuple<execution::CrashPoint, int64_t, std::string>> {};

// Batches: 0 data, 1 no-data (the watermark moved to 2 s), 2 data, 3 no-data that pads b.
TEST_P(StreamingJoinCrashTest, RestartGivesTheOutputOfAnUninterruptedRun) {
  auto [point, batch, provider] = GetParam();
  ASSERT_TRUE(spark_->conf().set("spark.sql.streaming.stateStore.providerClass", provider).ok());
  auto input = Input();
  StartOptions crashing;
  crashing.crash_hook = KillOnceAt(point, batch);
  TestStream(TimeRangeJoin(input, "full_outer"),
             {StartStream(crashing), Rows(input, {{"L", "a", 10}, {"L", "b", 12}, {"R", "a", 13}}),
              ProcessOrDie(), Rows(input, {{"L", "c", 40}, {"R", "c", 41}, {"R", "d", 45}}),
              ProcessOrDie(), StopStream(), StartStream(),
              Rows(input, {{"L", "e", 80}, {"R", "e", 82}}),
              CheckAnswer({"[\"a\",10,\"a\",13]", "[\"c\",40,\"c\",41]", "[\"b\",12,null,null]",
                           "[null,null,\"d\",45]", "[\"e\",80,\"e\",82]"})});
}

INSTANTIATE_TEST_SUITE_P(
    EveryCrashPoint, StreamingJoinCrashTest,
    ::testing::Combine(::testing::Values(execution::CrashPoint::kBeforeOffsetsWrite,
                                         execution::CrashPoint::kAfterOffsetsWrite,
                                         execution::CrashPoint::kBeforeAddBatch,
                                         execution::CrashPoint::kAfterAddBatch,
                                         execution::CrashPoint::kAfterCommit),
                       ::testing::Values(int64_t{0}, int64_t{2}, int64_t{3}),
                       ::testing::Values(std::string(state::kHdfsBackedProviderClass),
                                         std::string(state::kRocksDbProviderClass))));

// One store partition on several threads: its eviction scanned in parts and, on stores that
// may be read at once (the in-memory one), planned in groups of keys.
class StreamingJoinOnePartitionTest : public StreamingJoinTest,
                                      public ::testing::WithParamInterface<std::string> {};

TEST_P(StreamingJoinOnePartitionTest, EvictsEveryRowTheWatermarkPassed) {
  ASSERT_TRUE(spark_->conf().set("spark.sql.shuffle.partitions", "1").ok());
  ASSERT_TRUE(spark_->conf().set("spark.sql.streaming.stateStore.providerClass", GetParam()).ok());
  auto input = Input();
  std::vector<std::tuple<std::string, std::string, int>> rows;
  std::map<std::string, std::pair<size_t, size_t>> sides;  // rows per key: left, right
  for (int i = 0; i < 2000; ++i) {
    const std::string key = "k" + std::to_string(i % 300);
    rows.emplace_back("L", key, 10 + i % 3);
    ++sides[key].first;
    if (i % 5 == 0) {
      rows.emplace_back("R", key, 11 + i % 3);
      ++sides[key].second;
    }
  }
  // Every pair of a key meets (their times are within 5 s); a left row alone is padded.
  size_t expected = 0;
  for (const auto& [key, counts] : sides) {
    expected += counts.second == 0 ? counts.first : counts.first * counts.second;
  }
  // The second batch moves the watermark to 70 s, which the third evicts by: only its rows
  // and z's stay, the left rows without a match padded.
  TestStream(TimeRangeJoin(input, "full_outer"),
             {Rows(input, rows), ProcessOrDie(), Rows(input, {{"L", "z", 80}}), ProcessOrDie(),
              Rows(input, {{"R", "y", 81}}), ProcessOrDie(), AssertStateRowsAtMost(2)});
  EXPECT_EQ(SinkRows().size(), expected);
}

INSTANTIATE_TEST_SUITE_P(Providers, StreamingJoinOnePartitionTest,
                         ::testing::Values(std::string(state::kHdfsBackedProviderClass),
                                           std::string(state::kRocksDbProviderClass)));

TEST_F(StreamingJoinTest, OuterJoinStateStaysBoundedByTheWatermark) {
  auto input = Input();
  std::vector<StreamAction> actions;
  for (int step = 0; step < 40; ++step) {
    const int t = 100 + 20 * step;
    const std::string n = std::to_string(step);
    actions.push_back(Rows(input, {{"L", "m" + n, t}, {"R", "m" + n, t + 1},
                                   {"L", "u" + n, t + 2}, {"R", "v" + n, t + 3}}));
    actions.push_back(ProcessOrDie());
    // Rows leave 15 s after the watermark passes them: at most two steps' rows are kept.
    actions.push_back(AssertStateRowsAtMost(8));
  }
  TestStream(TimeRangeJoin(input, "full_outer"), actions);
  // Every unmatched row came out padded, every matched one joined.
  EXPECT_EQ(SinkRows().size(), 40u * 3 - 2);  // the last step's u and v are still kept
}

TEST_F(StreamingJoinTest, KeepsItsStateInSparksFourStores) {
  auto input = Input();
  TestStream(TimeRangeJoin(input, "inner"),
             {Rows(input, {{"L", "a", 10}, {"R", "a", 13}}), CheckNewAnswer({"[\"a\",10,\"a\",13]"})});
  namespace fs = std::filesystem;
  const fs::path operator_folder = fs::path(checkpoint_) / "state" / "0";
  std::ifstream metadata(operator_folder / "_metadata" / "metadata");
  std::stringstream text;
  text << metadata.rdbuf();
  EXPECT_NE(text.str().find("\"operatorName\":\"symmetricHashJoin\""), std::string::npos);
  for (const char* store : {"left-keyToNumValues", "left-keyWithIndexToValue",
                            "right-keyToNumValues", "right-keyWithIndexToValue"}) {
    EXPECT_NE(text.str().find(std::string("\"storeName\":\"") + store + "\""), std::string::npos)
        << text.str();
    EXPECT_TRUE(fs::exists(operator_folder / "0" / store / "_metadata" / "schema")) << store;
    for (int partition = 0; partition < 3; ++partition) {
      EXPECT_TRUE(fs::exists(operator_folder / std::to_string(partition) / store / "1.delta"))
          << store << " partition " << partition;
    }
  }
}

TEST_F(StreamingJoinTest, StateKeepsOnlyTheColumnsReadAboveOrByTheJoin) {
  // Each side carries a payload nothing reads (as Spark prunes it away below the join): its
  // state keeps it as null, while the key, the event time and what is selected stay.
  auto input = Input();
  auto df = spark_->readStream().load(input);
  auto side = [&](const std::string& p, const std::string& name) {
    return Side(df, name).withColumn(p + "payload", F::expr("repeat(" + p + "k, 100)"));
  };
  auto joined = side("l", "L").join(side("r", "R"), F::expr("lk = rk"), "inner")
                    .select({F::col("lk"), F::col("lpayload")});
  TestStream(joined, {Rows(input, {{"L", "a", 10}, {"R", "b", 11}}), CheckNewAnswer({})});
  auto state = [&](const std::string& join_side) {
    DataFrameReader reader = spark_->read();
    reader.format("statestore").option("joinSide", join_side);
    auto table = reader.load(checkpoint_).select({F::col("value")}).collect();
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    return table.ok() ? RowsOf(**table) : std::vector<std::string>{};
  };
  EXPECT_EQ(state("left"),
            std::vector<std::string>{"[[\"a\", \"1970-01-01T00:00:10.000000Z\", \"" +
                                     std::string(100, 'a') + "\"]]"});
  EXPECT_EQ(state("right"),
            std::vector<std::string>{"[[\"b\", \"1970-01-01T00:00:11.000000Z\", null]]"});
}

// State whose bytes do not hold the event time where the query places it (a damaged or
// foreign checkpoint) fails the eviction, naming the store, rather than keeping or dropping
// rows at random.
class DamagedJoinStateTest : public StreamingJoinTest {
 protected:
  /// Rewrites the first delta file of `store`: `rewrite` sees each put, in order, and writes
  /// what stays through the writer.
  using DeltaRewrite = std::function<void(std::string_view key, std::string_view value,
                                          state::StateFileWriter& writer)>;
  StreamAction RewriteFirstDelta(const std::string& store, DeltaRewrite rewrite) {
    return AssertOnQuery("rewrite " + store, [=, this](StreamingQuery&) {
      const std::string path = checkpoint_ + "/state/0/0/" + store + "/1.delta";
      auto contents = checkpoint::ReadWholeFile(path);
      ASSERT_TRUE(contents.ok()) << contents.status().ToString();
      state::StateFileWriter writer(state::StateFileKind::kDelta, 1);
      ASSERT_TRUE(state::ReadStateFile(*contents, path, store, state::StateFileKind::kDelta, 1,
                                       [&](std::string_view key,
                                           std::optional<std::string_view> value) {
                                         ASSERT_TRUE(value.has_value());
                                         rewrite(key, *value, writer);
                                       })
                      .ok());
      std::ofstream(path, std::ios::binary | std::ios::trunc) << writer.Finish();
    });
  }

  /// Runs a batch, damages the first delta of `store` (each record keeps only the first byte
  /// of its key when `damage_keys`, else of its value), restarts and moves the watermark.
  void ExpectEvictionFails(const DataFrame& joined,
                           const std::shared_ptr<sources::MemoryStream>& input,
                           const std::string& store, bool damage_keys) {
    auto damage = RewriteFirstDelta(
        store, [=](std::string_view key, std::string_view value, state::StateFileWriter& writer) {
          if (damage_keys) {
            writer.Put(key.substr(0, 1), value);
          } else {
            writer.Put(key, value.substr(0, 1));
          }
        });
    auto fails = AssertOnQuery("eviction fails", [=](StreamingQuery& query) {
      arrow::Status status = query.processAllAvailable();
      ASSERT_FALSE(status.ok());
      EXPECT_NE(status.message().find(store), std::string::npos) << status.ToString();
      EXPECT_NE(status.message().find("event time"), std::string::npos) << status.ToString();
    });
    TestStream(joined, {Rows(input, {{"L", "a", 10}}), CheckNewAnswer({}), StopStream(), damage,
                        StartStream(), Rows(input, {{"L", "b", 60}}), fails});
  }

  void SetUp() override {
    StreamingJoinTest::SetUp();
    ASSERT_TRUE(spark_->conf().set("spark.sql.shuffle.partitions", "1").ok());
  }
};

TEST_F(DamagedJoinStateTest, AKeptRowWithoutItsTimeFailsTheEvictionByValue) {
  auto input = Input();
  ExpectEvictionFails(TimeRangeJoin(input, "inner"), input, "left-keyWithIndexToValue",
                      /*damage_keys=*/false);
}

TEST_F(DamagedJoinStateTest, AKeyWithoutItsWindowFailsTheEvictionByKey) {
  auto input = Input();
  auto df = spark_->readStream().load(input);
  auto windowed = [&](const std::string& side, const std::string& p) {
    return Side(df, side).select(
        {F::col(p + "k"), F::window(F::col(p + "ts"), "10 seconds").alias(p + "w")});
  };
  ExpectEvictionFails(windowed("L", "l").join(windowed("R", "r"), F::expr("lk = rk AND lw = rw")),
                      input, "left-keyToNumValues", /*damage_keys=*/true);
}

// A key whose count promises more rows than its store holds fails the eviction when a
// missing row would move into a hole, rather than filling the hole with nothing.
TEST_F(DamagedJoinStateTest, ARowMissingBehindItsCountFailsTheEvictionByValue) {
  auto input = Input();
  const std::string store = "left-keyWithIndexToValue";
  auto dropped = std::make_shared<int>(0);
  auto drop_second_row = RewriteFirstDelta(
      store, [dropped](std::string_view key, std::string_view value,
                       state::StateFileWriter& writer) {
        int64_t index = 0;  // the index ends the key, a little-endian bigint
        std::memcpy(&index, key.data() + key.size() - 8, 8);
        if (index == 1) {
          ++*dropped;
        } else {
          writer.Put(key, value);
        }
      });
  auto dropped_one = AssertOnQuery("one row dropped", [dropped](StreamingQuery&) {
    ASSERT_EQ(*dropped, 1);
  });
  auto fails = AssertOnQuery("eviction fails", [=](StreamingQuery& query) {
    arrow::Status status = query.processAllAvailable();
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.message().find(store), std::string::npos) << status.ToString();
    EXPECT_NE(status.message().find("lacks a row its counts promise"), std::string::npos)
        << status.ToString();
  });
  TestStream(TimeRangeJoin(input, "inner"),
             {Rows(input, {{"L", "a", 10}, {"L", "a", 12}}), CheckNewAnswer({}), StopStream(),
              drop_second_row, dropped_one, StartStream(), Rows(input, {{"L", "b", 60}}), fails});
}

// A key whose count is below an index its store holds a row at fails the eviction by value,
// naming the store, rather than walking past the count.
TEST_F(DamagedJoinStateTest, ARowBeyondItsKeysCountFailsTheEvictionByValue) {
  auto input = Input();
  const std::string store = "left-keyToNumValues";
  // One put per row appended: a's count 1, then 2. Only the first is written back.
  auto puts = std::make_shared<int>(0);
  auto drop_last_count = RewriteFirstDelta(
      store, [puts](std::string_view key, std::string_view value, state::StateFileWriter& writer) {
        if (++*puts == 1) writer.Put(key, value);
      });
  auto two_puts = AssertOnQuery("two puts seen", [puts](StreamingQuery&) {
    ASSERT_EQ(*puts, 2);
  });
  auto fails = AssertOnQuery("eviction fails", [](StreamingQuery& query) {
    arrow::Status status = query.processAllAvailable();
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.message().find("left-keyWithIndexToValue"), std::string::npos)
        << status.ToString();
    EXPECT_NE(status.message().find("keeps a row at index 1 of a key whose count is 1"),
              std::string::npos)
        << status.ToString();
  });
  TestStream(TimeRangeJoin(input, "inner"),
             {Rows(input, {{"L", "a", 10}, {"L", "a", 12}}), CheckNewAnswer({}), StopStream(),
              drop_last_count, two_puts, StartStream(), Rows(input, {{"L", "b", 60}}), fails});
}

TEST_F(StreamingJoinTest, RestartWithAnotherJoinTypeIsRefusedByTheStateSchema) {
  auto input = Input();
  TestStream(TimeRangeJoin(input, "inner"),
             {Rows(input, {{"L", "a", 10}, {"R", "a", 13}}), CheckNewAnswer({"[\"a\",10,\"a\",13]"})});
  auto df = spark_->readStream().load(input);
  auto other_key = Side(df, "L").join(Side(df, "R"), F::expr("lts = rts"), "inner");
  auto query = other_key.writeStream()
                   .format("memory")
                   .queryName("other_key")
                   .option("checkpointLocation", checkpoint_)
                   .start();
  ASSERT_FALSE(query.ok());
  EXPECT_TRUE(HasErrorClass(query.status(), "STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE"))
      << query.status().ToString();
}

TEST_F(StreamingJoinTest, AStaticDeltaTableIsReadAtItsLatestVersionEachBatch) {
  const std::string names = scratch_dir_ / "names";
  auto write_name = [&](const std::string& key, const std::string& name) {
    return spark_->sql("SELECT '" + key + "' AS sk, '" + name + "' AS name")
        .write()
        .format("delta")
        .mode("append")
        .save(names);
  };
  ASSERT_TRUE(write_name("a", "alpha").ok());
  auto input = MemoryStream("k STRING");
  DataFrameReader reader = spark_->read();
  reader.format("delta");
  auto joined = spark_->readStream()
                    .load(input)
                    .join(reader.load(names), F::col("k") == F::col("sk"))
                    .select({F::col("k"), F::col("name")});
  TestStream(joined,
             {AddData(input, {"[\"a\", \"b\"]"}), CheckNewAnswer({"[\"a\",\"alpha\"]"}),
              AssertOnQuery("the table moves",
                            [&](StreamingQuery&) { ASSERT_TRUE(write_name("b", "beta").ok()); }),
              AddData(input, {"[\"b\"]"}), CheckNewAnswer({"[\"b\",\"beta\"]"})});
}

TEST_F(StreamingJoinTest, AJoinWithoutAnEqualityIsRefused) {
  auto input = Input();
  auto df = spark_->readStream().load(input);
  auto joined = Side(df, "L").join(Side(df, "R"), F::expr("rts BETWEEN lts AND lts + INTERVAL 5 SECONDS"));
  auto query = joined.writeStream().format("memory").queryName("no_key").start();
  ASSERT_FALSE(query.ok());
  EXPECT_TRUE(HasErrorClass(query.status(), "UNSUPPORTED_FEATURE.STREAM_STREAM_JOIN_WITHOUT_EQUALITY"))
      << query.status().ToString();
}

}  // namespace
}  // namespace sluice::testing
