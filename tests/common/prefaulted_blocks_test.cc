// PrefaultedBlocks: blocks of memory whose pages a background task faulted in ahead of need.
#include "sluice/common/prefaulted_blocks.h"

#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <arrow/memory_pool.h>

namespace sluice {
namespace {

constexpr size_t kBlockBytes = size_t{4} << 20;

/// Takes from `blocks` until a block comes, for at most ten seconds.
std::unique_ptr<char[], LargeDeleter> TakeReady(PrefaultedBlocks& blocks) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (auto block = blocks.Take()) return block;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return nullptr;
}

/// How many of the pages of `bytes` at `memory` are resident.
size_t ResidentPages(const char* memory, size_t bytes) {
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> resident(bytes / page);
  EXPECT_EQ(mincore(const_cast<char*>(memory), bytes, resident.data()), 0)
      << std::strerror(errno);
  size_t count = 0;
  for (unsigned char r : resident) count += r & 1;
  return count;
}

/// The flags (VmFlags) of the mapping of this process that holds `address`.
std::string MappingFlags(const void* address) {
  std::ifstream smaps("/proc/self/smaps");
  const auto at = reinterpret_cast<uintptr_t>(address);
  bool inside = false;
  std::string line;
  while (std::getline(smaps, line)) {
    uintptr_t start = 0, end = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &start, &end) == 2) {
      inside = start <= at && at < end;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

TEST(PrefaultedBlocksTest, ATakenBlockHasEveryPageResidentInThePagesAskedFor) {
  for (Pages pages : {Pages::kHuge, Pages::kSmall}) {
    SCOPED_TRACE(pages == Pages::kHuge ? "huge" : "small");
    PrefaultedBlocks blocks(kBlockBytes, 2, pages);
    auto block = TakeReady(blocks);
    ASSERT_NE(block, nullptr);
    EXPECT_EQ(block.get_deleter().bytes, kBlockBytes);
    const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    EXPECT_EQ(ResidentPages(block.get(), kBlockBytes), kBlockBytes / page);
    // The kernel was advised: hg (huge pages wanted) or nh (not).
    EXPECT_THAT(MappingFlags(block.get()),
                ::testing::HasSubstr(pages == Pages::kHuge ? " hg" : " nh"));
    // The memory is the caller's to write.
    std::memset(block.get(), 0x5a, kBlockBytes);
    EXPECT_EQ(block[kBlockBytes - 1], 0x5a);
  }
}

TEST(PrefaultedBlocksTest, PrefaultOnTwoThreadsMakesEveryPageResident) {
  // Two huge pages and a half: halves split on a huge page, the second ending mid-page.
  const size_t bytes = 5 * kHugePageBytes / 2;
  LargeDeleter deleter{bytes, nullptr};
  std::unique_ptr<char[], LargeDeleter> memory(static_cast<char*>(AllocateLarge(bytes)), deleter);
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  ASSERT_LT(ResidentPages(memory.get(), bytes), bytes / page) << "fresh memory was resident";
  PrefaultOnTwoThreads(memory.get(), bytes);
  EXPECT_EQ(ResidentPages(memory.get(), bytes), bytes / page);
  std::memset(memory.get(), 0x5a, bytes);
  EXPECT_EQ(memory[bytes - 1], 0x5a);
}

TEST(PrefaultedBlocksTest, KeepsAtMostDepthBlocksReady) {
  PrefaultedBlocks blocks(kBlockBytes, 3, Pages::kHuge);
  ASSERT_NE(TakeReady(blocks), nullptr);
  // The task refills to three blocks and stops there.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (blocks.held_bytes() != 3 * kBlockBytes &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(blocks.held_bytes(), 3 * kBlockBytes);
  // Three are ready at once, each a block of its own.
  std::vector<std::unique_ptr<char[], LargeDeleter>> taken;
  for (int i = 0; i < 3; ++i) {
    auto block = blocks.Take();
    ASSERT_NE(block, nullptr) << i;
    for (const auto& other : taken) EXPECT_NE(other.get(), block.get());
    taken.push_back(std::move(block));
  }
}

// The owner may go while its task prepares blocks: the owner waits for the block in the
// task's hands, so nothing is left in the pool once the owner is gone, and the pool may go.
TEST(PrefaultedBlocksTest, AnOwnerGoneWhileBlocksArePreparedLeavesNothingBehind) {
  int64_t blocks_made = 0;
  for (int i = 0; i < 20; ++i) {
    arrow::ProxyMemoryPool pool(arrow::default_memory_pool());
    {
      PrefaultedBlocks blocks(kBlockBytes, 4, Pages::kSmall, &pool);
      blocks.Take();
      std::this_thread::sleep_for(std::chrono::microseconds(500 * (i % 4)));
    }
    EXPECT_EQ(pool.bytes_allocated(), 0) << i;
    blocks_made += pool.num_allocations();
  }
  EXPECT_GT(blocks_made, 0);
}

}  // namespace
}  // namespace sluice
