#include "sluice/common/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>

namespace sluice {

void AdviseHugePages(void* data, size_t bytes) {
  constexpr uintptr_t kHugePage = uintptr_t{2} << 20;
  auto begin = reinterpret_cast<uintptr_t>(data);
  uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
  uintptr_t last = (begin + bytes) & ~(kHugePage - 1);
  if (last <= first) return;
  // Only a hint: where huge pages are off or unavailable the memory stays as it was.
  (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
}

}  // namespace sluice
