// What RocksDB itself costs to read the state of an aggregation, below anything the provider
// does: the floor under rocksdb_aggregation_bench's batches of held keys. One database with
// the provider's options (MakeDatabaseOptions, memory bounded to 512 MB) holds 10M entries of
// the aggregation's shape (a long key -> count 1 and the key as sum, encoded by the row codec;
// sums that follow the keys compress as little as an aggregation's) in one sorted run, written
// as the provider writes (a table file, ingested), the store at its cheapest to read: right
// after a full merge. Two ways to read a fifth of its keys, in key
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
#include <string_view>
#include <vector>

#include <arrow/array.h>
#include <arrow/builder.h>
#include <benchmark/benchmark.h>
#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/sst_file_writer.h>

#include "sluice/formats/partitioned_writer.h"
#include "sluice/state/rocksdb_conversions.h"
#include "sluice/state/rocksdb_shared_resources.h"
#include "sluice/types/row_codec.h"

namespace {

namespace fs = std::filesystem;

constexpr size_t kEntries = 10'000'000;
constexpr size_t kReadOneIn = 5;

/// Rows [0, n) of longs `value_of(i)`, as one array.
template <typename ValueOf>
std::shared_ptr<arrow::Array> Longs(size_t n, ValueOf&& value_of) {
  arrow::Int64Builder builder;
  (void)builder.Reserve(static_cast<int64_t>(n));
  for (size_t i = 0; i < n; ++i) builder.UnsafeAppend(value_of(i));
  return builder.Finish().ValueOrDie();
}

/// The rows of `columns` as `encoder` encodes them, one after another.
struct EncodedRows {
  EncodedRows(const sluice::types::RowEncoder& encoder, const arrow::ArrayVector& columns) {
    encoder.EncodeRows(columns, 0, columns[0]->length(), &bytes, &offsets);
  }
  std::string_view row(size_t i) const {
    return std::string_view(bytes).substr(offsets[i], offsets[i + 1] - offsets[i]);
  }
  std::string bytes;
  std::vector<uint32_t> offsets;
};

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

    // The aggregation's state: a long key -> (count, sum), in the row codec's encoding.
    const auto key_encoder = sluice::types::RowEncoder::Make({arrow::int64()}, /*for_keys=*/true)
                                 .ValueOrDie();
    const auto value_encoder =
        sluice::types::RowEncoder::Make({arrow::int64(), arrow::int64()}, /*for_keys=*/false)
            .ValueOrDie();
    auto ids = Longs(kEntries, [](size_t i) { return static_cast<int64_t>(i); });
    const EncodedRows keys(*key_encoder, {ids});
    const EncodedRows values(*value_encoder,
                             {Longs(kEntries, [](size_t) { return int64_t{1}; }), ids});
    // A table file takes its entries in key order.
    std::vector<uint32_t> order(kEntries);
    for (size_t i = 0; i < kEntries; ++i) order[i] = static_cast<uint32_t>(i);
    std::sort(order.begin(), order.end(),
              [&](uint32_t a, uint32_t b) { return keys.row(a) < keys.row(b); });
    const std::string table = (root_ / "table.sst").string();
    rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
    Check(writer.Open(table));
    for (uint32_t i : order) {
      Check(writer.Put(sluice::state::ToSlice(keys.row(i)),
                       sluice::state::ToSlice(values.row(i))));
    }
    Check(writer.Finish());
    rocksdb::IngestExternalFileOptions ingest;
    ingest.move_files = true;
    Check(db_->IngestExternalFile({table}, ingest));

    for (size_t j = 0; j < kEntries; j += kReadOneIn) lookup_keys_.append(keys.row(order[j]));
    const size_t key_size = keys.row(0).size();  // every key a long's: one size
    for (size_t at = 0; at < lookup_keys_.size(); at += key_size) {
      lookups_.emplace_back(lookup_keys_.data() + at, key_size);
    }
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
  std::string lookup_keys_;  // the keys to read, one after another
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
