// The streaming file sink against what Spark 4.0.1 does (the facts each test relies on were
// checked on a real Spark run; see the comments).
#include "sluice/sinks/file/file_stream_sink.h"

#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <regex>

#include <gtest/gtest.h>

#include "formats/format_test_support.h"
#include "sinks/file_sink_test_support.h"
#include "sluice/checkpoint/atomic_file.h"
#include "sluice/checkpoint/compactible_log.h"
#include "sluice/checkpoint/file_sink_log.h"
#include "sluice/common/errors.h"
#include "support/session_fixture.h"
#include "sluice/types/ddl_parser.h"

namespace sluice::sinks {
namespace {

namespace fs = std::filesystem;
using formats::FileFormat;
using testing::DataFilesUnder;
using testing::HasErrorClass;
using testing::InMemoryBatchStream;
using testing::MakeBatch;
using testing::ReadCommittedRows;

/// One manifest line as Spark 4.0.1 wrote it (from a real run), with the per-file values
/// replaced by <path>, <size> and <time>.
constexpr const char* kSparkEntry =
    R"({"path":"<path>","size":<size>,"isDir":false,"modificationTime":<time>,)"
    R"("blockReplication":1,"blockSize":33554432,"action":"add"})";

std::string Replace(std::string text, const std::string& hole, const std::string& value) {
  return text.replace(text.find(hole), hole.size(), value);
}

int64_t ModificationMillis(const std::string& path) {
  struct stat info;
  EXPECT_EQ(::stat(path.c_str(), &info), 0) << path;
  return info.st_mtim.tv_sec * 1000LL + info.st_mtim.tv_nsec / 1000000;
}

class FileStreamSinkTest : public ::testing::Test {
 protected:
  std::unique_ptr<StreamSink> Sink(FileFormat format, formats::OptionMap options = {},
                                   std::vector<std::string> partition_by = {},
                                   int compact_interval = 10) {
    auto sink = MakeFileStreamSink(format, options, out_, partition_by, schema_,
                                   formats::FormatContext{}, compact_interval);
    EXPECT_TRUE(sink.ok()) << sink.status().ToString();
    return sink.ok() ? std::move(*sink) : nullptr;
  }
  /// Rows (id, kind, score) from one JSON array literal per column.
  arrow::Status Add(StreamSink& sink, int64_t batch_id, const std::string& ids,
                    const std::string& kinds, const std::string& scores) {
    InMemoryBatchStream data(schema_, {MakeBatch(schema_, {ids, kinds, scores})});
    return sink.AddBatch(batch_id, data, OutputMode::kAppend);
  }
  std::string Manifest(const std::string& name) const {
    return checkpoint::ReadWholeFile(out_ + "/_spark_metadata/" + name).ValueOrDie();
  }
  std::vector<std::string> Committed() const {
    auto files = checkpoint::CommittedSinkFiles(out_).ValueOrDie();
    EXPECT_TRUE(files.has_value());
    std::vector<std::string> relative;
    for (const auto& file : files.value_or(std::vector<std::string>{})) {
      relative.push_back(fs::relative(file, out_).string());
    }
    return relative;
  }
  std::vector<int64_t> CommittedIds(FileFormat format,
                                    std::vector<std::string> partition_by = {}) const {
    auto table = ReadCommittedRows(out_, format, schema_, partition_by).ValueOrDie();
    auto ids = table->GetColumnByName("id");
    std::vector<int64_t> values;
    for (const auto& chunk : ids->chunks()) {
      const auto& array = static_cast<const arrow::Int64Array&>(*chunk);
      for (int64_t i = 0; i < array.length(); ++i) values.push_back(array.Value(i));
    }
    std::sort(values.begin(), values.end());
    return values;
  }

  testing::ScratchDir dir_;
  std::string out_ = dir_ / "out";
  std::shared_ptr<arrow::Schema> schema_ =
      types::ParseSchema("id BIGINT, kind STRING, score DOUBLE").ValueOrDie();
};

TEST_F(FileStreamSinkTest, ManifestEntryIsSparksByteForByte) {
  auto sink = Sink(FileFormat::kParquet);
  ASSERT_OK(Add(*sink, 0, "[1, 2]", R"(["a", "b"])", "[0.5, null]"));
  auto files = DataFilesUnder(out_);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_TRUE(std::regex_match(
      files[0], std::regex("part-00000-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-"
                           "[0-9a-f]{12}-c000\\.snappy\\.parquet")))
      << files[0];
  std::string file = out_ + "/" + files[0];
  std::string entry = Replace(kSparkEntry, "<path>", "file://" + file);
  entry = Replace(entry, "<size>", std::to_string(fs::file_size(file)));
  entry = Replace(entry, "<time>", std::to_string(ModificationMillis(file)));
  EXPECT_EQ(Manifest("0"), "v1\n" + entry);
  EXPECT_EQ(sink->Describe(), "FileSink[file:" + out_ + "]");
  EXPECT_EQ(sink->last_output_rows(), -1);
}

TEST_F(FileStreamSinkTest, CompactsEveryIntervalBatchesIntoOneFile) {
  auto sink = Sink(FileFormat::kJson);
  std::vector<std::string> files_by_batch;
  for (int64_t batch = 0; batch <= 10; ++batch) {
    auto before = DataFilesUnder(out_);
    std::string id = std::string("[").append(std::to_string(batch)).append("]");
    ASSERT_OK(Add(*sink, batch, id, R"(["a"])", "[1.0]"));
    auto after = DataFilesUnder(out_);
    std::vector<std::string> added;
    std::set_difference(after.begin(), after.end(), before.begin(), before.end(),
                        std::back_inserter(added));
    ASSERT_EQ(added.size(), 1u);
    files_by_batch.push_back("file://" + out_ + "/" + added[0]);
  }
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(out_ + "/_spark_metadata")) {
    if (entry.path().filename().string()[0] != '.') names.push_back(entry.path().filename());
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"0", "1", "10", "2", "3", "4", "5", "6", "7", "8",
                                             "9.compact"}));
  // 9.compact holds the entries of batches 0 to 9, in batch order; 10 only its own.
  auto log = checkpoint::CompactibleLog::Open(out_ + "/_spark_metadata", 10).ValueOrDie();
  auto compact = log->Get(9).ValueOrDie().value();
  ASSERT_EQ(compact.size(), 10u);
  for (size_t i = 0; i < compact.size(); ++i) {
    EXPECT_EQ(checkpoint::ParseSinkFileStatus(compact[i], "9.compact")->path,
              files_by_batch[i]);
  }
  auto delta = log->Get(10).ValueOrDie().value();
  ASSERT_EQ(delta.size(), 1u);
  EXPECT_EQ(checkpoint::ParseSinkFileStatus(delta[0], "10")->path, files_by_batch[10]);
  EXPECT_EQ(Committed().size(), 11u);
}

TEST_F(FileStreamSinkTest, ReplayedBatchIsSkippedWithoutReadingIt) {
  auto sink = Sink(FileFormat::kJson);
  ASSERT_OK(Add(*sink, 0, "[1]", R"(["a"])", "[1.0]"));
  ASSERT_OK(Add(*sink, 1, "[2]", R"(["a"])", "[2.0]"));
  auto files = DataFilesUnder(out_);
  std::string manifest = Manifest("1");

  InMemoryBatchStream replay(schema_, {MakeBatch(schema_, {"[7]", R"(["z"])", "[7.0]"})});
  ASSERT_OK(sink->AddBatch(1, replay, OutputMode::kAppend));
  EXPECT_EQ(replay.pulled(), 0u);
  // A restarted query replays through a new sink over the same folder.
  auto restarted = Sink(FileFormat::kJson);
  ASSERT_OK(Add(*restarted, 0, "[8]", R"(["z"])", "[8.0]"));
  EXPECT_EQ(DataFilesUnder(out_), files);
  EXPECT_EQ(Manifest("1"), manifest);
  EXPECT_EQ(CommittedIds(FileFormat::kJson), (std::vector<int64_t>{1, 2}));

  ASSERT_OK(Add(*restarted, 2, "[3]", R"(["a"])", "[3.0]"));
  EXPECT_EQ(CommittedIds(FileFormat::kJson), (std::vector<int64_t>{1, 2, 3}));
}

TEST_F(FileStreamSinkTest, PartitionByWritesColumnFolders) {
  auto sink = Sink(FileFormat::kJson, {}, {"kind"});
  ASSERT_OK(Add(*sink, 0, "[1, 2, 3, 4]", R"(["a", "b", null, "a"])", "[1, 2, 3, 4]"));
  auto files = DataFilesUnder(out_);
  ASSERT_EQ(files.size(), 3u);
  // Spark names partitioned part files with '.' before c000.
  std::regex name("kind=(__HIVE_DEFAULT_PARTITION__|a|b)/part-00000-[0-9a-f-]{36}\\.c000\\.json");
  for (const auto& file : files) EXPECT_TRUE(std::regex_match(file, name)) << file;
  EXPECT_EQ(files[0].substr(0, 32), "kind=__HIVE_DEFAULT_PARTITION__/");
  EXPECT_EQ(files[1].substr(0, 7), "kind=a/");
  EXPECT_EQ(files[2].substr(0, 7), "kind=b/");
  EXPECT_EQ(Committed(), files);
  // The partition column lives in the folder names only.
  std::string text = checkpoint::ReadWholeFile(out_ + "/" + files[1]).ValueOrDie();
  EXPECT_EQ(text, "{\"id\":1,\"score\":1.0}\n{\"id\":4,\"score\":4.0}\n");
  auto table = ReadCommittedRows(out_, FileFormat::kJson, schema_, {"kind"}).ValueOrDie();
  EXPECT_EQ(testing::Rows(*table),
            (std::vector<std::string>{"3|3|null", "1|1|a", "4|4|a", "2|2|b"}));
}

TEST_F(FileStreamSinkTest, EmptyBatchWritesOneEmptyFileWhenUnpartitioned) {
  // Spark 4.0.1 writes (and logs) one part file for a batch without rows: an empty JSON file,
  // a Parquet file holding only the schema.
  auto json = Sink(FileFormat::kJson);
  ASSERT_OK(Add(*json, 0, "[]", "[]", "[]"));
  auto files = Committed();
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(fs::file_size(out_ + "/" + files[0]), 0u);

  out_ = dir_ / "parquet";
  auto parquet = Sink(FileFormat::kParquet);
  ASSERT_OK(Add(*parquet, 0, "[]", "[]", "[]"));
  ASSERT_EQ(Committed().size(), 1u);
  EXPECT_TRUE(CommittedIds(FileFormat::kParquet).empty());
}

TEST_F(FileStreamSinkTest, EmptyBatchWritesNoFileWhenPartitioned) {
  // Spark 4.0.1 writes no part file, and a manifest entry without files.
  auto sink = Sink(FileFormat::kJson, {}, {"kind"});
  ASSERT_OK(Add(*sink, 0, "[]", "[]", "[]"));
  EXPECT_TRUE(DataFilesUnder(out_).empty());
  EXPECT_EQ(Manifest("0").substr(0, 2), "v1");
  auto log = checkpoint::CompactibleLog::Open(out_ + "/_spark_metadata", 10).ValueOrDie();
  EXPECT_TRUE(log->Get(0).ValueOrDie().value().empty());
  EXPECT_TRUE(Committed().empty());
}

TEST_F(FileStreamSinkTest, FilesOfACrashedAttemptStayInvisible) {
  auto sink = Sink(FileFormat::kParquet);
  ASSERT_OK(Add(*sink, 0, "[1, 2]", R"(["a", "a"])", "[1, 2]"));
  auto committed = Committed();
  // An attempt of batch 1 wrote its files, then crashed before its manifest entry.
  ASSERT_OK(Add(*sink, 1, "[900, 901]", R"(["x", "x"])", "[9, 9]"));
  fs::remove(out_ + "/_spark_metadata/1");
  auto orphans = DataFilesUnder(out_);
  ASSERT_EQ(orphans.size(), 2u);
  EXPECT_EQ(Committed(), committed);
  EXPECT_EQ(CommittedIds(FileFormat::kParquet), (std::vector<int64_t>{1, 2}));

  // The restarted query runs batch 1 again: new files, and only they are committed.
  auto restarted = Sink(FileFormat::kParquet);
  ASSERT_OK(Add(*restarted, 1, "[3, 4]", R"(["a", "b"])", "[3, 4]"));
  EXPECT_EQ(DataFilesUnder(out_).size(), 3u);
  auto now = Committed();
  ASSERT_EQ(now.size(), 2u);
  EXPECT_EQ(now[0], committed[0]);
  for (const auto& orphan : orphans) EXPECT_TRUE(fs::exists(out_ + "/" + orphan));
  EXPECT_EQ(std::count(orphans.begin(), orphans.end(), now[1]), 0);
  EXPECT_EQ(CommittedIds(FileFormat::kParquet), (std::vector<int64_t>{1, 2, 3, 4}));
}

TEST_F(FileStreamSinkTest, RetentionDropsExpiredEntriesWhenCompacting) {
  auto sink = Sink(FileFormat::kJson, {{"retention", "1h"}}, {}, 2);
  ASSERT_OK(Add(*sink, 0, "[1]", R"(["a"])", "[1]"));
  // Make batch 0's file two hours old in its manifest entry.
  std::string path = out_ + "/_spark_metadata/0";
  auto entry = checkpoint::ParseSinkFileStatus(Manifest("0").substr(3), path).ValueOrDie();
  int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
  entry.modification_time = now - 2 * 3600 * 1000;
  ASSERT_OK(checkpoint::WriteFileAtomically(
      path, "v1\n" + checkpoint::SinkFileStatusToJson(entry), /*overwrite=*/true));
  ASSERT_OK(Add(*sink, 1, "[2]", R"(["a"])", "[2]"));
  EXPECT_TRUE(fs::exists(out_ + "/_spark_metadata/1.compact"));
  EXPECT_EQ(CommittedIds(FileFormat::kJson), (std::vector<int64_t>{2}));
}

TEST_F(FileStreamSinkTest, FormatOptionsReachTheWriter) {
  auto sink = Sink(FileFormat::kParquet, {{"compression", "gzip"}});
  ASSERT_OK(Add(*sink, 0, "[1]", R"(["a"])", "[1]"));
  auto files = Committed();
  ASSERT_EQ(files.size(), 1u);
  EXPECT_TRUE(files[0].ends_with("-c000.gz.parquet")) << files[0];
}

TEST_F(FileStreamSinkTest, OnlyAppendModeIsSupported) {
  // Spark 4.0.1: [STREAMING_OUTPUT_MODE.UNSUPPORTED_DATASOURCE] Invalid streaming output mode:
  // update. This output mode is not supported in Data Source parquet.
  auto sink = Sink(FileFormat::kParquet);
  InMemoryBatchStream data(schema_, {});
  auto update = sink->AddBatch(0, data, OutputMode::kUpdate);
  ASSERT_TRUE(HasErrorClass(update, "STREAMING_OUTPUT_MODE.UNSUPPORTED_DATASOURCE"));
  EXPECT_NE(update.message().find("Invalid streaming output mode: update. This output mode is "
                                  "not supported in Data Source parquet."),
            std::string::npos)
      << update.message();
  EXPECT_TRUE(HasErrorClass(sink->AddBatch(0, data, OutputMode::kComplete),
                            "STREAMING_OUTPUT_MODE.UNSUPPORTED_DATASOURCE"));
  EXPECT_TRUE(DataFilesUnder(out_).empty());
}

TEST_F(FileStreamSinkTest, BadSettingsFailNamingWhatIsWrong) {
  auto make = [&](formats::OptionMap options, std::vector<std::string> partition_by,
                  const std::string& path, int interval) {
    return MakeFileStreamSink(FileFormat::kParquet, options, path, partition_by, schema_,
                              formats::FormatContext{}, interval)
        .status();
  };
  auto codec = make({{"compression", "bogus"}}, {}, out_, 10);
  EXPECT_TRUE(HasErrorClass(codec, "CODEC_NOT_AVAILABLE.WITH_AVAILABLE_CODECS_SUGGESTION"));
  EXPECT_NE(codec.message().find("compression"), std::string::npos) << codec.message();

  auto retention = make({{"retention", "1.5h"}}, {}, out_, 10);
  // Spark's JavaUtils message (it has no error class), naming the option.
  EXPECT_NE(retention.message().find("Failed to parse time string: 1.5h"), std::string::npos)
      << retention.message();
  EXPECT_NE(retention.message().find("retention"), std::string::npos) << retention.message();

  EXPECT_TRUE(HasErrorClass(make({}, {"nope"}, out_, 10), "COLUMN_NOT_FOUND"));
  auto interval = make({}, {}, out_, 0);
  EXPECT_NE(interval.message().find("spark.sql.streaming.fileSink.log.compactInterval"),
            std::string::npos);

  std::string file = dir_.Write("afile", "x");
  auto under_file = make({}, {}, file + "/out", 10);
  ASSERT_FALSE(under_file.ok());
  EXPECT_NE(under_file.message().find("file:" + file + "/out"), std::string::npos)
      << under_file.message();
  auto is_file = make({}, {}, file, 10);
  ASSERT_FALSE(is_file.ok());
  EXPECT_NE(is_file.message().find("file:" + file + ": it is a file"), std::string::npos)
      << is_file.message();
}

}  // namespace
}  // namespace sluice::sinks
