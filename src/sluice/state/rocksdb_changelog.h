// Streaming writer of the files that log a version's changes as they happen: the RocksDB
// provider's <version>.changelog and the memory provider's <version>.delta (layout in
// state_file_format.h); and a streaming reader of changelogs. They stream because a version
// may change more than is worth holding in memory (for RocksDB, more keys than fit in it);
// StateFileWriter and ReadStateFile hold a whole file.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <arrow/result.h>
#include <arrow/status.h>
#include <arrow/util/future.h>

#include "sluice/state/state_file_format.h"

namespace sluice::state {

/// Called for each record: the key and its new value, or nullopt for a removal. Views are
/// valid during the call only.
using ChangelogVisitor =
    std::function<arrow::Status(std::string_view key, std::optional<std::string_view> value)>;

/// Appends the changes of one version to a hidden temp file next to `path` as they happen,
/// and makes it `path` on Commit. The records are gathered in a buffer; a full buffer is
/// checksummed and written by a background task while the caller fills the other one, so the
/// caller's thread does not copy a large version's changes into the kernel. Where the file
/// system allows, the file is written around the page cache (O_DIRECT) in whole blocks, the
/// last one at Commit through the cache: the file is fsynced anyway, and copying a large
/// version into the cache first costs several times the device's own write (on a VM's disk,
/// a second of CPU per GB against a fifth). Not thread-safe. Destroying an uncommitted writer
/// deletes its temp file.
class ChangelogWriter {
 public:
  /// Creates the temp file (and the folder of `path` if missing) for the changes of
  /// `version`, a file of `kind` kChangelog or kDelta.
  static arrow::Result<std::unique_ptr<ChangelogWriter>> Open(std::string path,
                                                              StateFileKind kind,
                                                              int64_t version);
  ~ChangelogWriter();

  ChangelogWriter(const ChangelogWriter&) = delete;
  ChangelogWriter& operator=(const ChangelogWriter&) = delete;

  /// Records that `key` was set to `value`.
  arrow::Status Put(std::string_view key, std::string_view value);
  /// Records that `key` was removed.
  arrow::Status Remove(std::string_view key);

  /// Calls `visit` for every record appended so far, in order (to undo them).
  arrow::Status ReadBack(const ChangelogVisitor& visit);

  /// Completes the file, fsyncs it, renames it to `path` (replacing a file a re-run batch
  /// wrote before) and fsyncs the folder. Returns the file's size. No call may follow.
  arrow::Result<int64_t> Commit();

 private:
  /// Bytes in memory aligned for direct writes.
  struct AlignedBytes {
    std::unique_ptr<char, void (*)(void*)> data{nullptr, std::free};
    size_t capacity = 0;
    size_t size = 0;
    std::string_view view() const { return {data.get(), size}; }
  };

  ChangelogWriter(std::string path, std::string temp_path, int fd, bool direct);
  /// Makes room in `buffer_` for `more` bytes.
  arrow::Status Reserve(size_t more);
  arrow::Status AppendBytes(std::string_view bytes);
  arrow::Status AppendRecord(std::string_view key, uint32_t value_length,
                             std::string_view value);
  /// Hands the buffer to a background write once the one before it is done (a failure of
  /// that one is returned here).
  arrow::Status FlushInBackground();
  /// Waits for the background write, then writes the rest of the buffer: the file then holds
  /// every record appended, and what follows goes through the page cache.
  arrow::Status Drain();
  /// Checksums and writes `bytes` at the end of the file: directly as whole blocks, and the
  /// rest through the page cache, which only the `last` bytes before the file's end may need
  /// (the others are whole blocks while the file is written directly).
  arrow::Status Write(std::string_view bytes, bool last);
  /// Writes through the page cache from here on.
  arrow::Status StopDirect();

  std::string path_;
  std::string temp_path_;
  int fd_;
  /// The records appended since the last flush, after the partial block the last flush left
  /// (a direct write takes whole blocks), so that the background write goes straight from it.
  AlignedBytes buffer_;
  /// The buffer being written in the background, and that write.
  AlignedBytes flushing_;
  arrow::Future<> flushed_ = arrow::Future<>::MakeFinished();
  /// Whether the file is open with O_DIRECT.
  bool direct_ = false;
  /// Of the bytes written so far.
  uint32_t crc_ = 0;
  uint64_t records_ = 0;
  int64_t bytes_ = 0;
  bool committed_ = false;
};

/// Reads the changelog of `version` at `path` (named in errors, with `store` describing the
/// store) and calls `visit` for each record in file order, stopping at the first error.
/// Records are passed on as they are read, before the final checks: a caller must drop what
/// it applied when this fails. A missing file fails with
/// CANNOT_LOAD_STATE_STORE.CANNOT_READ_STREAMING_STATE_FILE, a damaged or truncated one with
/// CANNOT_LOAD_STATE_STORE, a newer format with
/// CANNOT_LOAD_STATE_STORE.INVALID_CHANGE_LOG_READER_VERSION.
arrow::Status ReadChangelog(const std::string& path, const std::string& store, int64_t version,
                            const ChangelogVisitor& visit);

}  // namespace sluice::state
