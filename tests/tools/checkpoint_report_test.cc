// `sluice checkpoint` on checkpoints written by real queries on both providers: the batches,
// the restart decision, the latest batch's offsets, time and watermark, the pinned settings
// and the state operators; and errors naming the missing or damaged file.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "sluice/api/data_stream_writer.h"
#include "sluice/execution/iso_timestamp.h"
#include "sluice/tools/checkpoint_report.h"
#include "tools/stateful_checkpoint_fixture.h"

namespace sluice::testing {
namespace {

namespace fs = std::filesystem;
using tools::CheckpointReport;
using tools::ReadCheckpointReport;

class CheckpointReportTest : public StatefulCheckpointTest {
 protected:
  CheckpointReport Report() {
    auto report = ReadCheckpointReport(checkpoint_);
    EXPECT_TRUE(report.ok()) << report.status().ToString();
    return report.ok() ? *report : CheckpointReport{};
  }

  static std::string Printed(const CheckpointReport& report) {
    std::ostringstream out;
    tools::PrintCheckpointReport(report, out);
    return out.str();
  }

  const tools::StateOperatorReport* Operator(const CheckpointReport& report,
                                             const std::string& name) {
    for (const auto& op : report.operators) {
      if (op.info.operator_name == name) return &op;
    }
    ADD_FAILURE() << "no operator " << name;
    return nullptr;
  }
};

TEST_P(CheckpointReportTest, ReportsBatchesOffsetsWatermarkAndState) {
  RunDedupedCounts();
  const auto progress = query_->lastProgress();
  ASSERT_TRUE(progress.has_value());
  const int64_t last = progress->batch_id;
  const CheckpointReport report = Report();

  EXPECT_EQ(report.query_id, query_->id());
  std::vector<int64_t> batches;
  for (int64_t id = 0; id <= last; ++id) batches.push_back(id);
  EXPECT_EQ(report.offsets_batches, batches);
  EXPECT_EQ(report.commit_batches, batches);
  EXPECT_FALSE(report.resume.rerun);
  EXPECT_EQ(report.resume.next_batch_id, last + 1);

  // The latest batch: the source offset and watermark its progress reported, a time within the
  // run, and the watermark after it: 25 s - 10 s.
  ASSERT_TRUE(report.latest_offsets.has_value());
  EXPECT_EQ(report.latest_batch, last);
  ASSERT_EQ(report.latest_offsets->offsets.size(), 1u);
  EXPECT_EQ(report.latest_offsets->offsets[0], progress->sources.at(0).end_offset);
  const auto& metadata = report.latest_offsets->metadata;
  EXPECT_EQ(execution::FormatIsoTimestamp(metadata.batch_watermark_ms),
            progress->event_time.at("watermark"));
  EXPECT_GE(metadata.batch_timestamp_ms, started_ms_);
  EXPECT_LE(metadata.batch_timestamp_ms, finished_ms_);
  ASSERT_TRUE(report.latest_commit.has_value());
  EXPECT_EQ(report.latest_commit->next_batch_watermark_ms, 15000);

  // Both operators, each with the query's 2 partitions, the state versions of every batch.
  ASSERT_EQ(report.operators.size(), 2u);
  for (const auto* name : {"dedupe", "stateStoreSave"}) {
    const auto* op = Operator(report, name);
    ASSERT_NE(op, nullptr);
    EXPECT_EQ(op->info.num_partitions, 2);
    ASSERT_EQ(op->info.stores.size(), 1u);
    EXPECT_EQ(op->info.stores[0].store_name, "default");
    EXPECT_EQ(op->latest_version, last + 1);
    EXPECT_GT(op->bytes_on_disk, 0);
  }
  const auto* aggregation = Operator(report, "stateStoreSave");
  ASSERT_NE(aggregation, nullptr);
  EXPECT_EQ(aggregation->info.stores[0].key_schema->ToString(), "k: string");
  ASSERT_TRUE(aggregation->state_format.has_value());
  EXPECT_EQ(aggregation->state_format->second, "2");

  const std::string text = Printed(report);
  const std::string range = last == 0 ? "0" : "0-" + std::to_string(last);
  EXPECT_NE(text.find("Query id    " + query_->id() + "\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Batches     offsets " + range + ", commits " + range + "\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("no batch to re-run; the next batch is " + std::to_string(last + 1)),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  timestamp        " +
                      execution::FormatIsoTimestamp(metadata.batch_timestamp_ms) + " (" +
                      std::to_string(metadata.batch_timestamp_ms) + ")\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  next watermark   1970-01-01T00:00:15.000Z (15000) (committed)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  spark.sql.shuffle.partitions = 2\n"), std::string::npos) << text;
  EXPECT_NE(text.find(std::string("  spark.sql.streaming.stateStore.providerClass = ") +
                      GetParam() + "\n"),
            std::string::npos)
      << text;
  const std::string provider = GetParam();
  EXPECT_NE(text.find("       provider   " + provider.substr(provider.rfind('.') + 1) + "\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("       version    " + std::to_string(last + 1) + " (written by batch " +
                      std::to_string(last) + ")\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("stateStoreSave\n       stores     default (key: k STRING; value: "),
            std::string::npos)
      << text;
}

TEST_P(CheckpointReportTest, NamesTheBatchARestartReRuns) {
  RunDedupedCounts();
  const int64_t last = query_->lastProgress()->batch_id;
  fs::remove(fs::path(checkpoint_) / "commits" / std::to_string(last));
  const CheckpointReport report = Report();
  EXPECT_TRUE(report.resume.rerun);
  EXPECT_EQ(report.resume.next_batch_id, last);
  EXPECT_FALSE(report.latest_commit.has_value());
  EXPECT_NE(Printed(report).find("re-runs batch " + std::to_string(last) +
                                 " (it has offsets but no commit)"),
            std::string::npos);
}

TEST_P(CheckpointReportTest, ListsTheFourStoresOfAJoin) {
  RunJoin();
  const CheckpointReport report = Report();
  ASSERT_EQ(report.operators.size(), 1u);
  const auto& join = report.operators[0];
  EXPECT_EQ(join.info.operator_name, "symmetricHashJoin");
  std::vector<std::string> stores;
  for (const auto& store : join.info.stores) stores.push_back(store.store_name);
  std::sort(stores.begin(), stores.end());
  EXPECT_EQ(stores, (std::vector<std::string>{"left-keyToNumValues", "left-keyWithIndexToValue",
                                              "right-keyToNumValues",
                                              "right-keyWithIndexToValue"}));
  ASSERT_TRUE(join.state_format.has_value());
  EXPECT_EQ(join.state_format->first, "spark.sql.streaming.join.stateFormatVersion");
}

TEST_P(CheckpointReportTest, ADamagedOrMissingFileIsNamed) {
  auto error_of = [&]() {
    auto report = ReadCheckpointReport(checkpoint_);
    EXPECT_FALSE(report.ok());
    return report.ok() ? std::string() : report.status().message();
  };
  EXPECT_NE(error_of().find("The checkpoint folder " + checkpoint_ + " does not exist"),
            std::string::npos);
  RunDedupedCounts();
  const fs::path root(checkpoint_);
  std::ofstream(root / "offsets" / "0", std::ios::trunc) << "v1\n{\"batchWatermarkMs\":";
  EXPECT_NE(error_of().find((root / "offsets" / "0").string()), std::string::npos);
  fs::remove(root / "offsets" / "0");
  fs::remove(root / "state" / "1" / "_metadata" / "metadata");
  EXPECT_NE(error_of().find((root / "state" / "1" / "_metadata" / "metadata").string()),
            std::string::npos);
  fs::remove(root / "metadata");
  EXPECT_NE(error_of().find("The checkpoint metadata file " + (root / "metadata").string() +
                            " does not exist"),
            std::string::npos);
}

// A file source's folder holds its log of admitted files, read back with the source's reader.
class FileSourceCheckpointReportTest : public SessionTest {
 protected:
  ScratchDir scratch_;
};

TEST_F(FileSourceCheckpointReportTest, CountsTheFilesTheSourceAdmitted) {
  for (const char* name : {"a.json", "b.json", "c.json"}) {
    scratch_.Write(std::string("in/") + name, "{\"n\":1}\n{\"n\":2}\n");
  }
  const std::string checkpoint = scratch_ / "checkpoint";
  auto query = spark_->readStream()
                   .schema("n INT")
                   .option("maxFilesPerTrigger", int64_t{1})
                   .json(scratch_ / "in")
                   .writeStream()
                   .format("noop")
                   .option("checkpointLocation", checkpoint)
                   .trigger(Trigger::AvailableNow())
                   .start();
  ASSERT_TRUE(query.ok()) << query.status().ToString();
  ASSERT_TRUE((*query)->awaitTermination().ok());

  auto report = ReadCheckpointReport(checkpoint);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->offsets_batches, (std::vector<int64_t>{0, 1, 2}));
  ASSERT_EQ(report->sources.size(), 1u);
  const auto& source = report->sources[0];
  EXPECT_EQ(source.latest_offset, "{\"logOffset\":2}");
  EXPECT_EQ(source.metadata_batches, (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(source.files_admitted, 3);
  EXPECT_FALSE(source.kafka_initial_offsets.has_value());
  EXPECT_TRUE(report->operators.empty());
  std::ostringstream out;
  tools::PrintCheckpointReport(*report, out);
  EXPECT_NE(out.str().find("  0  sources/0: entries 0-2; file source log, 3 files admitted\n"),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("State operators  none\n"), std::string::npos) << out.str();
}

TEST(CheckpointReportRangesTest, PrintsRunsOfBatchIdsAsRanges) {
  EXPECT_EQ(tools::BatchRanges({}), "none");
  EXPECT_EQ(tools::BatchRanges({4}), "4");
  EXPECT_EQ(tools::BatchRanges({0, 1, 2, 5, 7, 8}), "0-2, 5, 7-8");
}

INSTANTIATE_TEST_SUITE_P(Providers, CheckpointReportTest,
                         ::testing::Values(state::kHdfsBackedProviderClass,
                                           state::kRocksDbProviderClass),
                         ProviderName);

}  // namespace
}  // namespace sluice::testing
