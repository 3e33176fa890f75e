// The rows of a list of data files: the files read one after the other through the format
// reader, in bounded memory, with their partition values appended. The one file scan of both
// the streaming file source's batches and batch reads (plan::FileSource).
//
// Files are decoded on Arrow's IO pool ahead of the caller. Decoding one file (a Parquet
// column chunk's pages, a JSON file's lines) is sequential, so a scan whose decoding is what
// the query waits for decodes the next file at the same time, on the core the rest of the
// query leaves idle.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <arrow/record_batch.h>
#include <arrow/type_fwd.h>

#include "sluice/common/read_ahead.h"
#include "sluice/common/unread_columns.h"
#include "sluice/formats/file_format.h"

namespace sluice::formats {

/// One file of a batch and its partition values (one scalar per partition column).
struct BatchFile {
  std::string local_path;
  std::vector<std::shared_ptr<arrow::Scalar>> partition_values;
};

/// One file decoded on a pool ahead of its reader, as `schema`: opened at its first read there
/// (a missing file fails with FileNotExistError; an empty, zero-byte one has no rows, whatever
/// its format, as Spark reads nothing from it). Errors come out of Next() in place of the
/// batches after them.
class FileDecode {
 public:
  /// Starts decoding on `executor`, keeping what `limit` allows ready.
  FileDecode(std::shared_ptr<const FormatReader> reader, std::string local_path,
             std::shared_ptr<arrow::Schema> schema, arrow::internal::Executor* executor,
             ReadAheadLimit limit);
  FileDecode(const FileDecode&) = delete;
  FileDecode& operator=(const FileDecode&) = delete;

  const std::string& local_path() const { return local_path_; }
  const std::shared_ptr<arrow::Schema>& schema() const { return schema_; }

  /// Decodes on `executor` under `limit` from now on (what is decoded stays).
  void Reschedule(arrow::internal::Executor* executor, ReadAheadLimit limit) {
    ahead_.Reschedule(executor, limit);
  }
  /// The next batch, nullptr at the end.
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() { return ahead_.Next(); }
  /// The CPU time decoding took so far.
  int64_t cpu_nanos() const { return ahead_.read_cpu_nanos(); }

 private:
  /// The pool's read: opens the file at the first call.
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Read();

  std::shared_ptr<const FormatReader> reader_;
  const std::string local_path_;
  const std::shared_ptr<arrow::Schema> schema_;
  std::shared_ptr<arrow::RecordBatchReader> opened_;  // used by the pool's reads only
  bool empty_ = false;                                // likewise
  // Declared last: destroyed first, it waits for the read under way.
  BatchReadAhead ahead_;
};

/// How a scan's decoding went, against the time its caller spent reading it (from its first
/// read to its last): how long the caller waited for decoded batches, and the CPU time the
/// decoding took. Updated by the reader, read by anyone.
struct DecodeLoad {
  std::atomic<int64_t> read_nanos{0};
  std::atomic<int64_t> wait_nanos{0};
  std::atomic<int64_t> decode_cpu_nanos{0};
  /// The reader decoded ahead (FileBatchReader::set_decode_ahead).
  std::atomic<bool> decoded_ahead{false};

  /// Decoding was what the query waited for: the caller waited for at least 30% of the time
  /// it read (a caller that keeps its core busy leaves no idle core for a second decode, and
  /// its waits stay well below that); or, decoding ahead, which shortens the waits (a file
  /// may be decoded whole before its turn), decoding took at least 60% of a core over it.
  bool DecodeBound() const {
    const auto read = static_cast<double>(read_nanos.load(std::memory_order_relaxed));
    if (read <= 0) return false;
    return static_cast<double>(wait_nanos.load(std::memory_order_relaxed)) >= 0.3 * read ||
           (decoded_ahead.load(std::memory_order_relaxed) &&
            static_cast<double>(decode_cpu_nanos.load(std::memory_order_relaxed)) >=
                0.6 * read);
  }

  /// Decoding took over twice the time the caller spent on what it read (its reading time less
  /// its waits): a file decoding ahead keeps up with the one read only if it may be decoded
  /// whole before its turn (FileBatchReader::kWholeFileLimit). A caller busier than that reads
  /// each batch soon after it is decoded, from the cache, and decoding further ahead would
  /// only cost it fresh memory.
  bool DecodeDominates() const {
    const auto read = static_cast<double>(read_nanos.load(std::memory_order_relaxed));
    if (read <= 0) return false;
    const auto busy = read - static_cast<double>(wait_nanos.load(std::memory_order_relaxed));
    return static_cast<double>(decode_cpu_nanos.load(std::memory_order_relaxed)) >= 2 * busy;
  }
};

/// Reads `files` in order as batches of `schema` (= `data_schema` + the partition columns).
/// A file that no longer exists when its turn comes fails with FAILED_READ_FILE.FILE_NOT_EXIST
/// naming it, unless `scan` says to skip it; so does a file that cannot be read. An empty
/// (zero-byte) file has no rows, whatever its format, as in Spark. Not thread-safe; one reader
/// per scan.
class FileBatchReader final : public arrow::RecordBatchReader {
 public:
  FileBatchReader(std::shared_ptr<const FormatReader> reader,
                  std::vector<BatchFile> files, std::shared_ptr<arrow::Schema> data_schema,
                  std::shared_ptr<arrow::Schema> schema, FileScanOptions scan)
      : reader_(std::move(reader)),
        files_(std::move(files)),
        data_schema_(std::move(data_schema)),
        schema_(std::move(schema)),
        scan_(scan) {}

  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }
  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override;

  /// Reads only `read` (the parts of `schema` a query reads: its columns by name, a struct
  /// pruned to the fields read) from files of a columnar format, as Spark prunes them: the
  /// columns of Parquet and ORC files, and the struct fields of Parquet files. The rest comes
  /// out as nulls. Text formats read every column: their parse modes judge whole records.
  void ReadOnly(const arrow::Schema& read);

  /// Decodes ahead: the next file while one is read (at the lowest priority, on
  /// BackgroundPool()), and each file as far as `limit` (kAheadLimit, or kWholeFileLimit when
  /// decoding dominates). Worth its memory only in a scan bound by decoding (DecodeLoad): a
  /// reader turns it on by itself after a file that was, and the file source from the reader
  /// of its previous batch.
  void set_decode_ahead(bool decode_ahead, ReadAheadLimit limit = kAheadLimit) {
    load_->decoded_ahead.store(decode_ahead, std::memory_order_relaxed);
    ahead_limit_ = limit;
  }
  bool decode_ahead() const { return load_->decoded_ahead.load(std::memory_order_relaxed); }
  /// How far each file is decoded ahead when decoding ahead.
  ReadAheadLimit ahead_limit() const { return ahead_limit_; }
  /// The limit of decoding ahead for a scan whose decoding went as `load` did.
  static ReadAheadLimit AheadLimitFor(const DecodeLoad& load) {
    return load.DecodeDominates() ? kWholeFileLimit : kAheadLimit;
  }
  /// How the decoding of this reader's files has gone so far.
  std::shared_ptr<const DecodeLoad> load() const { return load_; }

  /// Starts decoding `local_path` as this reader decodes its files, before its turn (on
  /// BackgroundPool()), for the reader of the scan's next batch to take over (TakeOver): the
  /// file source decodes the next batch's first file while this batch runs.
  std::unique_ptr<FileDecode> DecodeAhead(const std::string& local_path) const;
  /// Reads the first file from `decode` (taking it) if it is that file decoded as this
  /// reader decodes it. Call before the first ReadNext.
  void TakeOver(std::unique_ptr<FileDecode>& decode);

  /// What a file decoded ahead keeps ready at most: enough for much of a file to be decoded
  /// while the one before it is read, and a bound on the memory that takes.
  static constexpr ReadAheadLimit kAheadLimit{1024, int64_t{16} << 20};
  /// And when decoding dominates (DecodeLoad::DecodeDominates): a whole file of a million
  /// wide rows (a Parquet file of Spark's 128 MB blocks decodes to about that), so that the
  /// next file's decode never stops for the one read, and the two keep both cores busy.
  static constexpr ReadAheadLimit kWholeFileLimit{1024, int64_t{128} << 20};

 private:
  /// Makes the next file current_ (and starts decoding the one after it when decoding ahead);
  /// false when there are no more files.
  bool OpenNext();
  /// current_ is read to its end (or skipped): counts its decoding.
  void EndFile();
  void CountReadTime();
  std::shared_ptr<arrow::Schema> DecodedSchema() const {
    return read_schema_ ? read_schema_ : data_schema_;
  }
  /// True when `failure` of reading `path` is to be skipped (ignoreCorruptFiles); then it
  /// warns, naming the file.
  bool SkipCorrupt(const arrow::Status& failure, const std::string& path) const;

  std::shared_ptr<const FormatReader> reader_;
  std::vector<BatchFile> files_;
  std::shared_ptr<arrow::Schema> data_schema_;
  std::shared_ptr<arrow::Schema> schema_;
  FileScanOptions scan_;
  /// With ReadOnly: the data columns read and their schema, and for each data column its
  /// position there (-1 when not read).
  std::shared_ptr<arrow::Schema> read_schema_;
  std::vector<int> read_positions_;
  // The columns and struct fields of data_schema_ that read_schema_ leaves out.
  UnreadColumns unread_;
  size_t next_file_ = 0;
  std::unique_ptr<FileDecode> current_;
  const BatchFile* current_file_ = nullptr;
  /// When decoding ahead: the decode of files_[next_file_], started while current_ is read.
  std::unique_ptr<FileDecode> next_;
  std::shared_ptr<DecodeLoad> load_ = std::make_shared<DecodeLoad>();
  ReadAheadLimit ahead_limit_ = kAheadLimit;
  int64_t first_read_nanos_ = -1;  // steady clock, at the first ReadNext
};

/// Spark's FAILED_READ_FILE.FILE_NOT_EXIST for `local_path`.
arrow::Status FileNotExistError(const std::string& local_path);

}  // namespace sluice::formats
