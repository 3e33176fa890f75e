// Delta tables end to end: the streaming sink, batch writes and reads, time travel, schema
// checks and evolution, idempotent writes and concurrent writers. What Sluice writes is read
// back with delta-rs, an independent implementation; what delta-rs writes is read by Sluice.
#include <algorithm>
#include <filesystem>
#include <thread>

#include <arrow/table.h>
#include <gtest/gtest.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/data_stream_writer.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/api/session.h"
#include "sluice/delta/delta_checkpoint.h"
#include "sluice/delta/delta_log.h"
#include "sluice/delta/delta_write.h"
#include "support/batch_stream_fixture.h"
#include "support/delta_rs.h"
#include "support/stream_test.h"

namespace sluice::testing {
namespace {

namespace F = functions;

std::vector<std::string> Sorted(std::vector<std::string> rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

class DeltaTableTest : public StreamTest {
 protected:
  /// The rows delta-rs reads from the table (sorted), failing the test if it cannot.
  std::vector<std::string> DeltaRsRows(std::optional<int64_t> version = std::nullopt) {
    auto table = DeltaRsRead(table_, version);
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    return table.ok() ? table->rows : std::vector<std::string>{};
  }
  /// The rows Sluice reads from the table (sorted).
  std::vector<std::string> SluiceRows(const DataFrameReader& reader) {
    auto table = reader.load(table_).collect();
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    return table.ok() ? Sorted(RowsOf(**table)) : std::vector<std::string>{};
  }
  std::vector<std::string> SluiceRows() { return SluiceRows(spark_->read().format("delta")); }

  std::string table_ = scratch_dir_ / "table";
};

TEST_F(DeltaTableTest, StreamingAppendLandsEachBatchOnceWithItsTransaction) {
  auto input = MemoryStream("id BIGINT, name STRING");
  auto df = spark_->readStream().load(input);
  auto start = [&]() {
    return df.writeStream()
        .format("delta")
        .option("checkpointLocation", checkpoint_)
        .start(table_);
  };
  ASSERT_TRUE(input->AddData(Table("id BIGINT, name STRING", {"[1, 2]", "[\"a\", null]"})).ok());
  auto query = start();
  ASSERT_TRUE(query.ok()) << query.status().ToString();
  ASSERT_TRUE((*query)->processAllAvailable().ok());
  ASSERT_TRUE(input->AddData(Table("id BIGINT, name STRING", {"[3]", "[\"c\"]"})).ok());
  ASSERT_TRUE((*query)->processAllAvailable().ok());
  const std::string query_id = (*query)->id();
  ASSERT_TRUE((*query)->stop().ok());

  auto read = DeltaRsRead(table_);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->columns, (std::vector<std::string>{"id", "name"}));
  EXPECT_EQ(read->rows, (std::vector<std::string>{R"([1,"a"])", R"([2,null])", R"([3,"c"])"}));
  EXPECT_EQ(read->version, 1);
  auto txn = DeltaRsTransactionVersion(table_, query_id);
  ASSERT_TRUE(txn.ok()) << txn.status().ToString();
  EXPECT_EQ(*txn, 1);
  EXPECT_EQ(SluiceRows(), read->rows);

  // A restarted query goes on from its checkpoint: no batch is written twice.
  ASSERT_TRUE(input->AddData(Table("id BIGINT, name STRING", {"[4]", "[\"d\"]"})).ok());
  query = start();
  ASSERT_TRUE(query.ok()) << query.status().ToString();
  ASSERT_TRUE((*query)->processAllAvailable().ok());
  ASSERT_TRUE((*query)->stop().ok());
  EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{R"([1,"a"])", R"([2,null])", R"([3,"c"])",
                                                     R"([4,"d"])"}));
}

TEST_F(DeltaTableTest, CompleteModeReplacesTheTableEachBatch) {
  auto input = MemoryStream("k STRING");
  auto counts = spark_->readStream().load(input).groupBy({F::col("k")}).count();
  auto query = counts.writeStream()
                   .format("delta")
                   .outputMode("complete")
                   .option("checkpointLocation", checkpoint_)
                   .start(table_);
  ASSERT_TRUE(query.ok()) << query.status().ToString();
  ASSERT_TRUE(input->AddData(Table("k STRING", {R"(["a", "b", "a"])"})).ok());
  ASSERT_TRUE((*query)->processAllAvailable().ok());
  EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{R"(["a",2])", R"(["b",1])"}));
  ASSERT_TRUE(input->AddData(Table("k STRING", {R"(["b"])"})).ok());
  ASSERT_TRUE((*query)->processAllAvailable().ok());
  ASSERT_TRUE((*query)->stop().ok());
  EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{R"(["a",2])", R"(["b",2])"}));
  EXPECT_EQ(SluiceRows(), (std::vector<std::string>{R"(["a",2])", R"(["b",2])"}));
}

TEST_F(DeltaTableTest, UpdateModeIsRefused) {
  auto input = MemoryStream("k STRING");
  auto counts = spark_->readStream().load(input).groupBy({F::col("k")}).count();
  auto query = counts.writeStream()
                   .format("delta")
                   .outputMode("update")
                   .option("checkpointLocation", checkpoint_)
                   .start(table_);
  ASSERT_FALSE(query.ok());
  EXPECT_TRUE(HasErrorClass(query.status(), "DELTA_UNSUPPORTED_OUTPUT_MODE"));
}

TEST_F(DeltaTableTest, PartitionedStreamAndACheckpointEveryTenCommits) {
  auto input = MemoryStream("id BIGINT, day STRING");
  auto query = spark_->readStream()
                   .load(input)
                   .writeStream()
                   .format("delta")
                   .partitionBy({"day"})
                   .option("checkpointLocation", checkpoint_)
                   .start(table_);
  ASSERT_TRUE(query.ok()) << query.status().ToString();
  std::vector<std::string> expected;
  for (int batch = 0; batch < 12; ++batch) {
    const std::string day = batch % 2 == 0 ? "\"2024-01-01\"" : "null";
    ASSERT_TRUE(input->AddData(Table("id BIGINT, day STRING",
                                     {"[" + std::to_string(batch) + "]", "[" + day + "]"}))
                    .ok());
    ASSERT_TRUE((*query)->processAllAvailable().ok());
    expected.push_back("[" + std::to_string(batch) + "," + (batch % 2 == 0 ? day : "null") +
                       "]");
  }
  ASSERT_TRUE((*query)->stop().ok());
  delta::DeltaLog log(table_);
  auto checkpoint = delta::FindCheckpoint(log, 11);
  ASSERT_TRUE(checkpoint.ok());
  EXPECT_EQ(*checkpoint, 10);
  EXPECT_TRUE(std::filesystem::exists(table_ + "/day=2024-01-01"));
  EXPECT_TRUE(std::filesystem::exists(table_ + "/day=__HIVE_DEFAULT_PARTITION__"));
  // delta-rs starts from our checkpoint; so does Sluice once the commits before it are gone.
  EXPECT_EQ(DeltaRsRows(), Sorted(expected));
  for (int v = 0; v <= 10; ++v) std::filesystem::remove(log.CommitPath(v));
  EXPECT_EQ(DeltaRsRows(), Sorted(expected));
  EXPECT_EQ(SluiceRows(), Sorted(expected));
}

TEST_F(DeltaTableTest, BatchSaveModes) {
  auto first = Frame("id BIGINT", {"[1, 2]"});
  auto second = Frame("id BIGINT", {"[3]"});
  ASSERT_TRUE(first.write().format("delta").save(table_).ok());
  auto again = first.write().format("delta").save(table_);
  EXPECT_TRUE(HasErrorClass(again, "DELTA_PATH_EXISTS"));
  ASSERT_TRUE(second.write().format("delta").mode("append").save(table_).ok());
  EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{"[1]", "[2]", "[3]"}));
  ASSERT_TRUE(second.write().format("delta").mode("ignore").save(table_).ok());
  EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{"[1]", "[2]", "[3]"}));
  ASSERT_TRUE(second.write().format("delta").mode("overwrite").save(table_).ok());
  EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{"[3]"}));
  EXPECT_EQ(SluiceRows(), (std::vector<std::string>{"[3]"}));
  // The replaced files stay until vacuum: older versions can still be read.
  EXPECT_EQ(DeltaRsRows(1), (std::vector<std::string>{"[1]", "[2]", "[3]"}));
}

// Delta reads go through Spark's file scan, which honours spark.sql.files.ignoreMissingFiles
// and ignoreCorruptFiles (the usual way out when a table's data file was deleted by hand).
TEST_F(DeltaTableTest, MissingAndCorruptDataFilesFailUnlessTheSessionIgnoresThem) {
  ASSERT_TRUE(Frame("id BIGINT", {"[1, 2]"}).write().format("delta").save(table_).ok());
  ASSERT_TRUE(
      Frame("id BIGINT", {"[3]"}).write().format("delta").mode("append").save(table_).ok());
  ASSERT_TRUE(
      Frame("id BIGINT", {"[4]"}).write().format("delta").mode("append").save(table_).ok());
  auto snapshot = delta::DeltaLog(table_).Load();
  ASSERT_TRUE(snapshot.ok());
  ASSERT_EQ(snapshot->files.size(), 3u);
  const std::string missing = table_ + "/" + snapshot->files[1].path;
  const std::string corrupt = table_ + "/" + snapshot->files[2].path;
  std::filesystem::remove(missing);
  std::filesystem::resize_file(corrupt, 10);

  auto read = [&] { return spark_->read().format("delta").load(table_).collect(); };
  auto gone = read();
  EXPECT_TRUE(HasErrorClass(gone.status(), "FAILED_READ_FILE.FILE_NOT_EXIST"))
      << gone.status().ToString();
  EXPECT_NE(gone.status().message().find(snapshot->files[1].path), std::string::npos);

  ASSERT_TRUE(spark_->conf().set("spark.sql.files.ignoreMissingFiles", "true").ok());
  auto damaged = read();
  EXPECT_TRUE(HasErrorClass(damaged.status(), "FAILED_READ_FILE.NO_HINT"))
      << damaged.status().ToString();
  EXPECT_NE(damaged.status().message().find(snapshot->files[2].path), std::string::npos)
      << damaged.status().ToString();

  ASSERT_TRUE(spark_->conf().set("spark.sql.files.ignoreCorruptFiles", "true").ok());
  EXPECT_EQ(SluiceRows(), (std::vector<std::string>{"[1]", "[2]"}));
}

TEST_F(DeltaTableTest, TimeTravelByVersionAndTimestamp) {
  ASSERT_TRUE(Frame("id BIGINT", {"[1]"}).write().format("delta").save(table_).ok());
  ASSERT_TRUE(
      Frame("id BIGINT", {"[2]"}).write().format("delta").mode("append").save(table_).ok());
  delta::DeltaLog log(table_);
  // Commit times are the commit files' modification times: set them apart.
  namespace fs = std::filesystem;
  auto at = [](int64_t seconds) {
    return fs::file_time_type::clock::now() - std::chrono::seconds(seconds);
  };
  fs::last_write_time(log.CommitPath(0), at(3600));
  fs::last_write_time(log.CommitPath(1), at(60));
  auto v0 = log.Load(0);
  ASSERT_TRUE(v0.ok());
  EXPECT_EQ(SluiceRows(spark_->read().format("delta").option("versionAsOf", int64_t{0})),
            (std::vector<std::string>{"[1]"}));
  EXPECT_EQ(SluiceRows(spark_->read().format("delta").option("versionAsOf", int64_t{1})),
            (std::vector<std::string>{"[1]", "[2]"}));
  // Half an hour ago: version 0 was the latest then.
  const int64_t half_hour_ago_ms = v0->timestamp_ms + 1800 * 1000;
  const std::string when = std::to_string(half_hour_ago_ms / 1000);
  auto by_time = spark_->read()
                     .format("delta")
                     .option("timestampAsOf", "1970-01-01 00:00:00")
                     .load(table_)
                     .collect();
  EXPECT_TRUE(HasErrorClass(by_time.status(), "DELTA_TIMESTAMP_EARLIER_THAN_COMMIT_RETENTION"));
  auto both = spark_->read()
                  .format("delta")
                  .option("timestampAsOf", "2024-01-01")
                  .option("versionAsOf", int64_t{0})
                  .load(table_)
                  .collect();
  EXPECT_TRUE(HasErrorClass(both.status(), "DELTA_UNSUPPORTED_TIME_TRAVEL_MULTIPLE_FORMATS"));
  auto version = log.VersionAtOrBefore(half_hour_ago_ms, when);
  ASSERT_TRUE(version.ok()) << version.status().ToString();
  EXPECT_EQ(*version, 0);
  auto v1 = log.Load(1);
  ASSERT_TRUE(v1.ok());
  auto later = log.VersionAtOrBefore(v1->timestamp_ms, when);
  ASSERT_TRUE(later.ok()) << later.status().ToString();
  EXPECT_EQ(*later, 1);
  auto future = spark_->read()
                    .format("delta")
                    .option("timestampAsOf", "2999-01-01 00:00:00")
                    .load(table_)
                    .collect();
  EXPECT_TRUE(HasErrorClass(future.status(), "DELTA_TIMESTAMP_GREATER_THAN_COMMIT"));
}

TEST_F(DeltaTableTest, ASchemaMismatchNamesTheColumnsAndMergeSchemaAddsThem) {
  ASSERT_TRUE(Frame("id BIGINT", {"[1]"}).write().format("delta").save(table_).ok());
  auto wider = Frame("id BIGINT, extra STRING", {"[2]", "[\"x\"]"});
  auto refused = wider.write().format("delta").mode("append").save(table_);
  EXPECT_TRUE(HasErrorClass(refused, "DELTA_METADATA_MISMATCH"));
  EXPECT_NE(refused.message().find("`extra`"), std::string::npos) << refused.message();
  EXPECT_NE(refused.message().find("mergeSchema"), std::string::npos);
  auto retyped = Frame("id STRING", {"[\"2\"]"}).write().format("delta").mode("append").save(table_);
  EXPECT_TRUE(HasErrorClass(retyped, "DELTA_METADATA_MISMATCH"));
  EXPECT_NE(retyped.message().find("`id` (table: bigint, data: string)"), std::string::npos)
      << retyped.message();
  auto partitioned = Frame("id BIGINT", {"[2]"})
                         .write()
                         .format("delta")
                         .mode("append")
                         .partitionBy({"id"})
                         .save(table_);
  EXPECT_TRUE(HasErrorClass(partitioned, "DELTA_METADATA_MISMATCH"));

  ASSERT_TRUE(
      wider.write().format("delta").mode("append").option("mergeSchema", true).save(table_).ok());
  auto read = DeltaRsRead(table_);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->columns, (std::vector<std::string>{"id", "extra"}));
  EXPECT_EQ(read->rows, (std::vector<std::string>{"[1,null]", R"([2,"x"])"}));
  EXPECT_EQ(SluiceRows(), read->rows);
  // Columns are matched by name, in any case and order; missing ones are null.
  ASSERT_TRUE(Frame("EXTRA STRING", {"[\"y\"]"}).write().format("delta").mode("append").save(table_).ok());
  EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{"[1,null]", R"([2,"x"])", R"([null,"y"])"}));
}

TEST_F(DeltaTableTest, IdempotentWritesWithTxnAppIdAndVersion) {
  auto write = [&](int64_t version, const std::string& rows) {
    return Frame("id BIGINT", {rows})
        .write()
        .format("delta")
        .mode("append")
        .option("txnAppId", "nightly")
        .option("txnVersion", version)
        .save(table_);
  };
  ASSERT_TRUE(write(1, "[1]").ok());
  ASSERT_TRUE(write(1, "[1]").ok());  // a retry of version 1: skipped
  ASSERT_TRUE(write(2, "[2]").ok());
  EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{"[1]", "[2]"}));
  auto txn = DeltaRsTransactionVersion(table_, "nightly");
  ASSERT_TRUE(txn.ok());
  EXPECT_EQ(*txn, 2);
  auto half = Frame("id BIGINT", {"[3]"})
                  .write()
                  .format("delta")
                  .mode("append")
                  .option("txnAppId", "nightly")
                  .save(table_);
  EXPECT_TRUE(HasErrorClass(half, "DELTA_INVALID_IDEMPOTENT_WRITES_OPTIONS"));
}

TEST_F(DeltaTableTest, ReadsATableDeltaRsWroteThroughItsCheckpoint) {
  ASSERT_TRUE(DeltaRsWriteFixture(table_).ok());
  const std::vector<std::string> expected = {R"([1,"a","2024-01-01"])", R"([3,null,null])",
                                             R"([4,"d","2024-01-01"])", R"([5,"e","2024-01-03"])"};
  EXPECT_EQ(SluiceRows(), expected);
  EXPECT_EQ(DeltaRsRows(), expected);
  EXPECT_EQ(SluiceRows(spark_->read().format("delta").option("versionAsOf", int64_t{1})),
            DeltaRsRows(1));
  // And Sluice appends to it in a way delta-rs reads.
  ASSERT_TRUE(Frame("id BIGINT, name STRING, day STRING", {"[6]", "[\"f\"]", "[\"2024-01-03\"]"})
                  .write()
                  .format("delta")
                  .mode("append")
                  .save(table_)
                  .ok());
  auto all = expected;
  all.push_back(R"([6,"f","2024-01-03"])");
  EXPECT_EQ(DeltaRsRows(), all);
}

TEST_F(DeltaTableTest, ConcurrentAppendsBothLandAndAConflictingOverwriteFails) {
  ASSERT_TRUE(Frame("id BIGINT", {"[0]"}).write().format("delta").save(table_).ok());
  delta::DeltaLog log(table_);
  auto read = log.Load();
  ASSERT_TRUE(read.ok());
  // Another writer commits version 1 after our read of version 0.
  ASSERT_TRUE(
      Frame("id BIGINT", {"[1]"}).write().format("delta").mode("append").save(table_).ok());
  // Writes through the API read the latest version: drive a write from the stale read.
  auto writer_options = [&](delta::WriteMode mode) {
    delta::WriteOptions options;
    options.mode = mode;
    options.parquet = formats::MakeFormatWriter(formats::FileFormat::kParquet, {}, {}).ValueOrDie();
    options.zone = formats::FindZone("UTC").ValueOrDie();
    return options;
  };
  auto run = [&](delta::WriteMode mode, const std::string& rows) {
    auto table = Table("id BIGINT", {rows});
    auto batches = arrow::TableBatchReader(*table).ToRecordBatches().ValueOrDie();
    InMemoryBatchStream stream(table->schema(), batches);
    return delta::WriteToTable(log, *read, stream, writer_options(mode));
  };
  auto blind = run(delta::WriteMode::kAppend, "[2]");
  ASSERT_TRUE(blind.ok()) << blind.status().ToString();
  EXPECT_EQ(blind->version, 2);
  EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{"[0]", "[1]", "[2]"}));
  auto overwrite = run(delta::WriteMode::kOverwrite, "[9]");
  EXPECT_TRUE(HasErrorClass(overwrite.status(), "DELTA_CONCURRENT_APPEND"))
      << overwrite.status().ToString();
  EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{"[0]", "[1]", "[2]"}));
}


class DeltaSinkCrashTest : public DeltaTableTest,
                           public ::testing::WithParamInterface<execution::CrashPoint> {};

TEST_P(DeltaSinkCrashTest, AKillAtAnyStepLeavesEachBatchInTheTableOnce) {
  auto input = MemoryStream("id BIGINT");
  auto counts = spark_->readStream().load(input);
  auto start = [&](execution::CrashHook hook) {
    return counts.writeStream()
        .format("delta")
        .option("checkpointLocation", checkpoint_)
        .crashHook(std::move(hook))
        .start(table_);
  };
  bool fired = false;
  execution::CrashHook kill = [&](execution::CrashPoint at, int64_t batch) {
    if (fired || at != GetParam() || batch != 1) return false;
    fired = true;
    return true;
  };
  ASSERT_TRUE(input->AddData(Table("id BIGINT", {"[1, 2]"})).ok());
  auto query = start(kill);
  ASSERT_TRUE(query.ok()) << query.status().ToString();
  ASSERT_TRUE((*query)->processAllAvailable().ok());
  ASSERT_TRUE(input->AddData(Table("id BIGINT", {"[3]"})).ok());
  EXPECT_TRUE((*query)->awaitTermination().IsCancelled());
  ASSERT_TRUE(fired);
  query = start(nullptr);
  ASSERT_TRUE(query.ok()) << query.status().ToString();
  ASSERT_TRUE((*query)->processAllAvailable().ok());
  ASSERT_TRUE(input->AddData(Table("id BIGINT", {"[4]"})).ok());
  ASSERT_TRUE((*query)->processAllAvailable().ok());
  const std::string id = (*query)->id();
  ASSERT_TRUE((*query)->stop().ok());
  EXPECT_EQ(DeltaRsRows(), (std::vector<std::string>{"[1]", "[2]", "[3]", "[4]"}));
  auto txn = DeltaRsTransactionVersion(table_, id);
  ASSERT_TRUE(txn.ok());
  EXPECT_EQ(*txn, 2);
  // One commit per batch: a batch that ran again after the kill did not commit twice.
  auto log = delta::DeltaLog(table_).Load();
  ASSERT_TRUE(log.ok());
  EXPECT_EQ(log->version, 2);
}

INSTANTIATE_TEST_SUITE_P(EveryStep, DeltaSinkCrashTest,
                         ::testing::ValuesIn(execution::kAllCrashPoints),
                         CrashPointTestName);

class NamedTableTest : public DeltaTableTest {
 protected:
  void SetUp() override {
    DeltaTableTest::SetUp();
    ASSERT_TRUE(spark_->conf().set("spark.sql.warehouse.dir", warehouse_).ok());
  }
  std::string warehouse_ = scratch_dir_ / "warehouse";
};

TEST_F(NamedTableTest, SaveAsTableThenReadItByName) {
  ASSERT_TRUE(Frame("id BIGINT", {"[1, 2]"}).write().saveAsTable("events").ok());
  // The default database's tables live in the warehouse folder itself.
  auto read = DeltaRsRead(warehouse_ + "/events");
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->rows, (std::vector<std::string>{"[1]", "[2]"}));
  for (const char* name : {"events", "default.events", "spark_catalog.default.EVENTS",
                           "`events`"}) {
    auto rows = spark_->table(name).collect();
    ASSERT_TRUE(rows.ok()) << name << ": " << rows.status().ToString();
    EXPECT_EQ(Sorted(RowsOf(**rows)), (std::vector<std::string>{"[1]", "[2]"})) << name;
  }
  auto exists = Frame("id BIGINT", {"[3]"}).write().saveAsTable("events");
  EXPECT_TRUE(HasErrorClass(exists, "TABLE_OR_VIEW_ALREADY_EXISTS"));
  ASSERT_TRUE(Frame("id BIGINT", {"[3]"}).write().mode("append").saveAsTable("events").ok());
  auto rows = spark_->read().option("versionAsOf", int64_t{0}).table("events").collect();
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(Sorted(RowsOf(**rows)), (std::vector<std::string>{"[1]", "[2]"}));
  auto parquet = Frame("id BIGINT", {"[3]"}).write().format("parquet").saveAsTable("other");
  EXPECT_TRUE(HasErrorClass(parquet, "UNSUPPORTED_DATA_SOURCE_FOR_NAMED_TABLE"));
}

TEST_F(NamedTableTest, AMissingTableIsNotFound) {
  auto missing = spark_->table("bronze.orders").collect();
  EXPECT_TRUE(HasErrorClass(missing.status(), "TABLE_OR_VIEW_NOT_FOUND"));
  EXPECT_NE(missing.status().message().find("`bronze`.`orders`"), std::string::npos)
      << missing.status().message();
  auto stream = spark_->readStream().table("bronze.orders");
  EXPECT_TRUE(HasErrorClass(stream.status(), "TABLE_OR_VIEW_NOT_FOUND"));
  auto bad = spark_->table("a.b.c.d").collect();
  EXPECT_FALSE(bad.ok());
}

TEST_F(NamedTableTest, StreamIntoATableAndOutOfIt) {
  // Seed 000: Kafka (here a memory stream) to bronze.orders, then a stream reading it.
  auto input = MemoryStream("id BIGINT");
  auto into = spark_->readStream()
                  .load(input)
                  .writeStream()
                  .option("checkpointLocation", checkpoint_)
                  .toTable("bronze.orders");
  ASSERT_TRUE(into.ok()) << into.status().ToString();
  ASSERT_TRUE(input->AddData(Table("id BIGINT", {"[1, 2]"})).ok());
  ASSERT_TRUE((*into)->processAllAvailable().ok());
  EXPECT_TRUE(std::filesystem::exists(warehouse_ + "/bronze.db/orders/_delta_log"));

  auto out_of = spark_->readStream()
                    .table("bronze.orders")
                    .writeStream()
                    .format("memory")
                    .queryName(query_name_)
                    .option("checkpointLocation", checkpoint_ + "-out")
                    .start();
  ASSERT_TRUE(out_of.ok()) << out_of.status().ToString();
  ASSERT_TRUE((*out_of)->processAllAvailable().ok());
  ASSERT_TRUE(input->AddData(Table("id BIGINT", {"[3]"})).ok());
  ASSERT_TRUE((*into)->processAllAvailable().ok());
  ASSERT_TRUE((*out_of)->processAllAvailable().ok());
  auto rows = spark_->table(query_name_).collect();
  ASSERT_TRUE((*into)->stop().ok());
  ASSERT_TRUE((*out_of)->stop().ok());
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(Sorted(RowsOf(**rows)), (std::vector<std::string>{"[1]", "[2]", "[3]"}));
  auto csv = spark_->readStream().load(input).writeStream().format("csv").toTable("t");
  EXPECT_TRUE(HasErrorClass(csv.status(), "UNSUPPORTED_DATA_SOURCE_FOR_NAMED_TABLE"));
}

}  // namespace
}  // namespace sluice::testing
