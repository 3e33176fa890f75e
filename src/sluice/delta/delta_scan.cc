#include "sluice/delta/delta_scan.h"

#include <filesystem>

#include <arrow/scalar.h>
#include <arrow/type.h>

#include "sluice/checkpoint/file_uri.h"
#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"
#include "sluice/formats/file_batch_reader.h"
#include "sluice/formats/partition_discovery.h"

namespace sluice::delta {

namespace fs = std::filesystem;

namespace {

/// The batches of `input` with their columns put in `schema`'s order (`order[i]` is the input
/// column of output column i).
class ReorderedReader final : public arrow::RecordBatchReader {
 public:
  ReorderedReader(std::shared_ptr<arrow::RecordBatchReader> input,
                  std::shared_ptr<arrow::Schema> schema, std::vector<int> order)
      : input_(std::move(input)), schema_(std::move(schema)), order_(std::move(order)) {}

  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }
  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    std::shared_ptr<arrow::RecordBatch> input;
    ARROW_RETURN_NOT_OK(input_->ReadNext(&input));
    if (input == nullptr) {
      *batch = nullptr;
      return arrow::Status::OK();
    }
    arrow::ArrayVector columns;
    for (int index : order_) columns.push_back(input->column(index));
    *batch = arrow::RecordBatch::Make(schema_, input->num_rows(), std::move(columns));
    return arrow::Status::OK();
  }

 private:
  std::shared_ptr<arrow::RecordBatchReader> input_;
  std::shared_ptr<arrow::Schema> schema_;
  std::vector<int> order_;
};

/// The local path of an add action's path: relative to the table, or an absolute file URI.
arrow::Result<std::string> LocalPathOf(const std::string& table_path, const std::string& path) {
  if (path.starts_with("file:")) return checkpoint::LocalPathOfFileUri(path);
  if (path.find("://") != std::string::npos) {
    return SparkError("DELTA_FILE_NOT_FOUND_DETAILED",
                      "The Delta table at " + table_path + " lists the data file " + path +
                          ", which is not on the local file system.");
  }
  ARROW_ASSIGN_OR_RAISE(auto relative, checkpoint::DecodeUriPath(path));
  return (fs::path(table_path) / relative).string();
}

}  // namespace

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> ReadDeltaFiles(
    const std::string& table_path, const Snapshot& snapshot,
    const std::vector<AddFile>& files,
    std::shared_ptr<const formats::FormatReader> parquet, const formats::FormatContext& context) {
  const arrow::Schema& schema = *snapshot.schema;
  const auto& partition_columns = snapshot.metadata.partition_columns;
  auto partition_index = [&](const std::string& name) -> int {
    for (size_t p = 0; p < partition_columns.size(); ++p) {
      if (AsciiEqualsIgnoreCase(partition_columns[p], name)) return static_cast<int>(p);
    }
    return -1;
  };
  // The file reader yields the data columns, then the partition columns in the log's order.
  arrow::FieldVector data_fields;
  std::vector<int> data_positions;
  for (int i = 0; i < schema.num_fields(); ++i) {
    if (partition_index(schema.field(i)->name()) < 0) {
      data_positions.push_back(i);
      data_fields.push_back(schema.field(i));
    }
  }
  arrow::FieldVector scanned = data_fields;
  std::vector<std::shared_ptr<arrow::DataType>> partition_types;
  for (const auto& column : partition_columns) {
    int index = schema.GetFieldIndex(column);
    if (index < 0) {
      for (int i = 0; i < schema.num_fields(); ++i) {
        if (AsciiEqualsIgnoreCase(schema.field(i)->name(), column)) index = i;
      }
    }
    if (index < 0) {
      return SparkError("DELTA_LOG_FILE_CORRUPT",
                        "The Delta table at " + table_path + " is partitioned by " +
                            QuoteIdentifier(column) + ", which its schema does not have.");
    }
    scanned.push_back(schema.field(index));
    partition_types.push_back(schema.field(index)->type());
  }
  std::vector<int> order(schema.num_fields());
  for (size_t d = 0; d < data_positions.size(); ++d) {
    order[data_positions[d]] = static_cast<int>(d);
  }
  for (int i = 0; i < schema.num_fields(); ++i) {
    int p = partition_index(schema.field(i)->name());
    if (p >= 0) order[i] = static_cast<int>(data_fields.size()) + p;
  }

  ARROW_ASSIGN_OR_RAISE(auto zone, formats::FindZone(context.session_time_zone));
  std::vector<formats::BatchFile> batch_files;
  batch_files.reserve(files.size());
  for (const auto& file : files) {
    formats::BatchFile batch_file;
    ARROW_ASSIGN_OR_RAISE(batch_file.local_path, LocalPathOf(table_path, file.path));
    for (size_t p = 0; p < partition_columns.size(); ++p) {
      std::optional<std::string> text;
      for (const auto& [name, value] : file.partition_values) {
        if (AsciiEqualsIgnoreCase(name, partition_columns[p])) text = value;
      }
      // Delta writes null (and an empty string) for a null partition value.
      if (!text || text->empty()) {
        batch_file.partition_values.push_back(arrow::MakeNullScalar(partition_types[p]));
        continue;
      }
      auto scalar = formats::ParsePartitionValue(*text, partition_types[p], *zone);
      if (scalar == nullptr) {
        return SparkError("DELTA_LOG_FILE_CORRUPT",
                          "The Delta table at " + table_path + " lists the file " + file.path +
                              " with the partition value '" + *text + "' for " +
                              QuoteIdentifier(partition_columns[p]) + ", which is not a " +
                              partition_types[p]->ToString() + ".");
      }
      batch_file.partition_values.push_back(std::move(scalar));
    }
    batch_files.push_back(std::move(batch_file));
  }
  // Spark reads a Delta table's files with its file scan, under the session's
  // spark.sql.files.ignoreMissingFiles and ignoreCorruptFiles.
  auto reader = std::make_shared<formats::FileBatchReader>(
      std::move(parquet), std::move(batch_files), arrow::schema(data_fields),
      arrow::schema(scanned),
      formats::FileScanOptions{context.ignore_missing_files, context.ignore_corrupt_files});
  return std::make_shared<ReorderedReader>(std::move(reader), snapshot.schema,
                                           std::move(order));
}

}  // namespace sluice::delta
