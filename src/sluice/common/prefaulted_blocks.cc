#include "sluice/common/prefaulted_blocks.h"

#include <sys/mman.h>
#include <unistd.h>

#include <condition_variable>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#include <arrow/io/interfaces.h>
#include <arrow/util/thread_pool.h>

#include "sluice/common/start_ahead.h"

namespace sluice {

namespace {

/// Faults in every page of `bytes` of fresh memory at `memory` for writing.
void Prefault(char* memory, size_t bytes) {
  // One call faults the whole range in (Linux 5.14 and later); else a write per page does.
  if (madvise(memory, bytes, MADV_POPULATE_WRITE) == 0) return;
  static const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  for (size_t at = 0; at < bytes; at += page) {
    reinterpret_cast<volatile char*>(memory)[at] = 0;
  }
}

}  // namespace

void PrefaultOnTwoThreads(char* memory, size_t bytes) {
  // Halves on a huge page's boundary: each page is faulted in whole by one thread.
  const size_t half = bytes / 2 / kHugePageBytes * kHugePageBytes;
  if (half == 0) return Prefault(memory, bytes);
  StartAhead second([=] {
    Prefault(memory + half, bytes - half);
    return arrow::Status::OK();
  }, arrow::internal::GetCpuThreadPool());
  Prefault(memory, half);
  (void)second.Finish();
}

struct PrefaultedBlocks::Shared {
  const size_t block_bytes;
  const size_t depth;
  const Pages pages;
  arrow::MemoryPool* const pool;
  std::mutex mutex;
  std::vector<std::unique_ptr<char[], LargeDeleter>> ready;
  bool preparing = false;
  /// The owner is gone: the task stops.
  bool abandoned = false;
  /// The task holds a block outside the lock, allocated from `pool`: the owner waits for it
  /// before going, since the pool is only promised to outlive the owner.
  bool block_in_hand = false;
  std::condition_variable block_put_down;

  /// The task: prepares blocks until `depth` are ready or the owner is gone. Out of memory,
  /// it stops: the owner then allocates for itself, and fails there, where it can report it.
  void Prepare() {
    std::unique_lock lock(mutex);
    while (!abandoned && ready.size() < depth) {
      block_in_hand = true;
      lock.unlock();
      std::unique_ptr<char[], LargeDeleter> block;
      try {
        block.reset(static_cast<char*>(AllocateLarge(block_bytes, pool, pages)));
        block.get_deleter() = LargeDeleter{block_bytes, pool};
      } catch (const std::bad_alloc&) {
        lock.lock();
        PutDown();
        break;
      }
      Prefault(block.get(), block_bytes);
      lock.lock();
      // The owner, even if gone, freed the ready blocks and waits here: this one goes with
      // them, back to the pool, while the pool is there.
      if (abandoned) block.reset();
      else ready.push_back(std::move(block));
      PutDown();
    }
    preparing = false;
  }

  /// Called with `mutex` held.
  void PutDown() {
    block_in_hand = false;
    block_put_down.notify_all();
  }
};

PrefaultedBlocks::PrefaultedBlocks(size_t block_bytes, size_t depth, Pages pages,
                                   arrow::MemoryPool* pool)
    : shared_(std::make_shared<Shared>(block_bytes, depth, pages, pool)) {}

PrefaultedBlocks::~PrefaultedBlocks() {
  std::unique_lock lock(shared_->mutex);
  shared_->abandoned = true;
  shared_->ready.clear();
  // At most one block's preparation; a task not yet started sees `abandoned` and touches
  // nothing, so this never waits on the IO pool's queue.
  shared_->block_put_down.wait(lock, [&] { return !shared_->block_in_hand; });
}

std::unique_ptr<char[], LargeDeleter> PrefaultedBlocks::Take() {
  std::lock_guard lock(shared_->mutex);
  std::unique_ptr<char[], LargeDeleter> block;
  if (!shared_->ready.empty()) {
    block = std::move(shared_->ready.back());
    shared_->ready.pop_back();
  }
  if (!shared_->preparing) {
    // The task holds the shared state, so it may outlive this object. Without a thread for
    // it the blocks are simply allocated by the caller, as without this object.
    shared_->preparing =
        arrow::io::default_io_context()
            .executor()
            ->Spawn([shared = shared_] { shared->Prepare(); })
            .ok();
  }
  return block;
}

size_t PrefaultedBlocks::held_bytes() const {
  std::lock_guard lock(shared_->mutex);
  return (shared_->ready.size() + (shared_->preparing ? 1 : 0)) * shared_->block_bytes;
}

}  // namespace sluice
