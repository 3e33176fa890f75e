// Transparent huge pages for the large arrays that hash tables probe at random.
#pragma once

#include <cstddef>

namespace sluice {

/// Asks the kernel to back the whole 2 MiB pages inside [data, data + bytes) with transparent
/// huge pages (madvise MADV_HUGEPAGE). Call it before the memory is first written. A probe of
/// a hash table of tens of megabytes then misses the TLB far less often: with 4 KiB pages
/// nearly every probe walks the page tables, and the walk costs about as much as the cache
/// miss itself. Does nothing for smaller ranges or where the kernel refuses.
void AdviseHugePages(void* data, size_t bytes);

}  // namespace sluice
