#include "sluice/formats/file_batch_reader.h"

#include <filesystem>

#include <arrow/array/util.h>
#include <arrow/scalar.h>

#include "sluice/common/errors.h"
#include "sluice/checkpoint/file_uri.h"

namespace sluice::formats {

arrow::Status FileNotExistError(const std::string& local_path) {
  return SparkError("FAILED_READ_FILE.FILE_NOT_EXIST",
                    "Encountered error while reading file " + checkpoint::FileUri(local_path) +
                        ". File does not exist. It is possible the underlying files have been "
                        "updated.\nYou can explicitly invalidate the cache in Spark by running "
                        "'REFRESH TABLE tableName' command in SQL or by recreating the "
                        "Dataset/DataFrame involved.");
}

bool FileBatchReader::SkipCorrupt(const arrow::Status& failure, const std::string& path) const {
  if (!scan_.ignore_corrupt_files || failure.IsOutOfMemory()) return false;
  // FAILFAST's malformed records fail the scan whatever the setting, as in Spark.
  auto error_class = ErrorClassOf(failure);
  if (error_class && error_class->starts_with("MALFORMED_RECORD_IN_PARSING")) return false;
  WarnSkippedCorruptFile(path, failure);
  return true;
}

arrow::Result<bool> FileBatchReader::OpenNext() {
  while (next_file_ < files_.size()) {
    const BatchFile& file = files_[next_file_++];
    std::error_code error;
    if (!std::filesystem::exists(file.local_path, error)) {
      if (scan_.ignore_missing_files) continue;
      return FileNotExistError(file.local_path);
    }
    // Spark reads nothing from an empty file, even of a format that has a footer.
    if (std::filesystem::file_size(file.local_path, error) == 0 && !error) continue;
    auto opened =
        reader_->OpenFile(file.local_path, read_schema_ ? read_schema_ : data_schema_);
    if (!opened.ok()) {
      if (SkipCorrupt(opened.status(), file.local_path)) continue;
      return opened.status();
    }
    current_ = std::move(opened).ValueUnsafe();
    current_file_ = &file;
    return true;
  }
  return false;
}

void FileBatchReader::ReadOnly(const arrow::Schema& read) {
  const auto format = reader_->format();
  if (format != FileFormat::kParquet && format != FileFormat::kOrc) return;
  arrow::FieldVector fields;
  std::vector<int> positions;
  bool pruned = false;
  for (const auto& field : data_schema_->fields()) {
    const auto wanted = read.GetFieldByName(field->name());
    if (wanted == nullptr) {
      positions.push_back(-1);
      pruned = true;
      continue;
    }
    // ORC files are read by whole columns.
    auto type = format == FileFormat::kParquet ? wanted->type() : field->type();
    pruned = pruned || !type->Equals(*field->type());
    positions.push_back(static_cast<int>(fields.size()));
    fields.push_back(field->WithType(std::move(type)));
  }
  if (!pruned) return;
  read_schema_ = arrow::schema(std::move(fields));
  read_positions_ = std::move(positions);
}

namespace {

/// `column`, read with some struct fields left out, as a column of `type`: the missing
/// fields null.
arrow::Result<std::shared_ptr<arrow::Array>> WithAllFields(
    const std::shared_ptr<arrow::Array>& column, const std::shared_ptr<arrow::DataType>& type,
    UnreadColumns& unread) {
  if (column->type()->Equals(*type) || type->id() != arrow::Type::STRUCT) return column;
  const auto& read_type = static_cast<const arrow::StructType&>(*column->type());
  const auto& data = *column->data();
  // The children keep the struct's offset: build them over offset + length rows.
  const int64_t rows = data.offset + data.length;
  std::vector<std::shared_ptr<arrow::ArrayData>> children;
  for (const auto& field : type->fields()) {
    const int index = read_type.GetFieldIndex(field->name());
    if (index < 0) {
      ARROW_ASSIGN_OR_RAISE(auto nulls, unread.Get(field->type(), rows));
      children.push_back(nulls->data());
      continue;
    }
    ARROW_ASSIGN_OR_RAISE(auto child,
                          WithAllFields(arrow::MakeArray(data.child_data[static_cast<size_t>(
                                            index)]),
                                        field->type(), unread));
    children.push_back(child->data());
  }
  auto expanded = arrow::ArrayData::Make(type, data.length, {data.buffers[0]}, data.null_count,
                                         data.offset);
  expanded->child_data = std::move(children);
  return arrow::MakeArray(expanded);
}

}  // namespace

arrow::Status FileBatchReader::ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) {
  *batch = nullptr;
  while (true) {
    if (current_ == nullptr) {
      ARROW_ASSIGN_OR_RAISE(bool opened, OpenNext());
      if (!opened) return arrow::Status::OK();
    }
    std::shared_ptr<arrow::RecordBatch> data;
    if (arrow::Status read = current_->ReadNext(&data); !read.ok()) {
      if (!SkipCorrupt(read, current_file_->local_path)) return read;
      data = nullptr;
    }
    if (data == nullptr) {
      current_ = nullptr;
      continue;
    }
    if (data->num_rows() == 0 && data->num_columns() > 0) continue;
    arrow::ArrayVector columns;
    if (read_schema_ == nullptr) {
      columns = data->columns();
    } else {
      for (int c = 0; c < data_schema_->num_fields(); ++c) {
        const auto& type = data_schema_->field(c)->type();
        const int position = read_positions_[static_cast<size_t>(c)];
        if (position < 0) {
          ARROW_ASSIGN_OR_RAISE(auto nulls, unread_.Get(type, data->num_rows()));
          columns.push_back(std::move(nulls));
          continue;
        }
        ARROW_ASSIGN_OR_RAISE(auto column, WithAllFields(data->column(position), type, unread_));
        columns.push_back(std::move(column));
      }
    }
    for (const auto& value : current_file_->partition_values) {
      ARROW_ASSIGN_OR_RAISE(auto column, arrow::MakeArrayFromScalar(*value, data->num_rows()));
      columns.push_back(std::move(column));
    }
    *batch = arrow::RecordBatch::Make(schema_, data->num_rows(), std::move(columns));
    return arrow::Status::OK();
  }
}

}  // namespace sluice::formats
