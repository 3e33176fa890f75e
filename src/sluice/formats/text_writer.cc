// Text encoding: one line per row of a single string column (Spark's text source).
#include <arrow/array.h>
#include <arrow/io/file.h>

#include "sluice/common/errors.h"
#include "sluice/formats/file_writers.h"
#include "sluice/formats/part_file_stream.h"

namespace sluice::formats {

namespace {

class TextFileWriter final : public FormatFileWriter {
 public:
  explicit TextFileWriter(std::shared_ptr<arrow::io::OutputStream> stream)
      : stream_(std::move(stream)) {}
  arrow::Status Write(const arrow::RecordBatch& batch) override {
    const auto& values = static_cast<const arrow::StringArray&>(*batch.column(0));
    std::string out;
    for (int64_t row = 0; row < values.length(); ++row) {
      if (!values.IsNull(row)) out.append(values.GetView(row));
      out.push_back('\n');
    }
    return stream_->Write(out.data(), static_cast<int64_t>(out.size()));
  }
  arrow::Status Close() override { return stream_->Close(); }

 private:
  std::shared_ptr<arrow::io::OutputStream> stream_;
};

class TextWriter final : public FormatWriter {
 public:
  explicit TextWriter(Compression compression) : compression_(compression) {}
  FileFormat format() const override { return FileFormat::kText; }
  std::string FileSuffix() const override {
    return ".txt" + std::string(CompressionExtension(compression_, FileFormat::kText));
  }
  arrow::Status CheckSchema(const arrow::Schema& schema) const override {
    if (schema.num_fields() != 1) {
      return SparkError("_LEGACY_ERROR_TEMP_1215",
                        "Text data source supports only a single column, and you have " +
                            std::to_string(schema.num_fields()) + " columns.");
    }
    if (schema.field(0)->type()->id() != arrow::Type::STRING) {
      return SparkError("UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE",
                        "The Text datasource doesn't support the column " +
                            QuoteIdentifier(schema.field(0)->name()) + " of the type \"" +
                            schema.field(0)->type()->ToString() + "\".");
    }
    return arrow::Status::OK();
  }
  arrow::Result<std::unique_ptr<FormatFileWriter>> Open(
      const std::string& path, const std::shared_ptr<arrow::Schema>&) const override {
    ARROW_ASSIGN_OR_RAISE(auto stream, OpenTextPartFile(path, compression_));
    return std::make_unique<TextFileWriter>(std::move(stream));
  }

 private:
  Compression compression_;
};

}  // namespace

arrow::Result<std::shared_ptr<const FormatWriter>> MakeTextWriter(const OptionMap& options,
                                                                  const FormatContext&) {
  ARROW_ASSIGN_OR_RAISE(auto parsed, ParseTextWriteOptions(options));
  return std::make_shared<TextWriter>(parsed.compression);
}

}  // namespace sluice::formats
