// Memory for large arrays read at random places (hash table slots, arena blocks, filters).
// With 4 KiB pages nearly every access to such an array larger than a few megabytes also
// misses the TLB, and a page walk costs about as much as the cache miss itself; in 2 MiB
// pages the TLB covers the array. Linux gives transparent huge pages to the ranges a program
// asks for (madvise) when the system is set to "madvise", as Debian's is by default.
#pragma once

#include <cstddef>
#include <vector>

namespace sluice {

/// Allocations at least this large go in huge pages where the system allows.
inline constexpr size_t kHugePageBytes = size_t{2} << 20;

/// `bytes` of memory (not zeroed), aligned to a huge page and advised to go in huge pages
/// when `bytes` >= kHugePageBytes, else from operator new aligned to a cache line (64
/// bytes). Throws std::bad_alloc.
void* AllocateLarge(size_t bytes);
/// Frees what AllocateLarge(bytes) returned, given the same `bytes`.
void FreeLarge(void* memory, size_t bytes);

/// Owns what AllocateLarge(bytes) returned: std::unique_ptr<char[], LargeDeleter>.
struct LargeDeleter {
  size_t bytes = 0;
  void operator()(void* memory) const { FreeLarge(memory, bytes); }
};

/// A std::allocator that allocates with AllocateLarge (see HugePageVector).
template <typename T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <typename U>
  explicit HugePageAllocator(const HugePageAllocator<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(AllocateLarge(n * sizeof(T))); }
  void deallocate(T* memory, size_t n) { FreeLarge(memory, n * sizeof(T)); }
  friend bool operator==(const HugePageAllocator&, const HugePageAllocator&) { return true; }
};

/// A vector whose storage comes from AllocateLarge.
template <typename T>
using HugePageVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace sluice
