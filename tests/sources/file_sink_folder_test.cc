// A folder written by a file sink (it holds _spark_metadata) is read through its manifest, by
// the file stream source and by the batch reader alike: a file the manifest does not commit
// (an orphan of a failed batch) is invisible, as in Spark.
#include <gtest/gtest.h>

#include "sluice/checkpoint/file_sink_log.h"
#include "sluice/checkpoint/file_uri.h"
#include "sluice/common/errors.h"
#include "sluice/plan/file_source.h"
#include "sources/file_stream_fixture.h"

namespace sluice::sources::testing {
namespace {

class FileSinkFolderTest : public FileStreamTest {
 protected:
  /// The input folder as a file sink leaves it: a committed part file in k=2, an orphan
  /// beside it, a stray file at the top, and a manifest committing only the first.
  void WriteSinkFolder() {
    std::string part = Write("k=2/part-00000-c000.json", "{\"a\":1}\n", 1000);
    Write("k=2/part-00001-c000.json", "{\"a\":99}\n", 2000);
    Write("stray.json", "{\"a\":5}\n", 3000);
    checkpoint::SinkFileStatus status;
    status.path = checkpoint::FileUri(part);
    status.size = 8;
    status.modification_time = 1000;
    dir_.Write("in/_spark_metadata/0",
               "v1\n" + checkpoint::SinkFileStatusToJson(status));
  }
};

TEST_F(FileSinkFolderTest, StreamReadsOnlyCommittedFiles) {
  WriteSinkFolder();
  auto provider = Provider({}, "a INT, k INT");
  ASSERT_TRUE(provider.ok()) << provider.status().ToString();
  auto source = Start(**provider);
  ASSERT_TRUE(source.ok());
  EXPECT_EQ(Next(**source), "{\"logOffset\":0}");
  EXPECT_EQ(LoggedNames("0"), (std::vector<std::string>{"part-00000-c000.json"}));
  EXPECT_EQ(Read(**source, std::nullopt, "{\"logOffset\":0}"),
            (std::vector<std::string>{"1|2"}));
}

TEST_F(FileSinkFolderTest, StreamInfersTheSchemaFromCommittedFiles) {
  WriteSinkFolder();
  auto provider = Provider({}, "", "", formats::FileFormat::kJson, /*inference=*/true);
  ASSERT_TRUE(provider.ok()) << provider.status().ToString();
  EXPECT_EQ((*provider)->schema()->ToString(), "a: int64\nk: int32");
}

TEST_F(FileSinkFolderTest, CleanSourceIsRefusedOnASinkFolder) {
  WriteSinkFolder();
  auto source = StartWith({{"cleanSource", "delete"}});
  ASSERT_NE(source, nullptr);
  auto offset = source->LatestOffset(std::nullopt, ReadLimitMode::kRespectLimits);
  EXPECT_EQ(ErrorClassOf(offset.status()), "_LEGACY_ERROR_TEMP_2261");
  EXPECT_NE(offset.status().message().find(
                "Clean up source files is not supported when reading from the output "
                "directory of FileStreamSink."),
            std::string::npos);
}

TEST_F(FileSinkFolderTest, BatchReadSeesOnlyCommittedFiles) {
  WriteSinkFolder();
  auto reader = formats::MakeFormatReader(formats::FileFormat::kJson, {}, {});
  ASSERT_TRUE(reader.ok());
  auto table = plan::FileSource::Make(*reader, In(), nullptr, {});
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_EQ((*table)->schema()->ToString(), "a: int64\nk: int32");
  auto scan = (*table)->Open();
  ASSERT_TRUE(scan.ok());
  auto rows = (*scan)->ToTable();
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(sluice::testing::Rows(**rows), (std::vector<std::string>{"1|2"}));
}

TEST_F(FileSinkFolderTest, GlobPathsIgnoreTheManifest) {
  // Spark trusts a manifest only for a plain folder path.
  WriteSinkFolder();
  auto listing = formats::ListFiles(In() + "/k=*", {}, nullptr, "UTC");
  ASSERT_TRUE(listing.ok()) << listing.status().ToString();
  EXPECT_EQ(listing->files.size(), 2u);
}

TEST_F(FileSinkFolderTest, CorruptManifestFailsNamingIt) {
  WriteSinkFolder();
  dir_.Write("in/_spark_metadata/1", "v1\nnot json");
  auto listing = formats::ListFiles(In(), {}, nullptr, "UTC");
  ASSERT_FALSE(listing.ok());
  EXPECT_EQ(ErrorClassOf(listing.status()), "MALFORMED_LOG_FILE");
  EXPECT_NE(listing.status().message().find("_spark_metadata"), std::string::npos);
}

}  // namespace
}  // namespace sluice::sources::testing
