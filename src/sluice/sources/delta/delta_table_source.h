// Batch reads of a Delta table (read.format("delta").load(path)): the table's files at one
// version, latest or chosen by versionAsOf / timestampAsOf, read through the Parquet reader
// with their partition values, in the table's column order.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include <arrow/result.h>

#include "sluice/delta/delta_log.h"
#include "sluice/formats/file_format.h"
#include "sluice/formats/format_options.h"
#include "sluice/plan/data_source.h"

namespace sluice::sources {

/// One version of a Delta table as a batch table. Immutable; scans are independent.
class DeltaTableSource final : public plan::DataSource {
 public:
  /// Loads the table's log at `path` (a local path or file: URI). Options: versionAsOf,
  /// timestampAsOf (one of them; a timestamp in Spark's forms, read in the session zone).
  /// A user schema is refused (DELTA_UNSUPPORTED_SCHEMA_DURING_READ), as are tables whose
  /// protocol this engine cannot read; log errors name the file.
  static arrow::Result<std::shared_ptr<DeltaTableSource>> Make(
      const std::string& path, const formats::OptionMap& options,
      const std::shared_ptr<arrow::Schema>& user_schema, const formats::FormatContext& context);

  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }
  std::string Describe() const override;
  /// Reads the table at its latest version, as Delta does for each query it runs (each
  /// micro-batch, for the static side of a stream-static join), or at the version time travel
  /// chose. The snapshot is kept while the table does not move; a version whose schema is not
  /// the one the plan was made with fails with DELTA_SCHEMA_CHANGED_WITH_VERSION.
  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> Open() const override;

 private:
  DeltaTableSource(std::string table_path, delta::Snapshot snapshot, bool pinned,
                   std::shared_ptr<const formats::FormatReader> reader,
                   formats::FormatContext context)
      : table_path_(std::move(table_path)),
        schema_(snapshot.schema),
        pinned_(pinned),
        snapshot_(std::make_shared<const delta::Snapshot>(std::move(snapshot))),
        reader_(std::move(reader)),
        context_(std::move(context)) {}

  /// The snapshot to read now.
  arrow::Result<std::shared_ptr<const delta::Snapshot>> CurrentSnapshot() const;

  std::string table_path_;
  std::shared_ptr<arrow::Schema> schema_;
  /// Time travel chose the version: the table is read at it.
  bool pinned_;
  mutable std::mutex mutex_;
  mutable std::shared_ptr<const delta::Snapshot> snapshot_;
  std::shared_ptr<const formats::FormatReader> reader_;
  formats::FormatContext context_;
};

}  // namespace sluice::sources
