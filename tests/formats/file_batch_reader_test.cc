#include "sluice/formats/file_batch_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>

#include "formats/format_test_support.h"
#include "formats/recording_format_reader.h"
#include "sluice/common/errors.h"
#include "sluice/types/ddl_parser.h"

namespace sluice::formats {
namespace {

using sluice::testing::RecordingReader;
using sluice::testing::Rows;
using sluice::testing::ScratchDir;
using sluice::testing::ThisThreadsPriority;

class FileBatchReaderTest : public ::testing::Test {
 protected:
  /// A JSON file of rows {"a": first} .. {"a": first + rows - 1}.
  std::string WriteFile(const std::string& name, int first, int rows = 4) {
    std::string text;
    for (int i = 0; i < rows; ++i) text += "{\"a\":" + std::to_string(first + i) + "}\n";
    return dir_.Write(name, text);
  }

  std::shared_ptr<FileBatchReader> ReaderOf(std::shared_ptr<const FormatReader> format,
                                            const std::vector<std::string>& paths,
                                            const std::string& ddl = "a INT",
                                            FileScanOptions scan = {}) {
    std::vector<BatchFile> files;
    for (const auto& path : paths) files.push_back({path, {}});
    auto schema = types::ParseSchema(ddl).ValueOrDie();
    return std::make_shared<FileBatchReader>(std::move(format), std::move(files), schema,
                                             schema, scan);
  }

  static std::vector<std::string> ReadAll(FileBatchReader& reader) {
    auto table = reader.ToTable();
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    return table.ok() ? Rows(**table) : std::vector<std::string>{};
  }

  ScratchDir dir_;
};

TEST_F(FileBatchReaderTest, DecodesOneFileAtATimeUnlessDecodingAhead) {
  const std::string a = WriteFile("a.json", 1);
  const std::string b = WriteFile("b.json", 5);
  auto format = std::make_shared<RecordingReader>();
  auto reader = ReaderOf(format, {a, b});
  std::shared_ptr<arrow::RecordBatch> batch;
  ASSERT_TRUE(reader->ReadNext(&batch).ok());
  ASSERT_NE(batch, nullptr);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_EQ(format->opened().size(), 1u);
  EXPECT_EQ(format->opened()[0].first, "a.json");
  EXPECT_EQ(ReadAll(*reader), (std::vector<std::string>{"3", "4", "5", "6", "7", "8"}));
}

TEST_F(FileBatchReaderTest, DecodingAheadOpensTheNextFileWhileOneIsReadAtTheLowestPriority) {
  const std::string a = WriteFile("a.json", 1);
  const std::string b = WriteFile("b.json", 5);
  auto format = std::make_shared<RecordingReader>();
  auto reader = ReaderOf(format, {a, b});
  reader->set_decode_ahead(true);
  EXPECT_TRUE(reader->load()->decoded_ahead);
  std::shared_ptr<arrow::RecordBatch> batch;
  ASSERT_TRUE(reader->ReadNext(&batch).ok());
  ASSERT_NE(batch, nullptr);
  ASSERT_TRUE(format->WaitForOpen("b.json"));
  // Both decode at once (in either order), b before its turn at the lowest priority.
  auto opened = format->opened();
  std::sort(opened.begin(), opened.end());
  EXPECT_EQ(opened, (std::vector<std::pair<std::string, int>>{{"a.json", ThisThreadsPriority()},
                                                              {"b.json", 19}}));
  EXPECT_EQ(ReadAll(*reader), (std::vector<std::string>{"3", "4", "5", "6", "7", "8"}));
}

TEST_F(FileBatchReaderTest, AReaderWhoseCallerWaitsForDecodingStartsDecodingAhead) {
  const std::string a = WriteFile("a.json", 1);
  const std::string b = WriteFile("b.json", 5);
  const std::string c = WriteFile("c.json", 9);
  // Each batch takes 30 ms to decode and no time to read: the caller waits for all of them.
  auto format = std::make_shared<RecordingReader>(std::chrono::milliseconds(30));
  auto reader = ReaderOf(format, {a, b, c});
  EXPECT_EQ(ReadAll(*reader),
            (std::vector<std::string>{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11",
                                      "12"}));
  EXPECT_TRUE(reader->load()->DecodeBound());
  EXPECT_TRUE(reader->load()->decoded_ahead);
  auto opened = format->opened();
  ASSERT_EQ(opened.size(), 3u);
  // After a, the first file, decoding ahead: c was decoded while b was read (the two opened
  // in either order).
  std::sort(opened.begin() + 1, opened.end());
  EXPECT_EQ(opened[1], std::make_pair(std::string("b.json"), ThisThreadsPriority()));
  EXPECT_EQ(opened[2], std::make_pair(std::string("c.json"), 19));
  EXPECT_GT(reader->load()->wait_nanos, 0);
  EXPECT_GE(reader->load()->read_nanos, reader->load()->wait_nanos);
}

TEST_F(FileBatchReaderTest, AReaderWhoseDecodingDominatesDecodesWholeFilesAhead) {
  const std::string a = WriteFile("a.json", 1);
  const std::string b = WriteFile("b.json", 5);
  const std::string c = WriteFile("c.json", 9);
  // Each batch takes 20 ms of a core to decode and no time to read.
  auto format = std::make_shared<RecordingReader>(std::chrono::milliseconds(20),
                                                  sluice::testing::Slowness::kSpinning);
  auto reader = ReaderOf(format, {a, b, c});
  EXPECT_EQ(ReadAll(*reader).size(), 12u);
  EXPECT_TRUE(reader->load()->DecodeDominates());
  EXPECT_TRUE(reader->decode_ahead());
  EXPECT_EQ(reader->ahead_limit().bytes, FileBatchReader::kWholeFileLimit.bytes);
}

TEST_F(FileBatchReaderTest, ADecodeAheadIsTakenOverOnlyByAReaderOfItsFileAndColumns) {
  const std::string a = WriteFile("a.json", 1);
  const std::string b = WriteFile("b.json", 5);
  auto format = std::make_shared<RecordingReader>();
  auto first = ReaderOf(format, {a});
  auto decode = first->DecodeAhead(b);
  ASSERT_TRUE(format->WaitForOpen("b.json"));

  auto of_another_file = ReaderOf(format, {a});
  of_another_file->TakeOver(decode);
  EXPECT_NE(decode, nullptr);
  auto of_other_columns = ReaderOf(format, {b}, "a INT, b STRING");
  of_other_columns->TakeOver(decode);
  EXPECT_NE(decode, nullptr);

  auto second = ReaderOf(format, {b});
  second->TakeOver(decode);
  EXPECT_EQ(decode, nullptr);
  EXPECT_EQ(ReadAll(*second), (std::vector<std::string>{"5", "6", "7", "8"}));
  // b was decoded once, by the decode taken over.
  EXPECT_EQ(format->opened().size(), 1u);
}

TEST_F(FileBatchReaderTest, AFileDecodedAheadThatIsMissingFailsAfterTheRowsBeforeIt) {
  const std::string a = WriteFile("a.json", 1);
  const std::string b = WriteFile("b.json", 5);
  std::filesystem::remove(b);
  auto reader = ReaderOf(std::make_shared<RecordingReader>(), {a, b});
  reader->set_decode_ahead(true);
  std::vector<std::string> rows;
  arrow::Status status;
  while (true) {
    std::shared_ptr<arrow::RecordBatch> batch;
    status = reader->ReadNext(&batch);
    if (!status.ok() || batch == nullptr) break;
    for (const auto& row : Rows(*arrow::Table::FromRecordBatches({batch}).ValueOrDie())) {
      rows.push_back(row);
    }
  }
  EXPECT_EQ(rows, (std::vector<std::string>{"1", "2", "3", "4"}));
  EXPECT_EQ(ErrorClassOf(status), "FAILED_READ_FILE.FILE_NOT_EXIST");
  EXPECT_NE(status.message().find("b.json"), std::string::npos) << status.message();

  auto ignoring = ReaderOf(std::make_shared<RecordingReader>(), {a, b}, "a INT",
                           FileScanOptions{/*ignore_missing_files=*/true, false});
  ignoring->set_decode_ahead(true);
  EXPECT_EQ(ReadAll(*ignoring), (std::vector<std::string>{"1", "2", "3", "4"}));
}

TEST(DecodeLoadTest, DecodingIsWhatTheQueryWaitedForWhenItsCallerWaitedOrItBusiedACore) {
  DecodeLoad load;
  EXPECT_FALSE(load.DecodeBound());  // nothing read yet
  load.read_nanos = 1000;
  load.wait_nanos = 300;
  EXPECT_TRUE(load.DecodeBound());
  load.wait_nanos = 200;
  EXPECT_FALSE(load.DecodeBound());
  // A caller busy on its own: decoding that takes a whole core is not what it waits for...
  load.decode_cpu_nanos = 1000;
  EXPECT_FALSE(load.DecodeBound());
  // ... but once decoding ahead, the waits are short because decoding ahead worked.
  load.decoded_ahead = true;
  load.decode_cpu_nanos = 600;
  EXPECT_TRUE(load.DecodeBound());
  load.decode_cpu_nanos = 500;
  EXPECT_FALSE(load.DecodeBound());
}

TEST(DecodeLoadTest, DecodingDominatesWhenItTookTwiceWhatTheCallerSpentOnItsBatches) {
  DecodeLoad load;
  EXPECT_FALSE(load.DecodeDominates());  // nothing read yet
  // The caller read for 1000 ns, 400 of them waiting: it spent 600 on the batches.
  load.read_nanos = 1000;
  load.wait_nanos = 400;
  load.decode_cpu_nanos = 1200;
  EXPECT_TRUE(load.DecodeDominates());
  EXPECT_EQ(FileBatchReader::AheadLimitFor(load).bytes, FileBatchReader::kWholeFileLimit.bytes);
  load.decode_cpu_nanos = 1100;
  EXPECT_FALSE(load.DecodeDominates());
  EXPECT_EQ(FileBatchReader::AheadLimitFor(load).bytes, FileBatchReader::kAheadLimit.bytes);
  // Decoded whole before its turn, a file is read without a wait, in the caller's time only.
  load.wait_nanos = 0;
  load.read_nanos = 500;
  EXPECT_TRUE(load.DecodeDominates());
}

}  // namespace
}  // namespace sluice::formats
