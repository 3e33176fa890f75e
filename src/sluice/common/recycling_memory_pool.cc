#include "sluice/common/recycling_memory_pool.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace sluice {

RecyclingMemoryPool::RecyclingMemoryPool(arrow::MemoryPool* backing, int64_t max_kept_bytes)
    : backing_(backing), max_kept_bytes_(max_kept_bytes) {}

RecyclingMemoryPool::~RecyclingMemoryPool() { ReleaseKept(false); }

int RecyclingMemoryPool::ClassOf(int64_t size) {
  // Size classes 2^k * (1 + i/4) for i in 0..3: the exponent of the highest bit and the two
  // bits after it name the class; anything below them rounds up.
  const auto value = static_cast<uint64_t>(size - 1);
  const int exponent = std::bit_width(value) - 1;
  const int sub = static_cast<int>((value >> (exponent - 2)) & 3);
  return exponent * kClassesPerDoubling + sub + 1;
}

int64_t RecyclingMemoryPool::BytesOfClass(int size_class) {
  const int exponent = size_class / kClassesPerDoubling;
  const int sub = size_class % kClassesPerDoubling;
  return (int64_t{kClassesPerDoubling} + sub) << (exponent - 2);
}

int64_t RecyclingMemoryPool::ClassBytes(int64_t size) { return BytesOfClass(ClassOf(size)); }

void RecyclingMemoryPool::AddLive(int64_t bytes) {
  const int64_t live = live_bytes_.fetch_add(bytes) + bytes;
  int64_t peak = peak_bytes_.load();
  while (live > peak && !peak_bytes_.compare_exchange_weak(peak, live)) {
  }
}

void RecyclingMemoryPool::CountAllocation(int64_t size) {
  AddLive(size);
  total_bytes_.fetch_add(size);
  allocations_.fetch_add(1);
}

int RecyclingMemoryPool::ClassToHandOut(int64_t size) const {
  const int size_class = ClassOf(size);
  // 1 + the round a buffer of the class last grew past it: generation_ + 1 for this round,
  // generation_ for the one before.
  const uint64_t grown_in = grown_in_round_[static_cast<size_t>(size_class)];
  const bool grows = grown_in != 0 && grown_in >= generation_;
  if (grows && size <= kMaxGrowthRoomBytes) return size_class + kClassesPerDoubling;
  return size_class;
}

arrow::Status RecyclingMemoryPool::Allocate(int64_t size, int64_t alignment, uint8_t** out) {
  if (!Recycled(size, alignment)) {
    ARROW_RETURN_NOT_OK(backing_->Allocate(size, alignment, out));
    CountAllocation(size);
    return arrow::Status::OK();
  }
  int size_class = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    size_class = ClassToHandOut(size);
    // A kept buffer of classes [from, to), if there is one.
    auto take_kept = [&](int from, int to) {
      for (int taken = from; taken < std::min(to, kClasses); ++taken) {
        auto& kept = kept_[static_cast<size_t>(taken)];
        if (kept.empty()) continue;
        *out = kept.back().buffer;
        kept.pop_back();
        kept_bytes_ -= BytesOfClass(taken);
        class_of_[*out] = taken;
        return true;
      }
      return false;
    };
    // A kept buffer of the class, or of one of the next classes (at most twice the size):
    // the sizes of a batch's arrays vary a little from batch to batch, and a buffer that
    // waits for its exact class in vain is memory held for nothing. A buffer with room to
    // grow is worth less than fresh memory, which the kernel clears: without one, a kept
    // buffer of the size's own class serves.
    const int own_class = ClassOf(size);
    if (take_kept(size_class, size_class + kClassesPerDoubling) ||
        take_kept(own_class, size_class)) {
      CountAllocation(size);
      return arrow::Status::OK();
    }
  }
  const int64_t bytes = BytesOfClass(size_class);
  ARROW_RETURN_NOT_OK(backing_->Allocate(bytes, AlignmentOf(bytes), out));
  {
    std::lock_guard<std::mutex> lock(mutex_);
    class_of_[*out] = size_class;
  }
  CountAllocation(size);
  return arrow::Status::OK();
}

void RecyclingMemoryPool::Free(uint8_t* buffer, int64_t size, int64_t alignment) {
  live_bytes_.fetch_sub(size);
  if (!Recycled(size, alignment)) {
    backing_->Free(buffer, size, alignment);
    return;
  }
  int64_t bytes = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto handed_out = class_of_.find(buffer);
    const int size_class = handed_out->second;
    class_of_.erase(handed_out);
    bytes = BytesOfClass(size_class);
    if (kept_bytes_ + bytes <= max_kept_bytes_) {
      kept_[static_cast<size_t>(size_class)].push_back({buffer, generation_});
      kept_bytes_ += bytes;
      return;
    }
  }
  backing_->Free(buffer, bytes, AlignmentOf(bytes));
}

arrow::Status RecyclingMemoryPool::Reallocate(int64_t old_size, int64_t new_size,
                                              int64_t alignment, uint8_t** ptr) {
  const bool old_recycled = Recycled(old_size, alignment);
  const bool new_recycled = Recycled(new_size, alignment);
  bool fits = false;
  if (old_recycled && new_recycled) {
    // The buffer holds its class's bytes: it grows in place up to them, and shrinks in place
    // to no less than half of them (a buffer trimmed to fit its contents lets the rest go).
    std::lock_guard<std::mutex> lock(mutex_);
    const int64_t capacity = BytesOfClass(class_of_.at(*ptr));
    const bool grows = new_size > old_size;
    fits = new_size <= capacity && (grows || 2 * new_size >= capacity);
    if (grows && ClassOf(new_size) > ClassOf(old_size)) {
      grown_in_round_[static_cast<size_t>(ClassOf(old_size))] = generation_ + 1;
    }
  }
  if (!old_recycled && !new_recycled) {
    ARROW_RETURN_NOT_OK(backing_->Reallocate(old_size, new_size, alignment, ptr));
  } else if (!fits) {
    uint8_t* moved = nullptr;
    ARROW_RETURN_NOT_OK(Allocate(new_size, alignment, &moved));
    std::memcpy(moved, *ptr, static_cast<size_t>(std::min(old_size, new_size)));
    Free(*ptr, old_size, alignment);
    // Allocate and Free counted the new buffer and the old one; a reallocation counts the
    // change in size only.
    AddLive(old_size - new_size);
    total_bytes_.fetch_sub(new_size);
    allocations_.fetch_sub(1);
    *ptr = moved;
  }
  AddLive(new_size - old_size);
  if (new_size > old_size) total_bytes_.fetch_add(new_size - old_size);
  return arrow::Status::OK();
}

void RecyclingMemoryPool::ReleaseKept(bool only_idle) {
  std::vector<std::pair<uint8_t*, int64_t>> released;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (int size_class = 0; size_class < kClasses; ++size_class) {
      auto& kept = kept_[static_cast<size_t>(size_class)];
      if (kept.empty()) continue;
      const int64_t bytes = BytesOfClass(size_class);
      // Buffers are pushed in the order they were freed: the idle ones come first.
      auto idle_end = kept.begin();
      while (idle_end != kept.end() && (!only_idle || idle_end->generation < generation_)) {
        released.emplace_back(idle_end->buffer, bytes);
        ++idle_end;
      }
      kept_bytes_ -= bytes * (idle_end - kept.begin());
      kept.erase(kept.begin(), idle_end);
    }
    ++generation_;
  }
  for (const auto& [buffer, bytes] : released) {
    backing_->Free(buffer, bytes, AlignmentOf(bytes));
  }
}

void RecyclingMemoryPool::ReleaseIdle() { ReleaseKept(true); }

void RecyclingMemoryPool::ReleaseUnused() {
  ReleaseKept(false);
  backing_->ReleaseUnused();
}

int64_t RecyclingMemoryPool::kept_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return kept_bytes_;
}

RecyclingMemoryPool* BatchMemoryPool() {
  // Never destroyed: arrays may outlive static destruction (e.g. held by other statics).
  // A batch of 10M rows into a RocksDB store frees more than 1 GiB of arrays (its keys
  // copied in key order, their order, the values read, the lookups' memo, the aggregation's
  // columns): keeping at most 1 GiB, the pool let some go every batch and the next batch's
  // were fresh pages, whose clearing by the kernel took 6-8% of its CPU time. With 2 GiB it
  // takes under 1%, and rocksdb_aggregation_bench ran 4-9% faster in four of five pairs of
  // runs taking turns (the fifth 8% slower, in the machine's noise), its peak memory 0.4 GB
  // more. Such a batch came to free 2.7 GB (the store reads and writes in key order): with
  // 2 GiB, 750 MB of it went back every batch and came again as fresh pages, the clearing
  // 7% of the batches' CPU time again. With 4 GiB its batches of held keys ran 6-7% faster
  // in two pairs of runs taking turns (502K and 476K events per CPU-second against 467K and
  // 450K), its peak memory the same (4.75 GB against 4.73-4.78): the buffers let go were
  // allocated anew by the next batch anyway.
  static auto* pool = new RecyclingMemoryPool(arrow::default_memory_pool(), int64_t{4} << 30);
  return pool;
}

}  // namespace sluice
