#include "sluice/state/rocksdb_snapshot.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <arrow/util/io_util.h>

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/checkpoint/durable_io.h"
#include "sluice/common/fault_points.h"
#include "sluice/common/errors.h"
#include "sluice/formats/partitioned_writer.h"
#include "sluice/state/state_file_format.h"

namespace sluice::state {

namespace fs = std::filesystem;

namespace {

arrow::Status Errno(const std::string& what, const std::string& path) {
  return checkpoint::ErrnoError(errno, what, path);
}

bool IsTableFile(const std::string& name) { return name.ends_with(".sst"); }

/// Closes a file descriptor when it goes out of scope.
struct FileDescriptor {
  int fd = -1;
  ~FileDescriptor() {
    if (fd >= 0) ::close(fd);
  }
};

/// Copies the rest of `source` (the file `from`) into `target` (the file `to`) by reads and
/// writes.
arrow::Status CopyByReading(int source, const std::string& from, int target,
                            const std::string& to) {
  std::string buffer(1 << 20, '\0');
  while (true) {
    ssize_t n = ::read(source, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Errno("Cannot read", from);
    if (n == 0) return arrow::Status::OK();
    ARROW_RETURN_NOT_OK(
        checkpoint::WriteAll(target, std::string_view(buffer.data(), static_cast<size_t>(n)), to));
  }
}

/// Copies `from` into the new file `to`, fsyncing it when `sync`.
arrow::Status CopyFile(const std::string& from, const std::string& to, bool sync) {
  FileDescriptor source{::open(from.c_str(), O_RDONLY | O_CLOEXEC)};
  if (source.fd < 0) return Errno("Cannot open", from);
  FileDescriptor target{::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)};
  if (target.fd < 0) return Errno("Cannot create", to);
  // A copy is a write: a crash test makes it fail as a full disk would.
  if (FailPoint(fault_points::kFileWrite, to)) {
    return checkpoint::ErrnoError(ENOSPC, "Cannot write", to);
  }
  while (true) {
    ssize_t n = ::copy_file_range(source.fd, nullptr, target.fd, nullptr, 1 << 30, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EXDEV || errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP)) {
      // The kernel copies within a file system only (since Linux 5.19, and not at all before
      // 4.5): between two, say RocksDB's working folder in /tmp and a checkpoint on a data
      // disk, the bytes go through this process.
      ARROW_RETURN_NOT_OK(CopyByReading(source.fd, from, target.fd, to));
      break;
    }
    if (n < 0) return Errno("Cannot write a copy of " + from + " into", to);
    if (n == 0) break;
  }
  return sync ? checkpoint::SyncDescriptor(target.fd, to) : arrow::Status::OK();
}

/// Hard-links `from` as `to`, or copies it when the two cannot share the file (another file
/// system). Returns true when it copied.
arrow::Result<bool> LinkOrCopy(const std::string& from, const std::string& to, bool sync) {
  if (::link(from.c_str(), to.c_str()) == 0) return false;
  if (errno != EXDEV && errno != EPERM && errno != EMLINK) {
    return Errno("Cannot link " + from + " as", to);
  }
  ARROW_RETURN_NOT_OK(CopyFile(from, to, sync));
  return true;
}

arrow::Status WriteDurably(const std::string& path, std::string_view contents) {
  FileDescriptor file{::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)};
  if (file.fd < 0) return Errno("Cannot create", path);
  ARROW_RETURN_NOT_OK(checkpoint::WriteAll(file.fd, contents, path));
  return checkpoint::SyncDescriptor(file.fd, path);
}

/// The size of `path`, or nullopt when it does not exist.
std::optional<uint64_t> SizeOf(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return std::nullopt;
  return static_cast<uint64_t>(info.st_size);
}

arrow::Status MissingSnapshotFile(const std::string& path, const std::string& store) {
  return SparkError("CANNOT_LOAD_STATE_STORE.CANNOT_READ_MISSING_SNAPSHOT_FILE",
                    "An error occurred during loading state. Error reading snapshot file " +
                        path + " of " + store + ": " + path + " does not exist.");
}

}  // namespace

std::string SnapshotFolderPath(const std::string& folder, int64_t version) {
  return folder + "/" + StateFileName(version, StateFileKind::kSnapshot);
}

arrow::Result<int64_t> WriteSnapshot(const std::string& local_checkpoint,
                                     const std::string& folder, int64_t version,
                                     int64_t num_keys, const std::string& previous_snapshot) {
  std::string target = SnapshotFolderPath(folder, version);
  // Hidden, so that no listing takes it for a snapshot until it is complete.
  std::string temp = folder + "/." + StateFileName(version, StateFileKind::kSnapshot) + "." +
                     formats::RandomUuid() + ".tmp";
  std::error_code error;
  fs::create_directories(temp, error);
  if (error) return arrow::Status::IOError("Cannot create folder ", temp, ": ", error.message());

  RocksDbSnapshotMetadata metadata;
  metadata.version = version;
  metadata.num_keys = num_keys;
  int64_t bytes_added = 0;
  for (fs::directory_iterator it(local_checkpoint, error), end; !error && it != end;
       it.increment(error)) {
    std::string name = it->path().filename().string();
    std::string from = it->path().string();
    std::string to = temp + "/" + name;
    std::optional<uint64_t> size = SizeOf(from);
    if (!size) return Errno("Cannot stat", from);
    metadata.files.push_back({name, *size});
    if (IsTableFile(name) && !previous_snapshot.empty()) {
      // A table file of the same database with the same number is the same file.
      std::string shared = previous_snapshot + "/" + name;
      if (SizeOf(shared) == size && ::link(shared.c_str(), to.c_str()) == 0) continue;
    }
    bytes_added += static_cast<int64_t>(*size);
    if (IsTableFile(name)) {
      ARROW_ASSIGN_OR_RAISE(bool copied, LinkOrCopy(from, to, /*sync=*/true));
      // RocksDB syncs the table files it writes; syncing a link again costs little and does
      // not rely on it.
      if (!copied) ARROW_RETURN_NOT_OK(checkpoint::SyncFile(to));
    } else {
      // CURRENT, MANIFEST and OPTIONS files are rewritten by RocksDB: never share them.
      ARROW_RETURN_NOT_OK(CopyFile(from, to, /*sync=*/true));
    }
  }
  if (error) {
    return arrow::Status::IOError("Cannot list ", local_checkpoint, ": ", error.message());
  }
  // The files are in the folder, the metadata that lists them is not.
  KillPoint(fault_points::kFileHalfWritten, target);
  std::string encoded = EncodeSnapshotMetadata(metadata);
  bytes_added += static_cast<int64_t>(encoded.size());
  const std::string metadata_path = temp + "/" + kRocksDbSnapshotMetadataName;
  ARROW_RETURN_NOT_OK(WriteDurably(metadata_path, encoded));
  ARROW_RETURN_NOT_OK(checkpoint::SyncFolderOf(metadata_path));
  KillPoint(fault_points::kFileBeforeRename, target);
  arrow::Status renamed = checkpoint::RenameFile(temp, target, RENAME_NOREPLACE);
  if (!renamed.ok()) {
    if (arrow::internal::ErrnoFromStatus(renamed) != EEXIST) return renamed;
    // A snapshot of this version exists: swap the two in one step, then drop the old one.
    ARROW_RETURN_NOT_OK(checkpoint::RenameFile(temp, target, RENAME_EXCHANGE));
  }
  ARROW_RETURN_NOT_OK(checkpoint::SyncFolderOf(target));
  // After an exchange the temp name holds the replaced snapshot; otherwise it is gone.
  fs::remove_all(temp, error);
  return bytes_added;
}

arrow::Result<RocksDbSnapshotMetadata> RestoreSnapshot(const std::string& folder,
                                                       int64_t version,
                                                       const std::string& db_folder,
                                                       const std::string& store) {
  std::string snapshot = SnapshotFolderPath(folder, version);
  std::string metadata_path = snapshot + "/" + kRocksDbSnapshotMetadataName;
  if (!SizeOf(metadata_path)) return MissingSnapshotFile(metadata_path, store);
  ARROW_ASSIGN_OR_RAISE(std::string contents, checkpoint::ReadWholeFile(metadata_path));
  ARROW_ASSIGN_OR_RAISE(RocksDbSnapshotMetadata metadata,
                        DecodeSnapshotMetadata(contents, metadata_path, store, version));
  // Every file is checked before any is copied, so a damaged snapshot fails fast.
  for (const RocksDbSnapshotFile& file : metadata.files) {
    std::string from = snapshot + "/" + file.name;
    std::optional<uint64_t> size = SizeOf(from);
    if (!size) return MissingSnapshotFile(from, store);
    if (*size != file.size) {
      return SparkError("CANNOT_LOAD_STATE_STORE.UNEXPECTED_FILE_SIZE",
                        "An error occurred during loading state. Copied " + from + " to " +
                            db_folder + "/" + file.name + ", expected " +
                            std::to_string(file.size) + " bytes, found " +
                            std::to_string(*size) + " bytes. (" + store + ")");
    }
  }
  for (const RocksDbSnapshotFile& file : metadata.files) {
    std::string from = snapshot + "/" + file.name;
    std::string to = db_folder + "/" + file.name;
    // The local database needs no durability: after a crash it is rebuilt from the checkpoint.
    if (IsTableFile(file.name)) {
      ARROW_RETURN_NOT_OK(LinkOrCopy(from, to, /*sync=*/false).status());
    } else {
      ARROW_RETURN_NOT_OK(CopyFile(from, to, /*sync=*/false));
    }
  }
  return metadata;
}

}  // namespace sluice::state
