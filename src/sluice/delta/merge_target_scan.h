// The target side of a MERGE: the rows of chosen files of a Delta table, each with the file it
// came from and its position in that file, so that a join with the source tells which files
// hold matched rows and whether a target row matched twice.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/delta/delta_log.h"
#include "sluice/formats/file_format.h"
#include "sluice/plan/data_source.h"

namespace sluice::delta {

/// The column holding each row's file: its index in the scan's file list (int32, never null).
inline constexpr char kMergeFileColumn[] = "__delta_merge_file";
/// The column holding each row's position within its file (int64, from 0).
inline constexpr char kMergeRowColumn[] = "__delta_merge_row";

/// Rows of `files` of one table version: the table's columns named in `columns` (all when
/// empty; partition columns are always read), in table order, then kMergeFileColumn and, when
/// asked for, kMergeRowColumn. Files are read one after the other, in the given order.
/// Immutable; each Open() is an independent scan.
class MergeTargetScan final : public plan::DataSource {
 public:
  static arrow::Result<std::shared_ptr<MergeTargetScan>> Make(
      std::string table_path, const Snapshot& snapshot, std::vector<AddFile> files,
      const std::vector<std::string>& columns, bool with_row_positions,
      const formats::FormatContext& context);

  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }
  std::string Describe() const override;
  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> Open() const override;

 private:
  MergeTargetScan() = default;

  std::string table_path_;
  /// The snapshot's metadata with the schema cut to the columns read (and no files).
  std::shared_ptr<const Snapshot> pruned_;
  std::vector<AddFile> files_;
  bool with_row_positions_ = false;
  std::shared_ptr<const formats::FormatReader> parquet_;
  formats::FormatContext context_;
  std::shared_ptr<arrow::Schema> schema_;
};

}  // namespace sluice::delta
