// Blocks of memory whose pages are faulted in ahead of need, on another thread.
// The first write to a page of fresh memory makes the kernel zero it (and, on a virtual
// machine, the host back it), which costs far more than the write: a table growing by
// gigabytes, such as a stream-stream join's state, spent a quarter of its time in those
// faults. Blocks prepared on a background thread while the table fills the one before move
// that work to a core the query leaves idle.
#pragma once

#include <cstddef>
#include <memory>

#include "sluice/common/huge_pages.h"

namespace sluice {

/// Faults in every page of `bytes` of fresh memory at `memory` for writing: the first half
/// here, the second on a thread of the CPU pool if one is free (else here too). For a large
/// array made all at once, which the caller waits for.
void PrefaultOnTwoThreads(char* memory, size_t bytes);

/// Supplies blocks of `block_bytes` (from AllocateLarge in `pages`, from `pool` when given)
/// with every page already written once, keeping up to `depth` of them ready: a task on
/// Arrow's IO pool prepares them, one at a time, while the owner works. `pool` must outlive
/// this object. Not thread-safe: one owner calls Take().
class PrefaultedBlocks {
 public:
  PrefaultedBlocks(size_t block_bytes, size_t depth, Pages pages,
                   arrow::MemoryPool* pool = nullptr);
  /// Frees the ready blocks, and waits for a block being prepared to be freed by its task:
  /// nothing is left in `pool` after.
  ~PrefaultedBlocks();
  PrefaultedBlocks(const PrefaultedBlocks&) = delete;
  PrefaultedBlocks& operator=(const PrefaultedBlocks&) = delete;

  /// A ready block, or nullptr when none is (the caller then allocates its own); either way
  /// the preparation of more starts if it is not under way.
  std::unique_ptr<char[], LargeDeleter> Take();

  /// Bytes of the blocks ready or being prepared: memory this object holds.
  size_t held_bytes() const;

 private:
  struct Shared;
  std::shared_ptr<Shared> shared_;
};

}  // namespace sluice
