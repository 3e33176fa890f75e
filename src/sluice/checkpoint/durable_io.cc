#include "sluice/checkpoint/durable_io.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <arrow/util/io_util.h>

#include "sluice/common/fault_points.h"

namespace sluice::checkpoint {

arrow::Status ErrnoError(int error, const std::string& what, const std::string& path) {
  return arrow::Status(arrow::StatusCode::IOError,
                       what + " " + path + ": " + std::strerror(error),
                       arrow::internal::StatusDetailFromErrno(error));
}

arrow::Status WriteAll(int fd, std::string_view bytes, const std::string& path) {
  if (FailPoint(fault_points::kFileWrite, path)) return ErrnoError(ENOSPC, "Cannot write", path);
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoError(errno, "Cannot write", path);
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return arrow::Status::OK();
}

arrow::Status SyncDescriptor(int fd, const std::string& path) {
  if (FailPoint(fault_points::kFileSync, path)) return ErrnoError(EIO, "Cannot fsync", path);
  if (::fsync(fd) != 0) return ErrnoError(errno, "Cannot fsync", path);
  return arrow::Status::OK();
}

arrow::Status SyncFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoError(errno, "Cannot open", path);
  arrow::Status synced = SyncDescriptor(fd, path);
  ::close(fd);
  return synced;
}

arrow::Status SyncFolderOf(const std::string& entry) {
  std::filesystem::path folder = std::filesystem::path(entry).parent_path();
  if (folder.empty()) folder = ".";
  // The error names the entry: that is what a crash test selects, and what a user wants to
  // know was not made durable.
  const std::string what = "Cannot fsync the folder " + folder.string() + " holding";
  if (FailPoint(fault_points::kFolderSync, entry)) return ErrnoError(EIO, what, entry);
  int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return ErrnoError(errno, "Cannot open the folder " + folder.string() + " holding", entry);
  int result = ::fsync(fd);
  int error = errno;
  ::close(fd);
  if (result != 0) return ErrnoError(error, what, entry);
  return arrow::Status::OK();
}

arrow::Status RenameFile(const std::string& from, const std::string& to, unsigned flags) {
  const std::string what = "Cannot rename " + from + " into";
  if (FailPoint(fault_points::kFileRename, to)) return ErrnoError(EIO, what, to);
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), flags) != 0) {
    return ErrnoError(errno, what, to);
  }
  return arrow::Status::OK();
}

}  // namespace sluice::checkpoint
