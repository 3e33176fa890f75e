// What RocksDB itself costs to read the state of an aggregation, below anything the provider
// does: the floor under rocksdb_aggregation_bench's batches of held keys. One database with
// the provider's options (MakeDatabaseOptions, memory bounded to 512 MB) holds 10M entries of
// the aggregation's shape (a long key -> count and sum, encoded as the row codec does) in one
// sorted run, written as the provider writes (a table file, ingested), the store at its
// cheapest to read: right after a full merge. Two ways to read a fifth of its keys, in key
// order, as a batch updating 10M of 50M keys does:
//   Scan: an iterator stepping over every entry, as the provider's walk does when a batch's
//     keys are that dense (reports ns per entry stepped; the walk steps about five per key);
//   MultiGet: RocksDB's MultiGet of the keys in sorted groups of 256 (reports ns per key).
// The cheaper of the two, per key read, is what a held key costs before it is updated,
// logged, written as a new table file and merged again.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_writer.h>

#include "sluice/formats/partitioned_writer.h"
#include "sluice/state/rocksdb_shared_resources.h"

namespace {

namespace fs = std::filesystem;

constexpr size_t kEntries = 10'000'000;
constexpr size_t kReadOneIn = 5;

/// A long as the row codec encodes it: a presence byte, then little-endian bytes.
void AppendLong(std::string* out, int64_t value) {
  out->push_back('\1');
  char bytes[sizeof(value)];
  std::memcpy(bytes, &value, sizeof(value));
  out->append(bytes, sizeof(bytes));
}

/// The database, built once for every benchmark of this file, and the keys to read.
class Store {
 public:
  static Store& Get() {
    static Store store;
    return store;
  }

  rocksdb::DB* db() const { return db_.get(); }
  const std::vector<rocksdb::Slice>& lookups() const { return lookups_; }

  ~Store() {
    db_.reset();
    fs::remove_all(root_);
  }

 private:
  Store()
      : root_(fs::temp_directory_path() /
              ("sluice-rocksdb-read-" + sluice::formats::RandomUuid())) {
    sluice::state::RocksDbStateStoreConf conf;
    conf.bounded_memory_usage = true;
    conf.max_memory_usage_mb = 512;
    shared_ = sluice::state::RocksDbSharedResources::Make(conf).ValueOrDie();
    rocksdb::Options options = sluice::state::MakeDatabaseOptions(conf, *shared_).ValueOrDie();
    fs::create_directories(root_);
    rocksdb::DB* db = nullptr;
    Check(rocksdb::DB::Open(options, (root_ / "db").string(), &db));
    db_.reset(db);

    std::vector<std::string> keys(kEntries);
    for (size_t i = 0; i < kEntries; ++i) AppendLong(&keys[i], static_cast<int64_t>(i));
    std::sort(keys.begin(), keys.end());
    const std::string table = (root_ / "table.sst").string();
    rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
    Check(writer.Open(table));
    std::string value;
    for (size_t i = 0; i < kEntries; ++i) {
      value.clear();
      AppendLong(&value, 1);
      AppendLong(&value, static_cast<int64_t>(i));
      Check(writer.Put(keys[i], value));
    }
    Check(writer.Finish());
    rocksdb::IngestExternalFileOptions ingest;
    ingest.move_files = true;
    Check(db_->IngestExternalFile({table}, ingest));

    for (size_t i = 0; i < kEntries; i += kReadOneIn) lookup_keys_.push_back(std::move(keys[i]));
    lookups_.assign(lookup_keys_.begin(), lookup_keys_.end());
  }

  static void Check(const rocksdb::Status& status) {
    if (!status.ok()) {
      fprintf(stderr, "%s\n", status.ToString().c_str());
      std::abort();
    }
  }

  fs::path root_;
  std::shared_ptr<sluice::state::RocksDbSharedResources> shared_;
  std::unique_ptr<rocksdb::DB> db_;
  std::vector<std::string> lookup_keys_;
  std::vector<rocksdb::Slice> lookups_;
};

void BM_RocksDbScanOfOneSortedRun(benchmark::State& state) {
  rocksdb::DB* db = Store::Get().db();
  size_t entries = 0;
  size_t value_bytes = 0;
  double seconds = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    rocksdb::ReadOptions options;
    options.fill_cache = false;  // as the provider's walk
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(options));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      value_bytes += it->value().size();
      ++entries;
    }
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  benchmark::DoNotOptimize(value_bytes);
  state.counters["ns_per_entry"] = seconds * 1e9 / static_cast<double>(entries);
}
BENCHMARK(BM_RocksDbScanOfOneSortedRun)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_RocksDbMultiGetOfAFifthOfTheKeys(benchmark::State& state) {
  rocksdb::DB* db = Store::Get().db();
  const std::vector<rocksdb::Slice>& keys = Store::Get().lookups();
  constexpr size_t kKeysPerRead = 256;
  std::vector<rocksdb::PinnableSlice> values(kKeysPerRead);
  std::vector<rocksdb::Status> statuses(kKeysPerRead);
  size_t read = 0;
  size_t found = 0;
  double seconds = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    for (size_t first = 0; first < keys.size(); first += kKeysPerRead) {
      const size_t n = std::min(kKeysPerRead, keys.size() - first);
      db->MultiGet(rocksdb::ReadOptions(), db->DefaultColumnFamily(), n, keys.data() + first,
                   values.data(), statuses.data(), /*sorted_input=*/true);
      for (size_t j = 0; j < n; ++j) {
        found += statuses[j].ok();
        values[j].Reset();
      }
      read += n;
    }
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  if (found != read) state.SkipWithError("a key written was not found");
  state.counters["ns_per_key"] = seconds * 1e9 / static_cast<double>(read);
}
BENCHMARK(BM_RocksDbMultiGetOfAFifthOfTheKeys)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
