// The plan leaf of a file stream: settles path and schema when readStream creates it.
#include <algorithm>
#include <cctype>
#include <filesystem>

#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/formats/partition_discovery.h"
#include "sluice/sources/file/file_stream_source.h"
#include "sluice/sources/file/source_listing.h"

namespace sluice::sources {

namespace {

bool SameName(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
           return std::tolower(x) == std::tolower(y);
         });
}

class FileStreamSourceProvider final : public StreamSourceProvider {
 public:
  explicit FileStreamSourceProvider(std::shared_ptr<const FileStreamSpec> spec)
      : spec_(std::move(spec)) {}

  std::shared_ptr<arrow::Schema> schema() const override { return spec_->schema; }
  std::string Describe() const override { return "FileSource[" + spec_->user_path + "]"; }

  arrow::Result<std::unique_ptr<StreamSource>> CreateSource(
      const SourceContext& context) const override {
    return MakeFileStreamSource(spec_, context);
  }

 private:
  std::shared_ptr<const FileStreamSpec> spec_;
};

arrow::Status PathNotFound(const std::string& path) {
  std::string message = "Path does not exist: " + path + ".";
  if (path.find(',') != std::string::npos) {
    message +=
        " A file stream reads one path (a folder, a file or a glob pattern); a comma-separated "
        "list of paths is taken as a single path name.";
  }
  return SparkError("PATH_NOT_FOUND", message);
}

/// The data columns (nullable, partition columns removed) and the partition columns of the
/// stream, as Spark's DataSource.sourceSchema settles them.
arrow::Status SettleSchema(const std::shared_ptr<arrow::Schema>& user_schema,
                           const std::string& path, const formats::FormatContext& context,
                           FileStreamSpec* spec) {
  const auto& reader = *spec->reader;
  formats::FileListing listing;
  auto listed = formats::ListFiles(path, reader.file_options(), user_schema,
                                   context.session_time_zone);
  if (listed.ok()) {
    listing = std::move(*listed);
  } else if (ErrorClassOf(listed.status()) == "PATH_NOT_FOUND") {
    // A glob that matches nothing yet: the stream starts empty.
    listing.partition_schema = arrow::schema({});
  } else {
    return listed.status();
  }
  const auto& partitions = listing.partition_schema->fields();
  auto is_partition = [&](const std::string& name) {
    return std::any_of(partitions.begin(), partitions.end(),
                       [&](const auto& field) { return SameName(field->name(), name); });
  };
  std::shared_ptr<arrow::Schema> data = user_schema;
  if (data == nullptr) {
    if (listing.files.empty() && reader.format() != formats::FileFormat::kText) {
      return SparkError("UNABLE_TO_INFER_SCHEMA",
                        "Unable to infer schema for " +
                            std::string(formats::FileFormatDisplayName(reader.format())) +
                            ". It must be specified manually.");
    }
    ARROW_ASSIGN_OR_RAISE(data, reader.InferSchema(listing.files));
  }
  arrow::FieldVector data_fields;
  for (const auto& field : data->fields()) {
    if (!is_partition(field->name())) data_fields.push_back(field->WithNullable(true));
  }
  arrow::FieldVector partition_fields;
  for (const auto& field : partitions) partition_fields.push_back(field->WithNullable(true));
  arrow::FieldVector all = data_fields;
  all.insert(all.end(), partition_fields.begin(), partition_fields.end());
  spec->data_schema = arrow::schema(std::move(data_fields));
  spec->partition_schema = arrow::schema(std::move(partition_fields));
  spec->schema = arrow::schema(std::move(all));
  return arrow::Status::OK();
}

}  // namespace

arrow::Result<std::shared_ptr<const StreamSourceProvider>> MakeFileStreamSourceProvider(
    formats::FileFormat format, const formats::OptionMap& options, const std::string& path,
    std::shared_ptr<arrow::Schema> user_schema, const formats::FormatContext& context,
    bool schema_inference_enabled) {
  if (path.empty()) return SparkError("_LEGACY_ERROR_TEMP_2047", "'path' is not specified.");
  auto spec = std::make_shared<FileStreamSpec>();
  ARROW_ASSIGN_OR_RAISE(spec->reader, formats::MakeFormatReader(format, options, context));
  spec->options = options;
  spec->user_path = path;
  spec->local_path = formats::LocalPath(path);
  spec->stream_options = ParseFileStreamOptions(options);
  // A glob may match nothing yet: its files may only arrive once the stream runs.
  std::error_code error;
  if (!IsGlobPath(spec->local_path) && !std::filesystem::exists(spec->local_path, error)) {
    return PathNotFound(path);
  }
  // Text has a fixed schema; every other format needs one unless inference is on.
  if (!schema_inference_enabled && format != formats::FileFormat::kText &&
      user_schema == nullptr) {
    return SparkError("_LEGACY_ERROR_TEMP_2048",
                      "Schema must be specified when creating a streaming source DataFrame. "
                      "If some files already exist in the directory, then depending on the "
                      "file format you may be able to create a static DataFrame on that "
                      "directory with 'spark.read.load(directory)' and infer schema from it.");
  }
  ARROW_RETURN_NOT_OK(SettleSchema(user_schema, path, context, spec.get()));
  return std::make_shared<FileStreamSourceProvider>(std::move(spec));
}

}  // namespace sluice::sources
