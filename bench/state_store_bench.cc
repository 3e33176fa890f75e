// The default state store at the scale of issue 4's memory figure: 10M long keys -> (count,
// sum) values, written as a stateful aggregation does (Get, then Put), ten batches of 1M new
// keys each committed durably (a delta per batch, the snapshot of all 10M at the tenth).
// Reports puts/s including the commits, the store's own memory, the process's peak
// resident memory (ru_maxrss: run with --benchmark_filter=StateStore to see the store alone),
// and the size of the delta of a batch touching 1% of the keys over the snapshot's.
#include <chrono>
#include <cstring>
#include <filesystem>

#include <benchmark/benchmark.h>

#include "process_usage.h"

#include "sluice/checkpoint/checkpoint_paths.h"
#include "sluice/formats/partitioned_writer.h"
#include "sluice/state/memory_state_store_provider.h"

namespace {

namespace fs = std::filesystem;

constexpr int64_t kKeys = 10'000'000;
constexpr int64_t kBatches = 10;

using sluice::bench::PeakResidentMegabytes;

void BM_StateStoreTenMillionLongKeys(benchmark::State& state) {
  fs::path root =
      fs::temp_directory_path() / ("sluice-state-bench-" + sluice::formats::RandomUuid());
  sluice::state::StateStoreId id;
  std::string folder =
      sluice::state::StateStoreFolder(sluice::checkpoint::CheckpointPaths(root.string()), id);
  double commit_seconds = 0;
  int64_t bytes_written = 0;
  int64_t store_memory = 0;
  // Maintenance at every commit: the snapshot comes at the tenth batch, whatever the time.
  sluice::state::StateStoreConf conf;
  conf.maintenance_interval_ms = 0;
  for (auto _ : state) {
    auto provider = sluice::state::MemoryStateStoreProvider::Make(folder, id, conf).ValueOrDie();
    for (int64_t batch = 0; batch < kBatches; ++batch) {
      auto store = provider->GetStore(batch).ValueOrDie();
      for (int64_t key = batch * (kKeys / kBatches); key < (batch + 1) * (kKeys / kBatches);
           ++key) {
        char key_bytes[sizeof(int64_t)];
        std::memcpy(key_bytes, &key, sizeof(key));
        std::string_view key_view(key_bytes, sizeof(key_bytes));
        int64_t aggregate[2] = {0, 0};  // count, sum
        if (auto previous = store->Get(key_view)) {
          std::memcpy(aggregate, previous->data(), sizeof(aggregate));
        }
        aggregate[0] += 1;
        aggregate[1] += key;
        auto status = store->Put(
            key_view,
            std::string_view(reinterpret_cast<const char*>(aggregate), sizeof(aggregate)));
        if (!status.ok()) state.SkipWithError(status.ToString().c_str());
      }
      auto start = std::chrono::steady_clock::now();
      auto version = store->Commit();
      if (!version.ok()) state.SkipWithError(version.status().ToString().c_str());
      commit_seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      bytes_written += store->metrics().checkpoint_bytes_written;
      store_memory = store->metrics().memory_used_bytes;
    }
    // One more batch touching 1% of the keys: its delta against the snapshot of all of them
    // (written by the tenth commit) shows that a checkpoint costs what changed.
    auto store = provider->GetStore(kBatches).ValueOrDie();
    for (int64_t key = 0; key < kKeys; key += 100) {
      char key_bytes[sizeof(int64_t)];
      std::memcpy(key_bytes, &key, sizeof(key));
      int64_t aggregate[2] = {1, key};
      (void)store->Put(std::string_view(key_bytes, sizeof(key_bytes)),
                       std::string_view(reinterpret_cast<const char*>(aggregate),
                                        sizeof(aggregate)));
    }
    (void)store->Commit();
    auto snapshot = fs::path(folder) / (std::to_string(kBatches) + ".snapshot");
    auto delta = fs::path(folder) / (std::to_string(kBatches + 1) + ".delta");
    state.counters["delta_1pct_over_snapshot"] =
        static_cast<double>(fs::file_size(delta)) / static_cast<double>(fs::file_size(snapshot));
  }
  fs::remove_all(root);
  state.counters["puts_per_s"] = benchmark::Counter(
      static_cast<double>(kKeys) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
  state.counters["commit_s"] = commit_seconds / static_cast<double>(state.iterations());
  state.counters["written_MB"] =
      static_cast<double>(bytes_written) / 1e6 / static_cast<double>(state.iterations());
  state.counters["store_MB"] = static_cast<double>(store_memory) / 1e6;
  state.counters["max_rss_MB"] = PeakResidentMegabytes();
}
BENCHMARK(BM_StateStoreTenMillionLongKeys)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
