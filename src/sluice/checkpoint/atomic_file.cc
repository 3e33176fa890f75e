#include "sluice/checkpoint/atomic_file.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sluice/common/fault_points.h"
#include "sluice/formats/partitioned_writer.h"

namespace sluice::checkpoint {

namespace fs = std::filesystem;

namespace {

constexpr const char* kAlreadyExists = "the file already exists";

arrow::Status Errno(const std::string& what, const std::string& path) {
  return arrow::Status::IOError(what, " ", path, ": ", std::strerror(errno));
}

// write, fsync and rename, each of which a crash test can make fail (common/fault_points.h)
// on the file `target`.

bool WriteAll(int fd, std::string_view data, const std::string& target) {
  if (FailPoint(fault_points::kFileWrite, target)) {
    errno = ENOSPC;
    return false;
  }
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

bool Sync(int fd, const std::string& target) {
  if (FailPoint(fault_points::kFileSync, target)) {
    errno = EIO;
    return false;
  }
  return ::fsync(fd) == 0;
}

bool Rename(const std::string& from, const std::string& to, unsigned flags) {
  if (FailPoint(fault_points::kFileRename, to)) {
    errno = EIO;
    return false;
  }
  return ::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), flags) == 0;
}

/// `target` names the file for the fault points, which a crash test selects by path. The
/// contents go out in two halves so that a crash test can tear the file between them.
arrow::Status WriteAndSync(const std::string& path, std::string_view contents,
                           const std::string& target) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return Errno("Cannot create", path);
  size_t half = contents.size() / 2;
  bool written = WriteAll(fd, contents.substr(0, half), target);
  if (written) {
    KillPoint(fault_points::kFileHalfWritten, target);
    written = WriteAll(fd, contents.substr(half), target);
  }
  if (!written) {
    auto status = Errno("Cannot write", path);
    ::close(fd);
    return status;
  }
  if (!Sync(fd, target)) {
    auto status = Errno("Cannot fsync", path);
    ::close(fd);
    return status;
  }
  if (::close(fd) != 0) return Errno("Cannot close", path);
  return arrow::Status::OK();
}

}  // namespace

arrow::Status SyncDirectory(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Errno("Cannot open folder", path);
  int result = ::fsync(fd);
  ::close(fd);
  if (result != 0) return Errno("Cannot fsync folder", path);
  return arrow::Status::OK();
}

arrow::Status WriteFileAtomically(const std::string& path, std::string_view contents,
                                  bool overwrite) {
  fs::path target(path);
  fs::path folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::error_code error;
  fs::create_directories(folder, error);
  if (error) {
    return arrow::Status::IOError("Cannot create folder ", folder.string(), ": ",
                                  error.message());
  }
  // Hidden (leading '.') so that file listings and log readers never see a half-written file.
  std::string temp = (folder / ("." + target.filename().string() + "." +
                                formats::RandomUuid() + ".tmp"))
                         .string();
  if (auto written = WriteAndSync(temp, contents, path); !written.ok()) {
    // A full disk wants its space back; a temp file is never read anyway.
    ::unlink(temp.c_str());
    return written;
  }
  KillPoint(fault_points::kFileBeforeRename, path);
  unsigned flags = overwrite ? 0 : RENAME_NOREPLACE;
  if (!Rename(temp, path, flags)) {
    int rename_errno = errno;
    ::unlink(temp.c_str());
    if (rename_errno == EEXIST) {
      return arrow::Status::AlreadyExists(kAlreadyExists, ": ", path);
    }
    errno = rename_errno;
    return Errno("Cannot rename a file into", path);
  }
  return SyncDirectory(folder.string());
}

bool IsAlreadyExists(const arrow::Status& status) { return status.IsAlreadyExists(); }

arrow::Result<std::string> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Errno("Cannot open", path);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return Errno("Cannot read", path);
  return buffer.str();
}

}  // namespace sluice::checkpoint
