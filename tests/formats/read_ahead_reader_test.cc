#include "sluice/formats/read_ahead_reader.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <thread>
#include <vector>

#include <arrow/array/builder_primitive.h>
#include <arrow/type.h>

namespace sluice::formats {
namespace {

std::shared_ptr<arrow::Schema> Schema() { return arrow::schema({arrow::field("n", arrow::int64())}); }

std::shared_ptr<arrow::RecordBatch> BatchOf(int64_t n) {
  arrow::Int64Builder builder;
  EXPECT_TRUE(builder.Append(n).ok());
  return arrow::RecordBatch::Make(Schema(), 1, {builder.Finish().ValueOrDie()});
}

/// Yields `count` one-row batches 0, 1, ... (or fails at `fail_at`), recording how many reads
/// were made and on which threads, and able to hold its reads from a given one on until
/// released.
class CountingReader final : public arrow::RecordBatchReader {
 public:
  CountingReader(int count, int fail_at = -1) : count_(count), fail_at_(fail_at) {}

  std::shared_ptr<arrow::Schema> schema() const override { return Schema(); }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    {
      std::unique_lock lock(mutex_);
      threads_.push_back(std::this_thread::get_id());
      const int read = ++reads_;
      changed_.notify_all();
      changed_.wait(lock, [&] { return read < hold_from_; });
    }
    const int position = next_++;
    if (position == fail_at_) return arrow::Status::IOError("damaged at batch ", position);
    *batch = position < count_ ? BatchOf(position) : nullptr;
    return arrow::Status::OK();
  }

  /// Waits up to a few seconds until `reads` reads have started; false if they have not.
  bool WaitForReads(int reads) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(5), [&] { return reads_ >= reads; });
  }
  /// Holds the reads from the `read`th (counting from 1) on; Release lets them go.
  void HoldFrom(int read) {
    std::lock_guard lock(mutex_);
    hold_from_ = read;
  }
  void Release() {
    std::lock_guard lock(mutex_);
    hold_from_ = std::numeric_limits<int>::max();
    changed_.notify_all();
  }
  int reads() {
    std::lock_guard lock(mutex_);
    return reads_;
  }
  std::vector<std::thread::id> threads() {
    std::lock_guard lock(mutex_);
    return threads_;
  }

 private:
  const int count_;
  const int fail_at_;
  int next_ = 0;
  std::mutex mutex_;
  std::condition_variable changed_;
  int reads_ = 0;
  int hold_from_ = std::numeric_limits<int>::max();
  std::vector<std::thread::id> threads_;
};

std::vector<int64_t> ReadAll(arrow::RecordBatchReader& reader, arrow::Status* status) {
  std::vector<int64_t> values;
  while (true) {
    std::shared_ptr<arrow::RecordBatch> batch;
    *status = reader.ReadNext(&batch);
    if (!status->ok() || batch == nullptr) return values;
    values.push_back(
        std::static_pointer_cast<arrow::Int64Array>(batch->column(0))->Value(0));
  }
}

TEST(ReadAheadReaderTest, YieldsTheSourcesBatchesInOrderThenTheEnd) {
  auto source = std::make_shared<CountingReader>(5);
  auto reader = ReadAhead(source);
  EXPECT_TRUE(reader->schema()->Equals(*Schema()));
  arrow::Status status;
  EXPECT_EQ(ReadAll(*reader, &status), (std::vector<int64_t>{0, 1, 2, 3, 4}));
  ASSERT_TRUE(status.ok()) << status.ToString();
  // Past the end the reader stays at the end and reads no more.
  const int reads = source->reads();
  std::shared_ptr<arrow::RecordBatch> batch;
  ASSERT_TRUE(reader->ReadNext(&batch).ok());
  EXPECT_EQ(batch, nullptr);
  EXPECT_EQ(source->reads(), reads);
  EXPECT_EQ(reads, 6);  // five batches and the end
}

TEST(ReadAheadReaderTest, ReadsTheNextBatchOnAnotherThreadWhileTheCallerHoldsThisOne) {
  auto source = std::make_shared<CountingReader>(3);
  auto reader = ReadAhead(source);
  std::shared_ptr<arrow::RecordBatch> batch;
  ASSERT_TRUE(reader->ReadNext(&batch).ok());
  ASSERT_NE(batch, nullptr);
  // The caller has batch 0 and has not asked again: batch 1 is read meanwhile.
  EXPECT_TRUE(source->WaitForReads(2));
  for (std::thread::id thread : source->threads()) EXPECT_NE(thread, std::this_thread::get_id());
}

TEST(ReadAheadReaderTest, KeepsTwoBatchesReadyAndNoMore) {
  auto source = std::make_shared<CountingReader>(10);
  auto reader = ReadAhead(source);
  std::shared_ptr<arrow::RecordBatch> batch;
  ASSERT_TRUE(reader->ReadNext(&batch).ok());
  // Batch 0 is taken; 1 and 2 are read ahead, and the reads stop there.
  ASSERT_TRUE(source->WaitForReads(3));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(source->reads(), 3);
  ASSERT_TRUE(reader->ReadNext(&batch).ok());
  EXPECT_TRUE(source->WaitForReads(4));
}

TEST(ReadAheadReaderTest, AFailureComesOutInItsPlaceAndNothingIsReadAfterIt) {
  auto source = std::make_shared<CountingReader>(5, /*fail_at=*/2);
  auto reader = ReadAhead(source);
  arrow::Status status;
  EXPECT_EQ(ReadAll(*reader, &status), (std::vector<int64_t>{0, 1}));
  EXPECT_TRUE(status.IsIOError());
  EXPECT_NE(status.message().find("damaged at batch 2"), std::string::npos);
  std::shared_ptr<arrow::RecordBatch> batch;
  EXPECT_TRUE(reader->ReadNext(&batch).ok());
  EXPECT_EQ(batch, nullptr);
  EXPECT_EQ(source->reads(), 3);
}

TEST(ReadAheadReaderTest, ClosingWaitsForTheReadUnderWay) {
  auto source = std::make_shared<CountingReader>(3);
  auto reader = ReadAhead(source);
  source->HoldFrom(2);
  std::shared_ptr<arrow::RecordBatch> batch;
  ASSERT_TRUE(reader->ReadNext(&batch).ok());
  ASSERT_TRUE(source->WaitForReads(2));
  std::atomic<bool> closed = false;
  std::thread closer([&] {
    EXPECT_TRUE(reader->Close().ok());
    closed = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(closed);  // the read of batch 1 is still held
  source->Release();
  closer.join();
  EXPECT_TRUE(closed);
  EXPECT_EQ(source->reads(), 2);
}

}  // namespace
}  // namespace sluice::formats
