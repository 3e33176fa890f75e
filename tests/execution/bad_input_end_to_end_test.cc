// Bad input and damaged checkpoints, end to end through readStream ... writeStream: malformed
// JSON records in each parse mode, a corrupt log file, an input file that vanishes before its
// batch reads it, and a query whose number of sources changed. The expected rows and outcomes
// come from Spark 4.0.1 runs (local[1]) on the same inputs; each test says which.
#include <iostream>
#include <map>
#include <mutex>

#include <gtest/gtest.h>

#include "execution/file_stream_end_to_end_support.h"
#include "sluice/api/data_stream_reader.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/functions.h"

namespace sluice::testing {
namespace {

using execution::CrashPoint;

constexpr int64_t kFirstMtimeMs = 1'700'000'000'000;

/// A clean record, a syntax error, a value of the wrong type, and a record missing a field.
const std::vector<std::string> kMalformedLines = {
    R"({"a":1,"b":"x"})", R"({"a":oops})", R"({"a":"text","b":"y"})", R"({"a":4})"};

class BadInputEndToEndTest : public EndToEndTest {
 protected:
  /// A JSON stream of `ddl` over in/ read in `mode`, written by availableNow to out/ as
  /// Parquet; how the run ended.
  arrow::Status RunJson(const std::string& ddl, const std::string& mode) {
    return Finish(spark_->readStream()
                      .format("json")
                      .schema(ddl)
                      .option("mode", mode)
                      .load(Path("in"))
                      .writeStream()
                      .format("parquet")
                      .option("checkpointLocation", Path("ckpt"))
                      .trigger(Trigger::AvailableNow())
                      .start(Path("out")));
  }

  /// The Parquet files in in/ read as a stream of `ddl` with `columns` selected, written by
  /// availableNow to `out` as Parquet; how the run ended.
  arrow::Status RunParquet(const std::string& ddl, const std::vector<std::string>& columns,
                           const std::string& out) {
    std::vector<Column> selected;
    for (const auto& name : columns) selected.push_back(functions::col(name));
    return Finish(spark_->readStream()
                      .schema(ddl)
                      .parquet(Path("in"))
                      .select(selected)
                      .writeStream()
                      .format("parquet")
                      .option("checkpointLocation", Path(out + "-ckpt"))
                      .trigger(Trigger::AvailableNow())
                      .start(Path(out)));
  }

  std::vector<std::string> Output() { return CollectRows(spark_->read().parquet(Path("out"))); }

  /// Lands in/<id>.json holding {"id": id}, each newer than the one before.
  void LandRow(int id) {
    LandJson("in/" + std::to_string(id) + ".json", {"{\"id\":" + std::to_string(id) + "}"},
             kFirstMtimeMs + id * 1000);
  }

  /// One file per batch of rows {"id": ...} from in/ into out/ as Parquet, under availableNow.
  arrow::Result<std::shared_ptr<StreamingQuery>> StartIds(execution::CrashHook hook = nullptr) {
    return spark_->readStream()
        .format("json")
        .schema("id INT")
        .option("maxFilesPerTrigger", "1")
        .load(Path("in"))
        .writeStream()
        .format("parquet")
        .option("checkpointLocation", Path("ckpt"))
        .trigger(Trigger::AvailableNow())
        .crashHook(std::move(hook))
        .start(Path("out"));
  }
};

// Spark: a Parquet file of (id INT, junk STRING) read by a stream declared "id INT, junk INT"
// gave ids 1 and 2 when only id was selected (the Parquet reader never touches a column the
// query does not read) and failed when junk was selected too.
TEST_F(BadInputEndToEndTest, ParquetColumnsTheQueryDoesNotReadAreNeverDecoded) {
  ASSERT_TRUE(Frame("id INT, junk STRING", {"[1, 2]", "[\"x\", \"y\"]"})
                  .write()
                  .parquet(Path("in"))
                  .ok());
  auto run = [&](const std::vector<std::string>& columns, const std::string& out) {
    return RunParquet("id INT, junk INT", columns, out);
  };
  ASSERT_TRUE(run({"id"}, "ids").ok());
  EXPECT_EQ(CollectRows(spark_->read().parquet(Path("ids"))),
            (std::vector<std::string>{"[1]", "[2]"}));
  const auto both = run({"id", "junk"}, "both");
  ASSERT_FALSE(both.ok());
  EXPECT_NE(both.message().find("PARQUET_COLUMN_DATA_TYPE_MISMATCH"), std::string::npos)
      << both.ToString();
}

// Spark: the same with a struct, a file of (id INT, s STRUCT<a INT, junk STRING>) read as
// "id INT, s STRUCT<a: INT, junk: INT>": selecting id and s.a gave (1, 10) and (2, 20) (nested
// schema pruning reads s.a alone); selecting s failed.
TEST_F(BadInputEndToEndTest, ParquetStructFieldsTheQueryDoesNotReadAreNeverDecoded) {
  ASSERT_TRUE(Frame("id INT, a INT, junk STRING", {"[1, 2]", "[10, 20]", "[\"x\", \"y\"]"})
                  .selectExpr({"id", "named_struct('a', a, 'junk', junk) AS s"})
                  .write()
                  .parquet(Path("in"))
                  .ok());
  auto run = [&](const std::vector<std::string>& columns, const std::string& out) {
    return RunParquet("id INT, s STRUCT<a: INT, junk: INT>", columns, out);
  };
  ASSERT_TRUE(run({"id", "s.a"}, "fields").ok());
  EXPECT_EQ(CollectRows(spark_->read().parquet(Path("fields"))),
            (std::vector<std::string>{"[1,10]", "[2,20]"}));
  const auto whole = run({"s"}, "whole");
  ASSERT_FALSE(whole.ok());
  EXPECT_NE(whole.message().find("PARQUET_COLUMN_DATA_TYPE_MISMATCH"), std::string::npos)
      << whole.ToString();
}

// Spark: the four lines above in PERMISSIVE mode with a _corrupt_record column gave
// (null, null, '{"a":oops}'), (null, 'y', '{"a":"text","b":"y"}'), (1, 'x', null),
// (4, null, null): a syntax error keeps nothing but the text, a type error keeps the fields
// that parsed.
TEST_F(BadInputEndToEndTest, PermissiveKeepsMalformedRecordsInTheCorruptColumn) {
  LandJson("in/f1.json", kMalformedLines, kFirstMtimeMs);
  auto ended = RunJson("a INT, b STRING, _corrupt_record STRING", "PERMISSIVE");
  ASSERT_TRUE(ended.ok()) << ended.ToString();
  EXPECT_EQ(Output(), SortedRows({R"([null,null,"{"a":oops}"])",
                                  R"([null,"y","{"a":"text","b":"y"}"])", R"([1,"x",null])",
                                  "[4,null,null]"}));
}

// Spark: DROPMALFORMED over the same lines gave (1, 'x'), (4, null).
TEST_F(BadInputEndToEndTest, DropMalformedDropsMalformedRecords) {
  LandJson("in/f1.json", kMalformedLines, kFirstMtimeMs);
  auto ended = RunJson("a INT, b STRING", "DROPMALFORMED");
  ASSERT_TRUE(ended.ok()) << ended.ToString();
  EXPECT_EQ(Output(), SortedRows({R"([1,"x"])", "[4,null]"}));
}

// Spark: FAILFAST over the same lines failed the query with STREAM_FAILED whose cause is
// FAILED_READ_FILE.NO_HINT naming file:///.../in/f1.json, caused by
// MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION; the checkpoint then held offsets/0 and no
// commit, the sink manifest no batch. With f1.json rewritten in place as
// {"a":1,"b":"x"} and {"a":2}, the restart ran batch 0 again and wrote (1, 'x'), (2, null),
// leaving offsets/0 and commits/0.
TEST_F(BadInputEndToEndTest, FailFastStopsTheQueryAndARestartAfterTheFixSucceeds) {
  LandJson("in/f1.json", kMalformedLines, kFirstMtimeMs);
  auto failed = RunJson("a INT, b STRING", "FAILFAST");
  ASSERT_TRUE(HasErrorClass(failed, "STREAM_FAILED")) << failed.ToString();
  EXPECT_NE(failed.message().find("MALFORMED_RECORD_IN_PARSING"), std::string::npos)
      << failed.ToString();
  EXPECT_NE(failed.message().find(Path("in/f1.json")), std::string::npos) << failed.ToString();
  EXPECT_EQ(LoggedBatchIds(Path("ckpt/offsets")), BatchIdsUpTo(0));
  EXPECT_TRUE(LoggedBatchIds(Path("ckpt/commits")).empty());
  EXPECT_TRUE(LoggedBatchIds(Path("out/_spark_metadata")).empty());
  std::string offsets = ReadWhole(Path("ckpt/offsets/0"));

  LandJson("in/f1.json", {R"({"a":1,"b":"x"})", R"({"a":2})"}, kFirstMtimeMs + 1000);
  auto fixed = RunJson("a INT, b STRING", "FAILFAST");
  ASSERT_TRUE(fixed.ok()) << fixed.ToString();
  EXPECT_EQ(Output(), SortedRows({R"([1,"x"])", "[2,null]"}));
  EXPECT_EQ(ReadWhole(Path("ckpt/offsets/0")), offsets);
  EXPECT_EQ(LoggedBatchIds(Path("ckpt/offsets")), BatchIdsUpTo(0));
  EXPECT_EQ(LoggedBatchIds(Path("ckpt/commits")), BatchIdsUpTo(0));
}

/// A log file of the checkpoint that is damaged between two runs.
struct DamagedLog {
  const char* name;
  /// Relative to the checkpoint.
  const char* path;
};

void PrintTo(const DamagedLog& log, std::ostream* out) { *out << log.path; }

class DamagedLogTest : public BadInputEndToEndTest,
                       public ::testing::WithParamInterface<DamagedLog> {};

// Spark fails such a restart too (STREAM_FAILED with Jackson's "Unexpected character" and no
// file name); here the error must name the damaged file, and once the file is restored the
// query resumes where it was, reading every row once.
TEST_P(DamagedLogTest, TheErrorNamesTheFileAndARestartAfterTheRepairResumes) {
  LandRow(1);
  LandRow(2);
  auto first = Finish(StartIds());
  ASSERT_TRUE(first.ok()) << first.ToString();
  std::string damaged = Path(std::string("ckpt/") + GetParam().path);
  std::string original = ReadWhole(damaged);
  ASSERT_FALSE(original.empty()) << damaged;
  LandFile(damaged, "v1\n{not json", kFirstMtimeMs);
  LandRow(3);

  auto refused = Finish(StartIds());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find(damaged), std::string::npos) << refused.ToString();
  EXPECT_NE(refused.message().find("MALFORMED_LOG_FILE"), std::string::npos)
      << refused.ToString();
  EXPECT_EQ(LoggedBatchIds(Path("ckpt/offsets")), BatchIdsUpTo(1));

  LandFile(damaged, original, kFirstMtimeMs);
  auto resumed = Finish(StartIds());
  ASSERT_TRUE(resumed.ok()) << resumed.ToString();
  EXPECT_EQ(Output(), SortedRows({"[1]", "[2]", "[3]"}));
  EXPECT_EQ(LoggedBatchIds(Path("ckpt/commits")), BatchIdsUpTo(2));
  EXPECT_EQ(LoggedBatchIds(Path("out/_spark_metadata")), BatchIdsUpTo(2));
}

INSTANTIATE_TEST_SUITE_P(CommitAndSourceLogs, DamagedLogTest,
                         ::testing::Values(DamagedLog{"commit", "commits/1"},
                                           DamagedLog{"source_log", "sources/0/1"}),
                         [](const ::testing::TestParamInfo<DamagedLog>& info) {
                           return std::string(info.param.name);
                         });

// Spark: files a and b read one per batch into foreachBatch, then commits/1 removed and b
// deleted, and the query restarted: batch 1 ran again over no rows ({0: [[1]], 1: [[2], []]}),
// commits/1 was written, and HadoopFSUtils warned "The directory file:/.../b.json was not
// found. Was it deleted very recently?". The query here dies right after logging batch 1, b
// is deleted, and the restart runs batch 1 over no rows.
TEST_F(BadInputEndToEndTest, AFileVanishedBeforeItsBatchRanIsSkipped) {
  LandRow(1);
  LandRow(2);
  std::mutex mutex;
  std::map<int64_t, std::vector<std::string>> rows_by_batch;
  auto start = [&](execution::CrashHook hook) {
    return spark_->readStream()
        .format("json")
        .schema("id INT")
        .option("maxFilesPerTrigger", "1")
        .load(Path("in"))
        .writeStream()
        .foreachBatch([&](const DataFrame& batch, int64_t id) -> arrow::Status {
          ARROW_ASSIGN_OR_RAISE(auto table, batch.collect());
          std::lock_guard<std::mutex> lock(mutex);
          rows_by_batch[id] = SortedRows(RowsOf(*table));
          return arrow::Status::OK();
        })
        .option("checkpointLocation", Path("ckpt"))
        .trigger(Trigger::AvailableNow())
        .crashHook(std::move(hook))
        .start();
  };
  auto killed = Finish(start(KillOnceAt(CrashPoint::kAfterOffsetsWrite, 1)));
  ASSERT_TRUE(killed.IsCancelled()) << killed.ToString();
  ASSERT_TRUE(std::filesystem::remove(Path("in/2.json")));
  auto resumed = Finish(start(nullptr));
  ASSERT_TRUE(resumed.ok()) << resumed.ToString();
  std::map<int64_t, std::vector<std::string>> expected{{0, {"[1]"}}, {1, {}}};
  EXPECT_EQ(rows_by_batch, expected);
  EXPECT_EQ(LoggedBatchIds(Path("ckpt/commits")), BatchIdsUpTo(1));
}

// The same while the query runs: the file is gone after batch 1 was planned (offsets/1
// names it) and before the batch reads it. The batch reads nothing of it, the query goes on,
// and the warning is Spark's.
TEST_F(BadInputEndToEndTest, AFileVanishedBetweenListingAndReadingIsSkipped) {
  for (int id = 1; id <= 3; ++id) LandRow(id);
  arrow::Status ended;
  std::string warnings;
  {
    CapturedOutput capture(std::cerr);
    ended = Finish(StartIds([this](CrashPoint point, int64_t batch) {
      if (point == CrashPoint::kBeforeAddBatch && batch == 1) {
        std::filesystem::remove(Path("in/2.json"));
      }
      return false;
    }));
    warnings = capture.text();
  }
  ASSERT_TRUE(ended.ok()) << ended.ToString();
  EXPECT_NE(warnings.find("The directory file:" + Path("in/2.json") +
                          " was not found. Was it deleted very recently?"),
            std::string::npos)
      << warnings;
  EXPECT_FALSE(std::filesystem::exists(Path("in/2.json")));
  EXPECT_EQ(Output(), SortedRows({"[1]", "[3]"}));
  EXPECT_EQ(LoggedBatchIds(Path("ckpt/commits")), BatchIdsUpTo(2));
}

// Spark: a checkpoint of a union of two file streams restarted with one of them (and one
// restarted with two) failed with "assertion failed: There are [2] sources in the checkpoint
// offsets and now there are [1] sources requested by the query. Cannot continue." (and
// [1] ... [2]).
TEST_F(BadInputEndToEndTest, ChangingTheNumberOfSourcesIsRefused) {
  LandJson("one/a.json", {R"({"id":1})"}, kFirstMtimeMs);
  LandJson("two/a.json", {R"({"id":2})"}, kFirstMtimeMs);
  auto stream = [&](const std::string& folder) {
    return spark_->readStream().format("json").schema("id INT").load(Path(folder));
  };
  auto start = [&](const DataFrame& df, const std::string& name) {
    return Finish(df.writeStream()
                      .format("parquet")
                      .option("checkpointLocation", Path("ckpt/" + name))
                      .trigger(Trigger::AvailableNow())
                      .start(Path("out/" + name)));
  };
  auto both = stream("one").union_(stream("two"));
  ASSERT_TRUE(start(both, "fewer").ok());
  ASSERT_TRUE(start(stream("one"), "more").ok());
  LandJson("one/b.json", {R"({"id":3})"}, kFirstMtimeMs + 1000);

  auto fewer = start(stream("one"), "fewer");
  EXPECT_NE(fewer.message().find("There are [2] sources in the checkpoint offsets and now "
                                 "there are [1] sources requested by the query. Cannot "
                                 "continue."),
            std::string::npos)
      << fewer.ToString();
  auto more = start(both, "more");
  EXPECT_NE(more.message().find("There are [1] sources in the checkpoint offsets and now "
                                "there are [2] sources requested by the query. Cannot "
                                "continue."),
            std::string::npos)
      << more.ToString();
  // Neither ran a batch.
  for (const char* name : {"fewer", "more"}) {
    EXPECT_EQ(LoggedBatchIds(Path(std::string("ckpt/") + name + "/offsets")), BatchIdsUpTo(0))
        << name;
  }
  EXPECT_EQ(CollectRows(spark_->read().parquet(Path("out/fewer"))), SortedRows({"[1]", "[2]"}));
  EXPECT_EQ(CollectRows(spark_->read().parquet(Path("out/more"))), SortedRows({"[1]"}));
}

}  // namespace
}  // namespace sluice::testing
