#include "sluice/formats/text_reader.h"

#include <arrow/builder.h>

#include "sluice/common/errors.h"
#include "sluice/formats/line_reader.h"

namespace sluice::formats {

namespace {

class TextFileReader final : public arrow::RecordBatchReader {
 public:
  TextFileReader(std::string path, std::shared_ptr<arrow::Schema> schema, bool whole_text,
                 std::unique_ptr<LineReader> lines, int64_t batch_rows)
      : path_(std::move(path)),
        schema_(std::move(schema)),
        whole_text_(whole_text),
        lines_(std::move(lines)),
        batch_rows_(batch_rows) {}

  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    *batch = nullptr;
    if (done_) return arrow::Status::OK();
    arrow::StringBuilder builder;
    if (whole_text_) {
      ARROW_ASSIGN_OR_RAISE(std::string content, ReadWholeFile(path_));
      ARROW_RETURN_NOT_OK(builder.Append(content));
      done_ = true;
    } else {
      while (builder.length() < batch_rows_) {
        ARROW_ASSIGN_OR_RAISE(auto line, lines_->Next());
        if (!line) {
          done_ = true;
          break;
        }
        ARROW_RETURN_NOT_OK(builder.Append(*line));
      }
      if (builder.length() == 0) return arrow::Status::OK();
    }
    ARROW_ASSIGN_OR_RAISE(auto values, builder.Finish());
    int64_t rows = values->length();
    arrow::ArrayVector columns;
    if (schema_->num_fields() == 1) columns.push_back(values);
    *batch = arrow::RecordBatch::Make(schema_, rows, columns);
    return arrow::Status::OK();
  }

 private:
  std::string path_;
  std::shared_ptr<arrow::Schema> schema_;
  bool whole_text_;
  std::unique_ptr<LineReader> lines_;
  int64_t batch_rows_;
  bool done_ = false;
};

class TextReader final : public FormatReader {
 public:
  TextReader(TextReadOptions options, FormatContext context)
      : options_(std::move(options)), context_(std::move(context)) {}

  FileFormat format() const override { return FileFormat::kText; }
  const FileSourceOptions& file_options() const override { return options_.files; }

  arrow::Result<std::shared_ptr<arrow::Schema>> InferSchema(
      const std::vector<std::string>&) const override {
    return arrow::schema({arrow::field("value", arrow::utf8(), true)});
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> OpenFile(
      const std::string& path, const std::shared_ptr<arrow::Schema>& data_schema) const override {
    if (data_schema->num_fields() > 1 ||
        (data_schema->num_fields() == 1 &&
         data_schema->field(0)->type()->id() != arrow::Type::STRING)) {
      return SparkError("_LEGACY_ERROR_TEMP_1215",
                        "Text data source supports only a single column, and you have " +
                            std::to_string(data_schema->num_fields()) + " columns.");
    }
    std::unique_ptr<LineReader> lines;
    if (!options_.whole_text) {
      ARROW_ASSIGN_OR_RAISE(lines, LineReader::Open(path));
    }
    return std::make_shared<TextFileReader>(path, data_schema, options_.whole_text,
                                            std::move(lines), context_.batch_rows);
  }

 private:
  TextReadOptions options_;
  FormatContext context_;
};

}  // namespace

arrow::Result<std::shared_ptr<const FormatReader>> MakeTextReader(const OptionMap& options,
                                                                  const FormatContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto parsed, ParseTextReadOptions(options));
  return std::make_shared<TextReader>(std::move(parsed), context);
}

}  // namespace sluice::formats
