// Every file operation that makes a query's progress durable fails in turn, as a full or broken
// disk makes it fail: the write, fsync or rename of a part file, a sink log entry, a checkpoint
// log or a state file, and the fsync of the folder that makes the file's name durable
// (common/fault_points.h, checkpoint/durable_io.h). The query must fail with an error naming
// the file and the operation, and a restart on the healthy disk must write every row once.
// The crash-restart soak (tests/soak) makes the same failures hit at random batches; this test
// makes each one happen, in this process.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "execution/file_stream_end_to_end_support.h"
#include "sluice/api/data_stream_reader.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/functions.h"
#include "sluice/common/fault_points.h"

namespace sluice::testing {
namespace {

namespace F = functions;

constexpr int64_t kFirstMtimeMs = 1'700'000'000'000;
constexpr int kFiles = 3;
constexpr int kRowsPerFile = 50;

constexpr const char* kRocksDb =
    "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider";

/// One failure: `operation` on the files whose path holds `path_part`, in a query writing
/// `format` (with a deduplication on `provider`'s state when it is set).
struct InjectedFault {
  std::string format;
  std::string operation;
  std::string path_part;
  std::string provider;
};

std::string CaseName(const ::testing::TestParamInfo<InjectedFault>& info) {
  std::string name = info.param.format + "_" + info.param.operation + "_";
  for (char c : info.param.path_part) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (!info.param.provider.empty()) name += info.param.provider == kRocksDb ? "_rocksdb" : "_memory";
  return name;
}

class InjectedFaultTest : public EndToEndTest,
                          public ::testing::WithParamInterface<InjectedFault> {
 protected:
  void TearDown() override {
    SetFailPointForTesting("");
    EndToEndTest::TearDown();
  }

  /// kFiles files of kRowsPerFile rows, each id once; with a deduplication, every row twice.
  void LandInput(bool twice) {
    for (int file = 0; file < kFiles; ++file) {
      std::vector<std::string> lines;
      for (int row = 0; row < kRowsPerFile; ++row) {
        std::string line = "{\"id\":" + std::to_string(file * kRowsPerFile + row) + "}";
        lines.push_back(line);
        if (twice) lines.push_back(line);
      }
      LandJson("in/" + std::to_string(file) + ".json", lines, kFirstMtimeMs + file * 1000);
    }
  }

  arrow::Status Run() {
    const InjectedFault& fault = GetParam();
    auto input = spark_->readStream()
                     .schema("id BIGINT")
                     .option("maxFilesPerTrigger", int64_t{1})
                     .json(Path("in"));
    if (!fault.provider.empty()) input = input.dropDuplicates({"id"});
    return Finish(input.writeStream()
                      .format(fault.format)
                      .option("checkpointLocation", Path("ckpt"))
                      .trigger(Trigger::AvailableNow())
                      .start(Path("out")));
  }
};

TEST_P(InjectedFaultTest, FailsNamingTheFileAndARestartWritesEveryRowOnce) {
  const InjectedFault& fault = GetParam();
  if (!fault.provider.empty()) {
    ASSERT_TRUE(spark_->conf().set("spark.sql.streaming.stateStore.providerClass", fault.provider).ok());
    // A snapshot each version, so that the second batch writes one.
    ASSERT_TRUE(spark_->conf().set("spark.sql.streaming.stateStore.minDeltasForSnapshot", "1").ok());
    ASSERT_TRUE(spark_->conf().set("spark.sql.streaming.stateStore.maintenanceInterval", "0").ok());
    ASSERT_TRUE(spark_->conf().set("spark.sql.shuffle.partitions", "2").ok());
  }
  LandInput(!fault.provider.empty());
  // The second pass: the first batch has committed by then for the checkpoint's and sink's
  // logs, so the restart must also skip what is done.
  SetFailPointForTesting(fault.operation + ",2," + fault.path_part);
  arrow::Status failed = Run();
  SetFailPointForTesting("");
  ASSERT_FALSE(failed.ok()) << "the injected failure did not fail the query";
  const std::string words = fault.operation == fault_points::kFileWrite    ? "Cannot write"
                            : fault.operation == fault_points::kFileRename ? "Cannot rename"
                                                                            : "Cannot fsync";
  EXPECT_NE(failed.message().find(words), std::string::npos) << failed.ToString();
  EXPECT_NE(failed.message().find(fault.path_part), std::string::npos) << failed.ToString();

  ASSERT_TRUE(Run().ok());
  auto ids = spark_->read().format(fault.format).load(Path("out"));
  EXPECT_EQ(CollectRows(ids.agg({F::count(F::col("id")).alias("rows"),
                                 F::count_distinct({F::col("id")}).alias("distinct_ids")})),
            std::vector<std::string>{"[" + std::to_string(kFiles * kRowsPerFile) + "," +
                                     std::to_string(kFiles * kRowsPerFile) + "]"});
}

std::vector<InjectedFault> Faults() {
  std::vector<InjectedFault> faults;
  const std::vector<std::string> operations = {
      std::string(fault_points::kFileWrite), std::string(fault_points::kFileSync),
      std::string(fault_points::kFileRename), std::string(fault_points::kFolderSync)};
  for (const std::string format : {"parquet", "delta"}) {
    const std::string sink_log = format == "delta" ? "_delta_log" : "_spark_metadata";
    for (const auto& operation : operations) {
      for (const std::string& part :
           std::vector<std::string>{"part-", sink_log, "/offsets/", "/commits/"}) {
        faults.push_back({format, operation, part, ""});
      }
    }
  }
  // State files: the memory provider's deltas (its snapshots are written in the background,
  // where a failure only delays them), RocksDB's changelogs and snapshot folders.
  for (const auto& operation : operations) {
    faults.push_back({"parquet", operation, ".delta",
                      "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider"});
    faults.push_back({"parquet", operation, ".changelog", kRocksDb});
    faults.push_back({"parquet", operation, ".snapshot", kRocksDb});
  }
  return faults;
}

INSTANTIATE_TEST_SUITE_P(EveryDurableWrite, InjectedFaultTest, ::testing::ValuesIn(Faults()),
                         CaseName);

}  // namespace
}  // namespace sluice::testing
