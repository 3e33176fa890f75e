#include "sluice/state/rocksdb_changelog.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <arrow/io/interfaces.h>
#include <arrow/util/thread_pool.h>
#include <arrow/util/io_util.h>

#include "sluice/checkpoint/durable_io.h"
#include "sluice/common/crc32.h"
#include "sluice/common/fault_points.h"
#include "sluice/common/errors.h"
#include "sluice/formats/partitioned_writer.h"
#include "sluice/state/state_file_format.h"

namespace sluice::state {

static_assert(std::endian::native == std::endian::little,
              "the state file layout is written with the host's byte order");

namespace fs = std::filesystem;

namespace {

/// Records are written to the file in chunks of about this size.
constexpr size_t kBufferBytes = 1 << 20;
/// The alignment of direct writes, in memory and in the file: the page size, which covers the
/// logical block size of nearly every device. Where it does not, a write fails with EINVAL and
/// the file goes on through the page cache.
constexpr size_t kDirectAlignment = 4096;

template <typename T>
void Append(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

template <typename T>
T Load(const char* at) {
  T value;
  std::memcpy(&value, at, sizeof(T));
  return value;
}

arrow::Status Errno(const std::string& what, const std::string& path) {
  return checkpoint::ErrnoError(errno, what, path);
}

/// Hands out consecutive byte ranges of a file region, reading it in large chunks, and keeps
/// the CRC-32 of every byte handed out.
class ChunkedReader {
 public:
  ChunkedReader(int fd, const std::string& path, uint64_t offset, uint64_t end)
      : fd_(fd), path_(path), offset_(offset), end_(end) {}

  uint64_t remaining() const { return end_ - offset_ + (buffer_.size() - at_); }
  uint32_t crc() const { return crc_; }

  /// The next `size` bytes, valid until the next call; the caller checked remaining().
  arrow::Result<std::string_view> Take(size_t size) {
    if (buffer_.size() - at_ < size) {
      buffer_.erase(0, at_);
      at_ = 0;
      size_t wanted = std::max(size, kBufferBytes);
      size_t have = buffer_.size();
      size_t to_read = static_cast<size_t>(
          std::min<uint64_t>(end_ - offset_, static_cast<uint64_t>(wanted - have)));
      buffer_.resize(have + to_read);
      size_t done = 0;
      while (done < to_read) {
        ssize_t n = ::pread(fd_, buffer_.data() + have + done, to_read - done,
                            static_cast<off_t>(offset_ + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return n < 0 ? Errno("Cannot read", path_) : arrow::Status::IOError(
                                                                     "Unexpected end of ", path_);
        done += static_cast<size_t>(n);
      }
      offset_ += to_read;
    }
    std::string_view bytes(buffer_.data() + at_, size);
    at_ += size;
    crc_ = Crc32(crc_, bytes.data(), bytes.size());
    return bytes;
  }

 private:
  int fd_;
  const std::string& path_;
  uint64_t offset_;
  uint64_t end_;
  std::string buffer_;
  size_t at_ = 0;
  uint32_t crc_ = 0;
};

/// Parses records until `reader` has `stop_at` bytes left; `corrupt` makes the error of a
/// record that does not fit.
arrow::Status ReadRecords(ChunkedReader& reader, uint64_t stop_at, uint64_t* records,
                          const ChangelogVisitor& visit,
                          const std::function<arrow::Status(std::string_view)>& corrupt) {
  while (reader.remaining() > stop_at) {
    if (reader.remaining() - stop_at < 2 * sizeof(uint32_t)) return corrupt("a record is cut");
    ARROW_ASSIGN_OR_RAISE(std::string_view sizes, reader.Take(2 * sizeof(uint32_t)));
    uint32_t key_size = Load<uint32_t>(sizes.data());
    uint32_t value_size = Load<uint32_t>(sizes.data() + 4);
    bool removed = value_size == kRemovedValueLength;
    uint64_t record_size = uint64_t{key_size} + (removed ? 0 : value_size);
    if (record_size > reader.remaining() - stop_at) {
      return corrupt("a record of " + std::to_string(record_size) + " bytes is cut");
    }
    // One Take for key and value keeps both views valid together.
    ARROW_ASSIGN_OR_RAISE(std::string_view record, reader.Take(record_size));
    std::string_view key = record.substr(0, key_size);
    ARROW_RETURN_NOT_OK(visit(key, removed ? std::nullopt
                                           : std::optional<std::string_view>(
                                                 record.substr(key_size))));
    ++*records;
  }
  return arrow::Status::OK();
}

}  // namespace

ChangelogWriter::ChangelogWriter(std::string path, std::string temp_path, int fd, bool direct)
    : path_(std::move(path)), temp_path_(std::move(temp_path)), fd_(fd), direct_(direct) {}

arrow::Result<std::unique_ptr<ChangelogWriter>> ChangelogWriter::Open(std::string path,
                                                                      StateFileKind kind,
                                                                      int64_t version) {
  fs::path target(path);
  std::error_code error;
  fs::create_directories(target.parent_path(), error);
  if (error) {
    return arrow::Status::IOError("Cannot create folder ", target.parent_path().string(), ": ",
                                  error.message());
  }
  // Hidden, as WriteFileAtomically's temp files: listings never take it for a state file.
  std::string temp = (target.parent_path() / ("." + target.filename().string() + "." +
                                              formats::RandomUuid() + ".tmp"))
                         .string();
  // Direct where the file system allows (tmpfs, for one, refuses O_DIRECT with EINVAL).
  bool direct = true;
  int fd = ::open(temp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_DIRECT, 0644);
  if (fd < 0 && errno == EINVAL) {
    direct = false;
    fd = ::open(temp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  }
  if (fd < 0) return Errno("Cannot create", temp);
  std::unique_ptr<ChangelogWriter> writer(new ChangelogWriter(path, temp, fd, direct));
  std::string header(kStateFileMagic, sizeof(kStateFileMagic));
  Append<uint16_t>(header, kStateFileFormatVersion);
  Append<uint8_t>(header, static_cast<uint8_t>(kind));
  Append<uint8_t>(header, 0);
  Append<uint64_t>(header, static_cast<uint64_t>(version));
  ARROW_RETURN_NOT_OK(writer->AppendBytes(header));
  return writer;
}

ChangelogWriter::~ChangelogWriter() {
  flushed_.Wait();  // the background write uses the descriptor and the buffer
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(temp_path_.c_str());
}

arrow::Status ChangelogWriter::Reserve(size_t more) {
  if (buffer_.size + more <= buffer_.capacity) return arrow::Status::OK();
  // Twice the room, from a block's worth: a version of few changes takes little memory, and
  // a large one soon has a buffer more than kBufferBytes, which it keeps (buffers swap).
  const size_t wanted = std::max({buffer_.size + more, 2 * buffer_.capacity, kDirectAlignment});
  const size_t capacity = (wanted + kDirectAlignment - 1) / kDirectAlignment * kDirectAlignment;
  std::unique_ptr<char, void (*)(void*)> grown(
      static_cast<char*>(std::aligned_alloc(kDirectAlignment, capacity)), std::free);
  if (grown == nullptr) return arrow::Status::OutOfMemory("Cannot buffer the records of ", path_);
  if (buffer_.size > 0) std::memcpy(grown.get(), buffer_.data.get(), buffer_.size);
  buffer_.data = std::move(grown);
  buffer_.capacity = capacity;
  return arrow::Status::OK();
}

arrow::Status ChangelogWriter::AppendBytes(std::string_view bytes) {
  ARROW_RETURN_NOT_OK(Reserve(bytes.size()));
  std::memcpy(buffer_.data.get() + buffer_.size, bytes.data(), bytes.size());
  buffer_.size += bytes.size();
  return arrow::Status::OK();
}

arrow::Status ChangelogWriter::AppendRecord(std::string_view key, uint32_t value_length,
                                            std::string_view value) {
  const size_t size = 2 * sizeof(uint32_t) + key.size() + value.size();
  ARROW_RETURN_NOT_OK(Reserve(size));
  char* at = buffer_.data.get() + buffer_.size;
  const auto key_length = static_cast<uint32_t>(key.size());
  std::memcpy(at, &key_length, sizeof(uint32_t));
  std::memcpy(at + sizeof(uint32_t), &value_length, sizeof(uint32_t));
  std::memcpy(at + 2 * sizeof(uint32_t), key.data(), key.size());
  if (!value.empty()) {
    std::memcpy(at + 2 * sizeof(uint32_t) + key.size(), value.data(), value.size());
  }
  buffer_.size += size;
  ++records_;
  return buffer_.size >= kBufferBytes ? FlushInBackground() : arrow::Status::OK();
}

arrow::Status ChangelogWriter::Put(std::string_view key, std::string_view value) {
  return AppendRecord(key, static_cast<uint32_t>(value.size()), value);
}

arrow::Status ChangelogWriter::Remove(std::string_view key) {
  return AppendRecord(key, kRemovedValueLength, {});
}

arrow::Status ChangelogWriter::Write(std::string_view bytes, bool last) {
  crc_ = Crc32(crc_, bytes.data(), bytes.size());
  size_t written = 0;
  if (direct_) {
    const size_t blocks = bytes.size() / kDirectAlignment * kDirectAlignment;
    arrow::Status status = blocks == 0 ? arrow::Status::OK()
                                       : checkpoint::WriteAll(fd_, bytes.substr(0, blocks), path_);
    if (status.ok()) {
      written = blocks;
    } else if (arrow::internal::ErrnoFromStatus(status) == EINVAL) {
      // The device wants another alignment: the file goes on through the page cache, from
      // where it ends (whole blocks only were written directly).
      const off_t end = ::lseek(fd_, 0, SEEK_END);
      if (end < 0) return Errno("Cannot seek", temp_path_);
      written = static_cast<size_t>(end - bytes_);
      ARROW_RETURN_NOT_OK(StopDirect());
    } else {
      return status;
    }
  }
  if (last || written < bytes.size()) ARROW_RETURN_NOT_OK(StopDirect());
  if (written < bytes.size()) {
    ARROW_RETURN_NOT_OK(checkpoint::WriteAll(fd_, bytes.substr(written), path_));
  }
  bytes_ += static_cast<int64_t>(bytes.size());
  return arrow::Status::OK();
}

arrow::Status ChangelogWriter::StopDirect() {
  if (!direct_) return arrow::Status::OK();
  const int flags = ::fcntl(fd_, F_GETFL);
  if (flags < 0 || ::fcntl(fd_, F_SETFL, flags & ~O_DIRECT) != 0) {
    return Errno("Cannot change how it writes", temp_path_);
  }
  direct_ = false;
  return arrow::Status::OK();
}

arrow::Status ChangelogWriter::FlushInBackground() {
  // Once the write before is done, its buffer is free and direct_ is what it left.
  ARROW_RETURN_NOT_OK(flushed_.status());
  std::swap(buffer_, flushing_);
  buffer_.size = 0;
  if (direct_) {
    // The partial block at the end waits, first in the next buffer, for the records that
    // complete it.
    const size_t partial = flushing_.size % kDirectAlignment;
    flushing_.size -= partial;
    ARROW_RETURN_NOT_OK(AppendBytes(
        std::string_view(flushing_.data.get() + flushing_.size, partial)));
  }
  auto submitted = arrow::io::default_io_context().executor()->Submit(
      [this] { return Write(flushing_.view(), /*last=*/false); });
  // A buffer that could not be handed over is lost to the file: the writer fails from here
  // on, so no later record is written after the gap.
  flushed_ = submitted.ok() ? *std::move(submitted)
                            : arrow::Future<>::MakeFinished(submitted.status());
  return submitted.status();
}

arrow::Status ChangelogWriter::Drain() {
  ARROW_RETURN_NOT_OK(flushed_.status());
  ARROW_RETURN_NOT_OK(Write(buffer_.view(), /*last=*/true));
  buffer_.size = 0;
  return arrow::Status::OK();
}

arrow::Status ChangelogWriter::ReadBack(const ChangelogVisitor& visit) {
  ARROW_RETURN_NOT_OK(Drain());
  ChunkedReader reader(fd_, temp_path_, kStateFileHeaderSize, static_cast<uint64_t>(bytes_));
  uint64_t records = 0;
  return ReadRecords(reader, 0, &records, visit, [&](std::string_view why) {
    return arrow::Status::IOError("The changes being written to ", temp_path_,
                                  " cannot be read back: ", why);
  });
}

arrow::Result<int64_t> ChangelogWriter::Commit() {
  std::string count;
  Append<uint64_t>(count, records_);
  ARROW_RETURN_NOT_OK(AppendBytes(count));
  ARROW_RETURN_NOT_OK(Drain());
  // The checksum of everything before it ends the file.
  std::string crc;
  Append<uint32_t>(crc, crc_);
  ARROW_RETURN_NOT_OK(checkpoint::WriteAll(fd_, crc, path_));
  bytes_ += static_cast<int64_t>(crc.size());
  ARROW_RETURN_NOT_OK(checkpoint::SyncDescriptor(fd_, path_));
  int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) return Errno("Cannot close", temp_path_);
  KillPoint(fault_points::kFileBeforeRename, path_);
  // Replacing is right: a batch re-run after a crash writes the same version again.
  ARROW_RETURN_NOT_OK(checkpoint::RenameFile(temp_path_, path_));
  committed_ = true;
  ARROW_RETURN_NOT_OK(checkpoint::SyncFolderOf(path_));
  return bytes_;
}

arrow::Status ReadChangelog(const std::string& path, const std::string& store, int64_t version,
                            const ChangelogVisitor& visit) {
  auto corrupt = [&](std::string_view why) {
    return SparkError("CANNOT_LOAD_STATE_STORE",
                      "An error occurred during loading state. The state file " + path +
                          " of " + store + " is corrupt: " + std::string(why) + ".");
  };
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) {
      return SparkError("CANNOT_LOAD_STATE_STORE.CANNOT_READ_STREAMING_STATE_FILE",
                        "An error occurred during loading state. Error reading streaming state "
                        "file of " +
                            path + " does not exist. If the stream job is restarted with a new "
                                   "or updated state operation, please create a new checkpoint "
                                   "location or clear the existing checkpoint location. (" +
                            store + ")");
    }
    return Errno("Cannot open", path);
  }
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  struct stat info {};
  if (::fstat(fd, &info) != 0) return Errno("Cannot stat", path);
  uint64_t size = static_cast<uint64_t>(info.st_size);
  if (size < kStateFileHeaderSize + kStateFileTrailerSize) {
    return corrupt("it is truncated (" + std::to_string(size) + " bytes)");
  }
  ChunkedReader reader(fd, path, 0, size);
  ARROW_ASSIGN_OR_RAISE(std::string_view header, reader.Take(kStateFileHeaderSize));
  if (std::memcmp(header.data(), kStateFileMagic, sizeof(kStateFileMagic)) != 0) {
    return corrupt("it is not a Sluice state file");
  }
  uint16_t format_version = Load<uint16_t>(header.data() + 4);
  if (format_version > kStateFileFormatVersion) {
    return SparkError("CANNOT_LOAD_STATE_STORE.INVALID_CHANGE_LOG_READER_VERSION",
                      "An error occurred during loading state. The change log reader version "
                      "cannot be " +
                          std::to_string(format_version) +
                          ". The checkpoint probably is from a future Spark version, please "
                          "upgrade your Spark. (" +
                          path + " of " + store + " is newer than this engine reads, " +
                          std::to_string(kStateFileFormatVersion) + ")");
  }
  if (Load<uint8_t>(header.data() + 6) != static_cast<uint8_t>(StateFileKind::kChangelog) ||
      Load<int64_t>(header.data() + 8) != version) {
    return corrupt("it does not hold the changelog of version " + std::to_string(version));
  }
  uint64_t records = 0;
  ARROW_RETURN_NOT_OK(ReadRecords(reader, kStateFileTrailerSize, &records, visit, corrupt));
  ARROW_ASSIGN_OR_RAISE(std::string_view count, reader.Take(sizeof(uint64_t)));
  uint64_t expected_records = Load<uint64_t>(count.data());
  uint32_t crc = reader.crc();
  ARROW_ASSIGN_OR_RAISE(std::string_view stored, reader.Take(sizeof(uint32_t)));
  if (Load<uint32_t>(stored.data()) != crc) {
    return corrupt("its checksum does not match (truncated or damaged)");
  }
  if (records != expected_records) {
    return corrupt("it holds " + std::to_string(records) + " records where its trailer says " +
                   std::to_string(expected_records));
  }
  return arrow::Status::OK();
}

}  // namespace sluice::state
