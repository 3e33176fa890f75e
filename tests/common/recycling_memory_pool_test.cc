// RecyclingMemoryPool: large freed buffers kept by size class for the next batch's arrays.
#include "sluice/common/recycling_memory_pool.h"

#include <gtest/gtest.h>

#include <cstring>
#include <thread>

#include <arrow/array.h>
#include <arrow/builder.h>

#include "sluice/common/huge_pages.h"

namespace sluice {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;

class RecyclingMemoryPoolTest : public ::testing::Test {
 protected:
  /// Counts what reaches Arrow's default pool.
  arrow::ProxyMemoryPool backing_{arrow::default_memory_pool()};
};

TEST_F(RecyclingMemoryPoolTest, ReusesAFreedBufferForTheNextOfItsClass) {
  RecyclingMemoryPool pool(&backing_, 64 * kMiB);
  uint8_t* first = nullptr;
  ASSERT_TRUE(pool.Allocate(kMiB, &first).ok());
  std::memset(first, 7, kMiB);
  pool.Free(first, kMiB);
  EXPECT_EQ(pool.kept_bytes(), kMiB);
  EXPECT_EQ(pool.bytes_allocated(), 0);

  uint8_t* second = nullptr;
  ASSERT_TRUE(pool.Allocate(kMiB - 1000, &second).ok());
  EXPECT_EQ(second, first);
  EXPECT_EQ(backing_.num_allocations(), 1);
  EXPECT_EQ(pool.kept_bytes(), 0);
  EXPECT_EQ(pool.bytes_allocated(), kMiB - 1000);

  // A size of another class does not take it.
  uint8_t* third = nullptr;
  pool.Free(second, kMiB - 1000);
  ASSERT_TRUE(pool.Allocate(2 * kMiB, &third).ok());
  EXPECT_NE(third, first);
  EXPECT_EQ(backing_.num_allocations(), 2);
  pool.Free(third, 2 * kMiB);
}

TEST_F(RecyclingMemoryPoolTest, ABufferServesSizesDownToHalfItsOwn) {
  RecyclingMemoryPool pool(&backing_, 64 * kMiB);
  uint8_t* large = nullptr;
  ASSERT_TRUE(pool.Allocate(kMiB + kMiB / 2, &large).ok());
  pool.Free(large, kMiB + kMiB / 2);
  // Under half its size a request gets a buffer of its own; from there up, the kept one.
  uint8_t* small = nullptr;
  ASSERT_TRUE(pool.Allocate(kMiB / 2, &small).ok());
  EXPECT_NE(small, large);
  uint8_t* smaller = nullptr;
  ASSERT_TRUE(pool.Allocate(kMiB, &smaller).ok());
  EXPECT_EQ(smaller, large);
  // It keeps its capacity: it grows in place up to it, and goes back to its own class.
  ASSERT_TRUE(pool.Reallocate(kMiB, kMiB + kMiB / 2, &smaller).ok());
  EXPECT_EQ(smaller, large);
  pool.Free(smaller, kMiB + kMiB / 2);
  pool.Free(small, kMiB / 2);
  EXPECT_EQ(pool.kept_bytes(), kMiB + kMiB / 2 + kMiB / 2);
  EXPECT_EQ(backing_.num_allocations(), 2);
}

// Buffers of a huge page or more are aligned to one, so they serve the large arrays of
// huge_pages.h, which ask for that alignment, as well as Arrow's.
TEST_F(RecyclingMemoryPoolTest, RecyclesHugePageAlignedBuffers) {
  RecyclingMemoryPool pool(&backing_, 64 * kMiB);
  constexpr int64_t kHugePage = 2 * kMiB;
  uint8_t* first = nullptr;
  ASSERT_TRUE(pool.Allocate(4 * kMiB, kHugePage, &first).ok());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % kHugePage, 0u);
  pool.Free(first, 4 * kMiB, kHugePage);
  EXPECT_EQ(pool.kept_bytes(), 4 * kMiB);
  // The same buffer, whichever alignment the next request asks for.
  uint8_t* second = nullptr;
  ASSERT_TRUE(pool.Allocate(4 * kMiB, &second).ok());
  EXPECT_EQ(second, first);
  pool.Free(second, 4 * kMiB);
  uint8_t* third = nullptr;
  ASSERT_TRUE(pool.Allocate(3 * kMiB, kHugePage, &third).ok());
  EXPECT_EQ(third, first);
  pool.Free(third, 3 * kMiB, kHugePage);
  EXPECT_EQ(backing_.num_allocations(), 1);
  // A large buffer's alignment cannot serve a larger one than a huge page's.
  uint8_t* stricter = nullptr;
  ASSERT_TRUE(pool.Allocate(4 * kMiB, 2 * kHugePage, &stricter).ok());
  EXPECT_NE(stricter, first);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(stricter) % (2 * kHugePage), 0u);
  pool.Free(stricter, 4 * kMiB, 2 * kHugePage);
}

// A vector of huge pages from a pool takes the memory the last one of its size gave back,
// as a grouper made anew every batch does.
TEST_F(RecyclingMemoryPoolTest, AHugePageVectorFromThePoolReusesTheLastOnesMemory) {
  RecyclingMemoryPool pool(&backing_, 64 * kMiB);
  const uint64_t* memory = nullptr;
  {
    HugePageVector<uint64_t> first{HugePageAllocator<uint64_t>(&pool)};
    first.assign(kMiB, 1);  // 8 MiB
    memory = first.data();
  }
  EXPECT_EQ(pool.kept_bytes(), 8 * kMiB);
  HugePageVector<uint64_t> second{HugePageAllocator<uint64_t>(&pool)};
  second.assign(kMiB, 2);
  EXPECT_EQ(second.data(), memory);
  EXPECT_EQ(backing_.num_allocations(), 1);
}

TEST_F(RecyclingMemoryPoolTest, SmallBuffersGoStraightToTheBackingPool) {
  RecyclingMemoryPool pool(&backing_, 64 * kMiB);
  uint8_t* small = nullptr;
  ASSERT_TRUE(pool.Allocate(1000, &small).ok());
  EXPECT_EQ(backing_.bytes_allocated(), 1000);
  pool.Free(small, 1000);
  EXPECT_EQ(backing_.bytes_allocated(), 0);
  EXPECT_EQ(pool.kept_bytes(), 0);
}

TEST_F(RecyclingMemoryPoolTest, SizeClassesHoldAtMostAQuarterMore) {
  for (int64_t size = RecyclingMemoryPool::kMinRecycledBytes; size < 4096 * kMiB;
       size += size / 7 + 12345) {
    const int64_t bytes = RecyclingMemoryPool::ClassBytes(size);
    EXPECT_GE(bytes, size);
    EXPECT_LE(bytes, size + size / 4) << size;
    EXPECT_EQ(RecyclingMemoryPool::ClassBytes(bytes), bytes) << size;
  }
  EXPECT_EQ(RecyclingMemoryPool::ClassBytes(kMiB), kMiB);
  EXPECT_EQ(RecyclingMemoryPool::ClassBytes(kMiB + 1), kMiB + kMiB / 4);
  EXPECT_EQ(RecyclingMemoryPool::ClassBytes(kMiB + kMiB / 4), kMiB + kMiB / 4);
}

TEST_F(RecyclingMemoryPoolTest, ReallocateKeepsTheContents) {
  RecyclingMemoryPool pool(&backing_, 64 * kMiB);
  const int64_t start = 300 << 10;
  uint8_t* buffer = nullptr;
  ASSERT_TRUE(pool.Allocate(start, &buffer).ok());
  for (int64_t i = 0; i < start; ++i) buffer[i] = static_cast<uint8_t>(i * 31);
  uint8_t* const original = buffer;

  // Within its class (256 KiB to 320 KiB) the buffer stays where it is.
  ASSERT_TRUE(pool.Reallocate(start, 310 << 10, &buffer).ok());
  EXPECT_EQ(buffer, original);
  // Beyond it, the contents move; and down to a small buffer, and back up.
  int64_t size = 310 << 10;
  int64_t kept = start;  // the bytes every step so far has kept
  for (int64_t next : {int64_t{3} * kMiB, int64_t{5000}, int64_t{2} * kMiB}) {
    ASSERT_TRUE(pool.Reallocate(size, next, &buffer).ok());
    kept = std::min(kept, next);
    for (int64_t i = 0; i < kept; ++i) {
      ASSERT_EQ(buffer[i], static_cast<uint8_t>(i * 31)) << "at " << i << " of " << next;
    }
    size = next;
  }
  EXPECT_EQ(pool.bytes_allocated(), 2 * kMiB);
  pool.Free(buffer, size);
  EXPECT_EQ(pool.bytes_allocated(), 0);
  EXPECT_EQ(pool.max_memory(), 3 * kMiB + (310 << 10));
}

// Arrow's Parquet column readers reserve a batch's values, grow the buffer past its class
// when the batch spans two pages, and trim it back. Once buffers of a class have grown past
// it, the class's next allocations get twice the room, so both steps stay in place, for as
// long as a round or the one before saw such a growth.
TEST_F(RecyclingMemoryPoolTest, AClassWhoseBuffersGrowGetsRoomToGrowInPlace) {
  RecyclingMemoryPool pool(&backing_, 1024 * kMiB);  // keeps the large buffers at the end
  constexpr int64_t kAsked = kMiB / 4;
  constexpr int64_t kGrown = kMiB / 2;
  // One batch's buffer: asked, grown, trimmed back, freed. Whether it never moved.
  auto batch = [&pool]() {
    uint8_t* buffer = nullptr;
    EXPECT_TRUE(pool.Allocate(kAsked, &buffer).ok());
    for (int64_t i = 0; i < kAsked; ++i) buffer[i] = static_cast<uint8_t>(i * 13);
    uint8_t* const asked = buffer;
    EXPECT_TRUE(pool.Reallocate(kAsked, kGrown, &buffer).ok());
    const bool grown_in_place = buffer == asked;
    EXPECT_TRUE(pool.Reallocate(kGrown, kAsked, &buffer).ok());
    const bool trimmed_in_place = buffer == asked;
    for (int64_t i = 0; i < kAsked; ++i) {
      if (buffer[i] != static_cast<uint8_t>(i * 13)) {
        ADD_FAILURE() << "byte " << i << " changed";
        break;
      }
    }
    pool.Free(buffer, kAsked);
    return grown_in_place && trimmed_in_place;
  };
  EXPECT_FALSE(batch());
  pool.ReleaseIdle();
  EXPECT_TRUE(batch());
  pool.ReleaseIdle();
  EXPECT_TRUE(batch());
  EXPECT_EQ(pool.bytes_allocated(), 0);
  // Two rounds with no growth, and the class's buffers are of its own size again.
  pool.ReleaseIdle();
  pool.ReleaseIdle();
  uint8_t* buffer = nullptr;
  ASSERT_TRUE(pool.Allocate(kAsked, &buffer).ok());
  pool.Free(buffer, kAsked);
  EXPECT_EQ(pool.kept_bytes(), kAsked);
  // Larger buffers than kMaxGrowthRoomBytes get no room.
  constexpr int64_t kLarge = RecyclingMemoryPool::kMaxGrowthRoomBytes * 2;
  uint8_t* large = nullptr;
  ASSERT_TRUE(pool.Allocate(kLarge, &large).ok());
  ASSERT_TRUE(pool.Reallocate(kLarge, 2 * kLarge, &large).ok());
  pool.Free(large, 2 * kLarge);
  pool.ReleaseUnused();
  ASSERT_TRUE(pool.Allocate(kLarge, &large).ok());
  pool.Free(large, kLarge);
  EXPECT_EQ(pool.kept_bytes(), kLarge);
}

// Room to grow is not worth fresh memory: without a kept buffer with room, a kept buffer of
// the size's own class serves.
TEST_F(RecyclingMemoryPoolTest, WithoutAKeptBufferWithRoomOneOfTheOwnClassServes) {
  RecyclingMemoryPool pool(&backing_, 64 * kMiB);
  constexpr int64_t kAsked = kMiB / 4;
  uint8_t* grown = nullptr;
  ASSERT_TRUE(pool.Allocate(kAsked, &grown).ok());
  // It moves to a buffer of twice the size and leaves its own, of the asked class, kept.
  ASSERT_TRUE(pool.Reallocate(kAsked, 2 * kAsked, &grown).ok());
  EXPECT_EQ(pool.kept_bytes(), kAsked);
  const int64_t allocations = backing_.num_allocations();
  uint8_t* next = nullptr;
  ASSERT_TRUE(pool.Allocate(kAsked, &next).ok());
  EXPECT_EQ(backing_.num_allocations(), allocations);
  EXPECT_EQ(pool.kept_bytes(), 0);
  pool.Free(next, kAsked);
  pool.Free(grown, 2 * kAsked);
}

TEST_F(RecyclingMemoryPoolTest, ReleaseIdleLetsGoOfWhatABatchDidNotReuse) {
  RecyclingMemoryPool pool(&backing_, 64 * kMiB);
  uint8_t* reused = nullptr;
  uint8_t* idle = nullptr;
  ASSERT_TRUE(pool.Allocate(kMiB, &reused).ok());
  ASSERT_TRUE(pool.Allocate(4 * kMiB, &idle).ok());
  pool.Free(reused, kMiB);
  pool.Free(idle, 4 * kMiB);
  // The end of the batch that freed them keeps them for the next.
  pool.ReleaseIdle();
  EXPECT_EQ(pool.kept_bytes(), 5 * kMiB);
  // The next batch reuses one of them; at its end the other goes.
  ASSERT_TRUE(pool.Allocate(kMiB, &reused).ok());
  pool.Free(reused, kMiB);
  pool.ReleaseIdle();
  EXPECT_EQ(pool.kept_bytes(), kMiB);
  EXPECT_EQ(backing_.bytes_allocated(), kMiB);
  pool.ReleaseUnused();
  EXPECT_EQ(pool.kept_bytes(), 0);
  EXPECT_EQ(backing_.bytes_allocated(), 0);
}

TEST_F(RecyclingMemoryPoolTest, KeepsNoMoreThanItsBound) {
  RecyclingMemoryPool pool(&backing_, 2 * kMiB);
  uint8_t* buffers[3] = {};
  for (auto*& buffer : buffers) ASSERT_TRUE(pool.Allocate(kMiB, &buffer).ok());
  for (auto* buffer : buffers) pool.Free(buffer, kMiB);
  EXPECT_EQ(pool.kept_bytes(), 2 * kMiB);
  EXPECT_EQ(backing_.bytes_allocated(), 2 * kMiB);
}

TEST_F(RecyclingMemoryPoolTest, ServesBuildersAndThreads) {
  RecyclingMemoryPool pool(&backing_, 64 * kMiB);
  auto build = [&pool](int64_t seed) {
    for (int round = 0; round < 20; ++round) {
      arrow::Int64Builder builder(&pool);
      const int64_t n = 100'000 + round * 7'919;
      for (int64_t i = 0; i < n; ++i) ASSERT_TRUE(builder.Append(seed * i).ok());
      std::shared_ptr<arrow::Array> array;
      ASSERT_TRUE(builder.Finish(&array).ok());
      const auto& values = static_cast<const arrow::Int64Array&>(*array);
      ASSERT_EQ(values.length(), n);
      for (int64_t i = 0; i < n; ++i) ASSERT_EQ(values.Value(i), seed * i);
    }
  };
  std::thread other(build, 3);
  build(5);
  other.join();
  EXPECT_EQ(pool.bytes_allocated(), 0);
  EXPECT_GT(pool.kept_bytes(), 0);
  pool.ReleaseUnused();
  EXPECT_EQ(backing_.bytes_allocated(), 0);
}

}  // namespace
}  // namespace sluice
