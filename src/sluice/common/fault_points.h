// Fault points: named places where a crash test may have the process die by SIGKILL, as a
// power cut or an OOM kill would, or have a file operation fail as a full or broken disk
// would, to prove that a restart from the checkpoint loses and duplicates nothing. The
// crash-restart harness (tests/soak) starts a query's process with
//
//   SLUICE_KILL_AT=<point>,<hit>[,<path part>]    dies the <hit>-th time (1-based) it
//                                                 reaches <point>
//   SLUICE_FAIL_AT=<operation>,<hit>[,<path part>] that operation fails the <hit>-th time
//
// With a path part, only passes over files whose path contains it count (e.g. ".snapshot",
// "_delta_log"). Without the variables a fault point costs one predictable branch. They are
// read once, at the first fault point: they configure the process, not a query.
#pragma once

#include <string_view>

namespace sluice {

/// Every kill point and failing operation, by the name the variables take.
namespace fault_points {
// Kill points of the batch loop (see execution/crash_point.h, whose points these are).
inline constexpr std::string_view kBeforeOffsetsWrite = "beforeOffsetsWrite";
inline constexpr std::string_view kAfterOffsetsWrite = "afterOffsetsWrite";
inline constexpr std::string_view kBeforeAddBatch = "beforeAddBatch";
inline constexpr std::string_view kAfterAddBatch = "afterAddBatch";
inline constexpr std::string_view kAfterCommit = "afterCommit";
/// A checkpoint log, state file, sink manifest or Delta log entry: half of its temporary file
/// is written (torn), or all of it is written and synced but not yet renamed into place. A
/// part file (data of a file sink or Delta table) is "half written" after each of its writes.
inline constexpr std::string_view kFileHalfWritten = "fileHalfWritten";
inline constexpr std::string_view kFileBeforeRename = "fileBeforeRename";
/// The file sink wrote a batch's part files; its manifest entry is not written.
inline constexpr std::string_view kSinkFilesWritten = "sinkFilesWritten";
/// A Delta write (sink, MERGE, ...) wrote its data files; the log entry is not written.
inline constexpr std::string_view kDeltaFilesWritten = "deltaFilesWritten";
/// The Kafka sink flushed a batch's records into its transaction; the commit is not sent.
inline constexpr std::string_view kKafkaRecordsFlushed = "kafkaRecordsFlushed";

// Operations that SLUICE_FAIL_AT makes fail, with the errno a real disk gives, on every file
// written durably (checkpoint/durable_io.h): checkpoint logs, state files, sink manifests,
// part files, Delta log entries and RocksDB snapshots.
/// write(2) fails with ENOSPC: the disk is full.
inline constexpr std::string_view kFileWrite = "fileWrite";
/// fsync(2) fails with EIO: the data may not have reached the disk.
inline constexpr std::string_view kFileSync = "fileSync";
/// rename(2) fails with EIO.
inline constexpr std::string_view kFileRename = "fileRename";
/// fsync(2) of the folder that makes a file's creation or rename durable fails with EIO; the
/// path is that of the file.
inline constexpr std::string_view kFolderSync = "folderSync";
}  // namespace fault_points

/// Dies by SIGKILL here if SLUICE_KILL_AT names this point and its hit count is reached.
/// `path` is the file being written, for points that write one.
void KillPoint(std::string_view point, std::string_view path = {});

/// True if SLUICE_FAIL_AT names this operation on `path` and its hit count is reached; the
/// caller then fails as the operation would, with errno set to the value it documents.
bool FailPoint(std::string_view operation, std::string_view path);

/// Replaces SLUICE_FAIL_AT's value for this process ("" for none), so that a test can make an
/// operation fail in its own process. Not thread-safe: call it while no query runs.
void SetFailPointForTesting(std::string_view value);

}  // namespace sluice
