// CSV encoding with Spark's defaults (univocity's writer settings as Spark sets them).
#include <arrow/array.h>
#include <arrow/io/file.h>

#include "sluice/common/errors.h"
#include "sluice/formats/file_writers.h"
#include "sluice/formats/part_file_stream.h"
#include "sluice/formats/value_text.h"

namespace sluice::formats {

namespace {

class CsvEncoder {
 public:
  CsvEncoder(CsvWriteOptions options, ValueText text)
      : options_(std::move(options)), text_(std::move(text)) {}

  void AppendField(std::string_view value, bool is_string, std::string* out) const {
    if (is_string) {
      // Univocity trims white space of written values by default.
      if (options_.ignore_leading_white_space) {
        while (!value.empty() && static_cast<unsigned char>(value.front()) <= ' ') {
          value.remove_prefix(1);
        }
      }
      if (options_.ignore_trailing_white_space) {
        while (!value.empty() && static_cast<unsigned char>(value.back()) <= ' ') {
          value.remove_suffix(1);
        }
      }
      if (value.empty()) {
        out->append(options_.empty_value);
        return;
      }
    }
    // Univocity also quotes a value starting with its comment character '#'.
    bool quote = options_.quote_all || (!value.empty() && value[0] == '#');
    if (!quote && options_.quote != '\0') {
      for (char c : value) {
        if (c == options_.separator || c == '\n' || c == '\r' ||
            (options_.escape_quotes && c == options_.quote)) {
          quote = true;
          break;
        }
      }
    }
    if (!quote) {
      out->append(value);
      return;
    }
    out->push_back(options_.quote);
    for (char c : value) {
      if (c == options_.quote || (c == options_.escape && options_.escape != options_.quote)) {
        out->push_back(options_.escape);
      }
      out->push_back(c);
    }
    out->push_back(options_.quote);
  }

  void AppendHeader(const arrow::Schema& schema, std::string* out) const {
    for (int i = 0; i < schema.num_fields(); ++i) {
      if (i > 0) out->push_back(options_.separator);
      AppendField(schema.field(i)->name(), true, out);
    }
    out->push_back('\n');
  }

  void AppendRow(const arrow::RecordBatch& batch, int64_t row, std::string* out) const {
    std::string scratch;
    for (int i = 0; i < batch.num_columns(); ++i) {
      if (i > 0) out->push_back(options_.separator);
      const arrow::Array& column = *batch.column(i);
      if (column.IsNull(row)) {
        out->append(options_.null_value);
        continue;
      }
      scratch.clear();
      text_.Append(column, row, &scratch);
      AppendField(scratch, column.type_id() == arrow::Type::STRING, out);
    }
    out->push_back('\n');
  }

  bool header() const { return options_.header; }

 private:
  CsvWriteOptions options_;
  ValueText text_;
};

class CsvFileWriter final : public FormatFileWriter {
 public:
  CsvFileWriter(std::shared_ptr<arrow::io::OutputStream> stream,
                std::shared_ptr<const CsvEncoder> encoder, std::shared_ptr<arrow::Schema> schema)
      : stream_(std::move(stream)), encoder_(std::move(encoder)), schema_(std::move(schema)) {}

  arrow::Status Write(const arrow::RecordBatch& batch) override {
    std::string out;
    if (!header_written_ && encoder_->header()) encoder_->AppendHeader(*schema_, &out);
    header_written_ = true;
    for (int64_t row = 0; row < batch.num_rows(); ++row) encoder_->AppendRow(batch, row, &out);
    return stream_->Write(out.data(), static_cast<int64_t>(out.size()));
  }
  arrow::Status Close() override {
    // Spark writes the header even for a file without rows.
    if (!header_written_ && encoder_->header()) {
      std::string out;
      encoder_->AppendHeader(*schema_, &out);
      ARROW_RETURN_NOT_OK(stream_->Write(out.data(), static_cast<int64_t>(out.size())));
    }
    return stream_->Close();
  }

 private:
  std::shared_ptr<arrow::io::OutputStream> stream_;
  std::shared_ptr<const CsvEncoder> encoder_;
  std::shared_ptr<arrow::Schema> schema_;
  bool header_written_ = false;
};

class CsvWriter final : public FormatWriter {
 public:
  CsvWriter(std::shared_ptr<const CsvEncoder> encoder, Compression compression)
      : encoder_(std::move(encoder)), compression_(compression) {}
  FileFormat format() const override { return FileFormat::kCsv; }
  std::string FileSuffix() const override {
    return ".csv" + std::string(CompressionExtension(compression_, FileFormat::kCsv));
  }
  arrow::Status CheckSchema(const arrow::Schema& schema) const override {
    for (const auto& field : schema.fields()) {
      auto id = field->type()->id();
      if (id == arrow::Type::LIST || id == arrow::Type::MAP || id == arrow::Type::STRUCT ||
          id == arrow::Type::BINARY) {
        return SparkError("UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE",
                          "The CSV datasource doesn't support the column " +
                              QuoteIdentifier(field->name()) + " of the type \"" +
                              field->type()->ToString() + "\".");
      }
    }
    return arrow::Status::OK();
  }
  arrow::Result<std::unique_ptr<FormatFileWriter>> Open(
      const std::string& path, const std::shared_ptr<arrow::Schema>& schema) const override {
    ARROW_ASSIGN_OR_RAISE(auto stream, OpenTextPartFile(path, compression_));
    return std::make_unique<CsvFileWriter>(std::move(stream), encoder_, schema);
  }

 private:
  std::shared_ptr<const CsvEncoder> encoder_;
  Compression compression_;
};

}  // namespace

arrow::Result<std::shared_ptr<const FormatWriter>> MakeCsvWriter(const OptionMap& options,
                                                                 const FormatContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto parsed, ParseCsvWriteOptions(options));
  ARROW_ASSIGN_OR_RAISE(auto zone, ResolveZone(parsed.time_zone, context));
  ARROW_ASSIGN_OR_RAISE(auto text, ValueText::Make(parsed.timestamp_format,
                                                   parsed.timestamp_ntz_format,
                                                   parsed.date_format, std::move(zone)));
  return std::make_shared<CsvWriter>(std::make_shared<CsvEncoder>(parsed, std::move(text)),
                                     parsed.compression);
}

}  // namespace sluice::formats
