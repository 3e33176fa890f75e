// DeltaTable: MERGE (upserts, conditional updates, deletes, inserts), history and vacuum, and
// the seeds' foreachBatch upserts. Tables are read back with delta-rs; which files a MERGE
// rewrote is read from its commit.
#include <algorithm>
#include <filesystem>
#include <set>
#include <thread>

#include <arrow/table.h>
#include <gtest/gtest.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/data_stream_writer.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/delta_table.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/api/session.h"
#include "sluice/delta/delta_log.h"
#include "sluice/delta/delta_write.h"
#include "support/delta_rs.h"
#include "support/stream_test.h"

namespace sluice::testing {
namespace {

namespace F = functions;
namespace fs = std::filesystem;

class DeltaMergeTest : public StreamTest {
 protected:
  /// The rows delta-rs reads from the table (sorted), failing the test if it cannot.
  std::vector<std::string> DeltaRsRows() {
    auto table = DeltaRsRead(table_);
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    return table.ok() ? table->rows : std::vector<std::string>{};
  }
  /// Appends `rows` (one file per call) to the table of (id BIGINT, value BIGINT).
  void Append(const std::string& ids, const std::string& values) {
    auto status = Frame("id BIGINT, value BIGINT", {ids, values})
                      .write()
                      .format("delta")
                      .mode("append")
                      .save(table_);
    ASSERT_TRUE(status.ok()) << status.ToString();
  }
  /// The paths of the files the table lists at its latest version, in order of addition.
  std::vector<std::string> Files() {
    auto snapshot = delta::DeltaLog(table_).Load();
    EXPECT_TRUE(snapshot.ok());
    std::vector<std::string> paths;
    for (const auto& file : snapshot->files) paths.push_back(file.path);
    return paths;
  }
  /// The paths commit `version` removed, and how many files it added.
  std::pair<std::set<std::string>, int> Commit(int64_t version) {
    auto actions = delta::DeltaLog(table_).ReadCommit(version);
    EXPECT_TRUE(actions.ok());
    std::set<std::string> removed;
    int added = 0;
    for (const auto& action : *actions) {
      if (const auto* remove = std::get_if<delta::RemoveFile>(&action)) {
        removed.insert(remove->path);
      }
      if (std::holds_alternative<delta::AddFile>(action)) ++added;
    }
    return {removed, added};
  }
  int64_t LatestVersion() { return delta::DeltaLog(table_).LatestVersion().ValueOrDie().value(); }
  DeltaTable Target() {
    auto table = DeltaTable::forPath(*spark_, table_);
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    return table->alias("t");
  }
  /// The single row of execute()'s metrics.
  std::vector<std::string> Run(const DeltaMergeBuilder& merge) {
    auto result = merge.execute();
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    if (!result.ok()) return {};
    return RowsOf(*result->collect().ValueOrDie());
  }

  std::string table_ = scratch_dir_ / "table";
};

TEST_F(DeltaMergeTest, UpsertRewritesOnlyTheFilesHoldingMatchedRows) {
  Append("[1, 10]", "[100, 1000]");  // statistics [1, 10]
  Append("[2, 9]", "[200, 900]");    // statistics [2, 9]: holds no key of the source
  Append("[20, 30]", "[2000, 3000]");
  const auto files = Files();
  ASSERT_EQ(files.size(), 3u);
  auto source = Frame("id BIGINT, value BIGINT", {"[10, 5, 40]", "[1001, 501, 4001]"});
  auto metrics = Run(Target()
                         .merge(source.alias("s"), "t.id = s.id")
                         .whenMatchedUpdateAll()
                         .whenNotMatchedInsertAll());
  EXPECT_EQ(metrics, (std::vector<std::string>{"[3,1,0,2]"}));
  EXPECT_EQ(DeltaRsRows(),
            (std::vector<std::string>{"[1,100]", "[10,1001]", "[2,200]", "[20,2000]",
                                      "[30,3000]", "[40,4001]", "[5,501]", "[9,900]"}));
  auto [removed, added] = Commit(LatestVersion());
  EXPECT_EQ(removed, (std::set<std::string>{files[0]}));
  EXPECT_EQ(added, 2) << "the rewritten file's rows and the inserts";
  auto history = Target().history(1).selectExpr(
      {"operation", "operationMetrics['numTargetRowsUpdated']",
       "operationMetrics['numTargetRowsInserted']", "operationMetrics['numTargetRowsCopied']",
       "operationMetrics['numTargetFilesRemoved']", "operationMetrics['numTargetFilesAdded']",
       "operationParameters['predicate']", "isolationLevel", "isBlindAppend"});
  auto rows = history.collect();
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(RowsOf(**rows), (std::vector<std::string>{
                                R"x(["MERGE","1","2","1","1","2","["(t.id = s.id)"]",)x"
                                R"("WriteSerializable",false])"}));
}

TEST_F(DeltaMergeTest, ConditionalUpdateAndDeleteTakeTheFirstClauseThatHolds) {
  Append("[1, 2, 3, 4]", "[10, 20, 30, 40]");
  auto source = Frame("id BIGINT, value BIGINT, gone BOOLEAN",
                      {"[1, 2, 3, 4, 9]", "[15, 5, 1, 50, 1]",
                       "[false, false, true, true, false]"});
  auto metrics = Run(Target()
                         .merge(source.alias("s"), "t.id = s.id")
                         .whenMatchedUpdate({{"value", "s.value"}}, "s.value > t.value")
                         .whenMatchedDelete("s.gone"));
  // 1: updated; 2: neither clause holds, kept; 3: deleted; 4: the update comes first;
  // 9: no match and no insert clause.
  EXPECT_EQ(metrics, (std::vector<std::string>{"[3,2,1,0]"}));
  EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{"[1,15]", "[2,20]", "[4,50]"}));
}

TEST_F(DeltaMergeTest, UpdateWithExpressionsAndColumns) {
  Append("[1, 2]", "[10, 20]");
  auto source = Frame("key BIGINT, delta INT", {"[2]", "[5]"});
  Run(Target()
          .merge(source.alias("s"), F::col("t.id") == F::col("s.key"))
          .whenMatchedUpdate({{"t.value", F::col("t.value") + F::col("s.delta") * 2}}));
  EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{"[1,10]", "[2,30]"}));
}

TEST_F(DeltaMergeTest, DeleteOnlyMergeAllowsManySourceRowsPerTargetRow) {
  Append("[1, 2, 3]", "[10, 20, 30]");
  Append("[4]", "[40]");
  const auto files = Files();
  auto source = Frame("id BIGINT", {"[2, 2, 7]"});
  auto metrics =
      Run(Target().merge(source.alias("s"), "t.id = s.id").whenMatchedDelete());
  EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{"[1,10]", "[3,30]", "[4,40]"}));
  EXPECT_EQ(Commit(LatestVersion()).first, (std::set<std::string>{files[0]}));
}

TEST_F(DeltaMergeTest, InsertOnlyMergeAddsFilesAndRemovesNone) {
  Append("[1, 2]", "[10, 20]");
  auto source = Frame("id BIGINT, value BIGINT", {"[2, 3, 4]", "[0, 3, -4]"});
  auto metrics = Run(Target()
                         .merge(source.alias("s"), "t.id = s.id")
                         .whenNotMatchedInsert({{"id", "s.id"}, {"value", "s.value * 10"}},
                                               "s.value > 0"));
  EXPECT_EQ(metrics, (std::vector<std::string>{"[1,0,0,1]"}));
  EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{"[1,10]", "[2,20]", "[3,30]"}));
  auto [removed, added] = Commit(LatestVersion());
  EXPECT_TRUE(removed.empty());
  EXPECT_EQ(added, 1);
}

TEST_F(DeltaMergeTest, InsertOnlyMergeAllowsManyMatchesPerRow) {
  Append("[1, 2, 2]", "[10, 20, 21]");
  auto source = Frame("id BIGINT, value BIGINT", {"[2, 2, 3]", "[0, 0, 30]"});
  auto metrics =
      Run(Target().merge(source.alias("s"), "t.id = s.id").whenNotMatchedInsertAll());
  EXPECT_EQ(metrics, (std::vector<std::string>{"[1,0,0,1]"}));
  EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{"[1,10]", "[2,20]", "[2,21]", "[3,30]"}));
}

TEST_F(DeltaMergeTest, MatchedRowsAnywhereInAFileChangeAndTheOthersAreCopied) {
  // One file of 20,000 rows, read in batches of 8,192: matches on the first and last rows of
  // batches, and between.
  auto status = spark_->range(0, 20000)
                    .selectExpr({"id", "id * 10 as value"})
                    .write()
                    .format("delta")
                    .mode("append")
                    .save(table_);
  ASSERT_TRUE(status.ok()) << status.ToString();
  ASSERT_EQ(Files().size(), 1u);
  const std::set<int64_t> matched = {0, 1, 8191, 8192, 12000, 16383, 16384, 19999};
  std::string ids;
  std::string values;
  for (int64_t id : {0, 1, 8191, 8192, 12000, 16383, 16384, 19999, 20000, 25000}) {
    ids += (ids.empty() ? "[" : ", ") + std::to_string(id);
    values += (values.empty() ? "[" : ", ") + std::to_string(-id);
  }
  auto source = Frame("id BIGINT, value BIGINT", {ids + "]", values + "]"});
  auto metrics = Run(Target()
                         .merge(source.alias("s"), "t.id = s.id")
                         .whenMatchedDelete("s.id = 12000")
                         .whenMatchedUpdateAll()
                         .whenNotMatchedInsertAll());
  EXPECT_EQ(metrics, (std::vector<std::string>{"[10,7,1,2]"}));
  std::vector<std::string> expected;
  for (int64_t id = 0; id < 20000; ++id) {
    if (id == 12000) continue;
    const int64_t value = matched.count(id) ? -id : id * 10;
    expected.push_back("[" + std::to_string(id) + "," + std::to_string(value) + "]");
  }
  expected.insert(expected.end(), {"[20000,-20000]", "[25000,-25000]"});
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(DeltaRsRows(), expected);
  auto copied = Target().history(1).selectExpr({"operationMetrics['numTargetRowsCopied']"});
  EXPECT_EQ(RowsOf(*copied.collect().ValueOrDie()), (std::vector<std::string>{R"(["19992"])"}));
}

TEST_F(DeltaMergeTest, AMergeThatChangesNothingCommitsNothing) {
  Append("[1]", "[10]");
  auto source = Frame("id BIGINT, value BIGINT", {"[5]", "[50]"});
  Run(Target().merge(source.alias("s"), "t.id = s.id").whenMatchedUpdateAll());
  EXPECT_EQ(LatestVersion(), 0);
}

TEST_F(DeltaMergeTest, TwoSourceRowsForOneTargetRowFailAndCommitNothing) {
  Append("[1, 2]", "[10, 20]");
  const auto before = std::distance(fs::recursive_directory_iterator(table_),
                                    fs::recursive_directory_iterator());
  auto source = Frame("id BIGINT, value BIGINT", {"[2, 2]", "[21, 22]"});
  auto result = Target()
                    .merge(source.alias("s"), "t.id = s.id")
                    .whenMatchedUpdateAll()
                    .whenNotMatchedInsertAll()
                    .execute();
  EXPECT_TRUE(HasErrorClass(result.status(),
                            "DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE"))
      << result.status().ToString();
  EXPECT_EQ(LatestVersion(), 0);
  EXPECT_EQ(std::distance(fs::recursive_directory_iterator(table_),
                          fs::recursive_directory_iterator()),
            before);
  EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{"[1,10]", "[2,20]"}));
}

// As in Delta 4.0, every source row the merge condition pairs with a target row counts, even
// one no matched clause applies to (checked against Delta: all three merges fail). Counting
// only the applying pairs once let the target row be written twice, updated and copied.
TEST_F(DeltaMergeTest, ASecondSourceRowNoClauseAppliesToIsStillAmbiguous) {
  Append("[1, 2]", "[10, 20]");
  auto source = Frame("id BIGINT, value BIGINT, apply BOOLEAN",
                      {"[1, 1]", "[100, 200]", "[true, false]"});
  auto none_apply = Frame("id BIGINT, value BIGINT, apply BOOLEAN",
                          {"[1, 1]", "[100, 200]", "[false, false]"});
  auto update = [&](const DataFrame& rows, bool insert) {
    auto merge = Target()
                     .merge(rows.alias("s"), "t.id = s.id")
                     .whenMatchedUpdate({{"value", "s.value"}}, "s.apply");
    if (insert) merge = merge.whenNotMatchedInsertAll();
    return merge.execute();
  };
  for (const auto& result :
       {update(source, false), update(source, true), update(none_apply, false)}) {
    EXPECT_TRUE(HasErrorClass(result.status(),
                              "DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE"))
        << result.status().ToString();
  }
  EXPECT_EQ(LatestVersion(), 0);
  EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{"[1,10]", "[2,20]"}));
}

TEST_F(DeltaMergeTest, EveryTouchedFileIsRewrittenApartInADeterministicOrder) {
  Append("[1, 2, 3]", "[10, 20, 30]");
  Append("[11, 12, 13]", "[110, 120, 130]");
  Append("[21, 22, 23]", "[210, 220, 230]");
  Append("[31]", "[310]");  // no key of the source
  const auto files = Files();
  auto source = Frame("id BIGINT, value BIGINT, gone BOOLEAN",
                      {"[2, 11, 12, 13, 23, 40]", "[-2, -11, -12, -13, -23, -40]",
                       "[false, true, true, true, false, false]"});
  auto metrics = Run(Target()
                         .merge(source.alias("s"), "t.id = s.id")
                         .whenMatchedDelete("s.gone")
                         .whenMatchedUpdateAll()
                         .whenNotMatchedInsertAll());
  EXPECT_EQ(metrics, (std::vector<std::string>{"[6,2,3,1]"}));
  EXPECT_EQ(DeltaRsRows(),
            (std::vector<std::string>{"[1,10]", "[2,-2]", "[21,210]", "[22,220]", "[23,-23]",
                                      "[3,30]", "[31,310]", "[40,-40]"}));
  auto actions = delta::DeltaLog(table_).ReadCommit(LatestVersion());
  ASSERT_TRUE(actions.ok());
  std::set<std::string> removed;
  std::vector<std::string> added_stats;
  for (const auto& action : *actions) {
    if (const auto* remove = std::get_if<delta::RemoveFile>(&action)) removed.insert(remove->path);
    if (const auto* add = std::get_if<delta::AddFile>(&action)) {
      added_stats.push_back(add->stats.value_or(""));
    }
  }
  EXPECT_EQ(removed, (std::set<std::string>{files[0], files[1], files[2]}));
  // The inserts, then the first file's rows and the third's (the second lost all its rows).
  ASSERT_EQ(added_stats.size(), 3u);
  EXPECT_NE(added_stats[0].find(R"("minValues":{"id":40,)"), std::string::npos) << added_stats[0];
  EXPECT_NE(added_stats[1].find(R"("minValues":{"id":1,)"), std::string::npos) << added_stats[1];
  EXPECT_NE(added_stats[2].find(R"("minValues":{"id":21,)"), std::string::npos) << added_stats[2];
}

TEST_F(DeltaMergeTest, AFailedRewriteOfOneFileCommitsNothingAndLeavesNoFiles) {
  for (int f = 0; f < 4; ++f) {
    const std::string id = std::to_string(f * 10);
    Append("[" + id + "]", "[1]");
  }
  const auto before = std::distance(fs::recursive_directory_iterator(table_),
                                    fs::recursive_directory_iterator());
  // The update of the third file's row divides by zero; the other files rewrite fine.
  auto source = Frame("id BIGINT, d BIGINT", {"[0, 10, 20, 30, 99]", "[1, 1, 0, 1, 1]"});
  auto result = Target()
                    .merge(source.alias("s"), "t.id = s.id")
                    .whenMatchedUpdate({{"value", F::col("t.value") / F::col("s.d")}})
                    .whenNotMatchedInsert({{"id", "s.id"}, {"value", "s.d"}})
                    .execute();
  EXPECT_TRUE(HasErrorClass(result.status(), "DIVIDE_BY_ZERO")) << result.status().ToString();
  EXPECT_EQ(LatestVersion(), 3);
  EXPECT_EQ(std::distance(fs::recursive_directory_iterator(table_),
                          fs::recursive_directory_iterator()),
            before);
  EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{"[0,1]", "[10,1]", "[20,1]", "[30,1]"}));
}

TEST_F(DeltaMergeTest, UnresolvableColumnsAreNamed) {
  Append("[1]", "[10]");
  auto source = Frame("id BIGINT, value BIGINT", {"[1]", "[11]"}).alias("s");
  auto condition = Target().merge(source, "t.idx = s.id").whenMatchedUpdateAll().execute();
  EXPECT_TRUE(HasErrorClass(condition.status(), "DELTA_MERGE_UNRESOLVED_EXPRESSION"));
  EXPECT_NE(condition.status().message().find("t.idx"), std::string::npos)
      << condition.status().ToString();
  EXPECT_NE(condition.status().message().find("search condition"), std::string::npos);

  auto column =
      Target().merge(source, "t.id = s.id").whenMatchedUpdate({{"nope", "s.value"}}).execute();
  EXPECT_TRUE(HasErrorClass(column.status(), "DELTA_MERGE_UNRESOLVED_EXPRESSION"));
  EXPECT_NE(column.status().message().find("nope"), std::string::npos)
      << column.status().ToString();

  auto value =
      Target().merge(source, "t.id = s.id").whenMatchedUpdate({{"value", "s.missing"}}).execute();
  EXPECT_TRUE(HasErrorClass(value.status(), "DELTA_MERGE_UNRESOLVED_EXPRESSION"));
  EXPECT_NE(value.status().message().find("missing"), std::string::npos);

  // An insert sees only the source.
  auto insert = Target()
                    .merge(source, "t.id = s.id")
                    .whenNotMatchedInsert({{"id", "t.id"}})
                    .execute();
  EXPECT_TRUE(HasErrorClass(insert.status(), "DELTA_MERGE_UNRESOLVED_EXPRESSION"));
  EXPECT_EQ(LatestVersion(), 0);

  auto missing = DeltaTable::forPath(*spark_, scratch_dir_ / "nothing");
  EXPECT_TRUE(HasErrorClass(missing.status(), "DELTA_MISSING_DELTA_TABLE"));
}

TEST_F(DeltaMergeTest, HistoryListsTheOperationsNewestFirst) {
  Append("[1]", "[10]");
  Append("[2]", "[20]");
  auto source = Frame("id BIGINT, value BIGINT", {"[2]", "[21]"});
  Run(Target().merge(source.alias("s"), "t.id = s.id").whenMatchedUpdateAll());
  auto history = Target().history();
  ASSERT_TRUE(history.ok()) << history.status().ToString();
  EXPECT_EQ(history.columns(),
            (std::vector<std::string>{"version", "timestamp", "operation",
                                      "operationParameters", "readVersion", "isolationLevel",
                                      "isBlindAppend", "operationMetrics", "engineInfo"}));
  auto rows = history
                  .selectExpr({"version", "operation", "readVersion",
                               "operationParameters['mode']", "engineInfo"})
                  .collect();
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(RowsOf(**rows),
            (std::vector<std::string>{R"([2,"MERGE",1,null,"Sluice"])",
                                      R"([1,"WRITE",0,"Append","Sluice"])",
                                      R"([0,"WRITE",null,"Append","Sluice"])"}));
  EXPECT_EQ(Target().history(2).count().ValueOrDie(), 2);
}

TEST_F(DeltaMergeTest, VacuumDeletesExactlyTheFilesNoRetainedVersionReferences) {
  Append("[1, 2]", "[10, 20]");
  Append("[3]", "[30]");
  auto source = Frame("id BIGINT, value BIGINT", {"[2]", "[21]"});
  Run(Target().merge(source.alias("s"), "t.id = s.id").whenMatchedUpdateAll());
  const auto removed = Commit(LatestVersion()).first;
  ASSERT_EQ(removed.size(), 1u);
  auto all_files = [&]() {
    std::set<std::string> paths;
    for (const auto& entry : fs::recursive_directory_iterator(table_)) {
      const auto relative = entry.path().lexically_relative(table_).string();
      if (entry.is_regular_file() && !relative.starts_with("_delta_log")) paths.insert(relative);
    }
    return paths;
  };
  const auto before = all_files();

  // The default retention keeps everything this young.
  ASSERT_TRUE(Target().vacuum().ok());
  EXPECT_EQ(all_files(), before);
  auto refused = Target().vacuum(0);
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("retentionDurationCheck"), std::string::npos);

  ASSERT_TRUE(
      spark_->conf().set("spark.databricks.delta.retentionDurationCheck.enabled", "false").ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  auto vacuumed = Target().vacuum(0);
  ASSERT_TRUE(vacuumed.ok()) << vacuumed.status().ToString();
  std::set<std::string> expected = before;
  for (const auto& path : removed) expected.erase(path);
  EXPECT_EQ(all_files(), expected);
  EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{"[1,10]", "[2,21]", "[3,30]"}));
}

TEST_F(DeltaMergeTest, ACommitThatRemovedAFileThisOneReadIsAConflict) {
  Append("[1]", "[10]");
  delta::DeltaLog log(table_);
  auto read = log.Load();
  ASSERT_TRUE(read.ok());
  const std::string file = read->files.at(0).path;
  // Another writer replaces the table's files after our read.
  ASSERT_TRUE(Frame("id BIGINT, value BIGINT", {"[2]", "[20]"})
                  .write()
                  .format("delta")
                  .mode("overwrite")
                  .save(table_)
                  .ok());
  delta::ConflictRules rules;
  rules.read_files = {file};
  rules.removed_files = {file};
  rules.read_whole_table = true;
  std::vector<delta::Action> actions = {delta::CommitInfo{}, delta::RemoveOf(read->files[0], 0)};
  auto commit = delta::CommitWithRetries(log, *read, actions, rules);
  EXPECT_TRUE(HasErrorClass(commit.status(), "DELTA_CONCURRENT_DELETE_READ"))
      << commit.status().ToString();
  EXPECT_EQ(LatestVersion(), 1);
}

// ---- The seeds' foreachBatch upserts ------------------------------------------------------

class SeedUpsertTest : public DeltaMergeTest {
 protected:
  /// Runs `df` through foreachBatch(`upsert`) until the input is processed; the query is
  /// killed once, right after the sink of batch `kill_batch` ran, then restarted.
  void RunStream(const DataFrame& df, const ForeachBatchFunction& upsert,
                 std::optional<int64_t> kill_batch) {
    bool fired = false;
    auto start = [&]() {
      execution::CrashHook hook = [&](execution::CrashPoint at, int64_t batch) {
        if (fired || !kill_batch || at != execution::CrashPoint::kAfterAddBatch ||
            batch != *kill_batch) {
          return false;
        }
        fired = true;
        return true;
      };
      return df.writeStream()
          .foreachBatch(upsert)
          .option("checkpointLocation", checkpoint_)
          .crashHook(hook)
          .start();
    };
    auto query = start();
    ASSERT_TRUE(query.ok()) << query.status().ToString();
    auto processed = (*query)->processAllAvailable();
    if (fired) {
      EXPECT_TRUE((*query)->awaitTermination().IsCancelled());
      query = start();
      ASSERT_TRUE(query.ok()) << query.status().ToString();
      processed = (*query)->processAllAvailable();
    }
    ASSERT_TRUE(processed.ok()) << processed.ToString();
    ASSERT_TRUE((*query)->stop().ok());
  }
};

TEST_F(SeedUpsertTest, CustomerUpsertOfSeed000) {
  // The seed names its table: silver.customers of the warehouse.
  ASSERT_TRUE(spark_->conf().set("spark.sql.warehouse.dir", scratch_dir_ / "warehouse").ok());
  table_ = scratch_dir_ / "warehouse/silver.db/customers";
  for (std::optional<int64_t> kill : {std::optional<int64_t>(), std::optional<int64_t>(1)}) {
    SCOPED_TRACE(kill ? "killed after the merge of batch 1" : "no kill");
    fs::remove_all(checkpoint_);
    ASSERT_TRUE(Frame("id BIGINT, name STRING", {"[1]", "[\"ann\"]"})
                    .write()
                    .mode("overwrite")
                    .saveAsTable("silver.customers")
                    .ok());
    auto updates = MemoryStream("id BIGINT, name STRING");
    auto upsert = [&](const DataFrame& batch, int64_t) -> arrow::Status {
      ARROW_ASSIGN_OR_RAISE(auto customers,
                            DeltaTable::forName(batch.session(), "silver.customers"));
      return customers.alias("t")
          .merge(batch.alias("s"), "t.id = s.id")
          .whenMatchedUpdateAll()
          .whenNotMatchedInsertAll()
          .execute()
          .status();
    };
    ASSERT_TRUE(updates->AddData(Table("id BIGINT, name STRING",
                                       {"[2, 3]", R"(["bob", "cy"])"})).ok());
    auto df = spark_->readStream().load(updates);
    RunStream(df, upsert, std::nullopt);
    ASSERT_TRUE(updates->AddData(Table("id BIGINT, name STRING",
                                       {"[1, 4]", R"(["ann2", "dee"])"})).ok());
    RunStream(df, upsert, kill);
    EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{R"([1,"ann2"])", R"([2,"bob"])",
                                                       R"([3,"cy"])", R"([4,"dee"])"}));
  }
}

TEST_F(SeedUpsertTest, LatestPagePerUserOfSeed004) {
  // Seed 004 takes each user's latest click with row_number() over a window, which the
  // engine does not have yet: the latest event time per user, joined back, picks the same
  // rows when a user's clicks in a batch have distinct times.
  const std::string schema = "user_id STRING, page STRING, event_time TIMESTAMP";
  const int64_t t0 = 1704103200000000;  // 2024-01-01 10:00:00 UTC
  auto at = [&](int seconds) { return std::to_string(t0 + seconds * 1000000LL); };
  auto iso = [](int seconds) {
    return std::string("\"2024-01-01T10:00:0") + std::to_string(seconds) + ".000000\"";
  };
  for (std::optional<int64_t> kill : {std::optional<int64_t>(), std::optional<int64_t>(1)}) {
    SCOPED_TRACE(kill ? "killed after the merge of batch 1" : "no kill");
    fs::remove_all(checkpoint_);
    fs::remove_all(table_);
    // The target table is created once before the stream starts, empty.
    ASSERT_TRUE(Frame(schema, {"[]", "[]", "[]"}).write().format("delta").save(table_).ok());
    auto clicks = MemoryStream(schema);
    auto upsert = [&](const DataFrame& batch, int64_t) -> arrow::Status {
      auto newest = batch.groupBy({F::col("user_id")})
                        .agg({F::max(F::col("event_time")).alias("event_time")});
      auto latest = batch.join(newest, std::vector<std::string>{"user_id", "event_time"})
                        .select({F::col("user_id"), F::col("page"), F::col("event_time")});
      ARROW_ASSIGN_OR_RAISE(auto target, DeltaTable::forPath(batch.session(), table_));
      return target.alias("t")
          .merge(latest.alias("s"), "t.user_id = s.user_id")
          .whenMatchedUpdateAll("s.event_time > t.event_time")
          .whenNotMatchedInsertAll()
          .execute()
          .status();
    };
    auto df = spark_->readStream().load(clicks);
    ASSERT_TRUE(clicks->AddData(Table(schema, {R"(["u1", "u1", "u2"])",
                                               R"(["/home", "/cart", "/home"])",
                                               "[" + at(1) + ", " + at(3) + ", " + at(2) + "]"}))
                    .ok());
    RunStream(df, upsert, std::nullopt);
    EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{"[\"u1\",\"/cart\"," + iso(3) + "]",
                                                       "[\"u2\",\"/home\"," + iso(2) + "]"}));
    // u1's click is older than the table's: it changes nothing.
    ASSERT_TRUE(clicks->AddData(Table(schema, {R"(["u1", "u2", "u3", "u2"])",
                                               R"(["/old", "/pay", "/x", "/cart"])",
                                               "[" + at(0) + ", " + at(5) + ", " + at(4) +
                                                   ", " + at(4) + "]"}))
                    .ok());
    RunStream(df, upsert, kill);
    EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{"[\"u1\",\"/cart\"," + iso(3) + "]",
                                                       "[\"u2\",\"/pay\"," + iso(5) + "]",
                                                       "[\"u3\",\"/x\"," + iso(4) + "]"}));
  }
}

}  // namespace
}  // namespace sluice::testing
