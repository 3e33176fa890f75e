// Throughput of the JSON Lines decoder: ~100-byte records with 5 columns (bigint, string,
// double, boolean, timestamp), decoded from a file into Arrow batches. Reports bytes/s.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include <arrow/record_batch.h>

#include "sluice/datetime/zone.h"
#include "sluice/formats/format_options.h"
#include "sluice/formats/json_reader.h"
#include "sluice/types/ddl_parser.h"

namespace {

std::string MakeFile(int64_t records, int64_t* bytes) {
  std::string path = (std::filesystem::temp_directory_path() / "sluice_json_bench.json").string();
  std::ofstream out(path, std::ios::binary);
  std::mt19937_64 random(42);
  *bytes = 0;
  for (int64_t i = 0; i < records; ++i) {
    char line[256];
    int n = std::snprintf(line, sizeof(line),
                          "{\"id\":%lld,\"name\":\"user_%06llu\",\"score\":%.4f,"
                          "\"active\":%s,\"ts\":\"2024-01-%02lluT%02llu:%02llu:00Z\"}\n",
                          static_cast<long long>(i),
                          static_cast<unsigned long long>(random() % 1000000),
                          static_cast<double>(random() % 100000) / 7.0,
                          random() % 2 ? "true" : "false",
                          static_cast<unsigned long long>(random() % 28 + 1),
                          static_cast<unsigned long long>(random() % 24),
                          static_cast<unsigned long long>(random() % 60));
    out.write(line, n);
    *bytes += n;
  }
  return path;
}

void BM_JsonLinesDecode(benchmark::State& state) {
  int64_t bytes = 0;
  static std::string path = MakeFile(500000, &bytes);
  bytes = static_cast<int64_t>(std::filesystem::file_size(path));
  auto schema = sluice::types::ParseSchema(
                    "id BIGINT, name STRING, score DOUBLE, active BOOLEAN, ts TIMESTAMP")
                    .ValueOrDie();
  sluice::formats::JsonReadOptions options;
  auto zone = sluice::datetime::TimeZone::Find("UTC").ValueOrDie();
  int64_t rows = 0;
  for (auto _ : state) {
    auto reader = sluice::formats::OpenJsonFile(path, schema, options, zone, 8192).ValueOrDie();
    std::shared_ptr<arrow::RecordBatch> batch;
    while (true) {
      if (!reader->ReadNext(&batch).ok() || batch == nullptr) break;
      rows += batch->num_rows();
    }
  }
  state.SetBytesProcessed(bytes * state.iterations());
  state.counters["rows"] = static_cast<double>(rows) / static_cast<double>(state.iterations());
  state.counters["bytes_per_record"] = static_cast<double>(bytes) / 500000.0;
}
BENCHMARK(BM_JsonLinesDecode)->Unit(benchmark::kMillisecond);

}  // namespace

