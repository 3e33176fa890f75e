// The rows of a list of data files: the files read one after the other through the format
// reader, in bounded memory, with their partition values appended. The one file scan of both
// the streaming file source's batches and batch reads (plan::FileSource).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <arrow/record_batch.h>
#include <arrow/type_fwd.h>

#include "sluice/common/unread_columns.h"
#include "sluice/formats/file_format.h"

namespace sluice::formats {

/// One file of a batch and its partition values (one scalar per partition column).
struct BatchFile {
  std::string local_path;
  std::vector<std::shared_ptr<arrow::Scalar>> partition_values;
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

 private:
  /// Opens the next file into current_; false when there are no more files.
  arrow::Result<bool> OpenNext();
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
  std::shared_ptr<arrow::RecordBatchReader> current_;
  const BatchFile* current_file_ = nullptr;
};

/// Spark's FAILED_READ_FILE.FILE_NOT_EXIST for `local_path`.
arrow::Status FileNotExistError(const std::string& local_path);

}  // namespace sluice::formats
