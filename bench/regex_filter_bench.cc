// Regex functions over log lines, where a selective pattern matches few of them: rlike as a
// filter, and regexp_extract of a field that some lines have. 1M lines of about 110 bytes,
// one in 100 with a 5xx status and one in 10 with a trace id, all different. And over urls
// that repeat (1M drawn from 10K, as Nexmark's bids' urls), where each distinct url is run
// once (expr/call_memos.h), as a column and as a grouping key. Reports rows/s.
#include <functional>
#include <random>
#include <string>

#include <benchmark/benchmark.h>

#include <arrow/builder.h>
#include <arrow/table.h>

#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "sluice/api/session.h"

namespace {

namespace F = sluice::functions;

constexpr int64_t kLines = 1'000'000;
constexpr int64_t kBatchLines = 64 * 1024;

std::string LogLine(int64_t i) {
  std::string line = "2026-12-03T04:" + std::to_string(10 + i % 50) + ":00.123Z INFO [worker-" +
                     std::to_string(i % 8) + "] GET /api/v1/items/" +
                     std::to_string(i * 7919 % 100000) + " status=" +
                     (i % 100 == 0 ? "503" : "200") + " took=" + std::to_string(i % 97) + "ms";
  if (i % 10 == 0) line += " trace=" + std::to_string(i * 31 % 1000003);
  return line;
}

// A table of one string column `name`, row i holding row(i), in batches of kBatchLines.
std::shared_ptr<arrow::Table> StringTable(const std::string& name,
                                          const std::function<std::string(int64_t)>& row) {
  auto schema = arrow::schema({arrow::field(name, arrow::utf8())});
  arrow::RecordBatchVector batches;
  for (int64_t start = 0; start < kLines; start += kBatchLines) {
    arrow::StringBuilder builder;
    for (int64_t i = start; i < std::min(kLines, start + kBatchLines); ++i) {
      (void)builder.Append(row(i));
    }
    auto values = builder.Finish().ValueOrDie();
    batches.push_back(arrow::RecordBatch::Make(schema, values->length(), {values}));
  }
  return arrow::Table::FromRecordBatches(schema, batches).ValueOrDie();
}

std::shared_ptr<arrow::Table> MakeLines() { return StringTable("line", LogLine); }

// Urls as Nexmark's channels have them: nine in ten with a channel id.
std::shared_ptr<arrow::Table> MakeUrls() {
  std::mt19937_64 random(42);
  return StringTable("url", [&random](int64_t) {
    const int64_t channel = static_cast<int64_t>(random() % 10000);
    std::string url = "https://www.nexmark.com/abcde/fghij/klmno/item.htm?query=1";
    if (channel % 10 != 0) url += "&channel_id=" + std::to_string(channel * 214013 % 1000003);
    return url;
  });
}

void RunQuery(benchmark::State& state, const sluice::DataFrame& query) {
  for (auto _ : state) {
    auto rows = query.count();
    if (!rows.ok()) state.SkipWithError(rows.status().ToString().c_str());
    benchmark::DoNotOptimize(rows);
  }
  state.SetItemsProcessed(state.iterations() * kLines);
}

void BM_RlikeFilterOnLogLines(benchmark::State& state) {
  auto spark = sluice::SparkSession::builder().getOrCreate().ValueOrDie();
  auto lines = spark->createDataFrame(MakeLines());
  RunQuery(state, lines.filter(F::col("line").rlike("status=5\\d\\d")));
}
BENCHMARK(BM_RlikeFilterOnLogLines)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_RegexpExtractOnLogLines(benchmark::State& state) {
  auto spark = sluice::SparkSession::builder().getOrCreate().ValueOrDie();
  auto lines = spark->createDataFrame(MakeLines());
  auto trace = F::regexp_extract(F::col("line"), "trace=(\\d+)", 1);
  RunQuery(state, lines.select({trace.alias("trace")}).filter(F::col("trace") != F::lit("")));
}
BENCHMARK(BM_RegexpExtractOnLogLines)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_RegexpExtractOnRepeatedUrls(benchmark::State& state) {
  auto spark = sluice::SparkSession::builder().getOrCreate().ValueOrDie();
  auto urls = spark->createDataFrame(MakeUrls());
  auto channel = F::regexp_extract(F::col("url"), "(&|^)channel_id=([^&]*)", 2);
  RunQuery(state, urls.select({channel.alias("channel")}).filter(F::col("channel") != F::lit("")));
}
BENCHMARK(BM_RegexpExtractOnRepeatedUrls)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_GroupByRegexpExtractOnRepeatedUrls(benchmark::State& state) {
  auto spark = sluice::SparkSession::builder().getOrCreate().ValueOrDie();
  auto urls = spark->createDataFrame(MakeUrls());
  auto channel = F::regexp_extract(F::col("url"), "(&|^)channel_id=([^&]*)", 2);
  RunQuery(state, urls.groupBy({channel.alias("channel")}).agg({F::count(F::lit(1))}));
}
BENCHMARK(BM_GroupByRegexpExtractOnRepeatedUrls)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
