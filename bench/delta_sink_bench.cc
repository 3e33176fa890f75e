// The Delta sink against the plain Parquet file sink on the same stream (issue 6: Delta sink
// throughput within 20% of the Parquet file sink). rate-micro-batch with 1M rows per batch,
// projected to a long, a double and a string column, default trigger, durable checkpoint; the
// sink is the only difference. Reports rows/s over the batches after the first. Run both in
// one process and compare the ratio, e.g.
//   sluice_bench --benchmark_filter='SinkThroughput' --benchmark_repetitions=3
#include <chrono>
#include <filesystem>
#include <thread>

#include <benchmark/benchmark.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/data_stream_writer.h"
#include "sluice/api/functions.h"
#include "sluice/api/session.h"
#include "sluice/formats/partitioned_writer.h"
#include "batch_times.h"

namespace {

namespace F = sluice::functions;
namespace fs = std::filesystem;

constexpr int64_t kRowsPerBatch = 1'000'000;
constexpr int kBatches = 21;

void SinkThroughput(benchmark::State& state, const char* format) {
  auto spark = sluice::SparkSession::builder().getOrCreate().ValueOrDie();
  auto df = spark->readStream()
                .format("rate-micro-batch")
                .option("rowsPerBatch", kRowsPerBatch)
                .load()
                .select({F::col("value").alias("id"), (F::col("value") * 0.5).alias("amount"),
                         (F::col("value") % 1000).cast("string").alias("customer")});
  for (auto _ : state) {
    const fs::path root = fs::current_path() / ("bench-sink-" + sluice::formats::RandomUuid());
    auto times = std::make_shared<sluice::bench::BatchTimes>();
    spark->streams()->addListener(times);
    auto query = df.writeStream()
                     .format(format)
                     .option("checkpointLocation", (root / "checkpoint").string())
                     .start((root / "out").string())
                     .ValueOrDie();
    while (times->times().size() < kBatches) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    (void)query->stop();
    spark->streams()->removeListener(times);
    fs::remove_all(root);
    auto seen = times->times();
    double seconds = std::chrono::duration<double>(seen[kBatches - 1] - seen[0]).count();
    state.counters["rows_per_second"] = (kBatches - 1) * kRowsPerBatch / seconds;
  }
}

}  // namespace

BENCHMARK_CAPTURE(SinkThroughput, parquet, "parquet")
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(SinkThroughput, delta, "delta")
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
