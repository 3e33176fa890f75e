#include "sluice/state/rocksdb_state_store.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_writer.h>

#include "sluice/common/errors.h"
#include "sluice/state/key_order.h"
#include "sluice/state/lookup_memo.h"
#include "sluice/state/pending_writes.h"
#include "sluice/state/rocksdb_changelog.h"
#include "sluice/state/rocksdb_conversions.h"
#include "sluice/state/rocksdb_sorted_reads.h"
#include "sluice/state/rocksdb_state_store_provider.h"
#include "sluice/state/state_file_format.h"

namespace sluice::state {

namespace {

/// Pending changes of a store are applied once they fill its write buffer (the provider's
/// max_pending_bytes_) and, with bounded memory, once the write buffers of all stores pass
/// their budget, if they hold at least this many bytes: smaller buffers would make table
/// files too small to be worth ingesting.
constexpr int64_t kMinPendingBytesToApply = 1 << 20;
/// The store's buffers are charged to the shared memory budget once they grew or shrank by
/// this many bytes since the last charge, or are cleared: a lock per put would cost more.
constexpr int64_t kChargeStep = 256 << 10;

}  // namespace

/// One version of a RocksDbStateStoreProvider's store. Every put and remove is appended to
/// the version's changelog as it happens, as Spark's RocksDB provider logs them (a remove
/// even of an absent key): a key put twice appears twice, and the change feed lists both.
/// Changes also collect in a write buffer (PendingWrites) that Get and ForEach consult before
/// the database; the buffer is applied in key order to the provider's database (a table file
/// it ingests) when it fills and at Commit. So the changelog names every key that reached the
/// database, which is what Abort restores from a RocksDB snapshot taken when the store
/// opened.
///
/// Get keeps the value it returns (a pinned slice) until the next change. Get and GetMany
/// remember what they found in the database (a LookupMemo), so the puts that follow a lookup
/// of the same keys learn whether each key is new (for num_keys) without a second lookup.
class RocksDbStateStore final : public StateStore {
 public:
  RocksDbStateStore(RocksDbStateStoreProvider* provider, int64_t version)
      : provider_(provider),
        db_(provider->db_.get()),
        version_(version),
        num_keys_(provider->num_keys_),
        snapshot_(db_->GetSnapshot()),
        memo_(CallArrayPool()) {
    write_options_.disableWAL = true;
  }

  ~RocksDbStateStore() override {
    if (open_) Abort();
  }

  int64_t version() const override { return version_; }

  std::optional<std::string_view> Get(std::string_view key) const override {
    memo_.Clear();
    if (PendingWrites::Lookup pending = pending_.Find(key); pending.changed) {
      memo_.Add(key, LookupMemo::Known::kNothing);
      return pending.value;
    }
    if (!provider_->key_filter_.MayContain(KeyFilter::Hash(key))) {
      memo_.Add(key, LookupMemo::Known::kAbsent);
      return std::nullopt;
    }
    if (pinned_used_ == pinned_.size()) pinned_.emplace_back();
    rocksdb::PinnableSlice& value = pinned_[pinned_used_];
    rocksdb::Status status =
        db_->Get(rocksdb::ReadOptions(), db_->DefaultColumnFamily(), ToSlice(key), &value);
    if (!status.ok() && !status.IsNotFound()) {
      Fail(FromRocksDb(status, "Cannot read from " + provider_->Describe()));
      return std::nullopt;
    }
    memo_.Add(key, status.ok() ? LookupMemo::Known::kHeld : LookupMemo::Known::kAbsent);
    if (!status.ok()) return std::nullopt;
    ++pinned_used_;
    return std::string_view(value.data(), value.size());
  }

  void GetMany(std::span<const std::string_view> keys,
               const std::function<void(size_t, std::string_view)>& found) const override {
    // In rounds, which bound the memory of a call with very many keys. The memo keeps what
    // each lookup found, for the puts that follow.
    memo_.Clear();
    constexpr size_t kRound = size_t{1} << 24;
    for (size_t begin = 0; begin < keys.size(); begin += kRound) {
      GetRound(keys.subspan(begin, std::min(kRound, keys.size() - begin)), begin, found);
    }
  }

  arrow::Status Put(std::string_view key, std::string_view value) override {
    ARROW_RETURN_NOT_OK(CheckWritable("Put"));
    ReleaseValues();
    return PutChunk({&key, 1}, {&value, 1});
  }

  arrow::Status PutMany(std::span<const std::string_view> keys,
                        std::span<const std::string_view> values) override {
    ARROW_RETURN_NOT_OK(CheckWritable("PutMany"));
    ReleaseValues();
    if (pending_.size() == 0) {
      const int64_t bytes = BytesOf(keys, values);
      if (bytes >= provider_->max_pending_bytes_) return PutManyDirectly(keys, values, bytes);
    }
    // In chunks, so that the write buffer is applied when it fills even amid a large call.
    constexpr size_t kChunk = 4096;
    for (size_t begin = 0; begin < keys.size(); begin += kChunk) {
      const size_t n = std::min(kChunk, keys.size() - begin);
      ARROW_RETURN_NOT_OK(PutChunk(keys.subspan(begin, n), values.subspan(begin, n)));
    }
    return arrow::Status::OK();
  }

  arrow::Status Remove(std::string_view key) override {
    ARROW_RETURN_NOT_OK(CheckWritable("Remove"));
    return RemoveOne(key, /*known_held=*/false);
  }

  arrow::Status RemoveMany(std::span<const std::string_view> keys) override {
    ARROW_RETURN_NOT_OK(CheckWritable("RemoveMany"));
    // Whether each key is held (for num_keys) comes from one lookup of them all, read
    // together, through the memo: a read per key cost a quarter of the CPU time of a windowed
    // aggregation evicting its windows (Nexmark q5).
    GetMany(keys, [](size_t, std::string_view) {});
    for (const std::string_view key : keys) ARROW_RETURN_NOT_OK(RemoveOne(key, false));
    return arrow::Status::OK();
  }

  arrow::Status RemoveHeld(std::span<const std::string_view> keys) override {
    ARROW_RETURN_NOT_OK(CheckWritable("RemoveHeld"));
    for (const std::string_view key : keys) ARROW_RETURN_NOT_OK(RemoveOne(key, true));
    return arrow::Status::OK();
  }

  void ForEach(const std::function<void(std::string_view, std::string_view)>& visit)
      const override {
    // A scan of every key is the time to make a key filter crowded by removed keys anew: the
    // keys it visits are those the database will hold once the write buffer is applied (a
    // key the buffer removes is not, and its lookups stop at the buffer until then).
    std::optional<KeyFilter> fresh;
    if (provider_->KeyFilterCrowded(num_keys_)) {
      fresh.emplace(RocksDbStateStoreProvider::KeyFilterFor(num_keys_));
    }
    std::vector<uint64_t> hashes;
    constexpr size_t kHashesPerAdd = 4096;
    auto add = [&](std::string_view key) {
      if (!fresh) return;
      hashes.push_back(KeyFilter::Hash(key));
      if (hashes.size() < kHashesPerAdd) return;
      fresh->AddNewMany(hashes);
      hashes.clear();
    };
    // The database's entries that no pending change replaces, then the pending new values.
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      std::string_view key(it->key().data(), it->key().size());
      if (pending_.Find(key).changed) continue;
      add(key);
      visit(key, std::string_view(it->value().data(), it->value().size()));
    }
    if (!it->status().ok()) {
      Fail(FromRocksDb(it->status(), "Cannot iterate over " + provider_->Describe()));
      fresh.reset();  // a partial scan: the filter stays as it was
    }
    pending_.ForEach([&](std::string_view key, std::optional<std::string_view> value) {
      if (!value) return;
      add(key);
      visit(key, *value);
    });
    scanned_ = true;
    if (!fresh) return;
    fresh->AddNewMany(hashes);
    provider_->ReplaceKeyFilter(std::move(*fresh));
    filter_remade_ = true;
  }

  arrow::Result<int64_t> Commit() override {
    ARROW_RETURN_NOT_OK(CheckWritable("Commit"));
    auto start = std::chrono::steady_clock::now();
    ReleaseValues();
    arrow::Status status = ApplyPending();
    if (status.ok()) status = CommitFiles();
    if (!status.ok()) {
      commit_failed_ = true;
      return ExternalError("CANNOT_WRITE_STATE_STORE.CANNOT_COMMIT",
                           "Error writing state store files for provider " +
                               provider_->Describe() +
                               ". Cannot perform commit during state checkpoint. " +
                               status.message());
    }
    metrics_.commit_time_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  std::chrono::steady_clock::now() - start)
                                  .count();
    Close();
    committed_ = true;
    return version_ + 1;
  }

  void Abort() override {
    if (!open_) return;
    ReleaseValues();
    pending_.Clear();
    // Changes never applied left the database as it was.
    bool rolled_back = !commit_failed_ && (!changelog_ || !applied_ || RollBack().ok());
    ReleaseSnapshot();
    changelog_.reset();  // deletes its temp file
    // Without a sure rollback the database no longer matches any version: rebuild it. A key
    // filter made anew by ForEach lacks the keys this version removed, which the rollback
    // put back: it is made anew again.
    if (rolled_back && filter_remade_) rolled_back = provider_->RebuildKeyFilter().ok();
    if (!rolled_back) provider_->DropDatabase();
    Close();
  }

  bool committed() const override { return committed_; }

  StateStoreMetrics metrics() const override {
    StateStoreMetrics metrics = metrics_;
    metrics.num_keys = num_keys_;
    // The database's own memory, and the buffers this store holds beside it.
    metrics.memory_used_bytes = pending_.memory_used_bytes() + memo_.memory_used_bytes();
    if (provider_->db_) metrics.memory_used_bytes += provider_->MemoryUsedBytes();
    return metrics;
  }

 private:
  arrow::Status CheckWritable(const char* operation) const {
    if (!open_) {
      return arrow::Status::Invalid(operation, " on ", provider_->Describe(), " version ",
                                    version_, " after it was ",
                                    committed_ ? "committed" : "aborted");
    }
    return error_;
  }

  arrow::Status Check(const rocksdb::Status& status, const char* what) {
    if (status.ok()) return arrow::Status::OK();
    Fail(FromRocksDb(status, std::string(what) + " " + provider_->Describe()));
    return error_;
  }

  /// Keeps the first error of a call that cannot return one (Get, ForEach): the next Put,
  /// Remove or Commit fails with it, so the batch fails instead of committing a wrong state.
  void Fail(arrow::Status status) const {
    if (error_.ok()) error_ = std::move(status);
  }

  /// GetMany of `keys`, the keys from place `offset` of the call on. The keys the write buffer
  /// does not answer go to the key filter, and those it may hold to the database in its key
  /// order (ReadInKeyOrder). The values read are copied, so that `found` still sees the keys
  /// in order.
  void GetRound(std::span<const std::string_view> keys, size_t offset,
                const std::function<void(size_t, std::string_view)>& found) const {
    constexpr size_t kChunk = 256;
    // Per key: kNone, or kBuffered | its place among buffered_values, or its place among the
    // sorted lookups.
    constexpr uint32_t kNone = UINT32_MAX;
    constexpr uint32_t kBuffered = uint32_t{1} << 31;
    CallArray<uint32_t> place = NewCallArray<uint32_t>(keys.size(), kNone);
    std::vector<std::string_view> buffered_values;
    CallArray<uint32_t> lookups = NewCallArray<uint32_t>();
    lookups.reserve(keys.size());
    std::vector<uint32_t> unbuffered;  // a chunk's keys the buffer does not answer
    std::vector<uint64_t> hashes;      // and their hashes
    for (size_t first = 0; first < keys.size(); first += kChunk) {
      const size_t n = std::min(kChunk, keys.size() - first);
      unbuffered.clear();
      hashes.clear();
      pending_.FindMany(
          n, [&](size_t i) { return keys[first + i]; },
          [&](size_t i, const PendingWrites::Lookup& lookup) {
            const std::string_view key = keys[first + i];
            if (lookup.changed) {
              memo_.Add(key, LookupMemo::Known::kNothing);
              if (lookup.value) {
                place[first + i] = kBuffered | static_cast<uint32_t>(buffered_values.size());
                buffered_values.push_back(*lookup.value);
              }
              return;
            }
            memo_.Add(key, LookupMemo::Known::kAbsent);  // unless the database holds it
            unbuffered.push_back(static_cast<uint32_t>(first + i));
            hashes.push_back(KeyFilter::Hash(key));
          });
      provider_->key_filter_.MayContainMany(hashes, [&](size_t j, bool may_hold) {
        if (may_hold) lookups.push_back(unbuffered[j]);
      });
    }
    SortInKeyOrder(keys, &lookups);
    // What each lookup found, by its place in key order: the reads go through the lookups in
    // that order, and where each key sits among the caller's keys is looked at after.
    CallArray<char> bytes = NewCallArray<char>();  // the values read, one after another
    // Where each lookup's value ends in bytes.
    CallArray<size_t> ends = NewCallArray<size_t>(lookups.size());
    CallArray<LookupMemo::Known> known =
        NewCallArray<LookupMemo::Known>(lookups.size(), LookupMemo::Known::kAbsent);
    auto take = [&](size_t j, const rocksdb::Status& status, const rocksdb::Slice& value) {
      if (status.ok()) {
        known[j] = LookupMemo::Known::kHeld;
        bytes.insert(bytes.end(), value.data(), value.data() + value.size());
      } else if (!status.IsNotFound()) {
        known[j] = LookupMemo::Known::kNothing;
        Fail(FromRocksDb(status, "Cannot read from " + provider_->Describe()));
      }
      ends[j] = bytes.size();
    };
    ReadInKeyOrder(db_, SortedKeys(keys, lookups), num_keys_, take);
    for (size_t j = 0; j < lookups.size(); ++j) {
      const uint32_t key = lookups[j];
      if (known[j] == LookupMemo::Known::kAbsent) continue;
      memo_.set_known(offset + key, known[j]);
      if (known[j] == LookupMemo::Known::kHeld) place[key] = static_cast<uint32_t>(j);
    }
    for (size_t i = 0; i < keys.size(); ++i) {
      const uint32_t at = place[i];
      if (at == kNone) continue;
      if (at & kBuffered) {
        found(offset + i, buffered_values[at & ~kBuffered]);
        continue;
      }
      const size_t begin = at == 0 ? 0 : ends[at - 1];
      found(offset + i, std::string_view(bytes.data() + begin, ends[at] - begin));
    }
  }

  /// Puts keys[i] -> values[i] once the store is known writable and no pinned value is out:
  /// logs them, puts them into the write buffer, counts the new keys and applies the buffer
  /// if full. Whether a key is new comes from the buffer (its put's one probe tells what it
  /// held), else from the memo of the lookups, else from the key filter and one MultiGet for
  /// the keys it may hold. The keys new to the database go into the key filter now, ahead of
  /// the database (applying the buffer adds nothing to it), each into one block.
  arrow::Status PutChunk(std::span<const std::string_view> keys,
                         std::span<const std::string_view> values) {
    for (size_t i = 0; i < keys.size(); ++i) ARROW_RETURN_NOT_OK(Log(keys[i], values[i]));
    KeyFilter& filter = provider_->key_filter_;
    std::vector<rocksdb::Slice>& unknown = unknown_keys_;
    std::vector<uint64_t>& unknown_hashes = unknown_hashes_;
    std::vector<uint64_t>& fresh = fresh_hashes_;  // of the keys the database lacks
    unknown.clear();
    unknown_hashes.clear();
    fresh.clear();
    pending_.PutMany(keys, values, [&](size_t i, const PendingWrites::Lookup& before) {
      // Matched even when the buffer answers, to keep the memo in step with the puts.
      const std::optional<bool> held = memo_.Match(keys[i]);
      if (before.changed) {
        // The filter took the key at its first put; after a removal the database may or may
        // not hold it.
        if (!before.value) {
          ++num_keys_;
          filter.Add(KeyFilter::Hash(keys[i]));
        }
      } else if (held) {
        if (!*held) {
          ++num_keys_;
          fresh.push_back(KeyFilter::Hash(keys[i]));
        }
      } else {
        unknown.push_back(ToSlice(keys[i]));
        unknown_hashes.push_back(KeyFilter::Hash(keys[i]));
      }
    });
    // The buffer answers a key repeated within the chunk from its second put on, so each of
    // these keys is read once; the database does not change before the buffer is applied.
    ARROW_RETURN_NOT_OK(CountUnknownKeys());
    filter.AddNewMany(fresh);
    provider_->ChargeKeyFilter();
    metrics_.num_updated_rows += static_cast<int64_t>(keys.size());
    return ApplyPendingIfFull();
  }

  /// Counts the keys of unknown_keys_ (hashes in unknown_hashes_, each key once) that the
  /// database lacks as new, their hashes going to fresh_hashes_: those the key filter rules
  /// out, and those a MultiGet of the rest does not find.
  arrow::Status CountUnknownKeys() {
    std::vector<rocksdb::Slice>& unknown = unknown_keys_;
    std::vector<uint64_t>& unknown_hashes = unknown_hashes_;
    size_t kept = 0;
    provider_->key_filter_.MayContainMany(unknown_hashes, [&](size_t i, bool may_hold) {
      if (!may_hold) {
        ++num_keys_;
        fresh_hashes_.push_back(unknown_hashes[i]);
        return;
      }
      unknown[kept] = unknown[i];
      unknown_hashes[kept] = unknown_hashes[i];
      ++kept;
    });
    unknown.resize(kept);
    constexpr size_t kKeysPerRead = 4096;
    std::vector<rocksdb::PinnableSlice> found(std::min(kKeysPerRead, unknown.size()));
    std::vector<rocksdb::Status> statuses(found.size());
    for (size_t first = 0; first < unknown.size(); first += kKeysPerRead) {
      const size_t n = std::min(kKeysPerRead, unknown.size() - first);
      db_->MultiGet(rocksdb::ReadOptions(), db_->DefaultColumnFamily(), n,
                    unknown.data() + first, found.data(), statuses.data());
      for (size_t i = 0; i < n; ++i) {
        found[i].Reset();
        if (statuses[i].IsNotFound()) {
          ++num_keys_;
          fresh_hashes_.push_back(unknown_hashes[first + i]);
        } else {
          ARROW_RETURN_NOT_OK(Check(statuses[i], "Cannot read from"));
        }
      }
    }
    return arrow::Status::OK();
  }

  static int64_t BytesOf(std::span<const std::string_view> keys,
                         std::span<const std::string_view> values) {
    int64_t bytes = 0;
    for (size_t i = 0; i < keys.size(); ++i) bytes += keys[i].size() + values[i].size();
    return bytes;
  }

  /// PutMany of a call (of `bytes` of keys and values) that alone fills the write buffer,
  /// made while the buffer is empty: the puts go from the caller's arrays, in key order,
  /// straight to table files (one, unless the call holds several buffers' worth), which the
  /// database ingests before the call returns. Through the buffer, the table files were cut
  /// where it filled, about three for a batch of 10M puts: each a sorted run more for every
  /// later read to merge. With one, a batch updating 10M of 50M keys took a sixth less CPU
  /// time. A key put twice keeps its last value, as in the buffer.
  arrow::Status PutManyDirectly(std::span<const std::string_view> keys,
                                std::span<const std::string_view> values, int64_t bytes) {
    for (size_t i = 0; i < keys.size(); ++i) ARROW_RETURN_NOT_OK(Log(keys[i], values[i]));
    // The order takes the buffer's place in the shared memory budget while the call lasts.
    const auto order_bytes = static_cast<int64_t>(keys.size() * sizeof(KeyOrderEntry<uint32_t>));
    provider_->shared_->ChargeWriteBuffers(order_bytes);
    struct Uncharge {
      ~Uncharge() { shared->ChargeWriteBuffers(-bytes); }
      RocksDbSharedResources* shared;
      int64_t bytes;
    } uncharge{provider_->shared_.get(), order_bytes};
    std::vector<bool> superseded;
    const CallArray<KeyOrderEntry<uint32_t>> order = LastPutsInKeyOrder(keys, &superseded);
    ARROW_RETURN_NOT_OK(CountNewKeysOfPuts(keys, superseded));
    metrics_.num_updated_rows += static_cast<int64_t>(keys.size());
    const auto files =
        static_cast<size_t>(std::max<int64_t>(1, bytes / provider_->max_pending_bytes_));
    for (size_t file = 0; file < files; ++file) {
      const size_t begin = order.size() * file / files;
      const size_t end = order.size() * (file + 1) / files;
      ARROW_RETURN_NOT_OK(IngestSorted(end - begin, [&](size_t j) {
        // Two misses a put, one on the views and one on their bytes: each fetched ahead, the
        // views twice as far (fetching both at the same distance cost as much time as the
        // buffer's hashing saved).
        constexpr size_t kAhead = 16;
        if (begin + j + 2 * kAhead < end) {
          const uint32_t ahead = order[begin + j + 2 * kAhead].payload;
          __builtin_prefetch(&keys[ahead]);
          __builtin_prefetch(&values[ahead]);
        }
        if (begin + j + kAhead < end) {
          const uint32_t ahead = order[begin + j + kAhead].payload;
          __builtin_prefetch(keys[ahead].data());
          __builtin_prefetch(values[ahead].data());
        }
        const uint32_t i = order[begin + j].payload;
        return std::pair<std::string_view, std::optional<std::string_view>>(keys[i], values[i]);
      }));
    }
    // The lookups' places no put matched may name keys just written: those found absent are
    // no longer known to be, and a put of one asks the database. Searching the puts for each
    // could cost more than the puts, were the lookups of other keys.
    for (size_t place = memo_.next(); place < memo_.size(); ++place) {
      if (memo_.known_at(place) == LookupMemo::Known::kAbsent) {
        memo_.set_known(place, LookupMemo::Known::kNothing);
      }
    }
    return arrow::Status::OK();
  }

  /// The places of `keys` in their key order, a key there more than once only at its last
  /// place; `superseded` marks the places left out.
  static CallArray<KeyOrderEntry<uint32_t>> LastPutsInKeyOrder(
      std::span<const std::string_view> keys, std::vector<bool>* superseded) {
    CallArray<KeyOrderEntry<uint32_t>> order = NewCallArray<KeyOrderEntry<uint32_t>>(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) order[i].payload = static_cast<uint32_t>(i);
    SortByKey(&order, [&](uint32_t i) { return keys[i]; });
    superseded->assign(keys.size(), false);
    size_t kept = 0;
    // Keys with different prefixes differ: only keys whose prefixes tie are compared.
    auto same_key = [&](const KeyOrderEntry<uint32_t>& a, const KeyOrderEntry<uint32_t>& b) {
      return a.prefix == b.prefix && keys[a.payload] == keys[b.payload];
    };
    for (size_t j = 0; j < order.size();) {
      const KeyOrderEntry<uint32_t> first = order[j];
      uint32_t last = first.payload;
      for (++j; j < order.size() && same_key(order[j], first); ++j) {
        (*superseded)[std::min(last, order[j].payload)] = true;
        last = std::max(last, order[j].payload);
      }
      order[kept++] = {last, first.prefix};
    }
    order.resize(kept);
    return order;
  }

  /// Counts the keys of puts new to the database, each once (at its last put, the places
  /// `superseded` marks skipped), adding them to the key filter: from the lookups' memo,
  /// which the puts go through in their order, else from the key filter and the database.
  arrow::Status CountNewKeysOfPuts(std::span<const std::string_view> keys,
                                   const std::vector<bool>& superseded) {
    unknown_keys_.clear();
    unknown_hashes_.clear();
    fresh_hashes_.clear();
    for (size_t i = 0; i < keys.size(); ++i) {
      const std::optional<bool> held = memo_.Match(keys[i]);
      if (superseded[i]) continue;
      if (!held) {
        unknown_keys_.push_back(ToSlice(keys[i]));
        unknown_hashes_.push_back(KeyFilter::Hash(keys[i]));
      } else if (!*held) {
        ++num_keys_;
        fresh_hashes_.push_back(KeyFilter::Hash(keys[i]));
      }
    }
    ARROW_RETURN_NOT_OK(CountUnknownKeys());
    provider_->key_filter_.AddNewMany(fresh_hashes_);
    provider_->ChargeKeyFilter();
    return arrow::Status::OK();
  }

  /// Remove of `key` once the store is known writable; `known_held` when the caller knows
  /// the store holds it (RemoveHeld), so that only the write buffer is asked.
  arrow::Status RemoveOne(std::string_view key, bool known_held) {
    ARROW_RETURN_NOT_OK(Log(key, std::nullopt));
    bool existed;
    const std::optional<bool> held = memo_.Match(key);
    if (PendingWrites::Lookup pending = pending_.Find(key); pending.changed) {
      existed = pending.value.has_value();
    } else if (known_held) {
      existed = true;
    } else if (held) {
      existed = *held;
    } else {
      ARROW_ASSIGN_OR_RAISE(existed, HeldByDatabase(key));
    }
    if (!existed) return arrow::Status::OK();
    ReleaseValues();
    pending_.Remove(key);
    --num_keys_;
    ++metrics_.num_removed_rows;
    return ApplyPendingIfFull();
  }

  /// Whether the database holds `key` (the write buffer aside).
  arrow::Result<bool> HeldByDatabase(std::string_view key) {
    if (!provider_->key_filter_.MayContain(KeyFilter::Hash(key))) return false;
    rocksdb::PinnableSlice value;
    rocksdb::Status status =
        db_->Get(rocksdb::ReadOptions(), db_->DefaultColumnFamily(), ToSlice(key), &value);
    if (status.IsNotFound()) return false;
    ARROW_RETURN_NOT_OK(Check(status, "Cannot read from"));
    return true;
  }

  /// Opens the version's changelog unless open; an error is kept as the store's (Fail).
  arrow::Status OpenChangelog() {
    if (changelog_) return error_;
    auto writer = ChangelogWriter::Open(provider_->ChangelogPath(version_ + 1),
                                        StateFileKind::kChangelog, version_ + 1);
    if (!writer.ok()) {
      Fail(writer.status());
      return error_;
    }
    changelog_ = writer.MoveValueUnsafe();
    return error_;
  }

  /// Appends a change to the version's changelog, opened by the first change.
  arrow::Status Log(std::string_view key, std::optional<std::string_view> value) {
    ARROW_RETURN_NOT_OK(OpenChangelog());
    arrow::Status logged = value ? changelog_->Put(key, *value) : changelog_->Remove(key);
    if (!logged.ok()) Fail(logged);
    return error_;
  }

  arrow::Status ApplyPendingIfFull() {
    UpdateCharge();
    if (pending_.record_bytes() >= provider_->max_pending_bytes_ ||
        (pending_.record_bytes() >= kMinPendingBytesToApply &&
         provider_->shared_->WriteBuffersOverBudget())) {
      // A version that filled the buffer once is likely to fill it again: its index starts
      // at the size it reached, instead of growing to it anew.
      const int64_t changes = pending_.size();
      ARROW_RETURN_NOT_OK(ApplyPending());
      pending_.Reserve(changes);
      UpdateCharge(/*now=*/true);
    }
    return arrow::Status::OK();
  }

  /// Charges the memory of the write buffer to the query's shared budget, when it changed by a
  /// step since the last charge (or always, when `now`). The memo is not charged: it is
  /// about the size of the keys its caller holds, and applying the buffer cannot shrink it.
  void UpdateCharge(bool now = false) {
    const int64_t bytes = pending_.memory_used_bytes();
    if (!now && std::abs(bytes - charged_bytes_) < kChargeStep) return;
    provider_->shared_->ChargeWriteBuffers(bytes - charged_bytes_);
    charged_bytes_ = bytes;
  }

  /// Writes the pending changes, in key order, to the database, which takes them as one table
  /// file, written sorted and ingested whole: inserting them into a memtable key by key, and
  /// flushing it later, cost about a fifth of a large aggregation's time.
  arrow::Status ApplyPending() {
    if (pending_.size() == 0) return arrow::Status::OK();
    const std::vector<PendingWrites::Change> changes = pending_.SortedChanges();
    ARROW_RETURN_NOT_OK(IngestSorted(changes.size(), [&](size_t i) {
      // The buffer's records lie in no particular order in memory: fetch ahead.
      constexpr size_t kAhead = 16;
      if (i + kAhead < changes.size()) __builtin_prefetch(changes[i + kAhead].address());
      return std::pair(changes[i].key(), changes[i].value());
    }));
    // What the lookups learned stays true of the keys not just applied; the applied ones
    // are now in the database as their change says.
    pending_.FindMany(
        memo_.size() - memo_.next(), [&](size_t i) { return memo_.key_at(memo_.next() + i); },
        [&](size_t i, const PendingWrites::Lookup& change) {
          if (!change.changed) return;
          memo_.set_known(memo_.next() + i, change.value ? LookupMemo::Known::kHeld
                                                         : LookupMemo::Known::kAbsent);
        });
    pending_.Clear();
    UpdateCharge(/*now=*/true);
    return arrow::Status::OK();
  }

  /// Writes the `n` changes `change(i)` gives, a key and its new value or nullopt for a
  /// removal, in increasing order of their keys, to a table file and has the database ingest
  /// it.
  template <typename ChangeAt>
  arrow::Status IngestSorted(size_t n, ChangeAt&& change) {
    const std::string table_path = provider_->NextIngestPath();
    rocksdb::SstFileWriter table(rocksdb::EnvOptions(), *provider_->options_);
    ARROW_RETURN_NOT_OK(Check(table.Open(table_path), "Cannot write a table file for"));
    for (size_t i = 0; i < n; ++i) {
      const auto [key, value] = change(i);
      rocksdb::Status added =
          value ? table.Put(ToSlice(key), ToSlice(*value)) : table.Delete(ToSlice(key));
      ARROW_RETURN_NOT_OK(Check(added, "Cannot write a table file for"));
    }
    ARROW_RETURN_NOT_OK(Check(table.Finish(), "Cannot write a table file for"));
    applied_ = true;  // from here on the database may hold changes
    rocksdb::IngestExternalFileOptions ingest;
    // The file is the database's from now on: linked in, not copied.
    ingest.move_files = true;
    rocksdb::Status ingested = db_->IngestExternalFile({table_path}, ingest);
    std::error_code ignored;
    std::filesystem::remove(table_path, ignored);  // still there only when the ingestion failed
    return Check(ingested, "Cannot write to");
  }

  arrow::Status CommitFiles() {
    ReleaseSnapshot();
    // A version without changes still needs its (empty) changelog.
    ARROW_RETURN_NOT_OK(OpenChangelog());
    ARROW_ASSIGN_OR_RAISE(int64_t changelog_bytes, changelog_->Commit());
    changelog_.reset();
    int64_t snapshot_bytes = 0;
    ARROW_RETURN_NOT_OK(
        provider_->FinishCommit(version_ + 1, num_keys_, scanned_, &snapshot_bytes));
    metrics_.checkpoint_bytes_written = changelog_bytes + snapshot_bytes;
    return arrow::Status::OK();
  }

  /// Restores every key the changelog names to its value when the store opened.
  arrow::Status RollBack() {
    rocksdb::ReadOptions at_open;
    at_open.snapshot = snapshot_;
    rocksdb::PinnableSlice previous;
    return changelog_->ReadBack(
        [&](std::string_view key, std::optional<std::string_view>) -> arrow::Status {
          previous.Reset();
          rocksdb::Status status =
              db_->Get(at_open, db_->DefaultColumnFamily(), ToSlice(key), &previous);
          if (status.ok()) {
            status = db_->Put(write_options_, ToSlice(key), previous);
          } else if (status.IsNotFound()) {
            status = db_->Delete(write_options_, ToSlice(key));
          }
          return FromRocksDb(status, "Cannot roll back " + provider_->Describe());
        });
  }

  void ReleaseValues() const {
    for (size_t i = 0; i < pinned_used_; ++i) pinned_[i].Reset();
    pinned_used_ = 0;
  }

  void ReleaseSnapshot() {
    if (snapshot_ != nullptr) db_->ReleaseSnapshot(snapshot_);
    snapshot_ = nullptr;
  }

  void Close() {
    pending_.Clear();
    memo_.Release();
    provider_->shared_->ChargeWriteBuffers(-charged_bytes_);
    charged_bytes_ = 0;
    open_ = false;
    provider_->store_open_ = false;
  }

  RocksDbStateStoreProvider* provider_;
  rocksdb::DB* db_;
  int64_t version_;
  int64_t num_keys_;
  const rocksdb::Snapshot* snapshot_;
  rocksdb::WriteOptions write_options_;
  std::unique_ptr<ChangelogWriter> changelog_;
  PendingWrites pending_;
  // What the latest Get or GetMany found in the database, kept true as the write buffer is
  // applied.
  mutable LookupMemo memo_;
  // The bytes of pending_ charged to the shared budget (UpdateCharge).
  int64_t charged_bytes_ = 0;
  // The keys of puts not known to be held or not and their hashes (CountUnknownKeys), and the
  // hashes of the keys the database lacks, kept to reuse the memory.
  std::vector<rocksdb::Slice> unknown_keys_;
  std::vector<uint64_t> unknown_hashes_;
  std::vector<uint64_t> fresh_hashes_;
  StateStoreMetrics metrics_;
  // A deque, so that the slices handed out stay where they are as more are added.
  mutable std::deque<rocksdb::PinnableSlice> pinned_;
  mutable size_t pinned_used_ = 0;
  mutable arrow::Status error_;
  // Whether ForEach visited every key, and whether it made a crowded key filter anew.
  mutable bool scanned_ = false;
  mutable bool filter_remade_ = false;
  bool open_ = true;
  bool committed_ = false;
  bool commit_failed_ = false;
  // Whether some changes were applied to the database (so that Abort must undo them).
  bool applied_ = false;
};

std::unique_ptr<StateStore> OpenRocksDbStateStore(RocksDbStateStoreProvider* provider,
                                                  int64_t version) {
  return std::make_unique<RocksDbStateStore>(provider, version);
}

}  // namespace sluice::state
