#include "sluice/formats/orc_reader.h"

#include <filesystem>

#include <arrow/adapters/orc/adapter.h>
#include <arrow/io/file.h>

#include "sluice/common/errors.h"
#include "sluice/types/spark_types.h"

namespace sluice::formats {

namespace {

/// ORC's timestamp is an instant: Arrow reads it without a zone; Spark reads it as timestamp.
std::shared_ptr<arrow::DataType> OrcToSpark(const std::shared_ptr<arrow::DataType>& type) {
  if (type->id() == arrow::Type::TIMESTAMP) return types::TimestampLtzType();
  return type;
}

arrow::Result<std::unique_ptr<arrow::adapters::orc::ORCFileReader>> OpenOrc(
    const std::string& path) {
  ARROW_ASSIGN_OR_RAISE(auto input, arrow::io::ReadableFile::Open(path));
  auto result = arrow::adapters::orc::ORCFileReader::Open(input, arrow::default_memory_pool());
  if (!result.ok()) {
    return FailedReadError(path, result.status());
  }
  return std::move(result).ValueUnsafe();
}

/// Relabels top-level ORC timestamps (no zone) as UTC instants before conformance.
class OrcBatches final : public arrow::RecordBatchReader {
 public:
  OrcBatches(std::unique_ptr<arrow::adapters::orc::ORCFileReader> file,
             std::shared_ptr<arrow::RecordBatchReader> batches)
      : file_(std::move(file)), batches_(std::move(batches)) {
    arrow::FieldVector fields;
    for (const auto& field : batches_->schema()->fields()) {
      fields.push_back(field->WithType(Relabel(field->type())));
    }
    schema_ = arrow::schema(fields);
  }
  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }
  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    std::shared_ptr<arrow::RecordBatch> raw;
    ARROW_RETURN_NOT_OK(batches_->ReadNext(&raw));
    if (raw == nullptr) {
      *batch = nullptr;
      return arrow::Status::OK();
    }
    arrow::ArrayVector columns;
    for (int i = 0; i < raw->num_columns(); ++i) {
      auto data = raw->column(i)->data()->Copy();
      data->type = schema_->field(i)->type();
      columns.push_back(arrow::MakeArray(data));
    }
    *batch = arrow::RecordBatch::Make(schema_, raw->num_rows(), columns);
    return arrow::Status::OK();
  }

  static std::shared_ptr<arrow::DataType> Relabel(const std::shared_ptr<arrow::DataType>& type) {
    if (type->id() == arrow::Type::TIMESTAMP) {
      const auto& ts = static_cast<const arrow::TimestampType&>(*type);
      if (ts.timezone().empty()) return arrow::timestamp(ts.unit(), "UTC");
    }
    return type;
  }

 private:
  std::unique_ptr<arrow::adapters::orc::ORCFileReader> file_;
  std::shared_ptr<arrow::RecordBatchReader> batches_;
  std::shared_ptr<arrow::Schema> schema_;
};

class OrcReader final : public FormatReader {
 public:
  OrcReader(OrcReadOptions options, FormatContext context)
      : options_(std::move(options)), context_(std::move(context)) {}

  FileFormat format() const override { return FileFormat::kOrc; }
  const FileSourceOptions& file_options() const override { return options_.files; }

  arrow::Result<std::shared_ptr<arrow::Schema>> InferSchema(
      const std::vector<std::string>& files) const override {
    // As Spark: the schema of the first file that has one. An empty file has none; with
    // ignoreCorruptFiles, neither has a file that is not ORC.
    const bool skip_corrupt = ScanOptionsOf(options_.files, context_).ignore_corrupt_files;
    for (const auto& file : files) {
      std::error_code error;
      if (std::filesystem::file_size(file, error) == 0 && !error) continue;
      auto opened = OpenOrc(file);
      if (!opened.ok() && skip_corrupt) {
        WarnSkippedCorruptFile(file, opened.status());
        continue;
      }
      ARROW_ASSIGN_OR_RAISE(auto reader, std::move(opened));
      ARROW_ASSIGN_OR_RAISE(auto schema, reader->ReadSchema());
      arrow::FieldVector fields;
      for (const auto& field : schema->fields()) {
        ARROW_ASSIGN_OR_RAISE(auto type, types::ToSparkArrowType(OrcToSpark(field->type())));
        fields.push_back(arrow::field(field->name(), type, true));
      }
      return arrow::schema(fields);
    }
    return SparkError("UNABLE_TO_INFER_SCHEMA",
                      "Unable to infer schema for ORC. It must be specified manually.");
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> OpenFile(
      const std::string& path, const std::shared_ptr<arrow::Schema>& data_schema) const override {
    ARROW_ASSIGN_OR_RAISE(auto reader, OpenOrc(path));
    // Only the file's columns the schema asks for are decoded (the others are left out, and
    // the schema's columns the file lacks come out null).
    ARROW_ASSIGN_OR_RAISE(auto file_schema, reader->ReadSchema());
    std::vector<std::string> wanted;
    for (const auto& field : file_schema->fields()) {
      for (const auto& asked : data_schema->fields()) {
        if (SameColumnName(field->name(), asked->name(), context_.case_sensitive)) {
          wanted.push_back(field->name());
          break;
        }
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto batches, reader->GetRecordBatchReader(context_.batch_rows, wanted));
    return ConformToSchema(std::make_shared<OrcBatches>(std::move(reader), std::move(batches)),
                           data_schema, context_.case_sensitive);
  }

 private:
  OrcReadOptions options_;
  FormatContext context_;
};

}  // namespace

arrow::Result<std::shared_ptr<const FormatReader>> MakeOrcReader(const OptionMap& options,
                                                                 const FormatContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto parsed, ParseOrcReadOptions(options));
  return std::make_shared<OrcReader>(std::move(parsed), context);
}

}  // namespace sluice::formats
