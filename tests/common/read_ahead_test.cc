#include "sluice/common/read_ahead.h"

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <condition_variable>
#include <latch>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <arrow/array/builder_primitive.h>
#include <arrow/io/interfaces.h>
#include <arrow/type.h>
#include <arrow/util/byte_size.h>
#include <arrow/util/thread_pool.h>

namespace sluice {
namespace {

std::shared_ptr<arrow::Schema> Schema() { return arrow::schema({arrow::field("n", arrow::int64())}); }

std::shared_ptr<arrow::RecordBatch> BatchOf(int64_t n) {
  arrow::Int64Builder builder;
  EXPECT_TRUE(builder.Append(n).ok());
  return arrow::RecordBatch::Make(Schema(), 1, {builder.Finish().ValueOrDie()});
}

arrow::internal::Executor* IoPool() { return arrow::io::default_io_context().executor(); }

/// Yields `count` one-row batches 0, 1, ... (or fails at `fail_at`), recording how many reads
/// were made, on which threads and at which priority, and able to hold its reads from a given
/// one on until released.
class CountingSource {
 public:
  CountingSource(int count, int fail_at = -1) : count_(count), fail_at_(fail_at) {}

  BatchReadAhead::Read AsRead() {
    return [this] { return Read(); };
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Read() {
    {
      std::unique_lock lock(mutex_);
      threads_.push_back(std::this_thread::get_id());
      priorities_.push_back(getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())));
      const int read = ++reads_;
      changed_.notify_all();
      changed_.wait(lock, [&] { return read < hold_from_; });
    }
    const int position = next_++;
    if (position == fail_at_) return arrow::Status::IOError("damaged at batch ", position);
    if (position >= count_) return nullptr;
    return BatchOf(position);
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
  std::vector<int> priorities() {
    std::lock_guard lock(mutex_);
    return priorities_;
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
  std::vector<int> priorities_;
};

std::vector<int64_t> ReadAll(BatchReadAhead& ahead, arrow::Status* status) {
  std::vector<int64_t> values;
  while (true) {
    auto batch = ahead.Next();
    *status = batch.status();
    if (!batch.ok() || *batch == nullptr) return values;
    values.push_back(std::static_pointer_cast<arrow::Int64Array>((*batch)->column(0))->Value(0));
  }
}

TEST(BatchReadAheadTest, YieldsTheSourcesBatchesInOrderThenTheEnd) {
  CountingSource source(5);
  BatchReadAhead ahead(source.AsRead(), IoPool());
  arrow::Status status;
  EXPECT_EQ(ReadAll(ahead, &status), (std::vector<int64_t>{0, 1, 2, 3, 4}));
  ASSERT_TRUE(status.ok()) << status.ToString();
  // Past the end it stays at the end and reads no more.
  const int reads = source.reads();
  auto batch = ahead.Next();
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ(*batch, nullptr);
  EXPECT_EQ(source.reads(), reads);
  EXPECT_EQ(reads, 6);  // five batches and the end
}

TEST(BatchReadAheadTest, ReadsTheNextBatchOnAnotherThreadWhileTheCallerHoldsThisOne) {
  CountingSource source(3);
  BatchReadAhead ahead(source.AsRead(), IoPool());
  auto batch = ahead.Next();
  ASSERT_TRUE(batch.ok());
  ASSERT_NE(*batch, nullptr);
  // The caller has batch 0 and has not asked again: batch 1 is read meanwhile.
  EXPECT_TRUE(source.WaitForReads(2));
  for (std::thread::id thread : source.threads()) EXPECT_NE(thread, std::this_thread::get_id());
}

TEST(BatchReadAheadTest, ReadsNothingBeforeTheFirstNextUnlessStarted) {
  CountingSource source(10);
  BatchReadAhead lazy(source.AsRead(), IoPool());
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(source.reads(), 0);
  CountingSource started(10);
  BatchReadAhead eager(started.AsRead(), IoPool());
  eager.Start();
  EXPECT_TRUE(started.WaitForReads(2));
}

TEST(BatchReadAheadTest, KeepsTwoBatchesReadyAndNoMore) {
  CountingSource source(10);
  BatchReadAhead ahead(source.AsRead(), IoPool());
  ASSERT_TRUE(ahead.Next().ok());
  // Batch 0 is taken; 1 and 2 are read ahead, and the reads stop there.
  ASSERT_TRUE(source.WaitForReads(3));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(source.reads(), 3);
  ASSERT_TRUE(ahead.Next().ok());
  EXPECT_TRUE(source.WaitForReads(4));
}

TEST(BatchReadAheadTest, KeepsNoMoreBytesReadyThanItsLimitButAlwaysOneBatch) {
  const int64_t batch_bytes = arrow::util::TotalBufferSize(*BatchOf(0));
  CountingSource source(100);
  BatchReadAhead ahead(source.AsRead(), IoPool(), ReadAheadLimit{1000, 3 * batch_bytes});
  ahead.Start();
  ASSERT_TRUE(source.WaitForReads(3));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(source.reads(), 3);  // three batches reach the byte limit
  ASSERT_TRUE(ahead.Next().ok());
  EXPECT_TRUE(source.WaitForReads(4));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(source.reads(), 4);

  CountingSource tiny(10);
  BatchReadAhead one(tiny.AsRead(), IoPool(), ReadAheadLimit{1000, 1});
  one.Start();
  ASSERT_TRUE(tiny.WaitForReads(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(tiny.reads(), 1);
  auto batch = one.Next();
  ASSERT_TRUE(batch.ok());
  EXPECT_NE(*batch, nullptr);
}

TEST(BatchReadAheadTest, AFailureComesOutInItsPlaceAndNothingIsReadAfterIt) {
  CountingSource source(5, /*fail_at=*/2);
  BatchReadAhead ahead(source.AsRead(), IoPool());
  arrow::Status status;
  EXPECT_EQ(ReadAll(ahead, &status), (std::vector<int64_t>{0, 1}));
  EXPECT_TRUE(status.IsIOError());
  EXPECT_NE(status.message().find("damaged at batch 2"), std::string::npos);
  auto batch = ahead.Next();
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ(*batch, nullptr);
  EXPECT_EQ(source.reads(), 3);
}

TEST(BatchReadAheadTest, StoppingWaitsForTheReadUnderWay) {
  CountingSource source(3);
  BatchReadAhead ahead(source.AsRead(), IoPool());
  source.HoldFrom(2);
  ASSERT_TRUE(ahead.Next().ok());
  ASSERT_TRUE(source.WaitForReads(2));
  std::atomic<bool> stopped = false;
  std::thread stopper([&] {
    ahead.Stop();
    stopped = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(stopped);  // the read of batch 1 is still held
  source.Release();
  stopper.join();
  EXPECT_TRUE(stopped);
  EXPECT_EQ(source.reads(), 2);
}

TEST(BatchReadAheadTest, RescheduledReadsMoveToTheNewExecutorAfterTheReadUnderWay) {
  auto other = arrow::internal::ThreadPool::Make(1).ValueOrDie();
  CountingSource source(6);
  source.HoldFrom(2);
  BatchReadAhead ahead(source.AsRead(), IoPool(), ReadAheadLimit{1000});
  ahead.Start();
  ASSERT_TRUE(source.WaitForReads(2));  // the second read is under way, held
  ahead.Reschedule(other.get(), ReadAheadLimit{1000});
  source.Release();
  arrow::Status status;
  EXPECT_EQ(ReadAll(ahead, &status), (std::vector<int64_t>{0, 1, 2, 3, 4, 5}));
  ASSERT_TRUE(status.ok()) << status.ToString();
  const auto threads = source.threads();
  ASSERT_EQ(threads.size(), 7u);
  // Reads 1 and 2 ran where they started; those after them on the other pool's one thread.
  EXPECT_EQ(threads[0], threads[1]);
  for (size_t i = 3; i < threads.size(); ++i) EXPECT_EQ(threads[i], threads[2]);
  EXPECT_NE(threads[2], threads[1]);
}

int64_t ThreadCpuNanos() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

TEST(BatchReadAheadTest, CountsTheCpuTimeOfItsReads) {
  BatchReadAhead ahead(
      [spun = false]() mutable -> arrow::Result<std::shared_ptr<arrow::RecordBatch>> {
        if (spun) return nullptr;
        spun = true;
        // Busy for 20 ms of this thread's CPU, however long that takes on a busy machine.
        const int64_t until = ThreadCpuNanos() + 20'000'000;
        volatile int64_t sink = 0;
        while (ThreadCpuNanos() < until) sink = sink + 1;
        return BatchOf(0);
      },
      IoPool());
  arrow::Status status;
  EXPECT_EQ(ReadAll(ahead, &status).size(), 1u);
  EXPECT_GE(ahead.read_cpu_nanos(), 20'000'000);
  EXPECT_LT(ahead.read_cpu_nanos(), 2'000'000'000);
}

TEST(BatchReadAheadTest, TheBackgroundPoolReadsAtTheLowestPriority) {
  const int priority_before = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
  CountingSource source(2);
  BatchReadAhead ahead(source.AsRead(), BackgroundPool());
  arrow::Status status;
  EXPECT_EQ(ReadAll(ahead, &status), (std::vector<int64_t>{0, 1}));
  for (int priority : source.priorities()) EXPECT_EQ(priority, 19);
  for (std::thread::id thread : source.threads()) EXPECT_NE(thread, std::this_thread::get_id());
  // The process's own threads keep their priority.
  EXPECT_EQ(getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())), priority_before);
}

TEST(BatchReadAheadTest, TasksOfTheBackgroundPoolLeaveTheOtherPoolsAtTheProcessPriority) {
  const int priority = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
  auto* io = static_cast<arrow::internal::ThreadPool*>(arrow::io::default_io_context().executor());
  const size_t workers = static_cast<size_t>(io->GetCapacity());
  // From a task of the lowest priority, as many tasks on the I/O pool as it has workers, each
  // held until all run: one on each worker. A worker the background task had to start would
  // have its priority. (Shared: the tasks still wake up after the test has seen them all.)
  struct Seen {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<int> priorities;
  };
  auto seen = std::make_shared<Seen>();
  ASSERT_TRUE(BackgroundPool()
                  ->Spawn([io, workers, seen] {
                    for (size_t i = 0; i < workers; ++i) {
                      EXPECT_TRUE(io->Spawn([workers, seen] {
                                      std::unique_lock lock(seen->mutex);
                                      seen->priorities.push_back(getpriority(
                                          PRIO_PROCESS, static_cast<id_t>(gettid())));
                                      seen->changed.notify_all();
                                      seen->changed.wait(lock, [&] {
                                        return seen->priorities.size() == workers;
                                      });
                                    }).ok());
                    }
                  })
                  .ok());
  std::unique_lock lock(seen->mutex);
  ASSERT_TRUE(seen->changed.wait_for(lock, std::chrono::seconds(10),
                                     [&] { return seen->priorities.size() == workers; }));
  for (int worker : seen->priorities) EXPECT_EQ(worker, priority);
}

// Spawns on `pool` a task that sleeps for 200 ms once started, and exits the process while it
// sleeps: exit shuts the pool down with the task still running.
[[noreturn]] void ExitWhileATaskSleepsOn(arrow::internal::Executor* pool) {
  auto started = std::make_shared<std::latch>(1);
  if (!pool->Spawn([started] {
             started->count_down();
             std::this_thread::sleep_for(std::chrono::milliseconds(200));
           })
           .ok()) {
    std::_Exit(1);
  }
  started->wait();
  std::exit(0);
}

// Arrow wraps each task of its pools in a scope of OpenTelemetry's runtime context, whose
// storage is a static made by the first task spawned in the process. A task still ending when
// the process exits (a read ahead whose query stopped just before) must find that storage
// whole: it is made before the pipeline pool, so it is destroyed after the pool's workers are
// joined.
TEST(BatchReadAheadDeathTest, APipelineTaskStillRunningAtExitEndsBeforeTracingIsTornDown) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // PipelinePool() first, before any task.
  EXPECT_EXIT(ExitWhileATaskSleepsOn(PipelinePool()), ::testing::ExitedWithCode(0), "");
}

// The same for a task of the background pool, whose threads run at the lowest priority and so
// are the likeliest to be preempted between waking their reader and ending: an exit handler
// that outlasts the task (registered first, so it runs after tracing is torn down) sees it end.
TEST(BatchReadAheadDeathTest, ABackgroundTaskStillRunningAtExitEndsBeforeTracingIsTornDown) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        std::atexit([] { std::this_thread::sleep_for(std::chrono::milliseconds(400)); });
        ExitWhileATaskSleepsOn(BackgroundPool());
      },
      ::testing::ExitedWithCode(0), "");
}

// A reader that outlives the pools (a static made before them, as a program's own may be)
// stops after exit shut them down: its read, still queued behind busy workers then, must have
// run, or Stop() would wait for it for ever.
TEST(BatchReadAheadDeathTest, AReaderStoppedAfterItsPoolShutDownAtExitDoesNotWaitForEver) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        alarm(10);  // a hang ends in SIGALRM
        static CountingSource source(1);
        static std::optional<BatchReadAhead> reader;  // made before the pool: destroyed after it
        arrow::internal::Executor* pool = BackgroundPool();
        for (int i = 0; i < pool->GetCapacity(); ++i) {
          if (!pool->Spawn([] { std::this_thread::sleep_for(std::chrono::milliseconds(200)); })
                   .ok()) {
            std::_Exit(1);
          }
        }
        reader.emplace(source.AsRead(), pool);
        reader->Start();  // queued behind the sleeping tasks
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace sluice
