// Issue 4's throughput figure: a windowed count and sum over 1M distinct keys, 10M events per
// batch (rate-micro-batch, the noop sink), append mode with a watermark, the default state
// store and a durable checkpoint per batch. Every batch updates every key, so each one reads
// and writes 1M state entries and its delta file holds all of them. Reports events/s over the
// batches after the first, by the wall clock and per CPU-second of the whole process (every
// thread), for a few shuffle partition counts (the number of state stores).
#include <chrono>
#include <vector>

#include <benchmark/benchmark.h>

#include "batch_times.h"

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/api/session.h"

namespace {

namespace F = sluice::functions;

constexpr int64_t kEventsPerBatch = 10'000'000;
constexpr int64_t kDistinctKeys = 1'000'000;
constexpr int kBatches = 4;


void WindowedAggregation(benchmark::State& state) {
  auto spark = sluice::SparkSession::builder().getOrCreate().ValueOrDie();
  (void)spark->conf().set("spark.sql.shuffle.partitions", std::to_string(state.range(0)));
  auto df = spark->readStream()
                .format("rate-micro-batch")
                .option("rowsPerBatch", kEventsPerBatch)
                .load()
                .withWatermark("timestamp", "10 seconds")
                .groupBy({F::window(F::col("timestamp"), "1 minute"),
                          (F::col("value") % F::lit(kDistinctKeys)).alias("key")})
                .agg({F::count(F::lit(1)).alias("events"), F::sum(F::col("value")).alias("total")});
  for (auto _ : state) {
    auto seen = sluice::bench::RunToNoopSink(spark, df, kBatches);
    if (seen.size() < kBatches) {
      state.SkipWithError("the query stopped early");
      break;
    }
    const double events = (kBatches - 1) * kEventsPerBatch;
    double seconds = std::chrono::duration<double>(seen[kBatches - 1].wall - seen[0].wall).count();
    state.counters["events_per_second"] = events / seconds;
    state.counters["events_per_cpu_second"] =
        events / (seen[kBatches - 1].cpu_seconds - seen[0].cpu_seconds);
  }
}

}  // namespace

BENCHMARK(WindowedAggregation)
    ->Arg(1)
    ->Arg(2)
    ->Arg(200)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
