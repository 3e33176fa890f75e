#include "sluice/delta/merge_target_scan.h"

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/record_batch.h>
#include <arrow/type.h>

#include "sluice/common/ascii.h"
#include "sluice/delta/delta_scan.h"

namespace sluice::delta {

namespace {

/// Reads the files one at a time, appending each row's file index and position.
class TargetReader final : public arrow::RecordBatchReader {
 public:
  TargetReader(std::string table_path, std::shared_ptr<const Snapshot> pruned,
               std::vector<AddFile> files, bool with_row_positions,
               std::shared_ptr<const formats::FormatReader> parquet,
               formats::FormatContext context, std::shared_ptr<arrow::Schema> schema)
      : table_path_(std::move(table_path)),
        pruned_(std::move(pruned)),
        files_(std::move(files)),
        with_row_positions_(with_row_positions),
        parquet_(std::move(parquet)),
        context_(std::move(context)),
        schema_(std::move(schema)) {}

  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    while (true) {
      if (current_ == nullptr) {
        if (next_file_ >= files_.size()) {
          *batch = nullptr;
          return arrow::Status::OK();
        }
        ARROW_ASSIGN_OR_RAISE(current_, ReadDeltaFiles(table_path_, *pruned_,
                                                                 {files_[next_file_]}, parquet_,
                                                                 context_));
        file_index_ = static_cast<int32_t>(next_file_++);
        position_ = 0;
      }
      std::shared_ptr<arrow::RecordBatch> rows;
      ARROW_RETURN_NOT_OK(current_->ReadNext(&rows));
      if (rows == nullptr) {
        current_.reset();
        continue;
      }
      const int64_t n = rows->num_rows();
      arrow::ArrayVector columns = rows->columns();
      ARROW_ASSIGN_OR_RAISE(auto file, arrow::MakeArrayFromScalar(arrow::Int32Scalar(file_index_),
                                                                  n, arrow::default_memory_pool()));
      columns.push_back(std::move(file));
      if (with_row_positions_) {
        arrow::Int64Builder positions(arrow::default_memory_pool());
        ARROW_RETURN_NOT_OK(positions.Reserve(n));
        for (int64_t i = 0; i < n; ++i) positions.UnsafeAppend(position_ + i);
        ARROW_ASSIGN_OR_RAISE(auto array, positions.Finish());
        columns.push_back(std::move(array));
      }
      position_ += n;
      *batch = arrow::RecordBatch::Make(schema_, n, std::move(columns));
      return arrow::Status::OK();
    }
  }

 private:

  std::string table_path_;
  std::shared_ptr<const Snapshot> pruned_;
  std::vector<AddFile> files_;
  bool with_row_positions_;
  std::shared_ptr<const formats::FormatReader> parquet_;
  formats::FormatContext context_;
  std::shared_ptr<arrow::Schema> schema_;
  size_t next_file_ = 0;
  int32_t file_index_ = 0;
  int64_t position_ = 0;
  std::shared_ptr<arrow::RecordBatchReader> current_;
};

}  // namespace

arrow::Result<std::shared_ptr<MergeTargetScan>> MergeTargetScan::Make(
    std::string table_path, const Snapshot& snapshot, std::vector<AddFile> files,
    const std::vector<std::string>& columns, bool with_row_positions,
    const formats::FormatContext& context) {
  std::shared_ptr<MergeTargetScan> scan(new MergeTargetScan());
  auto wanted = [&](const std::string& name) {
    if (columns.empty()) return true;
    for (const auto& column : snapshot.metadata.partition_columns) {
      if (AsciiEqualsIgnoreCase(column, name)) return true;
    }
    for (const auto& column : columns) {
      if (AsciiEqualsIgnoreCase(column, name)) return true;
    }
    return false;
  };
  arrow::FieldVector fields;
  for (const auto& field : snapshot.schema->fields()) {
    if (wanted(field->name())) fields.push_back(field);
  }
  auto pruned = std::make_shared<Snapshot>();
  pruned->version = snapshot.version;
  pruned->protocol = snapshot.protocol;
  pruned->metadata = snapshot.metadata;
  pruned->schema = arrow::schema(fields);
  arrow::FieldVector scanned = fields;
  scanned.push_back(arrow::field(kMergeFileColumn, arrow::int32(), /*nullable=*/false));
  if (with_row_positions) {
    scanned.push_back(arrow::field(kMergeRowColumn, arrow::int64(), /*nullable=*/false));
  }
  ARROW_ASSIGN_OR_RAISE(scan->parquet_, formats::MakeFormatReader(formats::FileFormat::kParquet,
                                                                  formats::OptionMap{}, context));
  scan->table_path_ = std::move(table_path);
  scan->pruned_ = std::move(pruned);
  scan->files_ = std::move(files);
  scan->with_row_positions_ = with_row_positions;
  scan->context_ = context;
  scan->schema_ = arrow::schema(scanned);
  return scan;
}

std::string MergeTargetScan::Describe() const {
  return "delta merge target [path=" + table_path_ + ", version=" +
         std::to_string(pruned_->version) + ", files=" + std::to_string(files_.size()) + "]";
}

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> MergeTargetScan::Open() const {
  return std::make_shared<TargetReader>(table_path_, pruned_, files_, with_row_positions_,
                                        parquet_, context_, schema_);
}

}  // namespace sluice::delta
