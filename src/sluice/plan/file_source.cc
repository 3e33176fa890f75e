#include "sluice/plan/file_source.h"

#include <algorithm>
#include <cctype>

#include <arrow/array/util.h>
#include <arrow/type.h>

#include "sluice/common/errors.h"

namespace sluice::plan {

namespace {

bool SameName(const std::string& a, const std::string& b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
           return std::tolower(x) == std::tolower(y);
         });
}

/// Reads the files one after the other, appending the partition values of each.
class FileScanReader final : public arrow::RecordBatchReader {
 public:
  FileScanReader(std::shared_ptr<const formats::FormatReader> reader,
                 std::shared_ptr<const formats::FileListing> listing, std::shared_ptr<arrow::Schema> data_schema,
                 std::shared_ptr<arrow::Schema> schema)
      : reader_(std::move(reader)),
        listing_(std::move(listing)),
        data_schema_(std::move(data_schema)),
        schema_(std::move(schema)) {}

  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    *batch = nullptr;
    while (true) {
      if (current_ == nullptr) {
        if (next_file_ >= listing_->files.size()) return arrow::Status::OK();
        ARROW_ASSIGN_OR_RAISE(current_,
                              reader_->OpenFile(listing_->files[next_file_], data_schema_));
        ++next_file_;
      }
      std::shared_ptr<arrow::RecordBatch> data;
      ARROW_RETURN_NOT_OK(current_->ReadNext(&data));
      if (data == nullptr) {
        current_ = nullptr;
        continue;
      }
      if (data->num_rows() == 0 && data->num_columns() > 0) continue;
      arrow::ArrayVector columns = data->columns();
      const auto& values = listing_->partition_values[next_file_ - 1];
      for (const auto& value : values) {
        ARROW_ASSIGN_OR_RAISE(auto column, arrow::MakeArrayFromScalar(*value, data->num_rows()));
        columns.push_back(std::move(column));
      }
      *batch = arrow::RecordBatch::Make(schema_, data->num_rows(), std::move(columns));
      return arrow::Status::OK();
    }
  }

 private:
  std::shared_ptr<const formats::FormatReader> reader_;
  std::shared_ptr<const formats::FileListing> listing_;
  std::shared_ptr<arrow::Schema> data_schema_;
  std::shared_ptr<arrow::Schema> schema_;
  std::shared_ptr<arrow::RecordBatchReader> current_;
  size_t next_file_ = 0;
};

}  // namespace

arrow::Result<std::shared_ptr<FileSource>> FileSource::Make(
    std::shared_ptr<const formats::FormatReader> reader, const std::string& path,
    std::shared_ptr<arrow::Schema> user_schema, const formats::FormatContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto listing, formats::ListFiles(path, reader->file_options(),
                                                         user_schema, context.session_time_zone));
  const auto& partitions = listing.partition_schema->fields();
  auto is_partition = [&](const std::string& name) {
    return std::any_of(partitions.begin(), partitions.end(),
                       [&](const auto& field) { return SameName(field->name(), name); });
  };
  std::shared_ptr<arrow::Schema> data_schema;
  if (user_schema != nullptr) {
    arrow::FieldVector fields;
    for (const auto& field : user_schema->fields()) {
      if (!is_partition(field->name())) fields.push_back(field->WithNullable(true));
    }
    data_schema = arrow::schema(fields);
  } else {
    if (listing.files.empty()) {
      return SparkError("UNABLE_TO_INFER_SCHEMA",
                        "Unable to infer schema for " +
                            std::string(formats::FileFormatDisplayName(reader->format())) +
                            ". It must be specified manually.");
    }
    ARROW_ASSIGN_OR_RAISE(auto inferred, reader->InferSchema(listing.files));
    arrow::FieldVector fields;
    for (const auto& field : inferred->fields()) {
      if (!is_partition(field->name())) fields.push_back(field->WithNullable(true));
    }
    data_schema = arrow::schema(fields);
  }
  arrow::FieldVector all = data_schema->fields();
  for (const auto& field : partitions) all.push_back(field->WithNullable(true));
  auto schema = arrow::schema(all);
  return std::make_shared<FileSource>(std::move(reader), formats::LocalPath(path),
                                      std::make_shared<const formats::FileListing>(std::move(listing)),
                                      std::move(data_schema),
                                      std::move(schema));
}

std::string FileSource::Describe() const {
  return "Relation " + std::string(formats::FileFormatName(reader_->format())) + " [" +
         formats::QualifiedPath(path_) + ", " + std::to_string(listing_->files.size()) +
         " files]";
}

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> FileSource::Open() const {
  return std::make_shared<FileScanReader>(reader_, listing_, data_schema_, schema_);
}

}  // namespace sluice::plan
