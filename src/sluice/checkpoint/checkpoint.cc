#include "sluice/checkpoint/checkpoint.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/common/errors.h"

namespace sluice::checkpoint {

namespace fs = std::filesystem;

namespace {

arrow::Result<std::optional<OffsetSeq>> ReadOffsets(const BatchLog& log, int64_t batch_id) {
  ARROW_ASSIGN_OR_RAISE(auto contents, log.Get(batch_id));
  if (!contents) return std::nullopt;
  ARROW_ASSIGN_OR_RAISE(auto seq, ParseOffsetSeq(*contents, log.PathOf(batch_id)));
  return std::optional<OffsetSeq>(std::move(seq));
}

}  // namespace

Checkpoint::Checkpoint(std::string root, int lock_fd)
    : paths_(root), offsets_(paths_.offsets()), commits_(paths_.commits()), lock_fd_(lock_fd) {}

Checkpoint::~Checkpoint() {
  if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the flock
}

namespace {

/// True if `folder` holds a log entry: a file named by a batch id.
bool HasLogEntries(const std::string& folder) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    const std::string name = entry.path().filename().string();
    if (!name.empty() && std::all_of(name.begin(), name.end(),
                                      [](char c) { return c >= '0' && c <= '9'; })) {
      return true;
    }
  }
  return false;
}

}  // namespace

arrow::Result<std::unique_ptr<Checkpoint>> Checkpoint::Open(const std::string& root,
                                                            const std::string& new_query_id) {
  std::error_code error;
  fs::create_directories(root, error);
  if (error) {
    return arrow::Status::IOError("Cannot create the checkpoint folder ", root, ": ",
                                  error.message());
  }
  CheckpointPaths paths(root);
  if (!fs::exists(paths.metadata(), error)) {
    // A query id is written before the first batch. Logs without one mean the file was lost:
    // a new id would give the sinks that key their idempotence on it (Delta's txn, Kafka's
    // transactional id) a new key, and a re-run batch would be written twice.
    if (HasLogEntries(paths.offsets()) || HasLogEntries(paths.commits())) {
      return MalformedLogFile(paths.metadata(),
                              "it is missing, yet the checkpoint has logged batches");
    }
    auto status = WriteFileAtomically(paths.metadata(), SerializeQueryMetadata(new_query_id));
    if (!status.ok() && !IsAlreadyExists(status)) return status;
  }
  // The lock lives on the metadata file: every query of this checkpoint opens it, and flock
  // conflicts between open file descriptions, so it excludes other processes and other
  // queries of this process alike. The kernel drops it when the process dies.
  int fd = ::open(paths.metadata().c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return arrow::Status::IOError("Cannot open ", paths.metadata(), ": ", std::strerror(errno));
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return SparkError("CONCURRENT_QUERY",
                      "Another instance of this query is already running on the checkpoint " +
                          root + ". Stop it before starting this one.");
  }
  std::unique_ptr<Checkpoint> checkpoint(new Checkpoint(root, fd));
  ARROW_ASSIGN_OR_RAISE(auto contents, ReadWholeFile(paths.metadata()));
  ARROW_ASSIGN_OR_RAISE(checkpoint->query_id_, ParseQueryMetadata(contents, paths.metadata()));
  return checkpoint;
}

arrow::Result<RecoveredCheckpoint> Checkpoint::Recover() const {
  LogHeads heads;
  ARROW_ASSIGN_OR_RAISE(heads.latest_offsets, offsets_.LatestBatchId());
  ARROW_ASSIGN_OR_RAISE(heads.latest_commit, commits_.LatestBatchId());
  RecoveredCheckpoint recovered;
  ARROW_ASSIGN_OR_RAISE(recovered.resume, DecideResumePoint(heads, paths_.root()));
  if (recovered.resume.rerun) {
    ARROW_ASSIGN_OR_RAISE(recovered.rerun_offsets,
                          ReadOffsets(offsets_, recovered.resume.next_batch_id));
    recovered.watermark_ms = recovered.rerun_offsets->metadata.batch_watermark_ms;
  }
  if (recovered.resume.previous_batch_id) {
    int64_t previous = *recovered.resume.previous_batch_id;
    ARROW_ASSIGN_OR_RAISE(recovered.previous_offsets, ReadOffsets(offsets_, previous));
    if (!recovered.previous_offsets) {
      return MalformedLogFile(offsets_.PathOf(previous),
                              "it is missing, yet later batches depend on it");
    }
    if (!recovered.resume.rerun) {
      ARROW_ASSIGN_OR_RAISE(auto contents, commits_.Get(previous));
      ARROW_ASSIGN_OR_RAISE(auto commit,
                            ParseCommitMetadata(*contents, commits_.PathOf(previous)));
      recovered.watermark_ms = commit.next_batch_watermark_ms;
    }
  }
  return recovered;
}

arrow::Status Checkpoint::WriteOffsets(int64_t batch_id, const OffsetSeq& seq) const {
  return offsets_.Add(batch_id, SerializeOffsetSeq(seq));
}

arrow::Status Checkpoint::WriteCommit(int64_t batch_id, const CommitMetadata& commit) const {
  return commits_.Add(batch_id, SerializeCommitMetadata(commit));
}

arrow::Status Checkpoint::Purge(int64_t batch_id, int64_t min_batches_to_retain) const {
  int64_t threshold = batch_id + 1 - min_batches_to_retain;
  if (threshold <= 0) return arrow::Status::OK();
  ARROW_RETURN_NOT_OK(offsets_.PurgeBefore(threshold));
  return commits_.PurgeBefore(threshold);
}

}  // namespace sluice::checkpoint
