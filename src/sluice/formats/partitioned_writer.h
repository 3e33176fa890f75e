// Writing a stream of batches as part files under a directory, split into `col=value/` folders
// by partition columns (Spark's dynamic partition writer). Each file appears under its final
// name only when complete (written under a hidden name, then renamed).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <arrow/record_batch.h>
#include <arrow/result.h>

#include "sluice/formats/file_format.h"
#include "sluice/formats/value_text.h"

namespace sluice::formats {

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
      std::shared_ptr<const datetime::TimeZone> zone, std::string job_id);
  ~PartitionedWriter();

  arrow::Status Write(const std::shared_ptr<arrow::RecordBatch>& batch);
  /// Completes every file (an unpartitioned job with no rows still writes one, as Spark does)
  /// and returns their paths relative to the directory, sorted.
  arrow::Result<std::vector<std::string>> Finish();

 private:
  struct OpenFile;
  PartitionedWriter() = default;
  arrow::Result<OpenFile*> FileFor(const std::string& folder);

  std::shared_ptr<const FormatWriter> writer_;
  std::string directory_;
  std::shared_ptr<arrow::Schema> data_schema_;
  std::vector<int> partition_indices_;
  std::vector<int> data_indices_;
  std::vector<std::string> partition_names_;
  std::unique_ptr<ValueText> text_;
  std::string job_id_;
  std::map<std::string, std::unique_ptr<OpenFile>> files_;
};

/// A random UUID (version 4) in its textual form, for job and file names.
std::string RandomUuid();

}  // namespace sluice::formats
