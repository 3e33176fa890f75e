// Query listeners that remember when each batch of a benchmarked stream finished.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "sluice/api/data_stream_writer.h"
#include "sluice/api/dataframe.h"
#include "sluice/api/session.h"
#include "sluice/formats/partitioned_writer.h"

#include "sluice/execution/query_listener.h"

#include "process_usage.h"

namespace sluice::bench {

/// Counts batches and remembers when each finished. Thread-safe.
class BatchTimes final : public execution::StreamingQueryListener {
 public:
  void onQueryProgress(const execution::QueryProgressEvent&) override {
    std::lock_guard<std::mutex> lock(mutex_);
    times_.push_back(std::chrono::steady_clock::now());
  }
  std::vector<std::chrono::steady_clock::time_point> times() {
    std::lock_guard<std::mutex> lock(mutex_);
    return times_;
  }

 private:
  std::mutex mutex_;
  std::vector<std::chrono::steady_clock::time_point> times_;
};

/// What each batch left behind when it finished: the wall clock, the process's CPU time, its
/// input rows, and the rows its stateful operators keep and the memory their stores use.
/// Thread-safe.
class BatchReadings final : public execution::StreamingQueryListener {
 public:
  struct Reading {
    std::chrono::steady_clock::time_point wall;
    double cpu_seconds;
    int64_t input_rows;
    int64_t state_rows;
    int64_t state_memory_bytes;
  };

  void onQueryProgress(const execution::QueryProgressEvent& event) override {
    Reading reading{std::chrono::steady_clock::now(), ProcessCpuSeconds(),
                    event.progress.num_input_rows(), 0, 0};
    for (const auto& op : event.progress.state_operators) {
      reading.state_rows += op.num_rows_total;
      reading.state_memory_bytes += op.memory_used_bytes;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    readings_.push_back(reading);
  }
  std::vector<Reading> readings() {
    std::lock_guard<std::mutex> lock(mutex_);
    return readings_;
  }

 private:
  std::mutex mutex_;
  std::vector<Reading> readings_;
};

/// Runs `df` to a noop sink, with a fresh checkpoint in the working folder (removed after),
/// until `batches` batches finished or the query stopped; the readings of each batch.
inline std::vector<BatchReadings::Reading> RunToNoopSink(
    const std::shared_ptr<SparkSession>& spark, const DataFrame& df, size_t batches,
    const std::string& output_mode = "append") {
  namespace fs = std::filesystem;
  fs::path checkpoint = fs::current_path() / ("bench-checkpoint-" + formats::RandomUuid());
  auto readings = std::make_shared<BatchReadings>();
  spark->streams()->addListener(readings);
  auto query = df.writeStream()
                   .format("noop")
                   .outputMode(output_mode)
                   .option("checkpointLocation", checkpoint.string())
                   .start()
                   .ValueOrDie();
  while (readings->readings().size() < batches && query->isActive()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  (void)query->stop();
  spark->streams()->removeListener(readings);
  fs::remove_all(checkpoint);
  return readings->readings();
}

}  // namespace sluice::bench
