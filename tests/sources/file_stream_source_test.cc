// The streaming file source through the StreamSource interface: offsets and log as Spark
// writes them, restart determinism, Trigger.AvailableNow, partitions and vanished files.
#include <filesystem>

#include <gtest/gtest.h>

#include "sluice/common/errors.h"
#include "sources/file_stream_fixture.h"

namespace sluice::sources::testing {
namespace {

using sluice::testing::Rows;

class FileStreamSourceTest : public FileStreamTest {};

TEST_F(FileStreamSourceTest, OffsetAndLogAreSparksBytes) {
  // Spark 4.0.1 on a folder holding a.json wrote offsets/0's source line {"logOffset":0} and
  // sources/0/0 = v1, then the file's entry (no newline at the end).
  std::string a = Write("a.json", "{\"a\":1,\"b\":\"x\"}\n{\"a\":2,\"b\":\"y\"}\n", 1796060372327);
  auto source = StartWith();
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  EXPECT_EQ(LogFile("0"), "v1\n{\"path\":\"file://" + a +
                              "\",\"timestamp\":1796060372327,\"batchId\":0}");
  EXPECT_EQ(Read(*source, std::nullopt, "{\"logOffset\":0}"),
            (std::vector<std::string>{"1", "2"}));
}

TEST_F(FileStreamSourceTest, NothingNewReturnsTheSameOffsetAndNoDataReturnsNone) {
  std::filesystem::create_directories(In());
  auto source = StartWith();
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(Next(*source), "none");
  WriteRow("a.json", 1, 1000);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  WriteRow("b.json", 2, 2000);
  EXPECT_EQ(Next(*source), "{\"logOffset\":1}");
  EXPECT_EQ(Read(*source, "{\"logOffset\":0}", "{\"logOffset\":1}"),
            (std::vector<std::string>{"2"}));
  EXPECT_EQ(Read(*source, "{\"logOffset\":1}", "{\"logOffset\":1}"),
            (std::vector<std::string>{}));
}

TEST_F(FileStreamSourceTest, OldestFirstByModificationTime) {
  WriteRow("z.json", 1, 1000);
  WriteRow("a.json", 3, 3000);
  WriteRow("m.json", 2, 2000);
  auto source = StartWith();
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  EXPECT_EQ(LoggedNames("0"), (std::vector<std::string>{"z.json", "m.json", "a.json"}));
  EXPECT_EQ(Read(*source, std::nullopt, "{\"logOffset\":0}"),
            (std::vector<std::string>{"1", "2", "3"}));
}

TEST_F(FileStreamSourceTest, RestartReadsExactlyTheLoggedFiles) {
  WriteRow("a.json", 1, 1000);
  WriteRow("b.json", 2, 2000);
  {
    auto first = StartWith({{"maxFilesPerTrigger", "1"}});
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(Next(*first), "{\"logOffset\":0}");
    EXPECT_EQ(Next(*first), "{\"logOffset\":1}");
  }
  // A new file arrives older than the logged ones: it must not change what batch 1 reads.
  WriteRow("c.json", 3, 500);
  auto second = StartWith({{"maxFilesPerTrigger", "1"}});
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(Read(*second, std::nullopt, "{\"logOffset\":0}"), (std::vector<std::string>{"1"}));
  EXPECT_EQ(Read(*second, "{\"logOffset\":0}", "{\"logOffset\":1}"),
            (std::vector<std::string>{"2"}));
  EXPECT_EQ(Read(*second, std::nullopt, "{\"logOffset\":1}"),
            (std::vector<std::string>{"1", "2"}));
  // Seen files come back from the log: only c.json is new.
  EXPECT_EQ(Next(*second), "{\"logOffset\":2}");
  EXPECT_EQ(LoggedNames("2"), (std::vector<std::string>{"c.json"}));
  EXPECT_EQ(Next(*second), "{\"logOffset\":2}");
}

TEST_F(FileStreamSourceTest, AvailableNowTakesOnlyTheSnapshot) {
  WriteRow("a.json", 1, 1000);
  WriteRow("b.json", 2, 2000);
  auto source = StartWith({{"maxFilesPerTrigger", "1"}});
  ASSERT_NE(source, nullptr);
  ASSERT_TRUE(source->PrepareForAvailableNow().ok());
  WriteRow("c.json", 3, 1500);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  EXPECT_EQ(Next(*source), "{\"logOffset\":1}");
  EXPECT_EQ(Next(*source), "{\"logOffset\":1}");
  EXPECT_EQ(LoggedNames("0"), (std::vector<std::string>{"a.json"}));
  EXPECT_EQ(LoggedNames("1"), (std::vector<std::string>{"b.json"}));
}

TEST_F(FileStreamSourceTest, PartitionFoldersBecomeColumns) {
  WriteRow("k=1/x.json", 1, 1000);
  WriteRow("k=2/y.json", 2, 2000);
  auto provider = Provider({}, "a INT");
  ASSERT_TRUE(provider.ok()) << provider.status().ToString();
  EXPECT_EQ((*provider)->schema()->ToString(), "a: int32\nk: int32");
  auto source = Start(**provider);
  ASSERT_TRUE(source.ok());
  EXPECT_EQ(Next(**source), "{\"logOffset\":0}");
  WriteRow("k=3/z.json", 3, 3000);
  EXPECT_EQ(Next(**source), "{\"logOffset\":1}");
  EXPECT_EQ(Read(**source, std::nullopt, "{\"logOffset\":1}"),
            (std::vector<std::string>{"1|1", "2|2", "3|3"}));
}

TEST_F(FileStreamSourceTest, GlobPathsTakePartitionsBelowTheMatchedFolder) {
  WriteRow("d1/k=1/x.json", 1, 1000);
  WriteRow("d2/k=2/y.json", 2, 2000);
  auto provider = Provider({}, "a INT, k INT", In() + "/d*");
  ASSERT_TRUE(provider.ok()) << provider.status().ToString();
  auto source = Start(**provider);
  ASSERT_TRUE(source.ok());
  EXPECT_EQ((*source)->Describe(), "FileStreamSource[file:" + In() + "/d*]");
  EXPECT_EQ(Next(**source), "{\"logOffset\":0}");
  EXPECT_EQ(Read(**source, std::nullopt, "{\"logOffset\":0}"),
            (std::vector<std::string>{"1|1", "2|2"}));
}

TEST_F(FileStreamSourceTest, DescribesLikeSpark) {
  WriteRow("a.json", 1, 1000);
  auto provider = Provider({}, "a INT", In() + "/");
  ASSERT_TRUE(provider.ok());
  EXPECT_EQ((*provider)->Describe(), "FileSource[" + In() + "/]");
  EXPECT_TRUE((*provider)->is_streaming());
  auto source = Start(**provider);
  ASSERT_TRUE(source.ok());
  EXPECT_EQ((*source)->Describe(), "FileStreamSource[file:" + In() + "]");
  EXPECT_EQ((*source)->ReportLatestOffset(), std::nullopt);
  EXPECT_EQ(ErrorClassOf((*provider)->Open().status()), "STREAMING_QUERY_REQUIRES_WRITE_STREAM");
}

TEST_F(FileStreamSourceTest, FileGoneBeforeTheBatchIsSkippedAsSparkDoes) {
  // Spark lists a batch's files as root paths when the batch starts, and skips a missing one
  // with a warning (a re-run batch whose file was deleted reads nothing from it).
  std::string a = WriteRow("a.json", 1, 1000);
  WriteRow("b.json", 2, 2000);
  auto source = StartWith();
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  std::filesystem::remove(a);
  EXPECT_EQ(Read(*source, std::nullopt, "{\"logOffset\":0}"), (std::vector<std::string>{"2"}));
}

TEST_F(FileStreamSourceTest, FileGoneWhileReadingFailsNamingIt) {
  WriteRow("a.json", 1, 1000);
  std::string b = WriteRow("b.json", 2, 2000);
  auto source = StartWith();
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  auto reader = source->GetBatch(std::nullopt, "{\"logOffset\":0}");
  ASSERT_TRUE(reader.ok());
  std::filesystem::remove(b);
  auto table = (*reader)->ToTable();
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(ErrorClassOf(table.status()), "FAILED_READ_FILE.FILE_NOT_EXIST");
  EXPECT_NE(table.status().message().find("Encountered error while reading file file://" + b +
                                          ". File does not exist."),
            std::string::npos)
      << table.status().message();
}

TEST_F(FileStreamSourceTest, IgnoreMissingFilesSkipsAFileGoneWhileReading) {
  WriteRow("a.json", 1, 1000);
  std::string b = WriteRow("b.json", 2, 2000);
  auto source = StartWith({{"ignoreMissingFiles", "true"}});
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  auto reader = source->GetBatch(std::nullopt, "{\"logOffset\":0}");
  ASSERT_TRUE(reader.ok());
  std::filesystem::remove(b);
  auto table = (*reader)->ToTable();
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_EQ(Rows(**table), (std::vector<std::string>{"1"}));
}

TEST_F(FileStreamSourceTest, TriggerOnceTakesEverythingDespiteLimits) {
  WriteRow("a.json", 1, 1000);
  WriteRow("b.json", 2, 2000);
  WriteRow("c.json", 3, 3000);
  auto source = StartWith({{"maxFilesPerTrigger", "1"}});
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(Next(*source, ReadLimitMode::kAll), "{\"logOffset\":0}");
  EXPECT_EQ(LoggedNames("0"), (std::vector<std::string>{"a.json", "b.json", "c.json"}));
}

TEST_F(FileStreamSourceTest, HiddenFilesAndPathGlobFilterAreHonoured) {
  WriteRow("a.json", 1, 1000);
  WriteRow("b.txt", 2, 2000);
  WriteRow("_c.json", 3, 3000);
  WriteRow(".d.json", 4, 4000);
  auto source = StartWith({{"pathGlobFilter", "*.json"}});
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  EXPECT_EQ(LoggedNames("0"), (std::vector<std::string>{"a.json"}));
}

}  // namespace
}  // namespace sluice::sources::testing
