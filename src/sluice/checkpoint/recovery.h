// The pure decision of where a restarted query resumes (the spec, section 7), separate from
// the I/O so that every case is testable on its own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <arrow/result.h>

namespace sluice::checkpoint {

/// What the latest entries of the offsets and commits logs say.
struct LogHeads {
  std::optional<int64_t> latest_offsets;
  std::optional<int64_t> latest_commit;
};

/// Where to resume.
struct ResumePoint {
  /// The batch to run next.
  int64_t next_batch_id = 0;
  /// True when next_batch_id has offsets but no commit: it re-runs with exactly its logged
  /// offsets, timestamp and watermark.
  bool rerun = false;
  /// The batch whose offsets are the start of next_batch_id (nullopt: the very beginning).
  std::optional<int64_t> previous_batch_id;
};

/// No offsets: batch 0. Latest offsets L committed: L + 1. L uncommitted: re-run L (Spark
/// re-runs L too when commits lag by more than one batch). A commit newer than every offsets
/// entry means the checkpoint is corrupt: an error naming `checkpoint_root`.
arrow::Result<ResumePoint> DecideResumePoint(const LogHeads& heads,
                                             const std::string& checkpoint_root);

}  // namespace sluice::checkpoint
