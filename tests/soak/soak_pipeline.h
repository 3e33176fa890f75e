// A pipeline the crash-restart harness (crash_restart_harness.h) runs again and again: its
// input, grown one deterministic chunk at a time; its query, run to the end of the input in a
// process the harness kills; and its output, read back as rows to compare with a run that was
// never interrupted.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/result.h>
#include <arrow/status.h>

namespace sluice::soak {

/// Where a pipeline's input lives, shared by the interrupted run and the reference run.
struct SoakInput {
  /// Input files (file sources), under per-source folders the pipeline picks.
  std::filesystem::path folder;
  /// The Kafka broker ("host:port") and input topic, for pipelines reading Kafka.
  std::string bootstrap;
  std::string topic;
};

/// One run of the pipeline's query: its checkpoint, file or table output, and output topic.
struct SoakRun {
  /// Holds checkpoint/ and output/.
  std::filesystem::path folder;
  /// The output topic, for pipelines writing to Kafka.
  std::string topic;

  std::filesystem::path checkpoint() const { return folder / "checkpoint"; }
  std::filesystem::path output() const { return folder / "output"; }
};

/// A kill point or failing file operation (common/fault_points.h) worth aiming at in a
/// pipeline, with the part of the path that selects the file for those that concern one.
struct FaultTarget {
  std::string_view point;
  std::string path_part;
};

class SoakPipeline {
 public:
  virtual ~SoakPipeline() = default;

  virtual std::string_view name() const = 0;
  virtual bool uses_kafka() const { return false; }
  /// The batch loop's points, the checkpoint's files, and this pipeline's sink and state. The
  /// harness also makes the write, fsync and rename of each kind of file named here fail.
  virtual std::vector<FaultTarget> kill_targets() const = 0;

  /// Adds chunk `index` (0, 1, ...) of the input; the same index always adds the same data.
  virtual arrow::Status AddInput(const SoakInput& input, int index) const = 0;
  /// Runs the query until it has processed all input there is (availableNow), in this
  /// process: the harness runs it in a child process it may kill at any instant.
  virtual arrow::Status Run(const SoakInput& input, const SoakRun& run) const = 0;
  /// The rows of the run's output, one string per row, in any order.
  virtual arrow::Result<std::vector<std::string>> ReadOutput(const SoakInput& input,
                                                             const SoakRun& run) const = 0;
};

/// Every pipeline, by name: files_to_parquet, windowed_files_to_delta, stream_join,
/// merge_upsert, kafka_to_kafka, dedup_kafka_to_delta.
std::vector<std::unique_ptr<SoakPipeline>> AllPipelines();

}  // namespace sluice::soak
