// Issue 9's figures for stream-stream joins.
//
// StreamJoinQ8: Nexmark q8's shape, new persons joined with the auctions they open in the same
// 10-second window. Every row of a rate-micro-batch batch is an event: a quarter are persons
// (id), the rest auctions whose seller is a person of the same or a recent batch; both sides
// carry a watermark of 10 s, and the window is a join key, so state leaves by key. One shuffle
// partition keeps the work on one core; reported: join input rows per second of the wall clock
// and per CPU-second of the whole process, over the batches after the first, with a durable
// checkpoint per batch; argument 0 keeps the state in the default store, 1 in RocksDB.
//
// StreamJoinOuterState: the same events through a left outer join bounded by a time range
// instead; reports the state rows after the 5th and the last batch, which stay flat because the
// watermark evicts as much as each batch adds.
#include <chrono>
#include <vector>

#include <benchmark/benchmark.h>

#include "batch_times.h"

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/functions.h"
#include "sluice/api/session.h"

namespace {

namespace F = sluice::functions;
using sluice::Column;
using sluice::DataFrame;

constexpr int64_t kEventsPerBatch = 400'000;
// A window of 10 s spans two batches: each batch's rows meet the rows kept from the last one.
constexpr int64_t kMillisPerBatch = 5'000;


DataFrame Events(const std::shared_ptr<sluice::SparkSession>& spark) {
  return spark->readStream()
      .format("rate-micro-batch")
      .option("rowsPerBatch", kEventsPerBatch)
      .option("advanceMillisPerBatch", kMillisPerBatch)
      .load();
}

DataFrame Persons(const DataFrame& events) {
  return events.where(F::col("value") % F::lit(4) == F::lit(0))
      .select({(F::col("value") / F::lit(4)).cast("long").alias("id"),
               F::concat({F::lit("person-"), F::col("value").cast("string")}).alias("name"),
               F::col("timestamp").alias("p_time")})
      .withWatermark("p_time", "10 seconds");
}

DataFrame Auctions(const DataFrame& events) {
  // The seller opened their account a few events earlier: the same or the previous batch.
  return events.where(F::col("value") % F::lit(4) != F::lit(0))
      .select({((F::col("value") / F::lit(4)).cast("long") -
                (F::col("value") % F::lit(4)) * F::lit(1000))
                   .alias("seller"),
               F::col("value").alias("auction"), F::col("timestamp").alias("a_time")})
      .withWatermark("a_time", "10 seconds");
}

/// Argument 0: the default (in-memory) state store; 1: RocksDB.
void UseProvider(const std::shared_ptr<sluice::SparkSession>& spark, int64_t provider) {
  (void)spark->conf().set(
      "spark.sql.streaming.stateStore.providerClass",
      provider == 0
          ? "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider"
          : "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider");
}

void StreamJoinQ8(benchmark::State& state) {
  auto spark = sluice::SparkSession::builder().getOrCreate().ValueOrDie();
  (void)spark->conf().set("spark.sql.shuffle.partitions", "1");
  UseProvider(spark, state.range(0));
  DataFrame events = Events(spark);
  DataFrame persons = Persons(events).select(
      {F::col("id"), F::col("name"), F::window(F::col("p_time"), "10 seconds").alias("p_window")});
  DataFrame auctions = Auctions(events).select(
      {F::col("seller"), F::col("auction"),
       F::window(F::col("a_time"), "10 seconds").alias("a_window")});
  DataFrame joined = persons.join(
      auctions, (persons["id"] == auctions["seller"]) && (persons["p_window"] == auctions["a_window"]));
  constexpr size_t kBatches = 8;
  for (auto _ : state) {
    auto seen = sluice::bench::RunToNoopSink(spark, joined, kBatches);
    if (seen.size() < kBatches) {
      state.SkipWithError("the query stopped early");
      break;
    }
    double rows = 0;
    for (size_t b = 1; b < kBatches; ++b) rows += static_cast<double>(seen[b].input_rows);
    const double seconds =
        std::chrono::duration<double>(seen[kBatches - 1].wall - seen[0].wall).count();
    state.counters["rows_per_second"] = rows / seconds;
    state.counters["rows_per_cpu_second"] =
        rows / (seen[kBatches - 1].cpu_seconds - seen[0].cpu_seconds);
    state.counters["state_rows_last"] = static_cast<double>(seen.back().state_rows);
  }
}

void StreamJoinOuterState(benchmark::State& state) {
  auto spark = sluice::SparkSession::builder().getOrCreate().ValueOrDie();
  (void)spark->conf().set("spark.sql.shuffle.partitions", "1");
  DataFrame events = Events(spark);
  DataFrame persons = Persons(events);
  DataFrame auctions = Auctions(events);
  DataFrame joined = persons.join(
      auctions,
      (persons["id"] == auctions["seller"]) &&
          F::expr("a_time BETWEEN p_time AND p_time + INTERVAL 10 SECONDS"),
      "left_outer");
  constexpr size_t kBatches = 30;
  for (auto _ : state) {
    auto seen = sluice::bench::RunToNoopSink(spark, joined, kBatches);
    if (seen.size() < kBatches) {
      state.SkipWithError("the query stopped early");
      break;
    }
    state.counters["state_rows_batch_5"] = static_cast<double>(seen[4].state_rows);
    state.counters["state_rows_last"] = static_cast<double>(seen.back().state_rows);
    int64_t most = 0;
    for (const auto& reading : seen) most = std::max(most, reading.state_rows);
    state.counters["state_rows_max"] = static_cast<double>(most);
  }
}

}  // namespace

BENCHMARK(StreamJoinQ8)->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(StreamJoinOuterState)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();
