// Work started ahead runs once: on a pool thread when one is free, else on the thread that
// needs it done, which never waits behind the pool's other tasks.
#include "sluice/common/start_ahead.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

#include <arrow/util/thread_pool.h>

namespace sluice {
namespace {

/// A pool of one thread, held by a task until Release(), which waits for the pool to be idle.
struct HeldPool {
  HeldPool() {
    std::shared_future<void> released = release.get_future().share();
    EXPECT_TRUE(pool->Spawn([released] { released.wait(); }).ok());
  }
  void Release() {
    release.set_value();
    pool->WaitForIdle();
  }

  std::shared_ptr<arrow::internal::ThreadPool> pool =
      arrow::internal::ThreadPool::Make(1).ValueOrDie();
  std::promise<void> release;
};

TEST(StartAheadTest, AFreePoolThreadDoesTheWorkAndFinishWaitsForIt) {
  auto pool = arrow::internal::ThreadPool::Make(1).ValueOrDie();
  std::promise<void> started;
  std::promise<void> release;
  std::atomic<int> runs{0};
  std::thread::id ran_on;
  StartAhead ahead(
      [&] {
        ran_on = std::this_thread::get_id();
        started.set_value();
        release.get_future().wait();
        ++runs;
        return arrow::Status::IOError("the work's own error");
      },
      pool.get());
  started.get_future().wait();
  std::thread releaser([&] { release.set_value(); });
  const arrow::Status status = ahead.Finish();
  releaser.join();
  EXPECT_TRUE(status.IsIOError()) << status.ToString();
  EXPECT_EQ(runs.load(), 1);
  EXPECT_NE(ran_on, std::this_thread::get_id());
  // Finishing again returns the same status without running the work again.
  EXPECT_TRUE(ahead.Finish().IsIOError());
  EXPECT_EQ(runs.load(), 1);
}

TEST(StartAheadTest, FinishDoesTheWorkItselfWhenThePoolIsBusy) {
  HeldPool held;
  std::atomic<int> runs{0};
  std::thread::id ran_on;
  {
    StartAhead ahead(
        [&] {
          ran_on = std::this_thread::get_id();
          ++runs;
          return arrow::Status::OK();
        },
        held.pool.get());
    // The pool's only thread is held: the work is done here, at once.
    EXPECT_TRUE(ahead.Finish().ok());
    EXPECT_EQ(runs.load(), 1);
    EXPECT_EQ(ran_on, std::this_thread::get_id());
  }
  held.Release();
  EXPECT_EQ(runs.load(), 1) << "the pool's task must not run the work again";
}

TEST(StartAheadTest, WorkNotStartedWhenItsOwnerGoesNeverRuns) {
  HeldPool held;
  std::atomic<int> runs{0};
  { StartAhead ahead([&] { ++runs; return arrow::Status::OK(); }, held.pool.get()); }
  held.Release();
  EXPECT_EQ(runs.load(), 0);
}

}  // namespace
}  // namespace sluice
