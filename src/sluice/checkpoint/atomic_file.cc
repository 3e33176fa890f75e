#include "sluice/checkpoint/atomic_file.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <arrow/util/io_util.h>

#include "sluice/checkpoint/durable_io.h"
#include "sluice/common/fault_points.h"
#include "sluice/formats/partitioned_writer.h"

namespace sluice::checkpoint {

namespace fs = std::filesystem;

namespace {

constexpr const char* kAlreadyExists = "the file already exists";

/// Marks a failure after the rename (IsInPlace).
class InPlaceDetail final : public arrow::StatusDetail {
 public:
  static constexpr const char* kTypeId = "sluice::checkpoint::InPlace";
  const char* type_id() const override { return kTypeId; }
  std::string ToString() const override { return "the file is in place, maybe not durably"; }
};

/// Writes `contents` into the new file `path` and fsyncs it. `target` names the file for the
/// fault points, which a crash test selects by path. The contents go out in two halves so that
/// a crash test can tear the file between them.
arrow::Status WriteAndSync(const std::string& path, std::string_view contents,
                           const std::string& target) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError(errno, "Cannot create", path);
  size_t half = contents.size() / 2;
  arrow::Status written = WriteAll(fd, contents.substr(0, half), target);
  if (written.ok()) {
    KillPoint(fault_points::kFileHalfWritten, target);
    written = WriteAll(fd, contents.substr(half), target);
  }
  if (written.ok()) written = SyncDescriptor(fd, target);
  if (!written.ok()) {
    ::close(fd);
    return written;
  }
  if (::close(fd) != 0) return ErrnoError(errno, "Cannot close", path);
  return arrow::Status::OK();
}

}  // namespace

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
  arrow::Status renamed = RenameFile(temp, path, overwrite ? 0 : RENAME_NOREPLACE);
  if (!renamed.ok()) {
    ::unlink(temp.c_str());
    if (arrow::internal::ErrnoFromStatus(renamed) == EEXIST) {
      return arrow::Status::AlreadyExists(kAlreadyExists, ": ", path);
    }
    return renamed;
  }
  arrow::Status synced = SyncFolderOf(path);
  if (synced.ok()) return synced;
  return arrow::Status(synced.code(), synced.message(), std::make_shared<InPlaceDetail>());
}

bool IsAlreadyExists(const arrow::Status& status) { return status.IsAlreadyExists(); }

bool IsInPlace(const arrow::Status& status) {
  return status.detail() != nullptr &&
         std::string_view(status.detail()->type_id()) == InPlaceDetail::kTypeId;
}

arrow::Result<std::string> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return ErrnoError(errno, "Cannot open", path);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return ErrnoError(errno, "Cannot read", path);
  return buffer.str();
}

}  // namespace sluice::checkpoint
