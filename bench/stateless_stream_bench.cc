// A stateless stream at full speed: rate-micro-batch (10M rows per batch), a filter and three
// projections, the noop sink, default trigger, with a durable checkpoint. Reports rows/s over
// the batches after the first (issue: at least 50M rows/s on one core).
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

constexpr int64_t kRowsPerBatch = 10'000'000;
constexpr int kBatches = 11;

void StatelessStream(benchmark::State& state) {
  auto spark = sluice::SparkSession::builder().getOrCreate().ValueOrDie();
  auto df = spark->readStream()
                .format("rate-micro-batch")
                .option("rowsPerBatch", kRowsPerBatch)
                .load()
                .filter(F::col("value") % 2 == 0)
                .select({(F::col("value") + 1).alias("x"), (F::col("value") * 3).alias("y"),
                         F::col("timestamp").alias("t")});
  for (auto _ : state) {
    fs::path checkpoint = fs::current_path() / ("bench-checkpoint-" + sluice::formats::RandomUuid());
    auto times = std::make_shared<sluice::bench::BatchTimes>();
    spark->streams()->addListener(times);
    auto query = df.writeStream()
                     .format("noop")
                     .option("checkpointLocation", checkpoint.string())
                     .start()
                     .ValueOrDie();
    while (times->times().size() < kBatches) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    (void)query->stop();
    spark->streams()->removeListener(times);
    fs::remove_all(checkpoint);
    auto seen = times->times();
    double seconds = std::chrono::duration<double>(seen[kBatches - 1] - seen[0]).count();
    state.counters["rows_per_second"] = (kBatches - 1) * kRowsPerBatch / seconds;
  }
}

}  // namespace

BENCHMARK(StatelessStream)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
