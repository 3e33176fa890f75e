// Admission of the streaming file source: maxFilesPerTrigger, maxBytesPerTrigger, latestFirst,
// the cache of listed files, fileNameOnly and maxFileAge. Expected batches come from Spark
// 4.0.1 runs over the same files and modification times.
#include <gtest/gtest.h>

#include "sources/file_stream_fixture.h"

namespace sluice::sources::testing {
namespace {

class FileStreamLimitsTest : public FileStreamTest {
 protected:
  /// f00.json .. f11.json modified at 1000 s + i, f10 and f11 one byte longer (as in the
  /// Spark run: {"a":10}).
  void WriteTwelveFiles() {
    for (int i = 0; i < 12; ++i) {
      std::string name = (i < 10 ? "f0" : "f") + std::to_string(i) + ".json";
      WriteRow(name, i, (1000 + i) * 1000LL);
    }
  }

  /// The number of files logged in each batch until the source has nothing new.
  std::vector<size_t> BatchSizes(StreamSource& source) {
    std::vector<size_t> sizes;
    for (int batch = 0;; ++batch) {
      std::string offset = Next(source);
      if (offset != "{\"logOffset\":" + std::to_string(batch) + "}") break;
      sizes.push_back(LoggedNames(std::to_string(batch)).size());
    }
    return sizes;
  }
};

TEST_F(FileStreamLimitsTest, MaxFilesPerTrigger) {
  WriteTwelveFiles();
  auto source = StartWith({{"maxFilesPerTrigger", "5"}});
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(BatchSizes(*source), (std::vector<size_t>{5, 5, 2}));
  EXPECT_EQ(LoggedNames("1"),
            (std::vector<std::string>{"f05.json", "f06.json", "f07.json", "f08.json",
                                      "f09.json"}));
}

TEST_F(FileStreamLimitsTest, MaxBytesPerTriggerTakesAtLeastOneFile) {
  // Spark: 8-byte files two at a time under 17 bytes, then the 9-byte files one at a time.
  WriteTwelveFiles();
  auto source = StartWith({{"maxBytesPerTrigger", "17"}});
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(BatchSizes(*source), (std::vector<size_t>{2, 2, 2, 2, 2, 1, 1}));
}

TEST_F(FileStreamLimitsTest, MaxBytesBelowEveryFileStillTakesOneFilePerBatch) {
  WriteRow("a.json", 1, 1000);
  WriteRow("b.json", 2, 2000);
  auto source = StartWith({{"maxBytesPerTrigger", "1"}});
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(BatchSizes(*source), (std::vector<size_t>{1, 1}));
}

TEST_F(FileStreamLimitsTest, LatestFirstTakesNewestFiles) {
  // Spark's first batch: f11, f10, f09, f08, f07.
  WriteTwelveFiles();
  auto source = StartWith({{"maxFilesPerTrigger", "5"}, {"latestFirst", "true"}});
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  EXPECT_EQ(LoggedNames("0"),
            (std::vector<std::string>{"f11.json", "f10.json", "f09.json", "f08.json",
                                      "f07.json"}));
  EXPECT_EQ(Next(*source), "{\"logOffset\":1}");
  EXPECT_EQ(Next(*source), "{\"logOffset\":2}");
  EXPECT_EQ(LoggedNames("2"), (std::vector<std::string>{"f01.json", "f00.json"}));
}

TEST_F(FileStreamLimitsTest, LatestFirstListsAgainForEveryBatch) {
  WriteRow("a.json", 1, 1000);
  WriteRow("b.json", 2, 2000);
  WriteRow("c.json", 3, 3000);
  auto source = StartWith({{"maxFilesPerTrigger", "1"}, {"latestFirst", "true"}});
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  WriteRow("d.json", 4, 4000);
  EXPECT_EQ(Next(*source), "{\"logOffset\":1}");
  EXPECT_EQ(LoggedNames("0"), (std::vector<std::string>{"c.json"}));
  EXPECT_EQ(LoggedNames("1"), (std::vector<std::string>{"d.json"}));
}

TEST_F(FileStreamLimitsTest, CachedFilesAreTakenBeforeListingAgain) {
  WriteRow("a.json", 1, 1000);
  WriteRow("b.json", 2, 2000);
  WriteRow("c.json", 3, 3000);
  auto source = StartWith({{"maxFilesPerTrigger", "1"}});
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  // Older than the cached b and c, but the cache is drained first.
  WriteRow("early.json", 0, 500);
  EXPECT_EQ(Next(*source), "{\"logOffset\":1}");
  EXPECT_EQ(Next(*source), "{\"logOffset\":2}");
  EXPECT_EQ(Next(*source), "{\"logOffset\":3}");
  EXPECT_EQ(LoggedNames("1"), (std::vector<std::string>{"b.json"}));
  EXPECT_EQ(LoggedNames("2"), (std::vector<std::string>{"c.json"}));
  EXPECT_EQ(LoggedNames("3"), (std::vector<std::string>{"early.json"}));
}

TEST_F(FileStreamLimitsTest, MaxCachedFilesZeroListsForEveryBatch) {
  WriteRow("a.json", 1, 1000);
  WriteRow("b.json", 2, 2000);
  WriteRow("c.json", 3, 3000);
  auto source = StartWith({{"maxFilesPerTrigger", "1"}, {"maxCachedFiles", "0"}});
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  WriteRow("early.json", 0, 500);
  EXPECT_EQ(Next(*source), "{\"logOffset\":1}");
  EXPECT_EQ(LoggedNames("1"), (std::vector<std::string>{"early.json"}));
}

TEST_F(FileStreamLimitsTest, SmallCacheRemainderIsDiscarded) {
  // 5 files, limit 4: the one file left is under 4 * 0.5 files, so it is not cached and
  // the next batch lists again (taking the older newcomer first).
  for (int i = 0; i < 5; ++i) WriteRow("f" + std::to_string(i) + ".json", i, 1000 + i);
  auto source = StartWith({{"maxFilesPerTrigger", "4"}, {"discardCachedInputRatio", "0.5"}});
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  WriteRow("early.json", 9, 500);
  EXPECT_EQ(Next(*source), "{\"logOffset\":1}");
  EXPECT_EQ(LoggedNames("1"), (std::vector<std::string>{"early.json", "f4.json"}));
}

TEST_F(FileStreamLimitsTest, FileNameOnlyKnowsFilesByName) {
  // Spark takes both x1/f.json and x2/f.json in one batch (neither was seen before it), and
  // never a later file of the same name.
  WriteRow("x1/f.json", 1, 1000000);
  WriteRow("x2/f.json", 2, 1001000);
  auto source = StartWith({{"fileNameOnly", "true"}}, In() + "/*");
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  EXPECT_EQ(LoggedNames("0"), (std::vector<std::string>{"f.json", "f.json"}));
  WriteRow("x3/f.json", 3, 1002000);
  WriteRow("x3/g.json", 4, 1002000);
  EXPECT_EQ(Next(*source), "{\"logOffset\":1}");
  EXPECT_EQ(LoggedNames("1"), (std::vector<std::string>{"g.json"}));
}

TEST_F(FileStreamLimitsTest, MaxFileAgeIgnoresFilesOlderThanTheNewestMinusTheAge) {
  constexpr int64_t kHour = 3600 * 1000;
  WriteRow("a.json", 1, 10 * kHour);
  auto source = StartWith({{"maxFileAge", "1h"}});
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  WriteRow("old.json", 2, 8 * kHour);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  WriteRow("recent.json", 3, 9 * kHour + kHour / 2);
  EXPECT_EQ(Next(*source), "{\"logOffset\":1}");
  EXPECT_EQ(LoggedNames("1"), (std::vector<std::string>{"recent.json"}));
}

TEST_F(FileStreamLimitsTest, FirstBatchTakesFilesOfAnyAge) {
  constexpr int64_t kDay = 24 * 3600 * 1000LL;
  WriteRow("ancient.json", 1, 1 * kDay);
  WriteRow("new.json", 2, 30 * kDay);
  auto source = StartWith();
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  EXPECT_EQ(LoggedNames("0"), (std::vector<std::string>{"ancient.json", "new.json"}));
}

TEST_F(FileStreamLimitsTest, LatestFirstWithALimitNeverAgesFilesOut) {
  constexpr int64_t kDay = 24 * 3600 * 1000LL;
  WriteRow("ancient.json", 1, 1 * kDay);
  WriteRow("new.json", 2, 30 * kDay);
  auto source = StartWith({{"latestFirst", "true"}, {"maxFilesPerTrigger", "1"}});
  ASSERT_NE(source, nullptr);
  EXPECT_EQ(Next(*source), "{\"logOffset\":0}");
  EXPECT_EQ(Next(*source), "{\"logOffset\":1}");
  EXPECT_EQ(LoggedNames("1"), (std::vector<std::string>{"ancient.json"}));
}

}  // namespace
}  // namespace sluice::sources::testing
