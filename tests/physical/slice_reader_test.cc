// SliceReader: a stream's rows in order, in slices of at most a given number of rows, each read
// when asked for.
#include <gtest/gtest.h>

#include <string>
#include <vector>

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

/// Every slice of `reader` as text, to its end; or the error that ended it.
arrow::Result<std::vector<std::string>> ReadAll(SliceReader& reader) {
  std::vector<std::string> seen;
  while (true) {
    ARROW_ASSIGN_OR_RAISE(auto slice, reader.Next());
    if (slice == nullptr) return seen;
    seen.push_back(slice->column(0)->ToString());
  }
}

std::string Text(int first, int last) { return Ints(first, last)->column(0)->ToString(); }

TEST(SliceReaderTest, CutsLargeBatchesAndPutsSmallOnesTogetherInOrder) {
  testing::InMemoryBatchStream stream(
      Schema(), {Ints(1, 2), Ints(3, 3), Ints(4, 3) /* empty */, Ints(4, 12), Ints(13, 13)});
  SliceReader reader(stream, 4, arrow::default_memory_pool());
  auto seen = ReadAll(reader);
  ASSERT_TRUE(seen.ok()) << seen.status();
  EXPECT_EQ(*seen, (std::vector<std::string>{Text(1, 3), Text(4, 7), Text(8, 11), Text(12, 13)}));
  EXPECT_EQ(reader.Next().ValueOrDie(), nullptr);  // and stays at the end
}

TEST(SliceReaderTest, ReadsNoBatchBeyondTheSliceItGives) {
  // A full slice is given without waiting for the next batch, and a piece that does not fit
  // waits for the next slice: the stream is read as the slices are.
  testing::InMemoryBatchStream stream(Schema(), {Ints(1, 4), Ints(5, 7), Ints(8, 9)},
                                      arrow::Status::IOError("gone"));
  SliceReader reader(stream, 4, arrow::default_memory_pool());
  EXPECT_EQ(reader.Next().ValueOrDie()->column(0)->ToString(), Text(1, 4));
  EXPECT_EQ(stream.pulled(), 1u);
  EXPECT_EQ(reader.Next().ValueOrDie()->column(0)->ToString(), Text(5, 7));
  EXPECT_EQ(stream.pulled(), 3u);
  // The stream's failure comes after the slices read before it.
  EXPECT_TRUE(reader.Next().status().IsIOError());
}

TEST(SliceReaderTest, AnEmptyStreamHasNoSlices) {
  testing::InMemoryBatchStream empty(Schema(), {});
  SliceReader reader(empty, 4, arrow::default_memory_pool());
  EXPECT_EQ(reader.Next().ValueOrDie(), nullptr);
}

TEST(SliceReaderTest, SlicesOfNoRowsAreRefused) {
  testing::InMemoryBatchStream stream(Schema(), {Ints(1, 2)});
  SliceReader reader(stream, 0, arrow::default_memory_pool());
  EXPECT_TRUE(reader.Next().status().IsInvalid());
}

}  // namespace
}  // namespace sluice::physical
