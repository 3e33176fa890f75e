// CollectSlices: a stream's rows in order, in batches of at most a given number of rows.
#include <gtest/gtest.h>

#include <arrow/memory_pool.h>

#include "sluice/physical/batch_stream.h"
#include "support/batch_stream_fixture.h"

namespace sluice::physical {
namespace {

std::shared_ptr<arrow::Schema> Schema() {
  return arrow::schema({arrow::field("x", arrow::int32())});
}

/// A batch of the ints from `first` to `last`.
std::shared_ptr<arrow::RecordBatch> Ints(int first, int last) {
  std::string json = "[";
  for (int i = first; i <= last; ++i) {
    if (i > first) json += ",";
    json += std::to_string(i);
  }
  return testing::MakeBatch(Schema(), {json + "]"});
}

TEST(CollectSlicesTest, CutsLargeBatchesAndPutsSmallOnesTogetherInOrder) {
  testing::InMemoryBatchStream stream(
      Schema(), {Ints(1, 2), Ints(3, 3), Ints(4, 3) /* empty */, Ints(4, 12), Ints(13, 13)});
  auto slices = CollectSlices(stream, 4, arrow::default_memory_pool());
  ASSERT_TRUE(slices.ok()) << slices.status();
  std::vector<std::string> seen;
  for (const auto& slice : *slices) seen.push_back(slice->column(0)->ToString());
  auto expected = [](int first, int last) { return Ints(first, last)->column(0)->ToString(); };
  EXPECT_EQ(seen, (std::vector<std::string>{expected(1, 3), expected(4, 7), expected(8, 11),
                                            expected(12, 13)}));
}

TEST(CollectSlicesTest, AnEmptyStreamHasNoSlicesAndAFailureIsReturned) {
  testing::InMemoryBatchStream empty(Schema(), {});
  EXPECT_TRUE(CollectSlices(empty, 4, arrow::default_memory_pool())->empty());
  testing::InMemoryBatchStream failing(Schema(), {Ints(1, 2)}, arrow::Status::IOError("gone"));
  EXPECT_TRUE(CollectSlices(failing, 4, arrow::default_memory_pool()).status().IsIOError());
}

TEST(CollectSlicesTest, SlicesOfNoRowsAreRefused) {
  testing::InMemoryBatchStream stream(Schema(), {Ints(1, 2)});
  EXPECT_TRUE(CollectSlices(stream, 0, arrow::default_memory_pool()).status().IsInvalid());
}

}  // namespace
}  // namespace sluice::physical
