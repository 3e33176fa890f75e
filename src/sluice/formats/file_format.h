// The entry points of the formats layer: one reader and one writer per file format, made from
// the user's string options. Readers open one file at a time and yield record batches
// incrementally (bounded memory), so the batch file source and the streaming file source share
// them. Transports (listing, atomic commit) are the callers' business.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/record_batch.h>
#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/datetime/zone.h"
#include "sluice/formats/column_statistics.h"
#include "sluice/formats/format_options.h"

namespace sluice::formats {

/// Settings of the session a reader or writer works for.
struct FormatContext {
  /// spark.sql.session.timeZone; a format's timeZone option overrides it.
  std::string session_time_zone = "UTC";
  /// spark.sql.caseSensitive: how a user schema's names match a Parquet/ORC file's columns.
  bool case_sensitive = false;
  /// Rows per batch the readers aim for.
  int64_t batch_rows = 8192;
  /// Rows per batch read from Parquet files: its column readers cost per batch as well as per
  /// value (buffers reserved, grown and trimmed, pages entered), and 32K rows (256 KiB of a
  /// long column) ran the Nexmark queries 4-15% faster than 8K, and a little faster than 16K.
  int64_t parquet_batch_rows = 32768;
  /// spark.sql.files.ignoreMissingFiles and ignoreCorruptFiles; a source's options of the
  /// same names override them (FileSourceOptions).
  bool ignore_missing_files = false;
  bool ignore_corrupt_files = false;
};

/// How a scan treats the files it cannot read.
struct FileScanOptions {
  /// A file deleted after it was listed is skipped, instead of failing the scan.
  bool ignore_missing_files = false;
  /// The rest of a file that cannot be read (not in the format, truncated, a column of the
  /// wrong type, a broken compressed stream) is skipped with a warning naming the file, instead
  /// of failing the scan; the rows read before are kept. FAILFAST's malformed records still
  /// fail, as in Spark.
  bool ignore_corrupt_files = false;
};

/// The scan options of a source: its ignoreMissingFiles and ignoreCorruptFiles options where
/// set, else the session's spark.sql.files settings.
FileScanOptions ScanOptionsOf(const FileSourceOptions& options, const FormatContext& context);

/// Warns that the rest of the file `path` is skipped because reading it failed with `why`.
void WarnSkippedCorruptFile(const std::string& path, const arrow::Status& why);

/// Decodes files of one format. Immutable and thread-safe: every OpenFile is independent.
class FormatReader {
 public:
  virtual ~FormatReader() = default;

  virtual FileFormat format() const = 0;
  /// The listing options (pathGlobFilter, recursiveFileLookup) given to this reader.
  virtual const FileSourceOptions& file_options() const = 0;
  /// True if the format can infer a schema (parquet, orc, text always; json; csv with or
  /// without inferSchema).
  virtual arrow::Result<std::shared_ptr<arrow::Schema>> InferSchema(
      const std::vector<std::string>& files) const = 0;
  /// Reads one local file as batches of `data_schema` (Spark types; without partition columns).
  virtual arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> OpenFile(
      const std::string& path, const std::shared_ptr<arrow::Schema>& data_schema) const = 0;
};

/// The reader of `format` with its options parsed (a bad value fails, naming the option).
arrow::Result<std::shared_ptr<const FormatReader>> MakeFormatReader(FileFormat format,
                                                                    const OptionMap& options,
                                                                    const FormatContext& context);

/// Writes one file. Not thread-safe. Close() must be called to complete the file.
class FormatFileWriter {
 public:
  virtual ~FormatFileWriter() = default;
  virtual arrow::Status Write(const arrow::RecordBatch& batch) = 0;
  virtual arrow::Status Close() = 0;
  /// After Close(): sets the minimum and maximum of each column of `statistics` (one per
  /// top-level column of the file) from what the format recorded in the file (Parquet's
  /// footer statistics), so that they are not computed twice. Formats that record none leave
  /// them unset.
  virtual void RecordedBounds(std::vector<ColumnStatistics>* statistics) const {}
};

/// Encodes files of one format. Immutable and thread-safe.
class FormatWriter {
 public:
  virtual ~FormatWriter() = default;
  virtual FileFormat format() const = 0;
  /// The part-file suffix after "c000": ".json", ".csv", ".txt", ".snappy.parquet", ...
  virtual std::string FileSuffix() const = 0;
  /// Fails with an error naming the column when the schema cannot be written (e.g. text
  /// needs exactly one string column).
  virtual arrow::Status CheckSchema(const arrow::Schema& schema) const = 0;
  /// Starts writing `path` (which must not exist yet).
  virtual arrow::Result<std::unique_ptr<FormatFileWriter>> Open(
      const std::string& path, const std::shared_ptr<arrow::Schema>& schema) const = 0;
};

arrow::Result<std::shared_ptr<const FormatWriter>> MakeFormatWriter(FileFormat format,
                                                                    const OptionMap& options,
                                                                    const FormatContext& context);

/// Whether a file's column name `a` names the schema's column `b` (spark.sql.caseSensitive).
bool SameColumnName(const std::string& a, const std::string& b, bool case_sensitive);

/// Adapts batches read from a self-describing file (Parquet, ORC) to `target`: columns found
/// by name (case-insensitively unless `case_sensitive`), cast to the target type, missing ones
/// null.
arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> ConformToSchema(
    std::shared_ptr<arrow::RecordBatchReader> input, std::shared_ptr<arrow::Schema> target,
    bool case_sensitive);

/// Spark's FAILED_READ_FILE.NO_HINT for `local_path`, with the message of `cause`: what a file
/// that cannot be read (its footer, or any of its pages) fails with.
arrow::Status FailedReadError(const std::string& local_path, const arrow::Status& cause);

/// The zone named `id`, as datetime::TimeZone::Find reads it; an unknown id fails with
/// INVALID_TIMEZONE naming it.
arrow::Result<std::shared_ptr<const datetime::TimeZone>> FindZone(std::string_view id);

/// The zone a reader or writer uses: its timeZone option, else the session's.
arrow::Result<std::shared_ptr<const datetime::TimeZone>> ResolveZone(
    const std::string& option_zone, const FormatContext& context);

}  // namespace sluice::formats
