// Memory for large arrays read at random places (hash table slots, filters, and arena blocks,
// which ask for small pages: see Pages). With 4 KiB pages nearly every access to such an
// array larger than a few megabytes also misses the TLB, and a page walk costs about as much
// as the cache miss itself; in 2 MiB pages the TLB covers the array. Linux gives transparent
// huge pages to the ranges a program asks for (madvise) when the system is set to "madvise",
// as Debian's is by default.
#pragma once

#include <cstddef>
#include <type_traits>
#include <vector>

namespace arrow {
class MemoryPool;
}  // namespace arrow

namespace sluice {

/// Allocations at least this large go in huge pages where the system allows.
inline constexpr size_t kHugePageBytes = size_t{2} << 20;

/// The pages a large allocation asks the kernel for.
enum class Pages {
  /// 2 MiB pages: arrays read at random, whose every access would otherwise miss the TLB.
  kHuge,
  /// 4 KiB pages: memory filled front to back as it grows, by gigabytes. On a virtual machine
  /// the first touch of a huge page is slow (the kernel compacts memory for it, and the host
  /// backs it): 0.4-2 GB/s against 3 GB/s for small pages.
  kSmall,
};

/// `bytes` of memory (not zeroed), aligned to a huge page and advised to go in `pages` when
/// `bytes` >= kHugePageBytes, else from operator new aligned to a cache line (64 bytes). The
/// large ones come from `pool` when given (see HugePageAllocator), else from the system.
/// Throws std::bad_alloc.
void* AllocateLarge(size_t bytes, arrow::MemoryPool* pool = nullptr, Pages pages = Pages::kHuge);
/// Frees what AllocateLarge(bytes, pool) returned, given the same `bytes` and `pool`.
void FreeLarge(void* memory, size_t bytes, arrow::MemoryPool* pool = nullptr);

/// Owns what AllocateLarge(bytes, pool) returned: std::unique_ptr<char[], LargeDeleter>.
struct LargeDeleter {
  size_t bytes = 0;
  arrow::MemoryPool* pool = nullptr;
  void operator()(void* memory) const { FreeLarge(memory, bytes, pool); }
};

/// A std::allocator that allocates with AllocateLarge (see HugePageVector), from `pool` when
/// given: the arrays a batch makes anew every time (a grouper's) come from the batch's pool,
/// which keeps what one batch frees for the next, where the system would hand out fresh
/// pages, each cleared by the kernel on first touch. State that lasts from batch to batch
/// takes its memory from the system.
template <typename T>
struct HugePageAllocator {
  using value_type = T;
  using propagate_on_container_move_assignment = std::true_type;
  explicit HugePageAllocator(arrow::MemoryPool* pool = nullptr) : pool(pool) {}
  template <typename U>
  explicit HugePageAllocator(const HugePageAllocator<U>& other) : pool(other.pool) {}
  T* allocate(size_t n) { return static_cast<T*>(AllocateLarge(n * sizeof(T), pool)); }
  void deallocate(T* memory, size_t n) { FreeLarge(memory, n * sizeof(T), pool); }
  friend bool operator==(const HugePageAllocator& a, const HugePageAllocator& b) {
    return a.pool == b.pool;
  }

  arrow::MemoryPool* pool;
};

/// A vector whose storage comes from AllocateLarge.
template <typename T>
using HugePageVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace sluice
