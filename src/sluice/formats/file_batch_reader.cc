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

arrow::Result<bool> FileBatchReader::OpenNext() {
  while (next_file_ < files_.size()) {
    const BatchFile& file = files_[next_file_++];
    std::error_code error;
    if (!std::filesystem::exists(file.local_path, error)) {
      if (ignore_missing_files_) continue;
      return FileNotExistError(file.local_path);
    }
    ARROW_ASSIGN_OR_RAISE(current_, reader_->OpenFile(file.local_path,
                                                      read_schema_ ? read_schema_ : data_schema_));
    current_file_ = &file;
    return true;
  }
  return false;
}

void FileBatchReader::ReadOnly(const std::vector<bool>& read) {
  const auto format = reader_->format();
  if (format != FileFormat::kParquet && format != FileFormat::kOrc) return;
  read_.assign(read.begin(), read.begin() + data_schema_->num_fields());
  arrow::FieldVector fields;
  for (int c = 0; c < data_schema_->num_fields(); ++c) {
    if (read_[static_cast<size_t>(c)]) fields.push_back(data_schema_->field(c));
  }
  if (fields.size() == static_cast<size_t>(data_schema_->num_fields())) return;
  read_schema_ = arrow::schema(std::move(fields));
}

arrow::Status FileBatchReader::ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) {
  *batch = nullptr;
  while (true) {
    if (current_ == nullptr) {
      ARROW_ASSIGN_OR_RAISE(bool opened, OpenNext());
      if (!opened) return arrow::Status::OK();
    }
    std::shared_ptr<arrow::RecordBatch> data;
    ARROW_RETURN_NOT_OK(current_->ReadNext(&data));
    if (data == nullptr) {
      current_ = nullptr;
      continue;
    }
    if (data->num_rows() == 0 && data->num_columns() > 0) continue;
    arrow::ArrayVector columns;
    if (read_schema_ == nullptr) {
      columns = data->columns();
    } else {
      int next_read = 0;
      for (int c = 0; c < data_schema_->num_fields(); ++c) {
        if (read_[static_cast<size_t>(c)]) {
          columns.push_back(data->column(next_read++));
          continue;
        }
        ARROW_ASSIGN_OR_RAISE(auto nulls, arrow::MakeArrayOfNull(data_schema_->field(c)->type(),
                                                                  data->num_rows()));
        columns.push_back(std::move(nulls));
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
