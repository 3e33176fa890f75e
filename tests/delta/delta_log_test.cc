// The Delta transaction log: actions in and out of JSON, snapshots replayed from commits and
// checkpoints, put-if-absent commits, the protocol check and file statistics.
#include <filesystem>
#include <fstream>

#include <arrow/array.h>
#include <arrow/compute/initialize.h>
#include <arrow/json/from_string.h>
#include <arrow/record_batch.h>
#include <arrow/type.h>
#include <gtest/gtest.h>

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/common/errors.h"
#include "sluice/delta/delta_actions.h"
#include "sluice/delta/delta_checkpoint.h"
#include "sluice/delta/delta_log.h"
#include "sluice/delta/delta_protocol.h"
#include "sluice/delta/delta_statistics.h"
#include "sluice/formats/column_statistics.h"
#include "sluice/formats/file_format.h"
#include "support/scratch_dir.h"
#include "support/session_fixture.h"

namespace sluice::delta {
namespace {

using testing::HasErrorClass;

Metadata TableMetadata() {
  Metadata metadata;
  metadata.id = "2b5c1a9e-0000-4000-8000-000000000001";
  metadata.schema_string =
      R"({"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}},)"
      R"({"name":"day","type":"string","nullable":true,"metadata":{}}]})";
  metadata.partition_columns = {"day"};
  metadata.created_time = 1700000000000;
  return metadata;
}

AddFile Add(const std::string& path, std::optional<std::string> day) {
  AddFile add;
  add.path = path;
  add.partition_values = {{"day", std::move(day)}};
  add.size = 100;
  add.modification_time = 1700000000000;
  add.stats = R"({"numRecords":1})";
  return add;
}

RemoveFile Remove(const std::string& path) {
  RemoveFile remove;
  remove.path = path;
  remove.deletion_timestamp = 1700000000001;
  remove.extended_file_metadata = true;
  remove.size = 100;
  return remove;
}

std::vector<std::string> PathsOf(const Snapshot& snapshot) {
  std::vector<std::string> paths;
  for (const auto& file : snapshot.files) paths.push_back(file.path);
  return paths;
}

TEST(DeltaActionsTest, AddIsWrittenAsDeltaSparkWritesIt) {
  EXPECT_EQ(ActionToJson(Add("day=2024-01-01/part-0.parquet", "2024-01-01")),
            R"({"add":{"path":"day=2024-01-01/part-0.parquet","partitionValues":)"
            R"({"day":"2024-01-01"},"size":100,"modificationTime":1700000000000,)"
            R"("dataChange":true,"stats":"{\"numRecords\":1}"}})");
  EXPECT_EQ(ActionToJson(Protocol{}), R"({"protocol":{"minReaderVersion":1,"minWriterVersion":2}})");
  EXPECT_EQ(ActionToJson(Transaction{"query", 7, 123}),
            R"({"txn":{"appId":"query","version":7,"lastUpdated":123}})");
}

TEST(DeltaActionsTest, EveryActionSurvivesARoundTrip) {
  CommitInfo info;
  info.timestamp = 5;
  info.operation = "STREAMING UPDATE";
  info.operation_parameters = {{"outputMode", "Append"}, {"epochId", "3"}};
  info.read_version = 2;
  info.isolation_level = "Serializable";
  info.is_blind_append = true;
  info.operation_metrics = {{"numFiles", "1"}};
  info.engine_info = "Sluice";
  info.txn_id = "t";
  Protocol features{3, 7, std::vector<std::string>{}, std::vector<std::string>{"appendOnly"}};
  std::vector<Action> actions = {info,
                                 Protocol{},
                                 features,
                                 TableMetadata(),
                                 Transaction{"app", 4, 9},
                                 Add("day=__HIVE_DEFAULT_PARTITION__/a.parquet", std::nullopt),
                                 Remove("b.parquet")};
  auto parsed = ParseCommit(CommitToJson(actions), "00000000000000000000.json");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(*parsed, actions);
}

TEST(DeltaActionsTest, ReadsWhatOtherWritersAddAndSkipsActionsItDoesNotUse) {
  // As delta-rs writes them: nulls for absent fields, numbers in operationParameters, cdc.
  const std::string text =
      R"({"commitInfo":{"timestamp":1,"operation":"WRITE","operationParameters":{"mode":"Append","n":2},"engineInfo":"delta-rs"}})"
      "\n"
      R"({"add":{"path":"a.parquet","partitionValues":{},"size":5,"modificationTime":1,"dataChange":true,"stats":null,"tags":null,"deletionVector":null}})"
      "\n"
      R"({"cdc":{"path":"_change_data/x.parquet","partitionValues":{},"size":1,"dataChange":false}})"
      "\n";
  auto parsed = ParseCommit(text, "x.json");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(parsed->size(), 2u);
  const auto& info = std::get<CommitInfo>((*parsed)[0]);
  EXPECT_EQ(info.operation_parameters.at("n"), "2");
  const auto& add = std::get<AddFile>((*parsed)[1]);
  EXPECT_EQ(add.path, "a.parquet");
  EXPECT_FALSE(add.stats.has_value());
}

TEST(DeltaActionsTest, ACorruptLineIsRefusedNamingTheFileAndLine) {
  auto parsed = ParseCommit("{\"txn\":{\"appId\":\"a\",\"version\":1}}\n{\"add\":{\"path\":", "/t/_delta_log/00000000000000000003.json");
  ASSERT_FALSE(parsed.ok());
  EXPECT_TRUE(HasErrorClass(parsed.status(), "DELTA_LOG_FILE_CORRUPT"));
  EXPECT_NE(parsed.status().message().find("00000000000000000003.json is corrupt at line 2"),
            std::string::npos)
      << parsed.status().message();
  auto missing = ParseCommit(R"({"add":{"partitionValues":{}}})", "f.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("\"path\""), std::string::npos);
}

class DeltaLogTest : public ::testing::Test {
 protected:
  void Commit(int64_t version, const std::vector<Action>& actions) {
    auto status = log_.WriteCommit(version, actions);
    ASSERT_TRUE(status.ok()) << status.ToString();
  }

  testing::ScratchDir dir_;
  DeltaLog log_{dir_ / "table"};
};

TEST_F(DeltaLogTest, ReplaysAddsRemovesAndTransactions) {
  Commit(0, {Protocol{}, TableMetadata(), Add("a", "1"), Add("b", "2"), Transaction{"q", 0, {}}});
  Commit(1, {Remove("a"), Add("c", std::nullopt), Transaction{"q", 1, {}}});
  Commit(2, {Add("b", "2"), Transaction{"other", 5, {}}});
  auto latest = log_.Load();
  ASSERT_TRUE(latest.ok()) << latest.status().ToString();
  EXPECT_EQ(latest->version, 2);
  EXPECT_EQ(PathsOf(*latest), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(latest->AppVersion("q"), 1);
  EXPECT_EQ(latest->AppVersion("other"), 5);
  EXPECT_EQ(latest->AppVersion("nobody"), std::nullopt);
  ASSERT_EQ(latest->schema->num_fields(), 2);
  EXPECT_EQ(latest->schema->field(0)->type()->id(), arrow::Type::INT64);

  auto first = log_.Load(0);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(PathsOf(*first), (std::vector<std::string>{"a", "b"}));
  auto forward = log_.Update(*first);
  ASSERT_TRUE(forward.ok());
  EXPECT_EQ(PathsOf(*forward), PathsOf(*latest));
  EXPECT_EQ(forward->app_versions, latest->app_versions);

  auto too_far = log_.Load(3);
  EXPECT_TRUE(HasErrorClass(too_far.status(), "DELTA_VERSION_NOT_FOUND"));
}

TEST_F(DeltaLogTest, ACommitVersionIsTakenOnlyOnce) {
  Commit(0, {Protocol{}, TableMetadata()});
  auto again = log_.WriteCommit(0, {Add("x", "1")});
  ASSERT_FALSE(again.ok());
  EXPECT_TRUE(checkpoint::IsAlreadyExists(again));
  auto snapshot = log_.Load();
  ASSERT_TRUE(snapshot.ok());
  EXPECT_TRUE(snapshot->files.empty());
}

TEST_F(DeltaLogTest, AMissingOrCorruptCommitIsAnErrorNamingIt) {
  EXPECT_TRUE(HasErrorClass(log_.Load().status(), "DELTA_TABLE_NOT_FOUND"));
  Commit(0, {Protocol{}, TableMetadata()});
  Commit(1, {Add("a", "1")});
  Commit(2, {Add("b", "1")});
  std::filesystem::remove(log_.CommitPath(1));
  auto gap = log_.Load();
  EXPECT_TRUE(HasErrorClass(gap.status(), "DELTA_VERSIONS_NOT_CONTIGUOUS"));
  EXPECT_NE(gap.status().message().find(log_.CommitPath(1)), std::string::npos);
  std::ofstream(log_.CommitPath(1)) << "not json\n";
  auto corrupt = log_.Load();
  EXPECT_TRUE(HasErrorClass(corrupt.status(), "DELTA_LOG_FILE_CORRUPT"));
  EXPECT_NE(corrupt.status().message().find(log_.CommitPath(1)), std::string::npos);
}

TEST_F(DeltaLogTest, ALogWithoutMetadataCannotBeRecovered) {
  Commit(0, {Protocol{}, Add("a", "1")});
  EXPECT_TRUE(HasErrorClass(log_.Load().status(), "DELTA_STATE_RECOVER_ERROR"));
}

TEST_F(DeltaLogTest, ACheckpointHoldsTheWholeStateAndReadersStartFromIt) {
  Commit(0, {Protocol{}, TableMetadata(), Add("a", "1"), Add("b", std::nullopt),
             Transaction{"q", 0, {}}});
  Commit(1, {Remove("a"), Add("c", "3"), Transaction{"q", 1, {}}});
  auto at_one = log_.Load();
  ASSERT_TRUE(at_one.ok());
  ASSERT_TRUE(WriteCheckpoint(log_, *at_one).ok());
  Commit(2, {Add("d", "4")});
  // Without the commits the checkpoint covers, the table is still whole.
  std::filesystem::remove(log_.CommitPath(0));
  std::filesystem::remove(log_.CommitPath(1));
  auto checkpoint_version = FindCheckpoint(log_, 2);
  ASSERT_TRUE(checkpoint_version.ok());
  EXPECT_EQ(*checkpoint_version, 1);
  auto latest = log_.Load();
  ASSERT_TRUE(latest.ok()) << latest.status().ToString();
  EXPECT_EQ(PathsOf(*latest), (std::vector<std::string>{"b", "c", "d"}));
  EXPECT_EQ(latest->AppVersion("q"), 1);
  EXPECT_EQ(latest->metadata, TableMetadata());
  EXPECT_EQ(latest->protocol, Protocol{});
  const AddFile& b = latest->files[0];
  EXPECT_EQ(b.partition_values, (PartitionValues{{"day", std::nullopt}}));
  EXPECT_EQ(b.stats, R"({"numRecords":1})");
}

TEST_F(DeltaLogTest, AGarbledCheckpointIsAnErrorNamingIt) {
  Commit(0, {Protocol{}, TableMetadata()});
  auto snapshot = log_.Load();
  ASSERT_TRUE(snapshot.ok());
  ASSERT_TRUE(WriteCheckpoint(log_, *snapshot).ok());
  std::ofstream(log_.CheckpointPath(0), std::ios::trunc) << "PAR1 garbage";
  auto loaded = log_.Load();
  EXPECT_TRUE(HasErrorClass(loaded.status(), "DELTA_LOG_FILE_CORRUPT"));
  EXPECT_NE(loaded.status().message().find(log_.CheckpointPath(0)), std::string::npos);
}

TEST(DeltaProtocolTest, RefusesWhatItCannotReadOrWrite) {
  EXPECT_TRUE(CheckReadable(Protocol{1, 2, {}, {}}, "t").ok());
  EXPECT_TRUE(HasErrorClass(CheckReadable(Protocol{2, 5, {}, {}}, "t"),
                            "DELTA_INVALID_PROTOCOL_VERSION"));
  auto vectors = CheckReadable(
      Protocol{3, 7, std::vector<std::string>{"deletionVectors"}, std::vector<std::string>{}},
      "t");
  EXPECT_TRUE(HasErrorClass(vectors, "DELTA_UNSUPPORTED_FEATURES_FOR_READ"));
  EXPECT_NE(vectors.message().find("deletionVectors"), std::string::npos);

  Snapshot snapshot;
  snapshot.protocol = Protocol{1, 4, {}, {}};
  EXPECT_TRUE(
      HasErrorClass(CheckWritable(snapshot, "t", false), "DELTA_INVALID_PROTOCOL_VERSION"));
  snapshot.protocol = Protocol{3, 7, std::vector<std::string>{},
                               std::vector<std::string>{"appendOnly", "checkConstraints"}};
  EXPECT_TRUE(HasErrorClass(CheckWritable(snapshot, "t", false),
                            "DELTA_UNSUPPORTED_FEATURES_FOR_WRITE"));
  snapshot.protocol = Protocol{};
  snapshot.metadata.configuration["delta.appendOnly"] = "true";
  EXPECT_TRUE(CheckWritable(snapshot, "t", false).ok());
  EXPECT_TRUE(
      HasErrorClass(CheckWritable(snapshot, "t", true), "DELTA_CANNOT_MODIFY_APPEND_ONLY"));
}

TEST(DeltaStatisticsTest, BoundsAreSafeForSkipping) {
  ASSERT_TRUE(arrow::compute::Initialize().ok());
  auto timestamp = arrow::timestamp(arrow::TimeUnit::MICRO, "UTC");
  auto schema = arrow::schema({arrow::field("n", arrow::int64()), arrow::field("s", arrow::utf8()),
                               arrow::field("t", timestamp), arrow::field("x", arrow::float64()),
                               arrow::field("b", arrow::boolean())});
  std::vector<formats::ColumnStatistics> statistics;
  for (const auto& field : schema->fields()) statistics.emplace_back(field->type());
  auto update = [&](int column, const std::shared_ptr<arrow::DataType>& type,
                    const std::string& json) {
    auto array = arrow::json::ArrayFromJSONString(type, json);
    ASSERT_TRUE(array.ok()) << array.status().ToString();
    ASSERT_TRUE(statistics[column].Update(**array).ok());
  };
  update(0, arrow::int64(), "[5, null, -3]");
  update(0, arrow::int64(), "[9]");
  update(3, arrow::float64(), "[1.5, NaN]");
  update(4, arrow::boolean(), "[true, null]");
  // The bounds as a file format records them.
  statistics[0].SetBounds(arrow::MakeScalar(int64_t{-3}), arrow::MakeScalar(int64_t{9}));
  const std::string long_text(40, 'z');
  statistics[1].SetBounds(arrow::MakeScalar("b"), arrow::MakeScalar(long_text));
  // 1 ms and 1 µs after the epoch: the maximum rounds up to the next millisecond.
  statistics[2].SetBounds(std::make_shared<arrow::TimestampScalar>(1000, timestamp),
                          std::make_shared<arrow::TimestampScalar>(1001, timestamp));
  // A column that held a NaN gets no bounds; nor does a type without a kept order.
  statistics[3].SetBounds(arrow::MakeScalar(1.5), arrow::MakeScalar(1.5));
  statistics[4].SetBounds(arrow::MakeScalar(true), arrow::MakeScalar(true));
  EXPECT_EQ(StatisticsJson(4, *schema, statistics),
            R"({"numRecords":4,"minValues":{"n":-3,"s":"b","t":"1970-01-01T00:00:00.001Z"},)"
            R"("maxValues":{"n":9,"t":"1970-01-01T00:00:00.002Z"},)"
            R"("nullCount":{"n":1,"s":0,"t":0,"x":0,"b":1}})");
}

TEST(DeltaStatisticsTest, ParquetFilesReportTheBoundsOfTheirFooter) {
  ASSERT_TRUE(arrow::compute::Initialize().ok());
  testing::ScratchDir dir;
  auto schema = arrow::schema({arrow::field("n", arrow::int64()), arrow::field("s", arrow::utf8()),
                               arrow::field("d", arrow::date32()),
                               arrow::field("l", arrow::list(arrow::int32())),
                               arrow::field("x", arrow::float64())});
  auto writer = formats::MakeFormatWriter(formats::FileFormat::kParquet, {}, {});
  ASSERT_TRUE(writer.ok());
  auto file = (*writer)->Open(dir / "f.parquet", schema);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  std::vector<formats::ColumnStatistics> statistics;
  for (const auto& field : schema->fields()) statistics.emplace_back(field->type());
  for (const char* rows :
       {R"([{"n": 7, "s": "m", "d": 3, "l": [1], "x": 0.5},
            {"n": null, "s": "b", "d": 5, "l": null, "x": 2.5}])",
        R"([{"n": -2, "s": "z", "d": 1, "l": [2, 3], "x": -1.0}])"}) {
    auto rows_array = arrow::json::ArrayFromJSONString(arrow::struct_(schema->fields()), rows);
    ASSERT_TRUE(rows_array.ok()) << rows_array.status().ToString();
    auto batch = arrow::RecordBatch::FromStructArray(*rows_array);
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    for (int c = 0; c < schema->num_fields(); ++c) {
      ASSERT_TRUE(statistics[c].Update(*(*batch)->column(c)).ok());
    }
    ASSERT_TRUE((*file)->Write(**batch).ok());
  }
  ASSERT_TRUE((*file)->Close().ok());
  (*file)->RecordedBounds(&statistics);
  EXPECT_EQ(StatisticsJson(3, *schema, statistics),
            R"({"numRecords":3,"minValues":{"n":-2,"s":"b","d":"1970-01-02","x":-1},)"
            R"("maxValues":{"n":7,"s":"z","d":"1970-01-06","x":2.5},)"
            R"("nullCount":{"n":1,"s":0,"d":0,"x":0}})");
}

}  // namespace
}  // namespace sluice::delta
