#include "sluice/formats/file_format.h"

#include <algorithm>
#include <cctype>
#include <iostream>

#include <arrow/compute/cast.h>

#include "sluice/checkpoint/file_uri.h"
#include "sluice/common/errors.h"
#include "sluice/formats/csv_reader.h"
#include "sluice/formats/file_writers.h"
#include "sluice/formats/json_reader.h"
#include "sluice/formats/orc_reader.h"
#include "sluice/formats/parquet_reader.h"
#include "sluice/formats/text_reader.h"
#include "sluice/types/spark_types.h"

namespace sluice::formats {

namespace {

class JsonReader final : public FormatReader {
 public:
  JsonReader(JsonReadOptions options, FormatContext context,
             std::shared_ptr<const datetime::TimeZone> zone)
      : options_(std::move(options)), context_(std::move(context)), zone_(std::move(zone)) {}

  FileFormat format() const override { return FileFormat::kJson; }
  const FileSourceOptions& file_options() const override { return options_.files; }

  arrow::Result<std::shared_ptr<arrow::Schema>> InferSchema(
      const std::vector<std::string>& files) const override {
    return InferJsonSchema(files, options_);
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> OpenFile(
      const std::string& path, const std::shared_ptr<arrow::Schema>& data_schema) const override {
    return OpenJsonFile(path, data_schema, options_, zone_, context_.batch_rows);
  }

 private:
  JsonReadOptions options_;
  FormatContext context_;
  std::shared_ptr<const datetime::TimeZone> zone_;
};

/// Casts a column read from a file to the planned type; Spark's file types first, then the
/// user's.
arrow::Result<std::shared_ptr<arrow::Array>> ConformColumn(
    const std::shared_ptr<arrow::Array>& column, const std::shared_ptr<arrow::DataType>& target) {
  if (column->type()->Equals(*target)) return column;
  arrow::compute::CastOptions options = arrow::compute::CastOptions::Safe(target);
  options.allow_time_truncate = true;
  auto cast = arrow::compute::Cast(column, options);
  if (!cast.ok()) {
    return SparkError("FAILED_READ_FILE.PARQUET_COLUMN_DATA_TYPE_MISMATCH",
                      "The column of type " + column->type()->ToString() +
                          " in the file cannot be read as " + target->ToString() + ": " +
                          cast.status().message());
  }
  return cast->make_array();
}

class ConformingReader final : public arrow::RecordBatchReader {
 public:
  ConformingReader(std::shared_ptr<arrow::RecordBatchReader> input,
                   std::shared_ptr<arrow::Schema> target, bool case_sensitive)
      : input_(std::move(input)), target_(std::move(target)) {
    auto source = input_->schema();
    for (const auto& field : target_->fields()) {
      int found = -1;
      for (int i = 0; i < source->num_fields(); ++i) {
        if (SameColumnName(source->field(i)->name(), field->name(), case_sensitive)) {
          found = i;
          break;
        }
      }
      positions_.push_back(found);
    }
  }

  std::shared_ptr<arrow::Schema> schema() const override { return target_; }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    std::shared_ptr<arrow::RecordBatch> raw;
    ARROW_RETURN_NOT_OK(input_->ReadNext(&raw));
    if (raw == nullptr) {
      *batch = nullptr;
      return arrow::Status::OK();
    }
    arrow::ArrayVector columns;
    for (int i = 0; i < target_->num_fields(); ++i) {
      const auto& type = target_->field(i)->type();
      if (positions_[static_cast<size_t>(i)] < 0) {
        ARROW_ASSIGN_OR_RAISE(auto nulls, arrow::MakeArrayOfNull(type, raw->num_rows()));
        columns.push_back(std::move(nulls));
        continue;
      }
      ARROW_ASSIGN_OR_RAISE(auto column,
                            ConformColumn(raw->column(positions_[static_cast<size_t>(i)]), type));
      columns.push_back(std::move(column));
    }
    *batch = arrow::RecordBatch::Make(target_, raw->num_rows(), std::move(columns));
    return arrow::Status::OK();
  }

 private:
  std::shared_ptr<arrow::RecordBatchReader> input_;
  std::shared_ptr<arrow::Schema> target_;
  std::vector<int> positions_;
};

}  // namespace

bool SameColumnName(const std::string& a, const std::string& b, bool case_sensitive) {
  if (case_sensitive) return a == b;
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
           return std::tolower(x) == std::tolower(y);
         });
}

arrow::Status FailedReadError(const std::string& local_path, const arrow::Status& cause) {
  return SparkError("FAILED_READ_FILE.NO_HINT", "Encountered error while reading file " +
                                                    checkpoint::FileUri(local_path) + ". " +
                                                    cause.message());
}

arrow::Result<std::shared_ptr<const datetime::TimeZone>> FindZone(std::string_view id) {
  auto zone = datetime::TimeZone::Find(id);
  if (!zone.ok()) {
    return SparkError("INVALID_TIMEZONE",
                      "The time zone '" + std::string(id) +
                          "' is invalid. Use a region-based zone id such as "
                          "'America/Los_Angeles' or an offset such as '+01:00'.");
  }
  return zone;
}

arrow::Result<std::shared_ptr<const datetime::TimeZone>> ResolveZone(
    const std::string& option_zone, const FormatContext& context) {
  return FindZone(option_zone.empty() ? context.session_time_zone : option_zone);
}

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> ConformToSchema(
    std::shared_ptr<arrow::RecordBatchReader> input, std::shared_ptr<arrow::Schema> target,
    bool case_sensitive) {
  if (input->schema()->Equals(*target, /*check_metadata=*/false)) return input;
  return std::make_shared<ConformingReader>(std::move(input), std::move(target), case_sensitive);
}

FileScanOptions ScanOptionsOf(const FileSourceOptions& options, const FormatContext& context) {
  return {options.ignore_missing_files.value_or(context.ignore_missing_files),
          options.ignore_corrupt_files.value_or(context.ignore_corrupt_files)};
}

void WarnSkippedCorruptFile(const std::string& path, const arrow::Status& why) {
  std::cerr << "WARN Skipped the rest of the content in the corrupted file "
            << checkpoint::FileUri(path) << ": " << why.message() << std::endl;
}

arrow::Result<std::shared_ptr<const FormatReader>> MakeFormatReader(FileFormat format,
                                                                    const OptionMap& options,
                                                                    const FormatContext& context) {
  switch (format) {
    case FileFormat::kJson: {
      ARROW_ASSIGN_OR_RAISE(auto parsed, ParseJsonReadOptions(options));
      ARROW_ASSIGN_OR_RAISE(auto zone, ResolveZone(parsed.parse.time_zone, context));
      return std::make_shared<JsonReader>(std::move(parsed), context, std::move(zone));
    }
    case FileFormat::kCsv:
      return MakeCsvReader(options, context);
    case FileFormat::kParquet:
      return MakeParquetReader(options, context);
    case FileFormat::kOrc:
      return MakeOrcReader(options, context);
    case FileFormat::kText:
      return MakeTextReader(options, context);
  }
  return arrow::Status::Invalid("unknown file format");
}

arrow::Result<std::shared_ptr<const FormatWriter>> MakeFormatWriter(FileFormat format,
                                                                    const OptionMap& options,
                                                                    const FormatContext& context) {
  switch (format) {
    case FileFormat::kJson: return MakeJsonWriter(options, context);
    case FileFormat::kCsv: return MakeCsvWriter(options, context);
    case FileFormat::kParquet: return MakeParquetWriter(options, context);
    case FileFormat::kOrc: return MakeOrcWriter(options, context);
    case FileFormat::kText: return MakeTextWriter(options, context);
  }
  return arrow::Status::Invalid("unknown file format");
}

}  // namespace sluice::formats
