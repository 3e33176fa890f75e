// The file operations that make written data durable: write, fsync, rename, and the fsync of
// the folder that makes a new or renamed entry durable. Each is a fault point
// (common/fault_points.h) on the file it concerns, so that a crash test can make any of them
// fail as a full or broken disk would. Every durable write goes through them: checkpoint logs,
// state files, sink manifests, part files, Delta log entries and RocksDB snapshots.
//
// Errors are IOErrors naming the file, with the system's reason; their detail keeps errno.
#pragma once

#include <string>
#include <string_view>

#include <arrow/status.h>

namespace sluice::checkpoint {

/// Writes all of `bytes` to `fd`, the open file `path` ("Cannot write <path>: ...").
arrow::Status WriteAll(int fd, std::string_view bytes, const std::string& path);

/// fsyncs `fd`, the open file `path`.
arrow::Status SyncDescriptor(int fd, const std::string& path);

/// Opens and fsyncs the file `path`.
arrow::Status SyncFile(const std::string& path);

/// fsyncs the folder holding `entry` (a file or folder), which makes the creation or rename
/// of `entry` durable.
arrow::Status SyncFolderOf(const std::string& entry);

/// Renames `from` to `to`, with renameat2's `flags` (RENAME_NOREPLACE, RENAME_EXCHANGE). The
/// error's errno (arrow::internal::ErrnoFromStatus) tells EEXIST apart.
arrow::Status RenameFile(const std::string& from, const std::string& to, unsigned flags = 0);

/// An IOError "<what> <path>: <the reason for errno>", keeping errno as its detail.
arrow::Status ErrnoError(int error, const std::string& what, const std::string& path);

}  // namespace sluice::checkpoint
