// The memory pool of the arrays a micro-batch makes (decoded files, taken and decoded rows,
// expression results). Arrow's default pool returns a large freed buffer to the system (its
// allocator unmaps or purges it within milliseconds), so the next batch's buffers of the same
// sizes are fresh pages again, each cleared by the kernel on first touch: in a join that
// takes 64K-row slices of 300-byte rows, that clearing was an eighth of the query's time.
// This pool keeps the large buffers it frees, by size class, for the next allocations of
// their class or of one up to half its size, and lets go of those a whole batch did not
// reuse. A buffer that grows past its class moves, its contents copied: the allocations of a
// class whose buffers have lately grown past it get room to grow in place.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <arrow/memory_pool.h>

namespace sluice {

class RecyclingMemoryPool final : public arrow::MemoryPool {
 public:
  /// Buffers smaller than this go straight to the backing pool: its own free lists serve them
  /// without touching fresh pages.
  static constexpr int64_t kMinRecycledBytes = int64_t{256} << 10;
  /// And so do those larger than this (no batch makes one).
  static constexpr int64_t kMaxRecycledBytes = int64_t{1} << 40;
  /// Size classes: four per doubling, so a buffer holds at most a quarter more than asked.
  static constexpr int kClassesPerDoubling = 4;
  /// Allocations up to this size of a class whose buffers grew past it in this ReleaseIdle
  /// round or the one before get a buffer of twice the size: Arrow's Parquet column readers
  /// reserve a batch's values, reserve twice as many when the batch spans two pages, and
  /// trim the buffer back at the end; a binary column's data buffer doubles once a batch. In
  /// Nexmark's q0 those moves copied a gigabyte per 10M events, a tenth of its CPU time.
  static constexpr int64_t kMaxGrowthRoomBytes = int64_t{64} << 20;

  /// Keeps at most `max_kept_bytes` of freed buffers at a time.
  RecyclingMemoryPool(arrow::MemoryPool* backing, int64_t max_kept_bytes);
  ~RecyclingMemoryPool() override;

  using arrow::MemoryPool::Allocate;  // and the overloads of the default alignment
  using arrow::MemoryPool::Free;
  using arrow::MemoryPool::Reallocate;
  arrow::Status Allocate(int64_t size, int64_t alignment, uint8_t** out) override;
  arrow::Status Reallocate(int64_t old_size, int64_t new_size, int64_t alignment,
                           uint8_t** ptr) override;
  void Free(uint8_t* buffer, int64_t size, int64_t alignment) override;

  /// Returns every kept buffer to the backing pool, and asks it to return what it can.
  void ReleaseUnused() override;
  /// Returns the kept buffers that no allocation reused since the previous call. Called at the
  /// end of each micro-batch: a batch's buffers are reused by the next one, and what a batch
  /// needed once is not held for ever.
  void ReleaseIdle();

  int64_t bytes_allocated() const override { return live_bytes_.load(); }
  int64_t max_memory() const override { return peak_bytes_.load(); }
  int64_t total_bytes_allocated() const override { return total_bytes_.load(); }
  int64_t num_allocations() const override { return allocations_.load(); }
  std::string backend_name() const override { return backing_->backend_name(); }

  /// Bytes of freed buffers kept for reuse.
  int64_t kept_bytes() const;

  /// The bytes a buffer of `size` (>= kMinRecycledBytes) holds: its class's size.
  static int64_t ClassBytes(int64_t size);

 private:
  struct Kept {
    uint8_t* buffer;
    uint64_t generation;  // the ReleaseIdle round it was freed in
  };
  static constexpr int kClasses = 41 * kClassesPerDoubling;

  static int ClassOf(int64_t size);
  static int64_t BytesOfClass(int size_class);
  /// Recycled buffers are allocated with AlignmentOf their class, which serves any smaller:
  /// Arrow's default alignment, and a huge page's for buffers of a huge page or more (the
  /// large arrays of huge_pages.h ask for it).
  static bool Recycled(int64_t size, int64_t alignment) {
    return size >= kMinRecycledBytes && size <= kMaxRecycledBytes &&
           alignment <= AlignmentOf(size);
  }
  static int64_t AlignmentOf(int64_t size) {
    return size >= kHugePageAlignment ? kHugePageAlignment : arrow::kDefaultBufferAlignment;
  }
  static constexpr int64_t kHugePageAlignment = int64_t{2} << 20;
  void AddLive(int64_t bytes);
  void CountAllocation(int64_t size);
  void ReleaseKept(bool only_idle);
  /// The class of the buffer for an allocation of `size`: its own, or twice its size when
  /// buffers of its class have lately grown past it. Called with mutex_ held.
  int ClassToHandOut(int64_t size) const;

  arrow::MemoryPool* backing_;
  const int64_t max_kept_bytes_;
  mutable std::mutex mutex_;
  std::array<std::vector<Kept>, kClasses> kept_;  // guarded by mutex_
  int64_t kept_bytes_ = 0;                         // guarded by mutex_
  uint64_t generation_ = 0;                        // guarded by mutex_
  /// The class of each recycled buffer handed out (its capacity): a buffer may serve a
  /// smaller class than its own.
  std::unordered_map<uint8_t*, int> class_of_;  // guarded by mutex_
  /// For each class, 1 + the last round in which a buffer asked for at the class grew past it
  /// (0: never).
  std::array<uint64_t, kClasses> grown_in_round_{};  // guarded by mutex_
  std::atomic<int64_t> live_bytes_{0};
  std::atomic<int64_t> peak_bytes_{0};
  std::atomic<int64_t> total_bytes_{0};
  std::atomic<int64_t> allocations_{0};
};

/// The process's pool for the arrays of micro-batches (over Arrow's default pool, keeping at
/// most 4 GiB of freed buffers).
RecyclingMemoryPool* BatchMemoryPool();

}  // namespace sluice
