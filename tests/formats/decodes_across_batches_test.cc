#include "sluice/formats/decodes_across_batches.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "formats/format_test_support.h"
#include "formats/recording_format_reader.h"
#include "sluice/types/ddl_parser.h"

namespace sluice::formats {
namespace {

using sluice::testing::RecordingReader;
using sluice::testing::Rows;
using sluice::testing::ScratchDir;

class DecodesAcrossBatchesTest : public ::testing::Test {
 protected:
  /// A JSON file of four rows {"a": first} .. {"a": first + 3}.
  std::string WriteFile(const std::string& name, int first) {
    std::string text;
    for (int i = 0; i < 4; ++i) text += "{\"a\":" + std::to_string(first + i) + "}\n";
    return dir_.Write(name, text);
  }

  /// The reader of a batch of `path` with the columns `ddl`, readied by `decodes` as log
  /// batch `log_batch` with `next` as the next batch's first file.
  std::shared_ptr<FileBatchReader> ReadyReader(const std::string& path, int64_t log_batch,
                                               const std::string& next,
                                               const std::string& ddl = "a INT") {
    auto schema = types::ParseSchema(ddl).ValueOrDie();
    auto reader = std::make_shared<FileBatchReader>(format_, std::vector<BatchFile>{{path, {}}},
                                                    schema, schema, FileScanOptions{});
    decodes_.Ready(*reader, *schema, log_batch, log_batch, [&]() -> std::optional<std::string> {
      ++next_asked_;
      return next;
    });
    return reader;
  }

  /// Reads `reader` to its end, waiting `pause` after each batch as a busy query would.
  static std::vector<std::string> ReadAll(FileBatchReader& reader,
                                          std::chrono::milliseconds pause = {}) {
    std::vector<std::string> rows;
    while (true) {
      std::shared_ptr<arrow::RecordBatch> batch;
      EXPECT_TRUE(reader.ReadNext(&batch).ok());
      if (batch == nullptr) return rows;
      for (auto& row : Rows(*arrow::Table::FromRecordBatches({batch}).ValueOrDie())) {
        rows.push_back(row);
      }
      std::this_thread::sleep_for(pause);
    }
  }

  int OpensOf(const std::string& name) const {
    int opens = 0;
    for (const auto& [file, priority] : format_->opened()) opens += file == name;
    return opens;
  }

  ScratchDir dir_;
  // Each batch takes 20 ms to decode: a query that reads at once waits for decoding.
  std::shared_ptr<RecordingReader> format_ =
      std::make_shared<RecordingReader>(std::chrono::milliseconds(20));
  DecodesAcrossBatches decodes_;
  int next_asked_ = 0;
};

TEST_F(DecodesAcrossBatchesTest, AReadBoundByDecodingDecodesTheNextBatchsFirstFileDuringItsBatch) {
  const std::string a = WriteFile("a.json", 1);
  const std::string b = WriteFile("b.json", 5);
  const std::string c = WriteFile("c.json", 9);
  // The first batch has no batch before it: it decodes its own file as it reads it, and the
  // next batch's first file whole, at the lowest priority.
  auto first = ReadyReader(a, 0, b);
  EXPECT_FALSE(first->decode_ahead());
  EXPECT_EQ(next_asked_, 1);
  ASSERT_TRUE(format_->WaitForOpen("b.json"));
  EXPECT_EQ(format_->opened().back(), std::make_pair(std::string("b.json"), 19));
  // The query works 5 ms on each batch, a quarter of what decoding takes.
  EXPECT_EQ(ReadAll(*first, std::chrono::milliseconds(5)),
            (std::vector<std::string>{"1", "2", "3", "4"}));
  // It waited for decoding: the second decodes ahead, and c starts decoding before b is read.
  // Decoding took longer than the query's work but not its CPU time (it slept): it did not
  // dominate, and each file decodes ahead only as far as kAheadLimit.
  auto second = ReadyReader(b, 1, c);
  EXPECT_TRUE(second->decode_ahead());
  EXPECT_EQ(second->ahead_limit().bytes, FileBatchReader::kAheadLimit.bytes);
  ASSERT_TRUE(format_->WaitForOpen("c.json"));
  EXPECT_EQ(format_->opened().back(), std::make_pair(std::string("c.json"), 19));
  EXPECT_EQ(ReadAll(*second), (std::vector<std::string>{"5", "6", "7", "8"}));
  // The third batch reads c from that decode: c is opened once.
  auto third = ReadyReader(c, 2, "");
  EXPECT_EQ(ReadAll(*third), (std::vector<std::string>{"9", "10", "11", "12"}));
  // Each file is opened once: b by the first batch's decode, c by the second's.
  EXPECT_EQ(OpensOf("b.json"), 1);
  EXPECT_EQ(OpensOf("c.json"), 1);
}

TEST_F(DecodesAcrossBatchesTest, AReadWhoseDecodingDominatedDecodesTheNextBatchsFileWhole) {
  const std::string a = WriteFile("a.json", 1);
  const std::string b = WriteFile("b.json", 5);
  const std::string c = WriteFile("c.json", 9);
  // Each batch takes 20 ms of a core to decode, and the query reads at once.
  format_ = std::make_shared<RecordingReader>(std::chrono::milliseconds(20),
                                              sluice::testing::Slowness::kSpinning);
  ReadAll(*ReadyReader(a, 0, b));
  auto second = ReadyReader(b, 1, c);
  EXPECT_TRUE(second->decode_ahead());
  EXPECT_EQ(second->ahead_limit().bytes, FileBatchReader::kWholeFileLimit.bytes);
  EXPECT_EQ(ReadAll(*second), (std::vector<std::string>{"5", "6", "7", "8"}));
  EXPECT_EQ(ReadAll(*ReadyReader(c, 2, "")), (std::vector<std::string>{"9", "10", "11", "12"}));
  EXPECT_EQ(OpensOf("c.json"), 1);
}

TEST_F(DecodesAcrossBatchesTest, AReadWhoseQueryKeepsItsCoreBusyDoesNotDecodeAhead) {
  const std::string a = WriteFile("a.json", 1);
  const std::string b = WriteFile("b.json", 5);
  format_ = std::make_shared<RecordingReader>();  // decoding takes no time
  auto first = ReadyReader(a, 0, b);
  // The query spends 30 ms on each batch: it never waits for decoding.
  EXPECT_EQ(ReadAll(*first, std::chrono::milliseconds(30)),
            (std::vector<std::string>{"1", "2", "3", "4"}));
  // Only the first batch, which has no batch before it, asks for the next batch's file.
  auto second = ReadyReader(b, 1, "c.json");
  EXPECT_FALSE(second->decode_ahead());
  EXPECT_EQ(next_asked_, 1);
  EXPECT_EQ(ReadAll(*second), (std::vector<std::string>{"5", "6", "7", "8"}));
}

TEST_F(DecodesAcrossBatchesTest, EachReadOfTheSourceTakesOverTheDecodeOfItsOwnColumns) {
  const std::string a = WriteFile("a.json", 1);
  const std::string b = WriteFile("b.json", 5);
  const std::string c = WriteFile("c.json", 9);
  // Two reads of the source in each batch, as a self-join makes, with different columns.
  for (const char* ddl : {"a INT", "a INT, b STRING"}) {
    auto reader = ReadyReader(a, 0, b, ddl);
    ReadAll(*reader);
  }
  for (const char* ddl : {"a INT", "a INT, b STRING"}) {
    auto reader = ReadyReader(b, 1, c, ddl);
    EXPECT_TRUE(reader->decode_ahead()) << ddl;
    ReadAll(*reader);
  }
  ASSERT_TRUE(format_->WaitForOpen("c.json"));
  auto narrow = ReadyReader(c, 2, "", "a INT");
  auto wide = ReadyReader(c, 2, "", "a INT, b STRING");
  EXPECT_EQ(ReadAll(*narrow), (std::vector<std::string>{"9", "10", "11", "12"}));
  EXPECT_EQ(ReadAll(*wide),
            (std::vector<std::string>{"9|null", "10|null", "11|null", "12|null"}));
  // One decode of c for each read, each taken over by the read of its columns.
  EXPECT_EQ(OpensOf("c.json"), 2);
}

TEST_F(DecodesAcrossBatchesTest, ADecodeOfAFileTheNextBatchDoesNotReadIsDropped) {
  const std::string a = WriteFile("a.json", 1);
  const std::string b = WriteFile("b.json", 5);
  const std::string c = WriteFile("c.json", 9);
  const std::string d = WriteFile("d.json", 13);
  ReadAll(*ReadyReader(a, 0, b));
  ReadAll(*ReadyReader(b, 1, c));  // c predicted
  ASSERT_TRUE(format_->WaitForOpen("c.json"));
  // The next batch reads d instead (c was gone, say): it reads d itself.
  auto third = ReadyReader(d, 2, "");
  EXPECT_EQ(ReadAll(*third), (std::vector<std::string>{"13", "14", "15", "16"}));
  EXPECT_EQ(OpensOf("d.json"), 1);
}

}  // namespace
}  // namespace sluice::formats
