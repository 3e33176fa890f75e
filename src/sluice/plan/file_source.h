#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sluice/formats/file_batch_reader.h"
#include "sluice/formats/file_format.h"
#include "sluice/formats/partition_discovery.h"
#include "sluice/plan/data_source.h"

namespace sluice::plan {

/// A table over the files of a path (batch read): the files are listed and the schema fixed
/// (given, or inferred, plus the discovered partition columns at the end) when it is made, as
/// Spark's InMemoryFileIndex does; each Open() reads those files in order, one at a time, in
/// bounded memory. Immutable; scans are independent.
class FileSource final : public DataSource {
 public:
  /// Lists `path` and settles the schema. `user_schema` may be null (inference). Errors:
  /// PATH_NOT_FOUND, UNABLE_TO_INFER_SCHEMA, bad option values, conflicting partition folders.
  static arrow::Result<std::shared_ptr<FileSource>> Make(
      std::shared_ptr<const formats::FormatReader> reader, const std::string& path,
      std::shared_ptr<arrow::Schema> user_schema, const formats::FormatContext& context);

  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }
  std::string Describe() const override;
  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> Open() const override;

  const std::vector<std::string>& files() const { return listing_->files; }
  const std::shared_ptr<arrow::Schema>& data_schema() const { return data_schema_; }

  FileSource(std::shared_ptr<const formats::FormatReader> reader, std::string path,
             formats::FileScanOptions scan, std::shared_ptr<const formats::FileListing> listing,
             std::shared_ptr<arrow::Schema> data_schema,
             std::shared_ptr<arrow::Schema> schema)
      : reader_(std::move(reader)),
        path_(std::move(path)),
        scan_(scan),
        listing_(std::move(listing)),
        data_schema_(std::move(data_schema)),
        schema_(std::move(schema)) {}

 private:
  std::shared_ptr<const formats::FormatReader> reader_;
  std::string path_;
  /// ignoreMissingFiles and ignoreCorruptFiles, as Spark's batch reads honour them too.
  formats::FileScanOptions scan_;
  std::shared_ptr<const formats::FileListing> listing_;
  std::shared_ptr<arrow::Schema> data_schema_;
  std::shared_ptr<arrow::Schema> schema_;
};

}  // namespace sluice::plan
