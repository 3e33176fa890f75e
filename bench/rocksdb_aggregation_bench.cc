// Issue 4's RocksDB figure end to end, where rocksdb_state_store_bench drives the store alone: a
// streaming count and sum per key whose state grows to 50M keys in the RocksDB provider, with
// RocksDB's memory bounded to 512 MB (boundedMemoryUsage), one shuffle partition, update mode,
// the noop sink and a durable checkpoint (a changelog) per batch. rate-micro-batch gives 10M
// events per batch and the key is the value modulo 50M, so every event of a batch has a key of
// its own: batches 0 to 4 bring 10M new keys each (every lookup misses), and each batch after
// updates the next 10M of the 50M keys, going round them (every lookup finds its key, at a
// random place of the database).
// RocksDB's background compaction merges the store's sorted runs; its CPU time counts in
// whichever batch is running, and none of a merge still running after the last batch counts.
// Each batch adds a sorted run (one table file, ingested), and the provider has RocksDB merge
// them once 16 have gathered (level0_file_num_compaction_trigger): in batch 15, a merge of
// every run, the whole state (about 2 GB of table files by then), on a background thread
// beside the next few batches. A run to batch 11, as this benchmark once was, ended before
// it and showed none of it (533K events per CPU-second against 449K through batch 19, the
// same build). So the run goes on to batch 19, past the merge's end, and reports events per
// CPU-second of the whole process over batches 1 to 19, and apart for the batches of new
// keys (1 to 4) and for those of held keys (5 to 19, the merge included); events/s by the
// wall clock; the state's rows; the most memory the store reported using (RocksDB's and the
// batch's write buffer); and the process's peak resident memory, which also holds the
// batch's own arrays and hash tables for 10M rows.
#include <algorithm>
#include <chrono>

#include <benchmark/benchmark.h>

#include "batch_times.h"

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/api/session.h"

namespace {

namespace F = sluice::functions;

constexpr int64_t kEventsPerBatch = 10'000'000;
constexpr int64_t kKeys = 50'000'000;
constexpr size_t kBatches = 20;
constexpr size_t kFirstHeldKeysBatch = kKeys / kEventsPerBatch;

void AggregationOfFiftyMillionKeysInRocksDb(benchmark::State& state) {
  auto spark = sluice::SparkSession::builder().getOrCreate().ValueOrDie();
  auto conf = spark->conf();
  (void)conf.set("spark.sql.shuffle.partitions", "1");
  (void)conf.set("spark.sql.streaming.stateStore.providerClass",
                 "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider");
  (void)conf.set("spark.sql.streaming.stateStore.rocksdb.boundedMemoryUsage", "true");
  (void)conf.set("spark.sql.streaming.stateStore.rocksdb.maxMemoryUsageMB", "512");
  auto df = spark->readStream()
                .format("rate-micro-batch")
                .option("rowsPerBatch", kEventsPerBatch)
                .load()
                .groupBy({(F::col("value") % F::lit(kKeys)).alias("key")})
                .agg({F::count(F::lit(1)).alias("events"), F::sum(F::col("value")).alias("total")});
  for (auto _ : state) {
    auto seen = sluice::bench::RunToNoopSink(spark, df, kBatches, "update");
    if (seen.size() < kBatches) {
      state.SkipWithError("the query stopped early");
      break;
    }
    // Events per CPU-second of batches (first, last].
    auto per_cpu_second = [&](size_t first, size_t last) {
      return static_cast<double>((last - first) * kEventsPerBatch) /
             (seen[last].cpu_seconds - seen[first].cpu_seconds);
    };
    const size_t last = kBatches - 1;
    const double seconds = std::chrono::duration<double>(seen[last].wall - seen[0].wall).count();
    state.counters["events_per_second"] = static_cast<double>(last * kEventsPerBatch) / seconds;
    state.counters["events_per_cpu_second"] = per_cpu_second(0, last);
    state.counters["new_keys_events_per_cpu_second"] = per_cpu_second(0, kFirstHeldKeysBatch - 1);
    state.counters["held_keys_events_per_cpu_second"] =
        per_cpu_second(kFirstHeldKeysBatch - 1, last);
    state.counters["state_rows"] = static_cast<double>(seen[last].state_rows);
    int64_t store_memory = 0;
    for (const auto& reading : seen) {
      store_memory = std::max(store_memory, reading.state_memory_bytes);
    }
    state.counters["store_MB"] = static_cast<double>(store_memory) / 1e6;
    state.counters["max_rss_MB"] = sluice::bench::PeakResidentMegabytes();
  }
}

}  // namespace

BENCHMARK(AggregationOfFiftyMillionKeysInRocksDb)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
