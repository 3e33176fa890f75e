// A checkpoint folder opened by one running query: its identity, its logs and its lock.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <arrow/result.h>
#include <arrow/status.h>

#include "sluice/checkpoint/batch_log.h"
#include "sluice/checkpoint/checkpoint_paths.h"
#include "sluice/checkpoint/offset_seq.h"
#include "sluice/checkpoint/recovery.h"

namespace sluice::checkpoint {

/// What a restarting query needs from its checkpoint.
struct RecoveredCheckpoint {
  ResumePoint resume;
  /// The offsets of resume.next_batch_id when it is re-run.
  std::optional<OffsetSeq> rerun_offsets;
  /// The offsets of resume.previous_batch_id: where the next batch starts.
  std::optional<OffsetSeq> previous_offsets;
  /// The watermark the next batch runs with (commits' nextBatchWatermarkMs, or the re-run
  /// batch's logged batchWatermarkMs).
  int64_t watermark_ms = 0;
};

/// An open checkpoint. Holds an exclusive lock on the folder for its lifetime, so that a second
/// query on the same checkpoint, in this process or another, is refused. Used by one query's
/// batch loop thread.
class Checkpoint {
 public:
  /// Opens `root` (created if missing), takes its lock (fails with CONCURRENT_QUERY when
  /// another running query holds it), and reads the query id from `metadata`, writing
  /// `new_query_id` there first when the checkpoint is new.
  static arrow::Result<std::unique_ptr<Checkpoint>> Open(const std::string& root,
                                                         const std::string& new_query_id);
  ~Checkpoint();

  const CheckpointPaths& paths() const { return paths_; }
  const std::string& query_id() const { return query_id_; }

  /// Reads the log heads and the entries a restart needs. Corrupt or truncated entries fail
  /// with an error naming the file, never a silent fresh start.
  arrow::Result<RecoveredCheckpoint> Recover() const;

  /// Writes offsets/<batch_id> durably (CONCURRENT_STREAM_LOG_UPDATE if it exists).
  arrow::Status WriteOffsets(int64_t batch_id, const OffsetSeq& seq) const;
  /// Writes commits/<batch_id> durably.
  arrow::Status WriteCommit(int64_t batch_id, const CommitMetadata& commit) const;
  /// After committing `batch_id`, deletes log entries that are no longer needed to recover:
  /// those older than the `min_batches_to_retain` newest batches.
  arrow::Status Purge(int64_t batch_id, int64_t min_batches_to_retain) const;

  const BatchLog& offsets_log() const { return offsets_; }
  const BatchLog& commits_log() const { return commits_; }

 private:
  Checkpoint(std::string root, int lock_fd);

  CheckpointPaths paths_;
  BatchLog offsets_;
  BatchLog commits_;
  std::string query_id_;
  int lock_fd_;
};

}  // namespace sluice::checkpoint
