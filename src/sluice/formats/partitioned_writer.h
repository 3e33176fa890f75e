// Writing a stream of batches as part files under a directory, split into `col=value/` folders
// by partition columns (Spark's dynamic partition writer). Each file appears under its final
// name only when complete (written under a hidden name, then renamed).
#pragma once

#include <map>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include <arrow/record_batch.h>
#include <arrow/result.h>

#include "sluice/formats/column_statistics.h"
#include "sluice/formats/file_format.h"
#include "sluice/formats/value_text.h"

namespace sluice::formats {

/// One file a PartitionedWriter completed.
struct WrittenFile {
  /// The path relative to the writer's directory ("kind=a/part-...").
  std::string relative;
  /// Per partition column, the value as cast to a string in the writer's zone (the folder
  /// name before escaping); nullopt for null.
  std::vector<std::optional<std::string>> partition_values;
  int64_t rows = 0;
  /// Per data column (the columns written into the file), when statistics were asked for:
  /// null counts, and the bounds the format recorded (FormatFileWriter::RecordedBounds).
  std::vector<ColumnStatistics> statistics;
};

/// Writes part files of one job. Not thread-safe.
class PartitionedWriter {
 public:
  /// `schema` is the full row schema; `partition_columns` name columns of it (matched
  /// case-insensitively; an unknown or duplicate name, or all columns, is an error). Files go
  /// under `directory`, named part-00000-<job_id>-c000<suffix> (Spark puts a '.' instead of the
  /// '-' before c000 in partitioned output, and so do we).
  static arrow::Result<std::unique_ptr<PartitionedWriter>> Make(
      std::shared_ptr<const FormatWriter> writer, std::string directory,
      std::shared_ptr<arrow::Schema> schema, const std::vector<std::string>& partition_columns,
      std::shared_ptr<const datetime::TimeZone> zone, std::string job_id,
      bool collect_statistics = false);
  ~PartitionedWriter();

  arrow::Status Write(const std::shared_ptr<arrow::RecordBatch>& batch);
  /// Completes every file (an unpartitioned job with no rows still writes one, as Spark does)
  /// and returns them sorted by path.
  arrow::Result<std::vector<WrittenFile>> Finish();

  /// The data columns (written into the files): the schema without the partition columns.
  const std::shared_ptr<arrow::Schema>& data_schema() const { return data_schema_; }

 private:
  struct OpenFile;
  PartitionedWriter() = default;
  /// The file of the partition folder `folder`, opened on first use; `values` are the folder's
  /// partition values.
  arrow::Result<OpenFile*> FileFor(const std::string& folder,
                                   const std::vector<std::optional<std::string>>& values);
  arrow::Status WriteTo(OpenFile* file, const arrow::RecordBatch& data);

  std::shared_ptr<const FormatWriter> writer_;
  std::string directory_;
  std::shared_ptr<arrow::Schema> data_schema_;
  std::vector<int> partition_indices_;
  std::vector<int> data_indices_;
  std::vector<std::string> partition_names_;
  std::unique_ptr<ValueText> text_;
  std::string job_id_;
  bool collect_statistics_ = false;
  std::map<std::string, std::unique_ptr<OpenFile>> files_;
};

/// Makes part files durable: each file, and every folder from its own up to `output_folder`
/// (partition folders may be new), is fsynced, so that a log listing them (a file sink
/// manifest, a Delta commit) never outlives them after a power loss.
arrow::Status SyncPartFiles(const std::string& output_folder,
                            const std::vector<std::string>& relative_paths);

/// Best-effort removal of the part files of a job that failed before a log listed them: they
/// are invisible already; this only gives the space back.
void DeleteUncommittedFiles(const std::string& output_folder,
                            const std::vector<std::string>& relative_paths);

/// The relative paths of `files`, in their order.
std::vector<std::string> RelativePaths(const std::vector<WrittenFile>& files);

/// A random UUID (version 4) in its textual form, for job and file names.
std::string RandomUuid();

}  // namespace sluice::formats
