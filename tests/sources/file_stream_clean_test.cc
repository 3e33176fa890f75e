// cleanSource: the files of committed batches are deleted or archived (keeping their full
// path under sourceArchiveDir, as Spark does), and a failure to clean is not fatal.
#include <filesystem>

#include <gtest/gtest.h>

#include "sources/file_stream_fixture.h"

namespace sluice::sources::testing {
namespace {

namespace fs = std::filesystem;

class FileStreamCleanTest : public FileStreamTest {};

TEST_F(FileStreamCleanTest, DeleteRemovesTheFilesOfTheCommittedBatch) {
  std::string a = WriteRow("a.json", 1, 1000);
  std::string b = WriteRow("b.json", 2, 2000);
  auto source = StartWith({{"cleanSource", "DELETE"}, {"maxFilesPerTrigger", "1"}});
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  EXPECT_EQ(Next(*source), "{\"logOffset\":1}");
  ASSERT_TRUE(source->Commit("{\"logOffset\":0}").ok());
  EXPECT_FALSE(fs::exists(a));
  EXPECT_TRUE(fs::exists(b));
  ASSERT_TRUE(source->Commit("{\"logOffset\":1}").ok());
  EXPECT_FALSE(fs::exists(b));
  // Committing again finds nothing left to delete: a warning, not an error.
  EXPECT_TRUE(source->Commit("{\"logOffset\":1}").ok());
}

TEST_F(FileStreamCleanTest, ArchiveMovesFilesUnderTheArchiveFolderWithTheirFullPath) {
  std::string a = WriteRow("k=1/a.json", 1, 1000);
  std::string b = WriteRow("k=1/b.json", 2, 2000);
  std::string archive = dir_ / "archive";
  auto source = StartWith({{"cleanSource", "archive"}, {"sourceArchiveDir", archive}});
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  ASSERT_TRUE(source->Commit("{\"logOffset\":0}").ok());
  EXPECT_FALSE(fs::exists(a));
  EXPECT_FALSE(fs::exists(b));
  EXPECT_EQ(sluice::testing::ReadText(archive + a), "{\"a\":1}\n");
  EXPECT_EQ(sluice::testing::ReadText(archive + b), "{\"a\":2}\n");
  // Archived files are not taken again.
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
}

TEST_F(FileStreamCleanTest, CommitCleansEveryBatchOfThisRunUpToTheEnd) {
  std::string a = WriteRow("a.json", 1, 1000);
  std::string b = WriteRow("b.json", 2, 2000);
  auto source = StartWith({{"cleanSource", "delete"}, {"maxFilesPerTrigger", "1"}});
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  ASSERT_TRUE(source->Commit("{\"logOffset\":0}").ok());
  EXPECT_EQ(Next(*source), "{\"logOffset\":1}");
  ASSERT_TRUE(source->Commit("{\"logOffset\":1}").ok());
  EXPECT_FALSE(fs::exists(a));
  EXPECT_FALSE(fs::exists(b));
}

TEST_F(FileStreamCleanTest, OffLeavesFilesAlone) {
  std::string a = WriteRow("a.json", 1, 1000);
  auto source = StartWith({{"cleanSource", "off"}});
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  ASSERT_TRUE(source->Commit("{\"logOffset\":0}").ok());
  EXPECT_TRUE(fs::exists(a));
}

TEST_F(FileStreamCleanTest, ArchiveFolderTheSourcePatternMatchesIsRefused) {
  WriteRow("a.json", 1, 1000);
  for (auto [path, archive] : {std::pair{In(), In() + "/archive"},
                               std::pair{In(), In()},
                               std::pair{dir_ / "i*", dir_ / "inx"}}) {
    auto provider = Provider({{"cleanSource", "archive"}, {"sourceArchiveDir", archive}},
                             "a INT", path);
    ASSERT_TRUE(provider.ok()) << provider.status().ToString();
    auto source = Start(**provider);
    ASSERT_FALSE(source.ok()) << archive;
    EXPECT_NE(source.status().message().find(
                  "Base archive path cannot be set to the path where archived path can "
                  "possibly match with source pattern."),
              std::string::npos)
        << source.status().message();
    EXPECT_NE(source.status().message().find("base archive path: file:" + archive),
              std::string::npos);
  }
  // A sibling folder that the pattern cannot match is fine.
  auto provider = Provider({{"cleanSource", "archive"}, {"sourceArchiveDir", dir_ / "archive"}});
  ASSERT_TRUE(provider.ok());
  EXPECT_TRUE(Start(**provider).ok());
}

TEST_F(FileStreamCleanTest, ArchiveWithoutArchiveFolderFailsAtStart) {
  WriteRow("a.json", 1, 1000);
  auto provider = Provider({{"cleanSource", "archive"}});
  ASSERT_TRUE(provider.ok());
  auto source = Start(**provider);
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.status().message(), "Archive mode must be used with 'sourceArchiveDir' option.");
}

}  // namespace
}  // namespace sluice::sources::testing
