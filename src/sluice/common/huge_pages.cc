#include "sluice/common/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <new>

#include <arrow/memory_pool.h>

namespace sluice {

namespace {

/// What smaller allocations are aligned to: a block of a cache line's bytes may be put in one.
constexpr size_t kCacheLineBytes = 64;

/// What a large allocation of `bytes` takes: whole huge pages.
size_t RoundedUp(size_t bytes) {
  return (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
}

}  // namespace

void* AllocateLarge(size_t bytes, arrow::MemoryPool* pool, Pages pages) {
  if (bytes < kHugePageBytes) return ::operator new(bytes, std::align_val_t{kCacheLineBytes});
  const size_t rounded = RoundedUp(bytes);
  void* memory = nullptr;
  if (pool != nullptr) {
    uint8_t* pooled = nullptr;
    if (pool->Allocate(static_cast<int64_t>(rounded), static_cast<int64_t>(kHugePageBytes),
                       &pooled)
            .ok()) {
      memory = pooled;
    }
  } else {
    memory = std::aligned_alloc(kHugePageBytes, rounded);
  }
  if (memory == nullptr) throw std::bad_alloc();
  // Advice only: the memory works the same in either size of page. Small pages are asked for
  // too, as a system set to give huge pages "always" would give them unasked.
  madvise(memory, rounded, pages == Pages::kHuge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  return memory;
}

void FreeLarge(void* memory, size_t bytes, arrow::MemoryPool* pool) {
  if (bytes < kHugePageBytes) {
    ::operator delete(memory, std::align_val_t{kCacheLineBytes});
  } else if (pool != nullptr) {
    pool->Free(static_cast<uint8_t*>(memory), static_cast<int64_t>(RoundedUp(bytes)),
               static_cast<int64_t>(kHugePageBytes));
  } else {
    std::free(memory);
  }
}

}  // namespace sluice
