#include "sluice/plan/file_source.h"

#include <algorithm>

#include <arrow/type.h>

#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"
#include "sluice/formats/file_batch_reader.h"

namespace sluice::plan {

arrow::Result<std::shared_ptr<FileSource>> FileSource::Make(
    std::shared_ptr<const formats::FormatReader> reader, const std::string& path,
    std::shared_ptr<arrow::Schema> user_schema, const formats::FormatContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto listing, formats::ListFiles(path, reader->file_options(),
                                                         user_schema, context.session_time_zone));
  const auto& partitions = listing.partition_schema->fields();
  auto is_partition = [&](const std::string& name) {
    return std::any_of(partitions.begin(), partitions.end(), [&](const auto& field) {
      return AsciiEqualsIgnoreCase(field->name(), name);
    });
  };
  // The data columns: the user's, else the inferred ones; partition columns come from folders.
  std::shared_ptr<arrow::Schema> source_schema = user_schema;
  if (source_schema == nullptr) {
    if (listing.files.empty()) {
      return SparkError("UNABLE_TO_INFER_SCHEMA",
                        "Unable to infer schema for " +
                            std::string(formats::FileFormatDisplayName(reader->format())) +
                            ". It must be specified manually.");
    }
    ARROW_ASSIGN_OR_RAISE(source_schema, reader->InferSchema(listing.files));
  }
  arrow::FieldVector data_fields;
  for (const auto& field : source_schema->fields()) {
    if (!is_partition(field->name())) data_fields.push_back(field->WithNullable(true));
  }
  auto data_schema = arrow::schema(data_fields);
  arrow::FieldVector all = data_schema->fields();
  for (const auto& field : partitions) all.push_back(field->WithNullable(true));
  auto schema = arrow::schema(all);
  const formats::FileScanOptions scan = formats::ScanOptionsOf(reader->file_options(), context);
  return std::make_shared<FileSource>(
      std::move(reader), formats::LocalPath(path), scan,
      std::make_shared<const formats::FileListing>(std::move(listing)), std::move(data_schema),
      std::move(schema));
}

std::string FileSource::Describe() const {
  return "Relation " + std::string(formats::FileFormatName(reader_->format())) + " [" +
         formats::QualifiedPath(path_) + ", " + std::to_string(listing_->files.size()) +
         " files]";
}

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> FileSource::Open() const {
  std::vector<formats::BatchFile> files;
  files.reserve(listing_->files.size());
  for (size_t i = 0; i < listing_->files.size(); ++i) {
    files.push_back({listing_->files[i], listing_->partition_values[i]});
  }
  return std::make_shared<formats::FileBatchReader>(reader_, std::move(files), data_schema_,
                                                    schema_, scan_);
}

}  // namespace sluice::plan
