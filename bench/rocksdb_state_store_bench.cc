// The RocksDB state store at the scale of issue 4's state-larger-than-memory figure: long keys
// -> (count, sum) values, written as a stateful aggregation does (GetMany, then PutMany), ten
// batches of 5M keys each committed durably (a changelog per batch, the snapshot of the whole
// store at the tenth), with RocksDB's memory bounded to 512 MB. Two workloads:
//   FiftyMillionLongKeys: every key of every batch is new, 50M keys in the end (the issue's
//     figure: every lookup misses);
//   HalfOfTheKeysSeenBefore: from the second batch on, half of a batch's keys are new and half
//     were seen in an earlier batch (spread over all of them), 27.5M keys in the end: an
//     aggregation whose groups recur, where lookups find values to update.
// Reports puts/s including the commits, puts/s per core (puts over the process's user +
// system CPU time, RocksDB's background flushes and compactions included up to the close of
// the database, which stops a merge under way), the process's peak resident memory (ru_maxrss) and how far it rose during
// the workload (run one benchmark alone, --benchmark_filter=<name>, to see that workload's
// store alone). The rise includes the bench's own arrays for a chunk of 1M keys (60 MB).
#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <vector>

#include <benchmark/benchmark.h>

#include "process_usage.h"

#include "sluice/checkpoint/checkpoint_paths.h"
#include "sluice/formats/partitioned_writer.h"
#include "sluice/state/rocksdb_state_store_provider.h"

namespace {

namespace fs = std::filesystem;

constexpr int64_t kKeys = 50'000'000;
constexpr int64_t kBatches = 10;
constexpr int64_t kMemoryBoundMb = 512;
constexpr int64_t kChunk = 1'000'000;

using sluice::bench::PeakResidentMegabytes;
using sluice::bench::ProcessCpuSeconds;

/// Key `position` of batch `batch` out of kKeys / kBatches, as a long: new keys count up from
/// `keys_before` (the keys of the earlier batches); when `half_seen` and batch > 0, every
/// other position instead names one of those earlier keys, each at most once per batch, spread
/// over all of them.
int64_t KeyOf(int64_t batch, int64_t position, int64_t keys_before, bool half_seen) {
  if (!half_seen || batch == 0) return keys_before + position;
  if (position % 2 == 0) return keys_before + position / 2;
  // A prime stride visits distinct keys: it divides none of the key counts (multiples of
  // 2.5M below 50M).
  constexpr int64_t kStride = 1'000'003;
  return (position / 2 * kStride + batch) % keys_before;
}

void RunAggregation(benchmark::State& state, bool half_seen) {
  fs::path root =
      fs::temp_directory_path() / ("sluice-rocksdb-bench-" + sluice::formats::RandomUuid());
  sluice::state::StateStoreId id;
  std::string folder =
      sluice::state::StateStoreFolder(sluice::checkpoint::CheckpointPaths(root.string()), id);
  sluice::state::StateStoreConf conf;
  conf.rocksdb.local_dir = (root / "local").string();
  conf.rocksdb.bounded_memory_usage = true;
  conf.rocksdb.max_memory_usage_mb = kMemoryBoundMb;
  fs::create_directories(conf.rocksdb.local_dir);
  auto shared = sluice::state::RocksDbSharedResources::Make(conf.rocksdb).ValueOrDie();
  double commit_seconds = 0;
  double cpu_seconds = 0;
  int64_t bytes_written = 0;
  int64_t store_memory = 0;
  int64_t cache_usage = 0;
  int64_t keys = 0;
  const double rss_at_start = PeakResidentMegabytes();
  for (auto _ : state) {
    double cpu_start = ProcessCpuSeconds();
    auto provider =
        sluice::state::RocksDbStateStoreProvider::Make(folder, id, conf, shared).ValueOrDie();
    int64_t keys_before = 0;
    for (int64_t batch = 0; batch < kBatches; ++batch) {
      auto store = provider->GetStore(batch).ValueOrDie();
      // As the aggregation operator does: look the batch's keys up together, then put them
      // together (here a chunk at a time, to bound the bench's own memory).
      constexpr int64_t kPerBatch = kKeys / kBatches;
      for (int64_t first = 0; first < kPerBatch; first += kChunk) {
        const int64_t n = std::min(kChunk, kPerBatch - first);
        std::vector<int64_t> key_values(n);
        std::vector<std::string_view> keys(n), values(n);
        std::vector<std::array<int64_t, 2>> aggregates(n, {0, 0});  // count, sum
        for (int64_t i = 0; i < n; ++i) {
          key_values[i] = KeyOf(batch, first + i, keys_before, half_seen);
          keys[i] = std::string_view(reinterpret_cast<const char*>(&key_values[i]),
                                     sizeof(int64_t));
        }
        store->GetMany(keys, [&](size_t i, std::string_view previous) {
          std::memcpy(aggregates[i].data(), previous.data(), sizeof(aggregates[i]));
        });
        for (int64_t i = 0; i < n; ++i) {
          aggregates[i][0] += 1;
          aggregates[i][1] += key_values[i];
          values[i] = std::string_view(reinterpret_cast<const char*>(aggregates[i].data()),
                                       sizeof(aggregates[i]));
        }
        auto status = store->PutMany(keys, values);
        if (!status.ok()) state.SkipWithError(status.ToString().c_str());
      }
      auto start = std::chrono::steady_clock::now();
      auto version = store->Commit();
      if (!version.ok()) state.SkipWithError(version.status().ToString().c_str());
      commit_seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      bytes_written += store->metrics().checkpoint_bytes_written;
      store_memory = store->metrics().memory_used_bytes;
      keys = store->metrics().num_keys;
      keys_before = keys;
    }
    // Closing the database stops a merge under way (RocksDB cancels its background work at
    // close), so the CPU time counts only the part of it done by then: these figures leave
    // out some of the merges the batches cause, most of all the last, which can be the full
    // merge of the store. rocksdb_aggregation_bench runs on through them.
    cache_usage = shared->usage_bytes();
    provider.reset();
    cpu_seconds += ProcessCpuSeconds() - cpu_start;
  }
  fs::remove_all(root);
  double puts = static_cast<double>(kKeys) * static_cast<double>(state.iterations());
  state.counters["puts_per_s"] = benchmark::Counter(puts, benchmark::Counter::kIsRate);
  state.counters["puts_per_cpu_s"] = puts / cpu_seconds;
  state.counters["commit_s"] = commit_seconds / static_cast<double>(state.iterations());
  state.counters["written_MB"] =
      static_cast<double>(bytes_written) / 1e6 / static_cast<double>(state.iterations());
  state.counters["keys"] = static_cast<double>(keys);
  state.counters["store_MB"] = static_cast<double>(store_memory) / 1e6;
  state.counters["shared_cache_MB"] = static_cast<double>(cache_usage) / 1e6;
  state.counters["bound_MB"] = static_cast<double>(kMemoryBoundMb);
  state.counters["max_rss_MB"] = PeakResidentMegabytes();
  state.counters["rss_rise_MB"] = PeakResidentMegabytes() - rss_at_start;
}
void BM_RocksDbStateStoreFiftyMillionLongKeys(benchmark::State& state) {
  RunAggregation(state, /*half_seen=*/false);
}
BENCHMARK(BM_RocksDbStateStoreFiftyMillionLongKeys)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_RocksDbStateStoreHalfOfTheKeysSeenBefore(benchmark::State& state) {
  RunAggregation(state, /*half_seen=*/true);
}
BENCHMARK(BM_RocksDbStateStoreHalfOfTheKeysSeenBefore)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
