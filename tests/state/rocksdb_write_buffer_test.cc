// How much a RocksDB store buffers before applying its changes to its database as a table
// file: one memtable's worth (writeBufferSizeMB, RocksDB's 64 MiB when unset), or with bounded
// memory the budget all stores' write buffers share.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "sluice/checkpoint/checkpoint_paths.h"
#include "sluice/state/rocksdb_state_store_provider.h"
#include "support/scratch_dir.h"

namespace sluice::state {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kMebibyte = 1 << 20;

TEST(RocksDbWriteBufferTest, OneMemtableOrTheSharedBudgetWhenMemoryIsBounded) {
  RocksDbStateStoreConf conf;
  EXPECT_EQ(RocksDbSharedResources::Make(conf).ValueOrDie()->MaxWriteBufferBytes(conf),
            64 * kMebibyte);
  conf.write_buffer_size_mb = 8;
  EXPECT_EQ(RocksDbSharedResources::Make(conf).ValueOrDie()->MaxWriteBufferBytes(conf),
            8 * kMebibyte);
  conf.bounded_memory_usage = true;
  conf.max_memory_usage_mb = 400;
  conf.write_buffer_cache_ratio = 0.5;
  EXPECT_EQ(RocksDbSharedResources::Make(conf).ValueOrDie()->MaxWriteBufferBytes(conf),
            200 * kMebibyte);
}

class RocksDbWriteBufferApplyTest : public ::testing::Test {
 protected:
  /// Puts 88 values of `value_bytes` into a new store of a provider after `conf` and returns
  /// how many table files its database holds before the commit, then commits and checks them.
  int TableFilesBeforeCommit(StateStoreConf conf, int64_t value_bytes) {
    conf.rocksdb.local_dir = scratch_ / "local";
    auto shared = RocksDbSharedResources::Make(conf.rocksdb).ValueOrDie();
    const StateStoreId id{};
    auto provider =
        RocksDbStateStoreProvider::Make(
            StateStoreFolder(checkpoint::CheckpointPaths(scratch_.path()), id),
            id, conf, shared)
            .ValueOrDie();
    auto store = provider->GetStore(0).ValueOrDie();
    const std::string value(static_cast<size_t>(value_bytes), 'v');
    constexpr int kValues = 88;
    for (int i = 0; i < kValues; ++i) {
      EXPECT_TRUE(store->Put("key " + std::to_string(i), value).ok());
    }
    int tables = 0;
    for (const auto& entry : fs::directory_iterator(provider->local_folder() + "/db")) {
      tables += entry.path().extension() == ".sst";
    }
    EXPECT_EQ(store->Commit().ValueOrDie(), 1);
    auto next = provider->GetStore(1).ValueOrDie();
    for (int i = 0; i < kValues; ++i) EXPECT_EQ(next->Get("key " + std::to_string(i)), value);
    EXPECT_EQ(next->metrics().num_keys, kValues);
    return tables;
  }

  testing::ScratchDir scratch_;
};

TEST_F(RocksDbWriteBufferApplyTest, AStoreAppliesItsBufferOnceItHoldsOneMemtable) {
  StateStoreConf conf;
  conf.rocksdb.write_buffer_size_mb = 8;
  EXPECT_EQ(TableFilesBeforeCommit(conf, kMebibyte / 4), 2) << "22 MiB in buffers of 8 MiB";
}

// A single store under a bound of 400 MiB keeps 88 MiB until its commit, where RocksDB's
// memtable size (64 MiB, or the 8 MiB set here) would have split them.
TEST_F(RocksDbWriteBufferApplyTest, WithBoundedMemoryAStoreBuffersUpToTheSharedBudget) {
  StateStoreConf conf;
  conf.rocksdb.write_buffer_size_mb = 8;
  conf.rocksdb.bounded_memory_usage = true;
  conf.rocksdb.max_memory_usage_mb = 400;
  EXPECT_EQ(TableFilesBeforeCommit(conf, kMebibyte), 0);
}

}  // namespace
}  // namespace sluice::state
