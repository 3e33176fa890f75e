// The file source log as Spark 4.0.1 writes it (entries, compaction every 10 batches, URIs of
// odd file names), read back after a restart, and rejected with the file named when corrupt.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "sluice/common/errors.h"
#include "sluice/sources/file/file_source_offset.h"
#include "sluice/sources/file/file_stream_source_log.h"
#include "sluice/checkpoint/file_uri.h"
#include "sources/file_stream_fixture.h"

namespace sluice::sources::testing {
namespace {

namespace fs = std::filesystem;

TEST(FileSourceLogFormatTest, EntriesAndOffsetsAsSpark) {
  FileEntry entry{"file:///data/in/a.json", 1796060372327, 0};
  EXPECT_EQ(FileEntryToJson(entry),
            "{\"path\":\"file:///data/in/a.json\",\"timestamp\":1796060372327,"
            "\"batchId\":0}");
  auto parsed = ParseFileEntry(FileEntryToJson(entry), "log");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*parsed, entry);
  EXPECT_EQ(FileSourceOffsetJson(0), "{\"logOffset\":0}");
  EXPECT_EQ(ParseFileSourceOffset("{\"logOffset\":12}").ValueOrDie(), 12);
  EXPECT_EQ(ParseFileSourceOffset("{ \"logOffset\" : 3 }").ValueOrDie(), 3);
  EXPECT_EQ(ParseFileSourceOffset("7").ValueOrDie(), 7);
  EXPECT_FALSE(ParseFileSourceOffset("{\"offset\":1}").ok());
}

TEST(FileSourceLogFormatTest, UrisOfOddNamesAsSpark) {
  // The paths Spark 4.0.1 logged for these files under a folder k=a%3Ab.
  std::vector<std::pair<std::string, std::string>> cases = {
      {"a b.json", "a%20b.json"},
      {"p%q.json", "p%25q.json"},
      {"h#x.json", "h%23x.json"},
      {"\xc3\xbc.json", "\xc3\xbc.json"},
      {"c[1].json", "c%5B1%5D.json"},
      {"e&f+g=h,i;j@k$l!m~n'o(p)q*r.json", "e&f+g=h,i;j@k$l!m~n'o(p)q*r.json"},
      {"s^t`u{v}w|x.json", "s%5Et%60u%7Bv%7Dw%7Cx.json"},
      {"y\"z<>.json", "y%22z%3C%3E.json"},
  };
  for (const auto& [name, encoded] : cases) {
    std::string local = "/in/k=a%3Ab/" + name;
    EXPECT_EQ(checkpoint::FileUri(local), "file:///in/k=a%253Ab/" + encoded);
    EXPECT_EQ(checkpoint::LocalPathOfFileUri(checkpoint::FileUri(local)).ValueOrDie(), local);
  }
  EXPECT_EQ(checkpoint::LocalPathOfFileUri("file:/in/a%20b").ValueOrDie(), "/in/a b");
  EXPECT_FALSE(checkpoint::LocalPathOfFileUri("hdfs://host/in/a").ok());
  EXPECT_FALSE(checkpoint::LocalPathOfFileUri("file:///in/a%2").ok());
}

class FileStreamLogTest : public FileStreamTest {
 protected:
  /// f00.json .. f11.json modified at 1000 s + i seconds, as in the Spark run.
  void WriteTwelveFiles() {
    for (int i = 0; i < 12; ++i) {
      std::string name = (i < 10 ? "f0" : "f") + std::to_string(i) + ".json";
      WriteRow(name, i, (1000 + i) * 1000LL);
    }
  }
  std::string EntryLine(int i, int batch) {
    std::string name = (i < 10 ? "f0" : "f") + std::to_string(i) + ".json";
    return "{\"path\":\"file://" + In() + "/" + name + "\",\"timestamp\":" +
           std::to_string((1000 + i) * 1000LL) + ",\"batchId\":" + std::to_string(batch) + "}";
  }
};

TEST_F(FileStreamLogTest, CompactsEveryTenBatchesAsSpark) {
  // Spark with maxFilesPerTrigger=1 wrote 0..8, 9.compact (every entry so far, each with its
  // own batchId), then 10 and 11 with one entry each.
  WriteTwelveFiles();
  {
    auto source = StartWith({{"maxFilesPerTrigger", "1"}});
    ASSERT_NE(source, nullptr);
    for (int batch = 0; batch < 12; ++batch) {
      EXPECT_EQ(Next(*source), "{\"logOffset\":" + std::to_string(batch) + "}");
    }
  }
  std::string compact = "v1";
  for (int i = 0; i < 10; ++i) compact += "\n" + EntryLine(i, i);
  EXPECT_EQ(LogFile("9.compact"), compact);
  EXPECT_FALSE(fs::exists(MetadataPath() + "/9"));
  EXPECT_EQ(LogFile("10"), "v1\n" + EntryLine(10, 10));
  EXPECT_EQ(LogFile("3"), "v1\n" + EntryLine(3, 3));

  // Spark deletes the files a compact file covers; the batches stay readable through it.
  fs::remove(MetadataPath() + "/3");
  auto restarted = StartWith({{"maxFilesPerTrigger", "1"}});
  ASSERT_NE(restarted, nullptr);
  EXPECT_EQ(Read(*restarted, "{\"logOffset\":2}", "{\"logOffset\":3}"),
            (std::vector<std::string>{"3"}));
  EXPECT_EQ(Read(*restarted, "{\"logOffset\":8}", "{\"logOffset\":10}"),
            (std::vector<std::string>{"9", "10"}));
  EXPECT_EQ(Next(*restarted), "{\"logOffset\":11}");
}

TEST_F(FileStreamLogTest, CompactIntervalComesFromTheSession) {
  ASSERT_TRUE(config_.Set("spark.sql.streaming.fileSource.log.compactInterval", "2").ok());
  WriteRow("a.json", 1, 1000);
  WriteRow("b.json", 2, 2000);
  auto source = StartWith({{"maxFilesPerTrigger", "1"}});
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  EXPECT_EQ(Next(*source), "{\"logOffset\":1}");
  EXPECT_TRUE(fs::exists(MetadataPath() + "/1.compact"));
}

TEST_F(FileStreamLogTest, CorruptLogFailsNamingTheFile) {
  WriteRow("a.json", 1, 1000);
  {
    auto source = StartWith();
    ASSERT_NE(source, nullptr);
    EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  }
  std::string log0 = MetadataPath() + "/0";
  for (std::string garbage :
       {"v1\n{\"path\":\"file:///in/a.json\"", "v1\nnot json", "version one\n{}",
        "v1\n{\"path\":\"hdfs://host/in/a.json\",\"timestamp\":1,\"batchId\":0}"}) {
    fs::remove(log0);
    {
      std::ofstream out(log0, std::ios::binary);
      out << garbage;
    }
    auto provider = Provider();
    ASSERT_TRUE(provider.ok());
    auto source = Start(**provider);
    ASSERT_FALSE(source.ok()) << garbage;
    EXPECT_EQ(ErrorClassOf(source.status()), "MALFORMED_LOG_FILE") << source.status().ToString();
    EXPECT_NE(source.status().message().find(log0), std::string::npos)
        << source.status().message();
  }
  fs::remove(log0);
  {
    std::ofstream out(log0, std::ios::binary);
    out << "v2\n";
  }
  auto provider = Provider();
  ASSERT_TRUE(provider.ok());
  auto newer = Start(**provider);
  EXPECT_EQ(ErrorClassOf(newer.status()), "INVALID_LOG_VERSION.MAX_SUPPORTED_VERSION");
}

TEST_F(FileStreamLogTest, AnotherWriterOfTheSameBatchIsDetected) {
  WriteRow("a.json", 1, 1000);
  auto first = StartWith();
  auto second = StartWith();
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(Next(*first), "{\"logOffset\":0}");
  auto offset = second->LatestOffset(std::nullopt, ReadLimitMode::kRespectLimits);
  EXPECT_EQ(ErrorClassOf(offset.status()), "CONCURRENT_STREAM_LOG_UPDATE");
}

}  // namespace
}  // namespace sluice::sources::testing
