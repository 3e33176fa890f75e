// The default state store provider: versions committed as deltas and snapshots, reloaded from
// disk by a fresh provider, cleaned up past the retained versions, damaged files reported.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <arrow/util/crc32.h>
#include <gtest/gtest.h>

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/checkpoint/checkpoint_paths.h"
#include "sluice/common/errors.h"
#include "sluice/state/memory_state_store_provider.h"
#include "sluice/state/state_file_format.h"
#include "state/repeated_changes.h"
#include "support/scratch_dir.h"
#include "support/state_store_entries.h"

namespace sluice::state {
namespace {

namespace fs = std::filesystem;
using Entries = testing::StoreEntries;
using testing::ReadAll;

/// `prefix` followed by `number`.
std::string Named(std::string_view prefix, int number) {
  std::string name(prefix);
  name.append(std::to_string(number));
  return name;
}

class MemoryStateStoreTest : public ::testing::Test {
 protected:
  /// Maintenance at every commit, so that each test sees its snapshots and cleanup at once.
  static StateStoreConf Conf() {
    StateStoreConf conf;
    conf.maintenance_interval_ms = 0;
    return conf;
  }

  std::unique_ptr<MemoryStateStoreProvider> NewProvider(StateStoreConf conf = Conf()) {
    auto provider = MemoryStateStoreProvider::Make(folder_, StateStoreId{}, conf);
    EXPECT_TRUE(provider.ok()) << provider.status();
    return provider.MoveValueUnsafe();
  }

  /// Commits version 1 holding "k<i>" -> "v<i>" followed by `padding`, for i below `count`;
  /// returns its entries.
  Entries CommitKeys(MemoryStateStoreProvider& provider, int count,
                     const std::string& padding = "") {
    Entries entries;
    auto store = provider.GetStore(0).ValueOrDie();
    for (int i = 0; i < count; ++i) {
      const std::string value = Named("v", i) + padding;
      EXPECT_TRUE(store->Put(Named("k", i), value).ok());
      entries[Named("k", i)] = value;
    }
    EXPECT_TRUE(store->Commit().ok());
    return entries;
  }

  /// Ends `store`, open at version 1: aborted, version 1 must read as `base`; committed,
  /// version 2 must read as `expected`, in this provider and in a fresh one.
  void AbortOrCommitVersionOne(MemoryStateStoreProvider& provider, StateStore& store,
                               bool commit, const Entries& base, const Entries& expected) {
    if (!commit) {
      store.Abort();
      EXPECT_EQ(ReadAll(*provider.GetStore(1).ValueOrDie()), base);
      return;
    }
    ASSERT_TRUE(store.Commit().ok());
    EXPECT_EQ(ReadAll(*provider.GetStore(2).ValueOrDie()), expected);
    EXPECT_EQ(ReadAll(*NewProvider()->GetStore(2).ValueOrDie()), expected);
  }

  /// The names of the files in the store's folder.
  std::set<std::string> Files() const {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(folder_)) {
      names.insert(entry.path().filename().string());
    }
    return names;
  }

  int64_t FileSize(int64_t version, StateFileKind kind) const {
    return static_cast<int64_t>(fs::file_size(folder_ + "/" + StateFileName(version, kind)));
  }

  /// Commits versions 1..count, version v putting "k<v>" -> "v<v>", overwriting "k<v-1>" with a
  /// longer value and removing "k<v-2>"; returns the entries of every version.
  std::vector<Entries> CommitVersions(MemoryStateStoreProvider& provider, int count) {
    std::vector<Entries> versions(1);
    for (int v = 1; v <= count; ++v) {
      auto store = provider.GetStore(v - 1).ValueOrDie();
      Entries expected = versions.back();
      auto put = [&](const std::string& key, const std::string& value) {
        EXPECT_TRUE(store->Put(key, value).ok());
        expected[key] = value;
      };
      put(Named("k", v), Named("v", v));
      if (v >= 2) put(Named("k", v - 1), Named("updated in ", v));
      if (v >= 3) {
        EXPECT_TRUE(store->Remove(Named("k", v - 2)).ok());
        expected.erase(Named("k", v - 2));
      }
      EXPECT_EQ(store->Commit().ValueOrDie(), v);
      versions.push_back(expected);
    }
    provider.WaitForSnapshot();  // the folder then holds every file the commits wrote
    return versions;
  }

  testing::ScratchDir scratch_;
  std::string folder_ = StateStoreFolder(checkpoint::CheckpointPaths(scratch_.path()),
                                         StateStoreId{});
};

TEST(StateStoreFolderTest, SparksLayout) {
  checkpoint::CheckpointPaths paths("/ckpt");
  EXPECT_EQ(StateStoreFolder(paths, StateStoreId{2, 7, StateStoreId::kDefaultStoreName}),
            "/ckpt/state/2/7");
  EXPECT_EQ(StateStoreFolder(paths, StateStoreId{0, 1, "left-keyToNumValues"}),
            "/ckpt/state/0/1/left-keyToNumValues");
}

TEST_F(MemoryStateStoreTest, PutGetRemoveIterate) {
  auto provider = NewProvider();
  auto store = provider->GetStore(0).ValueOrDie();
  EXPECT_EQ(store->version(), 0);
  ASSERT_TRUE(store->Put("a", "1").ok());
  ASSERT_TRUE(store->Put("b", "2").ok());
  ASSERT_TRUE(store->Put("a", "one").ok());
  ASSERT_TRUE(store->Remove("b").ok());
  ASSERT_TRUE(store->Remove("never there").ok());
  ASSERT_TRUE(store->Put("c", std::string("\0binary\xff", 8)).ok());
  EXPECT_EQ(*store->Get("a"), "one");
  EXPECT_FALSE(store->Get("b").has_value());
  EXPECT_EQ(ReadAll(*store), (Entries{{"a", "one"}, {"c", std::string("\0binary\xff", 8)}}));
  StateStoreMetrics metrics = store->metrics();
  EXPECT_EQ(metrics.num_keys, 2);
  EXPECT_EQ(metrics.num_updated_rows, 4);
  EXPECT_EQ(metrics.num_removed_rows, 1);
  EXPECT_GT(metrics.memory_used_bytes, 0);
  EXPECT_EQ(store->Commit().ValueOrDie(), 1);
  EXPECT_TRUE(store->committed());
  EXPECT_FALSE(store->Put("d", "4").ok());
}

TEST_F(MemoryStateStoreTest, OneOpenStoreAtATime) {
  auto provider = NewProvider();
  auto store = provider->GetStore(0).ValueOrDie();
  EXPECT_FALSE(provider->GetStore(0).ok());
  store->Abort();
  EXPECT_TRUE(provider->GetStore(0).ok());
}

TEST_F(MemoryStateStoreTest, AbortAndDestructionRollBack) {
  auto provider = NewProvider();
  CommitVersions(*provider, 2);
  Entries committed = ReadAll(*provider->GetStore(2).ValueOrDie());
  {
    auto store = provider->GetStore(2).ValueOrDie();
    ASSERT_TRUE(store->Put("k2", "changed").ok());
    ASSERT_TRUE(store->Put("new", "x").ok());
    ASSERT_TRUE(store->Remove("k1").ok());
    store->Abort();
  }
  EXPECT_EQ(ReadAll(*provider->GetStore(2).ValueOrDie()), committed);
  {
    auto store = provider->GetStore(2).ValueOrDie();
    ASSERT_TRUE(store->Put("k2", "dropped with the store").ok());
  }
  auto store = provider->GetStore(2).ValueOrDie();
  EXPECT_EQ(ReadAll(*store), committed);
  EXPECT_EQ(provider->loaded_version(), 2);
}

// Keys changed several times within a version (removed and put again, put and removed, ...)
// commit as their last change and abort to what they held, whether the version changed few
// of the keys (the commit looks them up) or most of them (the commit walks the index).
TEST_F(MemoryStateStoreTest, KeysChangedSeveralTimesCommitTheLastChangeAndAbortToTheFirst) {
  for (int updates : {0, 900}) {
    fs::remove_all(folder_);
    auto provider = NewProvider();
    const Entries base = CommitKeys(*provider, 1000);
    for (bool commit : {false, true}) {
      auto store = provider->GetStore(1).ValueOrDie();
      Entries expected = base;
      auto put = [&](const std::string& key, const std::string& value) {
        ASSERT_TRUE(store->Put(key, value).ok());
        expected[key] = value;
      };
      auto remove = [&](const std::string& key) {
        ASSERT_TRUE(store->Remove(key).ok());
        expected.erase(key);
      };
      put("k1", "put, then removed");
      remove("k1");
      remove("k2");
      put("k2", "removed, then put with a longer value");
      remove("k3");
      put("k3", "removed, put");
      remove("k3");
      put("new1", "put, removed, put");
      remove("new1");
      put("new1", "again");
      put("new2", "put, then removed");
      remove("new2");
      remove("k4");
      put("new3", "inserted");
      for (int i = 100; i < 100 + updates; ++i) put(Named("k", i), Named("w", i));
      if (!commit) {
        store->Abort();
        EXPECT_EQ(ReadAll(*provider->GetStore(1).ValueOrDie()), base) << updates;
        continue;
      }
      ASSERT_TRUE(store->Commit().ok());
      EXPECT_EQ(ReadAll(*provider->GetStore(2).ValueOrDie()), expected) << updates;
      EXPECT_EQ(ReadAll(*NewProvider()->GetStore(2).ValueOrDie()), expected) << updates;
    }
  }
}

// A version that removes most keys, oldest first, and gives others values of another length
// leaves megabytes of garbage in the table; aborted, it restores every entry, and committed, it
// keeps exactly the survivors.
TEST_F(MemoryStateStoreTest, AVersionThatEmptiesMostOfTheTableAbortsAndCommitsExactly) {
  auto provider = NewProvider();
  const Entries base = CommitKeys(*provider, 50000, std::string(100, 'x'));
  for (bool commit : {false, true}) {
    auto store = provider->GetStore(1).ValueOrDie();
    Entries expected = base;
    for (int i = 0; i < 50000; ++i) {
      if (i < 45000) {
        ASSERT_TRUE(store->Remove(Named("k", i)).ok());
        expected.erase(Named("k", i));
      } else if (i % 2 == 0) {
        ASSERT_TRUE(store->Put(Named("k", i), Named("w", i)).ok());
        expected[Named("k", i)] = Named("w", i);
      }
    }
    AbortOrCommitVersionOne(*provider, *store, commit, base, expected);
  }
}

// A key put again and again in one version, with values of changing length, leaves its
// intermediate values as garbage the undo log does not need: the store reclaims it as it
// goes, so memory stays near the live entries, and the version still aborts and commits
// exactly.
TEST_F(MemoryStateStoreTest, GarbageTheUndoLogDoesNotNeedIsReclaimedWithinAVersion) {
  auto provider = NewProvider();
  const Entries base = CommitKeys(*provider, 1000);
  for (bool commit : {false, true}) {
    auto store = provider->GetStore(1).ValueOrDie();
    int64_t most = 0;
    std::string value;
    for (int round = 0; round < 20000; ++round) {
      // 20000 values of about 1 KB: 20 MB of garbage if none were reclaimed.
      value = std::string(1000 + round % 7, 'a' + static_cast<char>(round % 26));
      ASSERT_TRUE(store->Put("k1", value).ok());
      if (round % 100 == 0) {
        ASSERT_TRUE(store->Remove("k2").ok());
      }
      most = std::max(most, store->metrics().memory_used_bytes);
    }
    EXPECT_LT(most, 8 << 20);
    Entries expected = base;
    expected["k1"] = value;
    expected.erase("k2");
    AbortOrCommitVersionOne(*provider, *store, commit, base, expected);
  }
}

TEST_F(MemoryStateStoreTest, EveryVersionReloadsInAFreshProvider) {
  StateStoreConf conf = Conf();
  conf.min_deltas_for_snapshot = 3;
  auto versions = CommitVersions(*NewProvider(conf), 8);
  for (int v = 0; v <= 8; ++v) {
    auto provider = NewProvider(conf);
    auto store = provider->GetStore(v);
    ASSERT_TRUE(store.ok()) << store.status();
    EXPECT_EQ(ReadAll(**store), versions[v]) << "version " << v;
  }
  // One provider moving back and forth between versions.
  auto provider = NewProvider(conf);
  for (int v : {8, 2, 5, 5, 0, 7}) {
    EXPECT_EQ(ReadAll(*provider->GetStore(v).ValueOrDie()), versions[v]) << "version " << v;
  }
}

// As Spark's delta files: every put, and every remove of a present key, in the order made,
// which the change feed lists; a reload applies them in that order.
TEST_F(MemoryStateStoreTest, ADeltaListsEveryChangeInTheOrderMade) {
  auto provider = NewProvider();
  sluice::testing::CommitRepeatedChanges(*provider);

  std::string path = folder_ + "/" + StateFileName(2, StateFileKind::kDelta);
  std::vector<std::string> records;
  ASSERT_TRUE(ReadStateFile(checkpoint::ReadWholeFile(path).ValueOrDie(), path, "store",
                            StateFileKind::kDelta, 2,
                            [&](std::string_view key, std::optional<std::string_view> value) {
                              records.push_back(sluice::testing::RecordText(key, value));
                            })
                  .ok());
  EXPECT_EQ(records, (std::vector<std::string>{"k1=a", "k1=b", "k1=removed", "k2=x", "k2=y",
                                               "kept=2"}));
  EXPECT_EQ(ReadAll(*NewProvider()->GetStore(2).ValueOrDie()),
            (Entries{{"k2", "y"}, {"kept", "2"}}));
}

TEST_F(MemoryStateStoreTest, ADeltaHoldsOnlyTheChangedKeys) {
  StateStoreConf conf = Conf();
  conf.min_deltas_for_snapshot = 1;  // a snapshot of every version, to compare sizes
  auto provider = NewProvider(conf);
  constexpr int kKeys = 100000;
  auto key = [](int i) { return "user-" + std::to_string(1000000 + i); };
  auto store = provider->GetStore(0).ValueOrDie();
  for (int i = 0; i < kKeys; ++i) ASSERT_TRUE(store->Put(key(i), "count=1;sum=10").ok());
  ASSERT_TRUE(store->Commit().ok());

  // Version 2 touches 1% of the keys: 500 updates, 400 removals, 100 new keys.
  store = provider->GetStore(1).ValueOrDie();
  for (int i = 0; i < 500; ++i) ASSERT_TRUE(store->Put(key(i * 100), "count=2;sum=20").ok());
  for (int i = 0; i < 400; ++i) ASSERT_TRUE(store->Remove(key(i * 100 + 1)).ok());
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(store->Put(key(kKeys + i), "count=1;sum=10").ok());
  ASSERT_TRUE(store->Commit().ok());
  provider->WaitForSnapshot();  // written in the background
  EXPECT_EQ(store->metrics().checkpoint_bytes_written,
            FileSize(2, StateFileKind::kDelta) + FileSize(2, StateFileKind::kSnapshot));

  int64_t delta = FileSize(2, StateFileKind::kDelta);
  int64_t snapshot = FileSize(2, StateFileKind::kSnapshot);
  EXPECT_LE(delta, snapshot / 100 + 64) << "delta " << delta << ", snapshot " << snapshot;
  EXPECT_GE(delta, snapshot / 200) << "delta " << delta << ", snapshot " << snapshot;
}

TEST_F(MemoryStateStoreTest, SnapshotEveryNVersionsAndLoadFromSnapshotPlusDeltas) {
  StateStoreConf conf = Conf();
  conf.min_deltas_for_snapshot = 3;
  auto versions = CommitVersions(*NewProvider(conf), 7);
  EXPECT_EQ(Files(), (std::set<std::string>{"1.delta", "2.delta", "3.delta", "3.snapshot",
                                            "4.delta", "5.delta", "6.delta", "6.snapshot",
                                            "7.delta"}));
  // Version 7 needs only 6.snapshot and 7.delta: without the older deltas it still loads.
  for (int v = 1; v <= 6; ++v) fs::remove(folder_ + "/" + std::to_string(v) + ".delta");
  for (int v : {7, 6}) {
    auto provider = NewProvider(conf);
    auto store = provider->GetStore(v);
    ASSERT_TRUE(store.ok()) << store.status();
    EXPECT_EQ(ReadAll(**store), versions[v]) << "version " << v;
  }
}

TEST_F(MemoryStateStoreTest, ATempFileOfAnInterruptedSnapshotIsIgnored) {
  StateStoreConf conf = Conf();
  conf.min_deltas_for_snapshot = 4;
  auto versions = CommitVersions(*NewProvider(conf), 3);
  // What a kill in the middle of writing 4.snapshot leaves behind: a hidden, partial temp file.
  StateFileWriter writer(StateFileKind::kSnapshot, 4);
  writer.Put("k4", "v4");
  std::string partial = writer.Finish();
  partial.resize(partial.size() / 2);
  std::string temp = scratch_.Write(fs::relative(folder_, scratch_.path()).string() +
                                        "/.4.snapshot.0f3c2a-killed.tmp",
                                    partial);

  auto provider = NewProvider(conf);
  auto store = provider->GetStore(3).ValueOrDie();
  EXPECT_EQ(ReadAll(*store), versions[3]);
  ASSERT_TRUE(store->Put("k4", "v4").ok());
  ASSERT_TRUE(store->Commit().ok());
  provider->WaitForSnapshot();  // written in the background
  EXPECT_TRUE(fs::exists(folder_ + "/4.snapshot"));
  // The next commit, with no snapshot in flight, removes what the interrupted write left.
  store = provider->GetStore(4).ValueOrDie();
  ASSERT_TRUE(store->Put("k5", "v5").ok());
  ASSERT_TRUE(store->Commit().ok());
  EXPECT_FALSE(fs::exists(temp)) << "cleanup removes the remains of the interrupted write";
}

TEST_F(MemoryStateStoreTest, AFailedBackgroundSnapshotIsTakenAgainAtTheNextCommit) {
  StateStoreConf conf = Conf();
  conf.min_deltas_for_snapshot = 3;
  auto provider = NewProvider(conf);
  CommitVersions(*provider, 2);
  // A folder where 3.snapshot must go makes its background write fail.
  fs::create_directories(folder_ + "/3.snapshot");
  auto store = provider->GetStore(2).ValueOrDie();
  ASSERT_TRUE(store->Put("k3", "v3").ok());
  EXPECT_TRUE(store->Commit().ok()) << "the deltas keep the version loadable";
  provider->WaitForSnapshot();
  fs::remove(folder_ + "/3.snapshot");
  store = provider->GetStore(3).ValueOrDie();
  ASSERT_TRUE(store->Put("k4", "v4").ok());
  ASSERT_TRUE(store->Commit().ok());
  provider->WaitForSnapshot();
  EXPECT_TRUE(fs::exists(folder_ + "/4.snapshot"));
  auto fresh = NewProvider(conf);  // a provider outlives its stores
  auto reloaded = fresh->GetStore(4);
  ASSERT_TRUE(reloaded.ok()) << reloaded.status();
  EXPECT_EQ((*reloaded)->Get("k4").value_or(""), "v4");
}

// As Spark's maintenance task, which runs every maintenanceInterval: snapshots and cleanup
// wait for it, while every commit writes its delta.
TEST_F(MemoryStateStoreTest, SnapshotsAndCleanupWaitForTheMaintenanceInterval) {
  StateStoreConf conf;
  conf.min_deltas_for_snapshot = 1;
  conf.min_versions_to_retain = 1;
  conf.maintenance_interval_ms = 3'600'000;
  auto provider = NewProvider(conf);
  auto versions = CommitVersions(*provider, 5);
  EXPECT_EQ(Files(), (std::set<std::string>{"1.delta", "2.delta", "3.delta", "4.delta",
                                            "5.delta"}));
  EXPECT_EQ(ReadAll(*NewProvider(conf)->GetStore(5).ValueOrDie()), versions[5]);

  conf.maintenance_interval_ms = 50;
  provider = NewProvider(conf);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  auto store = provider->GetStore(5).ValueOrDie();
  ASSERT_TRUE(store->Put("k6", "v6").ok());
  ASSERT_TRUE(store->Commit().ok());
  provider->WaitForSnapshot();
  EXPECT_EQ(Files(), (std::set<std::string>{"1.delta", "2.delta", "3.delta", "4.delta",
                                            "5.delta", "6.delta", "6.snapshot"}))
      << "the first commit after the interval takes the snapshot";
  // The deltas it replaces go at the next maintenance: the cleanup that followed the snapshot
  // ran while it was being written.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  store = provider->GetStore(6).ValueOrDie();
  ASSERT_TRUE(store->Put("k7", "v7").ok());
  ASSERT_TRUE(store->Commit().ok());
  provider->WaitForSnapshot();
  EXPECT_EQ(Files(), (std::set<std::string>{"6.snapshot", "7.delta", "7.snapshot"}));
}

TEST_F(MemoryStateStoreTest, ANegativeVersionIsRefusedAsSparkRefusesIt) {
  auto status = NewProvider()->GetStore(-1).status();
  EXPECT_EQ(ErrorClassOf(status), "CANNOT_LOAD_STATE_STORE.UNEXPECTED_VERSION") << status;
}

TEST_F(MemoryStateStoreTest, ACorruptOrTruncatedFileFailsNamingIt) {
  auto versions = CommitVersions(*NewProvider(), 3);
  std::string path = folder_ + "/2.delta";
  std::string original = checkpoint::ReadWholeFile(path).ValueOrDie();

  std::string flipped = original;
  flipped[20] ^= 0x40;
  scratch_.Write(fs::relative(path, scratch_.path()).string(), flipped);
  auto status = NewProvider()->GetStore(3).status();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(ErrorClassOf(status), "CANNOT_LOAD_STATE_STORE");
  EXPECT_NE(status.message().find(path), std::string::npos) << status;

  scratch_.Write(fs::relative(path, scratch_.path()).string(),
                 original.substr(0, original.size() - 5));
  status = NewProvider()->GetStore(3).status();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find(path), std::string::npos) << status;
  EXPECT_NE(status.message().find("truncated"), std::string::npos) << status;

  // Version 1 does not need the damaged file.
  EXPECT_EQ(ReadAll(*NewProvider()->GetStore(1).ValueOrDie()), versions[1]);

  fs::remove(path);
  status = NewProvider()->GetStore(3).status();
  EXPECT_EQ(ErrorClassOf(status), "CANNOT_LOAD_STATE_STORE.CANNOT_READ_DELTA_FILE_NOT_EXISTS");
  EXPECT_NE(status.message().find(path + " does not exist"), std::string::npos) << status;
}

TEST_F(MemoryStateStoreTest, ANewerFormatVersionIsRefused) {
  CommitVersions(*NewProvider(), 1);
  std::string path = folder_ + "/1.delta";
  std::string contents = checkpoint::ReadWholeFile(path).ValueOrDie();
  contents[4] = static_cast<char>(kStateFileFormatVersion + 1);
  // Recompute the checksum so that the version, not the damage, is what fails.
  size_t crc_at = contents.size() - sizeof(uint32_t);
  uint32_t crc = arrow::internal::crc32(0, contents.data(), crc_at);
  std::memcpy(contents.data() + crc_at, &crc, sizeof(crc));
  scratch_.Write(fs::relative(path, scratch_.path()).string(), contents);
  auto status = NewProvider()->GetStore(1).status();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find(path), std::string::npos) << status;
  EXPECT_NE(status.message().find("newer than this engine reads"), std::string::npos) << status;
}

TEST_F(MemoryStateStoreTest, CleanupKeepsExactlyWhatTheRetainedVersionsNeed) {
  StateStoreConf conf = Conf();
  conf.min_deltas_for_snapshot = 3;
  conf.min_versions_to_retain = 4;
  auto versions = CommitVersions(*NewProvider(conf), 12);
  // Retained: versions 9..12. Version 9 loads from 9.snapshot; 10..12 add their deltas.
  EXPECT_EQ(Files(), (std::set<std::string>{"9.snapshot", "10.delta", "11.delta", "12.delta",
                                            "12.snapshot"}));
  for (int v = 9; v <= 12; ++v) {
    auto provider = NewProvider(conf);
    auto store = provider->GetStore(v);
    ASSERT_TRUE(store.ok()) << store.status();
    EXPECT_EQ(ReadAll(**store), versions[v]) << "version " << v;
  }
  EXPECT_FALSE(NewProvider(conf)->GetStore(8).ok());
}

TEST_F(MemoryStateStoreTest, InvalidSettingsAreRefused) {
  StateStoreConf conf = Conf();
  conf.min_deltas_for_snapshot = 0;
  auto status = MemoryStateStoreProvider::Make(folder_, StateStoreId{}, conf).status();
  EXPECT_NE(status.message().find("minDeltasForSnapshot"), std::string::npos) << status;
  conf = Conf();
  conf.min_versions_to_retain = 0;
  status = MemoryStateStoreProvider::Make(folder_, StateStoreId{}, conf).status();
  EXPECT_NE(status.message().find("minBatchesToRetain"), std::string::npos) << status;
  conf = Conf();
  conf.maintenance_interval_ms = -1;
  status = MemoryStateStoreProvider::Make(folder_, StateStoreId{}, conf).status();
  EXPECT_NE(status.message().find("maintenanceInterval"), std::string::npos) << status;
}

}  // namespace
}  // namespace sluice::state
