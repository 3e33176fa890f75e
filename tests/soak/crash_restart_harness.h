// The crash-restart harness: runs a pipeline's query in a child process, kills it by SIGKILL
// at random instants and at the pipeline's kill points, or makes one of its file writes,
// fsyncs or renames fail (common/fault_points.h); restarts it, for many cycles while its input
// grows; then runs it once more to the end and compares its output with that of a run that was
// never interrupted. Exactly-once means no row lost, none twice.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

#include <arrow/result.h>

#include "soak/soak_pipeline.h"
#include "support/kafka_broker.h"

namespace sluice::soak {

struct SoakOptions {
  /// Kill-restart cycles; each adds two chunks of input first.
  int cycles = 10;
  uint64_t seed = 1;
  /// Scratch folder for the input, the runs and the children's logs.
  std::filesystem::path work;
  /// This program, started as `<self> --child <pipeline> ...` for each run.
  std::string self;
  /// The Kafka broker, for pipelines that use Kafka: one of the harness's own, since every
  /// tenth cycle kills and restarts it while the query runs.
  testing::KafkaBroker* broker = nullptr;
};

struct SoakReport {
  int cycles = 0;
  /// Children killed by the harness at a random instant.
  int killed_at_random = 0;
  /// Children that died at the kill point they were started with, by point.
  std::map<std::string, int> killed_at_point;
  /// Children that failed, as they must, with an error naming the file whose write, fsync or
  /// rename was made to fail, by operation and file.
  std::map<std::string, int> failed_at;
  /// Children under which the Kafka broker was killed and restarted: they finished, or failed
  /// with an error (and the next run recovered).
  int rode_out_broker_crash = 0;
  int failed_at_broker_crash = 0;
  /// Children that ended normally before their random instant or fault point came.
  int finished = 0;
  int64_t expected_rows = 0;
  int64_t output_rows = 0;
  /// Rows of the uninterrupted run missing from the output, and rows there more often.
  int64_t lost = 0;
  int64_t duplicated = 0;
};

/// Runs the soak of `pipeline`. Fails when a child fails other than by the fault it was given
/// (a checkpoint it could not recover from, an injected failure whose error does not name the
/// file) or the harness itself cannot run; lost and duplicated rows are in the report.
arrow::Result<SoakReport> RunSoak(const SoakPipeline& pipeline, const SoakOptions& options);

}  // namespace sluice::soak
