// Every file of a stateful query's checkpoint and of its Delta sink's log, damaged in turn
// between two runs (cut in half, overwritten with garbage, deleted): the restart must refuse
// with an error naming that file, or recover and write exactly what an undamaged restart
// writes. What it must never do is start afresh in silence, losing or repeating rows.
#include <algorithm>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "execution/file_stream_end_to_end_support.h"
#include "sluice/api/data_stream_reader.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"

namespace sluice::testing {
namespace {

namespace F = functions;
namespace fs = std::filesystem;

constexpr int64_t kFirstMtimeMs = 1'700'000'000'000;

enum class Damage { kCutInHalf, kGarbage, kDeleted };

const char* DamageName(Damage damage) {
  switch (damage) {
    case Damage::kCutInHalf:
      return "cut in half";
    case Damage::kGarbage:
      return "overwritten with garbage";
    case Damage::kDeleted:
      return "deleted";
  }
  return "";
}

void Apply(Damage damage, const fs::path& file) {
  switch (damage) {
    case Damage::kCutInHalf:
      fs::resize_file(file, fs::file_size(file) / 2);
      break;
    case Damage::kGarbage:
      std::ofstream(file, std::ios::binary | std::ios::trunc) << "v1\n\x01\x7f{garbage";
      break;
    case Damage::kDeleted:
      fs::remove(file);
      break;
  }
}

/// The state store provider, by its class name.
class DamagedCheckpointTest : public EndToEndTest,
                              public ::testing::WithParamInterface<std::string> {
 protected:
  void SetUp() override {
    EndToEndTest::SetUp();
    ASSERT_TRUE(spark_->conf().set("spark.sql.shuffle.partitions", "2").ok());
    ASSERT_TRUE(
        spark_->conf().set("spark.sql.streaming.stateStore.providerClass", GetParam()).ok());
    // A snapshot every other version: the checkpoint then holds both kinds of state file.
    ASSERT_TRUE(
        spark_->conf().set("spark.sql.streaming.stateStore.minDeltasForSnapshot", "2").ok());
    ASSERT_TRUE(spark_->conf().set("spark.sql.streaming.stateStore.maintenanceInterval", "0").ok());
  }

  /// Lands in/<n>.json: three events of minute n, of users a, b and c.
  void LandMinute(int n) {
    std::vector<std::string> lines;
    for (const char* user : {"a", "b", "c"}) {
      lines.push_back(std::string("{\"user\":\"") + user + "\",\"ts\":\"2026-06-10T10:" +
                      (n < 10 ? "0" : "") + std::to_string(n) + ":30Z\"}");
    }
    LandJson("in/" + std::to_string(n) + ".json", lines, kFirstMtimeMs + n * 1000);
  }

  /// Per minute and user, the count of events, appended to the Delta table out/ once the
  /// watermark (one minute behind) passes the minute; one input file per batch.
  arrow::Status Run() {
    auto counts = spark_->readStream()
                      .schema("user STRING, ts TIMESTAMP")
                      .option("maxFilesPerTrigger", int64_t{1})
                      .json(Path("in"))
                      .withWatermark("ts", "1 minute")
                      .groupBy({F::window(F::col("ts"), "1 minute"), F::col("user")})
                      .agg({F::count(F::lit(1)).alias("events")});
    return Finish(counts.writeStream()
                      .format("delta")
                      .outputMode("append")
                      .option("checkpointLocation", Path("ckpt"))
                      .trigger(Trigger::AvailableNow())
                      .start(Path("out")));
  }

  std::vector<std::string> Output() {
    return CollectRows(spark_->read().format("delta").load(Path("out")).select(
        {F::col("window").getField("start"), F::col("user"), F::col("events")}));
  }

  /// Puts the checkpoint and the table back as they were saved in `saved`.
  void Restore(const fs::path& saved) {
    for (const char* folder : {"ckpt", "out"}) {
      fs::remove_all(Path(folder));
      fs::copy(saved / folder, Path(folder), fs::copy_options::recursive);
    }
  }
};

TEST_P(DamagedCheckpointTest, EveryDamagedFileIsRefusedByNameOrRecoveredExactly) {
  for (int minute = 0; minute < 5; ++minute) LandMinute(minute);
  ASSERT_TRUE(Run().ok());
  const fs::path saved = Path("saved");
  fs::create_directories(saved);
  for (const char* folder : {"ckpt", "out"}) {
    fs::copy(Path(folder), saved / folder, fs::copy_options::recursive);
  }
  // The restart reads two more minutes; undamaged, it appends what they close.
  LandMinute(5);
  LandMinute(6);
  ASSERT_TRUE(Run().ok());
  const std::vector<std::string> expected = Output();
  // The watermark reaches 10:05:30: minutes 0 to 4 are closed, three users each.
  ASSERT_EQ(expected.size(), 15u);

  // Every file of the checkpoint; of the table, its log entries. Deleting a log entry of the
  // table loses rows the checkpoint counts as written, in Spark as here: not a damage a
  // restart could detect, so only the other two are applied to them.
  std::vector<std::pair<fs::path, bool>> files;  // relative path, may be deleted
  for (const auto& entry : fs::recursive_directory_iterator(saved)) {
    if (!entry.is_regular_file()) continue;
    fs::path relative = fs::relative(entry.path(), saved);
    bool table_log = relative.string().find("_delta_log") != std::string::npos;
    if (relative.begin()->string() == "out" && !table_log) continue;
    files.emplace_back(relative, !table_log);
  }
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 30u);
  int refused = 0, recovered = 0;
  for (const auto& [relative, deletable] : files) {
    for (Damage damage : {Damage::kCutInHalf, Damage::kGarbage, Damage::kDeleted}) {
      if (damage == Damage::kDeleted && !deletable) continue;
      SCOPED_TRACE(relative.string() + " " + DamageName(damage));
      Restore(saved);
      if (fs::file_size(Path(relative.string())) < 2 && damage == Damage::kCutInHalf) continue;
      Apply(damage, Path(relative.string()));
      arrow::Status restarted = Run();
      if (!restarted.ok()) {
        ++refused;
        EXPECT_NE(restarted.message().find(Path(relative.string())), std::string::npos)
            << restarted.ToString();
        continue;
      }
      ++recovered;
      EXPECT_EQ(Output(), expected);
    }
  }
  std::cout << files.size() << " files damaged: " << refused << " restarts refused, "
            << recovered << " recovered exactly" << std::endl;
}

// Spark makes up a new query id when the metadata file is gone; the Delta sink's txn and the
// Kafka sink's transactional id are keyed on it, so a re-run batch would be written twice.
TEST_P(DamagedCheckpointTest, AMissingQueryIdIsRefusedOnceBatchesAreLogged) {
  LandMinute(0);
  ASSERT_TRUE(Run().ok());
  fs::remove(Path("ckpt/metadata"));
  arrow::Status restarted = Run();
  ASSERT_FALSE(restarted.ok());
  EXPECT_NE(restarted.message().find(Path("ckpt/metadata") + " is corrupt: it is missing"),
            std::string::npos)
      << restarted.ToString();
}

INSTANTIATE_TEST_SUITE_P(
    Providers, DamagedCheckpointTest,
    ::testing::Values("org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider",
                      "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider"),
    [](const ::testing::TestParamInfo<std::string>& info) {
      return info.param.find("RocksDB") != std::string::npos ? std::string("RocksDB")
                                                             : std::string("Memory");
    });

}  // namespace
}  // namespace sluice::testing
