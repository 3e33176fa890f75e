// A stateless stream over a large folder of JSON files keeps its memory bounded: files are
// read one at a time, batch by batch. Writes SLUICE_BENCH_JSON_GB gigabytes (default 10) of
// JSON Lines, streams them with availableNow through a filter and projections to the noop
// sink, and reports the peak resident memory and the throughput (issue: under 1 GB for 10 GB).
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <benchmark/benchmark.h>

#include "process_usage.h"

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/data_stream_writer.h"
#include "sluice/api/functions.h"
#include "sluice/api/session.h"
#include "sluice/formats/partitioned_writer.h"

namespace {

namespace F = sluice::functions;
namespace fs = std::filesystem;

constexpr int64_t kFileBytes = 256LL << 20;

int64_t TotalBytes() {
  const char* gigabytes = std::getenv("SLUICE_BENCH_JSON_GB");
  return static_cast<int64_t>((gigabytes ? std::atof(gigabytes) : 10.0) * (1LL << 30));
}

/// Writes JSON Lines files of about kFileBytes each until `total` bytes.
void WriteInput(const fs::path& folder, int64_t total) {
  fs::create_directories(folder);
  std::string line;
  int64_t written = 0;
  for (int file = 0; written < total; ++file) {
    std::ofstream out(folder / ("events-" + std::to_string(file) + ".json"));
    std::string buffer;
    int64_t file_bytes = 0;
    for (int64_t id = 0; file_bytes < kFileBytes; ++id) {
      line = "{\"id\":" + std::to_string(id) + ",\"user\":\"u" + std::to_string(id % 9973) +
             "\",\"page\":\"/products/" + std::to_string(id % 541) +
             "\",\"event_time\":\"2026-06-10T10:01:00Z\",\"duration_s\":" +
             std::to_string((id % 1000) / 10.0) + "}\n";
      buffer += line;
      if (buffer.size() > (1 << 20)) {
        out << buffer;
        file_bytes += buffer.size();
        buffer.clear();
      }
    }
    written += file_bytes;
  }
}

void LargeJsonStream(benchmark::State& state) {
  const int64_t total = TotalBytes();
  fs::path work = fs::current_path() / ("bench-large-json-" + sluice::formats::RandomUuid());
  WriteInput(work / "in", total);
  auto spark = sluice::SparkSession::builder().getOrCreate().ValueOrDie();
  for (auto _ : state) {
    auto df = spark->readStream()
                  .schema("id BIGINT, user STRING, page STRING, event_time TIMESTAMP, "
                          "duration_s DOUBLE")
                  .option("maxFilesPerTrigger", int64_t{4})
                  .json((work / "in").string())
                  .filter(F::col("duration_s") > 10.0)
                  .select({F::col("user"), F::upper(F::col("page")).alias("page"),
                           (F::col("duration_s") * 1000).alias("duration_ms")});
    auto start = std::chrono::steady_clock::now();
    auto query = df.writeStream()
                     .format("noop")
                     .option("checkpointLocation", (work / "checkpoint").string())
                     .trigger(sluice::Trigger::AvailableNow())
                     .start()
                     .ValueOrDie();
    auto status = query->awaitTermination();
    if (!status.ok()) state.SkipWithError(status.ToString().c_str());
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    state.counters["input_gb"] = static_cast<double>(total) / (1LL << 30);
    state.counters["mb_per_second"] = total / seconds / (1 << 20);
    state.counters["peak_rss_mb"] = sluice::bench::PeakResidentMegabytes();
  }
  fs::remove_all(work);
}

}  // namespace

BENCHMARK(LargeJsonStream)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
