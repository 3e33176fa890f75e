#include "sluice/common/huge_pages.h"

#include <sys/mman.h>

#include <cstdlib>
#include <new>

namespace sluice {

namespace {

/// What smaller allocations are aligned to: a block of a cache line's bytes may be put in one.
constexpr size_t kCacheLineBytes = 64;

}  // namespace

void* AllocateLarge(size_t bytes) {
  if (bytes < kHugePageBytes) return ::operator new(bytes, std::align_val_t{kCacheLineBytes});
  const size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  void* memory = std::aligned_alloc(kHugePageBytes, rounded);
  if (memory == nullptr) throw std::bad_alloc();
  // Advice only: without huge pages the memory works the same, a little slower.
  madvise(memory, rounded, MADV_HUGEPAGE);
  return memory;
}

void FreeLarge(void* memory, size_t bytes) {
  if (bytes < kHugePageBytes) {
    ::operator delete(memory, std::align_val_t{kCacheLineBytes});
  } else {
    std::free(memory);
  }
}

}  // namespace sluice
