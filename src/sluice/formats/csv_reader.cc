#include "sluice/formats/csv_reader.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>

#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/datetime/calendar.h"
#include "sluice/datetime/parse.h"
#include "sluice/datetime/pattern.h"
#include "sluice/formats/column_buffer.h"
#include "sluice/formats/line_reader.h"
#include "sluice/formats/text_values.h"
#include "sluice/types/spark_types.h"

namespace sluice::formats {

void CsvTokenizer::Tokenize(std::string_view data, size_t* position, std::vector<Field>* fields,
                            std::string* storage) const {
  fields->clear();
  storage->clear();
  const char sep = options_.separator;
  const char quote = options_.quote;
  const char escape = options_.escape;
  size_t i = *position;
  const size_t n = data.size();
  auto at_record_end = [&](size_t k) { return k >= n || data[k] == '\n' || data[k] == '\r'; };
  while (true) {
    Field field;
    field.begin = storage->size();
    size_t start = i;
    if (options_.ignore_leading_white_space) {
      while (i < n && data[i] != sep && (data[i] == ' ' || data[i] == '\t')) ++i;
    }
    bool quoted = false;
    if (quote != '\0' && i < n && data[i] == quote) {
      quoted = true;
      ++i;
      while (i < n) {
        char c = data[i];
        if (c == escape && escape != quote && i + 1 < n &&
            (data[i + 1] == quote || data[i + 1] == escape)) {
          storage->push_back(data[i + 1]);
          i += 2;
          continue;
        }
        if (c == quote) {
          if (i + 1 < n && data[i + 1] == quote) {
            storage->push_back(quote);
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        if (!options_.parse.multi_line && (c == '\n' || c == '\r')) break;
        storage->push_back(c);
        ++i;
      }
      // Characters between the closing quote and the separator are kept.
      while (!at_record_end(i) && data[i] != sep) storage->push_back(data[i++]);
      if (options_.ignore_trailing_white_space) {
        while (storage->size() > field.begin &&
               (storage->back() == ' ' || storage->back() == '\t')) {
          storage->pop_back();
        }
      }
    } else {
      (void)start;
      while (!at_record_end(i) && data[i] != sep) storage->push_back(data[i++]);
      if (options_.ignore_trailing_white_space) {
        while (storage->size() > field.begin &&
               (storage->back() == ' ' || storage->back() == '\t')) {
          storage->pop_back();
        }
      }
    }
    field.end = storage->size();
    if (field.begin == field.end) {
      // Univocity: an empty unquoted value is nullValue, an empty quoted one emptyValue.
      const std::string& replacement =
          quoted ? options_.empty_value.value_or(std::string()) : options_.null_value;
      storage->append(replacement);
      field.end = storage->size();
    }
    std::string_view text(storage->data() + field.begin, field.end - field.begin);
    field.is_null = text == options_.null_value;
    fields->push_back(field);
    if (i < n && data[i] == sep) {
      ++i;
      continue;
    }
    break;
  }
  // Past the terminator (\n, \r\n or \r).
  if (i < n && data[i] == '\r') ++i;
  if (i < n && data[i] == '\n') ++i;
  *position = i;
}

namespace {

bool ParseJavaDouble(std::string_view text, double* value) {
  std::string copy(text);
  if (copy.empty()) return false;
  if (copy.back() == 'd' || copy.back() == 'D' || copy.back() == 'f' || copy.back() == 'F') {
    copy.pop_back();
  }
  if (copy.empty()) return false;
  for (char c : copy) {
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' ||
          c == '+' || c == '-')) {
      if (copy == "NaN" || copy == "Infinity" || copy == "-Infinity" || copy == "+Infinity") {
        *value = *ParseNonNumericNumber(copy);
        return true;
      }
      return false;
    }
  }
  char* end = nullptr;
  *value = std::strtod(copy.c_str(), &end);
  return end == copy.c_str() + copy.size();
}

template <typename T>
bool ParseInteger(std::string_view text, T* value) {
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  if (text.empty()) return false;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *value);
  return error == std::errc() && end == text.data() + text.size();
}

/// One CSV record source: the lines of a file, or its records with multiLine.
class CsvRecords {
 public:
  static arrow::Result<std::unique_ptr<CsvRecords>> Open(const std::string& path,
                                                         const CsvReadOptions& options) {
    auto records = std::unique_ptr<CsvRecords>(new CsvRecords(options));
    if (options.parse.multi_line) {
      ARROW_ASSIGN_OR_RAISE(records->whole_, ReadWholeFile(path));
    } else {
      ARROW_ASSIGN_OR_RAISE(records->lines_, LineReader::Open(path));
    }
    return records;
  }

  /// The next record that is neither blank nor a comment (and not the header when
  /// `skip_header`): its raw text and fields. False at the end.
  arrow::Result<bool> Next(std::string_view* raw, std::vector<CsvTokenizer::Field>* fields,
                           std::string* storage) {
    while (true) {
      std::string_view text;
      size_t position = 0;
      if (lines_ != nullptr) {
        ARROW_ASSIGN_OR_RAISE(auto line, lines_->Next());
        if (!line) return false;
        text = *line;
        ++record_number_;
      } else {
        if (offset_ >= whole_.size()) return false;
        text = std::string_view(whole_).substr(offset_);
        ++record_number_;
      }
      // Blank lines and comments are skipped.
      bool blank = text.empty() || text[0] == '\n' || text[0] == '\r';
      bool comment = options_.comment != '\0' && !text.empty() && text[0] == options_.comment;
      if (blank || comment) {
        if (lines_ == nullptr) {
          size_t end = text.find_first_of("\r\n");
          end = end == std::string_view::npos ? text.size() : end;
          if (end < text.size() && text[end] == '\r') ++end;
          if (end < text.size() && text[end] == '\n') ++end;
          offset_ += end;
        }
        continue;
      }
      tokenizer_.Tokenize(text, &position, fields, storage);
      if (lines_ == nullptr) {
        size_t raw_length = position;
        while (raw_length > 0 && (text[raw_length - 1] == '\n' || text[raw_length - 1] == '\r')) {
          --raw_length;
        }
        offset_ += position;
        text = text.substr(0, raw_length);
      }
      if (options_.header && !header_skipped_) {
        header_skipped_ = true;
        continue;
      }
      *raw = text;
      return true;
    }
  }

  int64_t record_number() const { return record_number_; }

 private:
  explicit CsvRecords(const CsvReadOptions& options) : options_(options), tokenizer_(options) {}

  CsvReadOptions options_;
  CsvTokenizer tokenizer_;
  std::unique_ptr<LineReader> lines_;
  std::string whole_;
  size_t offset_ = 0;
  bool header_skipped_ = false;
  int64_t record_number_ = 0;
};

/// Converts fields into columns of the data schema.
class CsvDecoder {
 public:
  static arrow::Result<std::unique_ptr<CsvDecoder>> Make(
      std::shared_ptr<arrow::Schema> schema, const CsvReadOptions& options,
      std::shared_ptr<const datetime::TimeZone> zone) {
    auto decoder = std::unique_ptr<CsvDecoder>(new CsvDecoder());
    decoder->schema_ = schema;
    decoder->options_ = options;
    decoder->zone_ = std::move(zone);
    if (options.parse.timestamp_format) {
      ARROW_ASSIGN_OR_RAISE(decoder->timestamp_pattern_,
                            datetime::DateTimePattern::Compile(*options.parse.timestamp_format));
    }
    if (options.parse.date_format) {
      ARROW_ASSIGN_OR_RAISE(decoder->date_pattern_,
                            datetime::DateTimePattern::Compile(*options.parse.date_format));
    }
    for (int i = 0; i < schema->num_fields(); ++i) {
      const auto& field = schema->field(i);
      if (field->name() == options.parse.column_name_of_corrupt_record &&
          field->type()->id() == arrow::Type::STRING) {
        decoder->corrupt_index_ = i;
      } else {
        decoder->data_positions_.push_back(i);
      }
      auto id = field->type()->id();
      if (id == arrow::Type::LIST || id == arrow::Type::MAP || id == arrow::Type::STRUCT) {
        return SparkError("UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE",
                          "The CSV datasource doesn't support the column " +
                              QuoteIdentifier(field->name()) + " of the type \"" +
                              field->type()->ToString() + "\".");
      }
      ARROW_ASSIGN_OR_RAISE(auto column, ColumnBuffer::Make(field->type()));
      decoder->columns_.push_back(std::move(column));
    }
    return decoder;
  }

  arrow::Status Decode(std::string_view raw, const std::vector<CsvTokenizer::Field>& fields,
                       const std::string& storage, const std::string& path, int64_t record) {
    const int64_t row = rows_;
    bool malformed = fields.size() != data_positions_.size();
    for (size_t k = 0; k < data_positions_.size(); ++k) {
      ColumnBuffer& column = *columns_[static_cast<size_t>(data_positions_[k])];
      if (k >= fields.size() || fields[k].is_null) {
        column.AppendNull();
        continue;
      }
      std::string_view text(storage.data() + fields[k].begin, fields[k].end - fields[k].begin);
      if (!Convert(text, column)) {
        column.AppendNull();
        malformed = true;
      }
    }
    ColumnBuffer* corrupt =
        corrupt_index_ >= 0 ? columns_[static_cast<size_t>(corrupt_index_)].get() : nullptr;
    if (!malformed) {
      if (corrupt) corrupt->AppendNull();
      ++rows_;
      return arrow::Status::OK();
    }
    switch (options_.parse.mode) {
      case ParseMode::kPermissive:
        if (corrupt) corrupt->AppendBytes(raw);
        ++rows_;
        return arrow::Status::OK();
      case ParseMode::kDropMalformed:
        for (auto& column : columns_) column->Truncate(row);
        return arrow::Status::OK();
      case ParseMode::kFailFast:
        for (auto& column : columns_) column->Truncate(row);
        return SparkError(
            "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION",
            "Malformed records are detected in record parsing: " + std::string(raw) +
                ".\nParse Mode: FAILFAST. To process malformed records as null result, try "
                "setting the option 'mode' as 'PERMISSIVE'. File: file:" + path + ", record " +
                std::to_string(record) + ".");
    }
    return arrow::Status::OK();
  }

  int64_t num_rows() const { return rows_; }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Flush() {
    arrow::ArrayVector arrays;
    for (auto& column : columns_) {
      ARROW_ASSIGN_OR_RAISE(auto array, column->Finish());
      arrays.push_back(std::move(array));
    }
    auto batch = arrow::RecordBatch::Make(schema_, rows_, std::move(arrays));
    rows_ = 0;
    return batch;
  }

 private:
  CsvDecoder() = default;

  bool Convert(std::string_view text, ColumnBuffer& column) {
    switch (column.kind) {
      case ColumnKind::kString:
      case ColumnKind::kBinary:
        column.AppendBytes(text);
        return true;
      case ColumnKind::kBoolean: {
        std::string lower(text);
        std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
        if (lower != "true" && lower != "false") return false;
        column.AppendFixed<uint8_t>(lower == "true");
        return true;
      }
      case ColumnKind::kInt8: return AppendInteger<int8_t>(text, column);
      case ColumnKind::kInt16: return AppendInteger<int16_t>(text, column);
      case ColumnKind::kInt32: return AppendInteger<int32_t>(text, column);
      case ColumnKind::kInt64: return AppendInteger<int64_t>(text, column);
      case ColumnKind::kFloat:
      case ColumnKind::kDouble: {
        double value;
        if (text == options_.nan_value) {
          value = std::nan("");
        } else if (text == options_.positive_inf) {
          value = HUGE_VAL;
        } else if (text == options_.negative_inf) {
          value = -HUGE_VAL;
        } else if (!ParseJavaDouble(text, &value)) {
          return false;
        }
        if (column.kind == ColumnKind::kFloat) {
          column.AppendFixed<float>(static_cast<float>(value));
        } else {
          column.AppendFixed<double>(value);
        }
        return true;
      }
      case ColumnKind::kDecimal: {
        auto value = ParseDecimalText(text, *column.type);
        if (!value) return false;
        column.AppendFixed(*value);
        return true;
      }
      case ColumnKind::kDate: {
        std::optional<int64_t> days;
        if (date_pattern_) {
          datetime::ParsedDateTime parsed;
          std::string error;
          if (date_pattern_->Parse(text, &parsed, &error)) {
            days = datetime::FloorDiv(parsed.local_micros, datetime::kMicrosPerDay);
          }
        }
        if (!days) days = datetime::ParseDate(text);
        if (!days) return false;
        column.AppendFixed<int32_t>(static_cast<int32_t>(*days));
        return true;
      }
      case ColumnKind::kTimestamp:
      case ColumnKind::kTimestampNtz: {
        const bool ntz = column.kind == ColumnKind::kTimestampNtz;
        std::optional<int64_t> micros;
        if (timestamp_pattern_) {
          datetime::ParsedDateTime parsed;
          std::string error;
          if (timestamp_pattern_->Parse(text, &parsed, &error)) {
            micros = ntz ? parsed.local_micros : parsed.ToUtcMicros(*zone_);
          }
        } else if (ntz) {
          micros = datetime::ParseTimestampNtz(text, /*allow_zone=*/true, std::nullopt);
        } else {
          micros = datetime::ParseTimestamp(text, *zone_, std::nullopt);
        }
        if (!micros) return false;
        column.AppendFixed<int64_t>(*micros);
        return true;
      }
      case ColumnKind::kNull:
        column.AppendNull();
        return true;
      default:
        return false;
    }
  }

  template <typename T>
  static bool AppendInteger(std::string_view text, ColumnBuffer& column) {
    T value;
    if (!ParseInteger(text, &value)) return false;
    column.AppendFixed<T>(value);
    return true;
  }

  std::shared_ptr<arrow::Schema> schema_;
  CsvReadOptions options_;
  std::shared_ptr<const datetime::TimeZone> zone_;
  std::optional<datetime::DateTimePattern> timestamp_pattern_;
  std::optional<datetime::DateTimePattern> date_pattern_;
  std::vector<std::unique_ptr<ColumnBuffer>> columns_;
  std::vector<int> data_positions_;
  int corrupt_index_ = -1;
  int64_t rows_ = 0;
};

class CsvFileReader final : public arrow::RecordBatchReader {
 public:
  CsvFileReader(std::string path, std::unique_ptr<CsvRecords> records,
                std::unique_ptr<CsvDecoder> decoder, std::shared_ptr<arrow::Schema> schema,
                int64_t batch_rows)
      : path_(std::move(path)),
        records_(std::move(records)),
        decoder_(std::move(decoder)),
        schema_(std::move(schema)),
        batch_rows_(batch_rows) {}

  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    *batch = nullptr;
    if (done_) return arrow::Status::OK();
    std::string_view raw;
    while (decoder_->num_rows() < batch_rows_) {
      ARROW_ASSIGN_OR_RAISE(bool more, records_->Next(&raw, &fields_, &storage_));
      if (!more) {
        done_ = true;
        break;
      }
      ARROW_RETURN_NOT_OK(
          decoder_->Decode(raw, fields_, storage_, path_, records_->record_number()));
    }
    if (decoder_->num_rows() == 0 && done_) return arrow::Status::OK();
    ARROW_ASSIGN_OR_RAISE(*batch, decoder_->Flush());
    return arrow::Status::OK();
  }

 private:
  std::string path_;
  std::unique_ptr<CsvRecords> records_;
  std::unique_ptr<CsvDecoder> decoder_;
  std::shared_ptr<arrow::Schema> schema_;
  int64_t batch_rows_;
  std::vector<CsvTokenizer::Field> fields_;
  std::string storage_;
  bool done_ = false;
};

/// Spark's CSVInferSchema type lattice.
enum class CsvType { kNull, kInt, kLong, kDecimal, kDouble, kBoolean, kDate, kTimestamp, kString };

CsvType MergeCsv(CsvType a, CsvType b) {
  if (a == b) return a;
  if (a == CsvType::kNull) return b;
  if (b == CsvType::kNull) return a;
  auto numeric_rank = [](CsvType t) {
    switch (t) {
      case CsvType::kInt: return 1;
      case CsvType::kLong: return 2;
      case CsvType::kDecimal: return 3;
      case CsvType::kDouble: return 4;
      default: return 0;
    }
  };
  int ra = numeric_rank(a), rb = numeric_rank(b);
  if (ra > 0 && rb > 0) {
    if (ra == 4 || rb == 4) return CsvType::kDouble;
    if (ra == 3 || rb == 3) return CsvType::kDecimal;
    return CsvType::kLong;
  }
  if ((a == CsvType::kDate && b == CsvType::kTimestamp) ||
      (a == CsvType::kTimestamp && b == CsvType::kDate)) {
    return CsvType::kTimestamp;
  }
  return CsvType::kString;
}

class CsvReader final : public FormatReader {
 public:
  CsvReader(CsvReadOptions options, FormatContext context,
            std::shared_ptr<const datetime::TimeZone> zone)
      : options_(std::move(options)), context_(std::move(context)), zone_(std::move(zone)) {}

  FileFormat format() const override { return FileFormat::kCsv; }
  const FileSourceOptions& file_options() const override { return options_.files; }

  arrow::Result<std::shared_ptr<arrow::Schema>> InferSchema(
      const std::vector<std::string>& files) const override {
    if (files.empty()) {
      return SparkError("UNABLE_TO_INFER_SCHEMA",
                        "Unable to infer schema for CSV. It must be specified manually.");
    }
    // Column names: the header of the first file, else _c0, _c1, ...
    CsvReadOptions header_options = options_;
    header_options.header = false;
    std::vector<std::string> names;
    std::vector<CsvType> types;
    std::vector<CsvTokenizer::Field> fields;
    std::string storage;
    std::string_view raw;
    {
      ARROW_ASSIGN_OR_RAISE(auto records, CsvRecords::Open(files[0], header_options));
      ARROW_ASSIGN_OR_RAISE(bool any, records->Next(&raw, &fields, &storage));
      if (!any) {
        return SparkError("UNABLE_TO_INFER_SCHEMA",
                          "Unable to infer schema for CSV. It must be specified manually.");
      }
      for (size_t i = 0; i < fields.size(); ++i) {
        std::string name = options_.header && !fields[i].is_null
                               ? storage.substr(fields[i].begin, fields[i].end - fields[i].begin)
                               : "";
        if (name.empty()) name = "_c" + std::to_string(i);
        names.push_back(name);
      }
      // Duplicate header names get their index appended, as Spark does.
      for (size_t i = 0; i < names.size() && options_.header; ++i) {
        for (size_t j = 0; j < names.size(); ++j) {
          if (i != j && EqualsIgnoreCase(names[i], names[j])) {
            names[i] += std::to_string(i);
            break;
          }
        }
      }
    }
    types.assign(names.size(), options_.infer_schema ? CsvType::kNull : CsvType::kString);
    if (options_.infer_schema) {
      for (const auto& file : files) {
        ARROW_ASSIGN_OR_RAISE(auto records, CsvRecords::Open(file, options_));
        while (true) {
          ARROW_ASSIGN_OR_RAISE(bool more, records->Next(&raw, &fields, &storage));
          if (!more) break;
          for (size_t i = 0; i < std::min(fields.size(), types.size()); ++i) {
            if (types[i] == CsvType::kString || fields[i].is_null) continue;
            std::string_view text(storage.data() + fields[i].begin,
                                  fields[i].end - fields[i].begin);
            types[i] = MergeCsv(types[i], InferField(text));
          }
        }
      }
    }
    arrow::FieldVector schema_fields;
    for (size_t i = 0; i < names.size(); ++i) {
      schema_fields.push_back(arrow::field(names[i], ToArrow(types[i]), true));
    }
    return arrow::schema(schema_fields);
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> OpenFile(
      const std::string& path, const std::shared_ptr<arrow::Schema>& data_schema) const override {
    ARROW_ASSIGN_OR_RAISE(auto records, CsvRecords::Open(path, options_));
    ARROW_ASSIGN_OR_RAISE(auto decoder, CsvDecoder::Make(data_schema, options_, zone_));
    return std::make_shared<CsvFileReader>(path, std::move(records), std::move(decoder),
                                           data_schema, context_.batch_rows);
  }

 private:
  static bool EqualsIgnoreCase(const std::string& a, const std::string& b) {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
             return std::tolower(x) == std::tolower(y);
           });
  }

  CsvType InferField(std::string_view text) const {
    int32_t i32;
    int64_t i64;
    if (ParseInteger(text, &i32)) return CsvType::kInt;
    if (ParseInteger(text, &i64)) return CsvType::kLong;
    bool digits = !text.empty();
    for (size_t k = 0; k < text.size(); ++k) {
      if (!std::isdigit(static_cast<unsigned char>(text[k])) && !(k == 0 && text[k] == '-')) {
        digits = false;
      }
    }
    if (digits && text.size() <= 38) return CsvType::kDecimal;
    double d;
    if (text == options_.nan_value || text == options_.positive_inf ||
        text == options_.negative_inf || ParseJavaDouble(text, &d)) {
      return CsvType::kDouble;
    }
    // Dates in the dateFormat (default yyyy-MM-dd, strictly), then lenient timestamps.
    datetime::ParsedDateTime parsed;
    std::string error;
    if (options_.parse.date_format) {
      auto pattern = datetime::DateTimePattern::Compile(*options_.parse.date_format);
      if (pattern.ok() && pattern->Parse(text, &parsed, &error)) return CsvType::kDate;
    } else if (text.size() == 10 && text[4] == '-' && text[7] == '-' &&
               datetime::ParseDate(text)) {
      return CsvType::kDate;
    }
    if (options_.parse.timestamp_format) {
      auto pattern = datetime::DateTimePattern::Compile(*options_.parse.timestamp_format);
      if (pattern.ok() && pattern->Parse(text, &parsed, &error)) return CsvType::kTimestamp;
    } else if (datetime::ParseTimestamp(text, *zone_, std::nullopt)) {
      return CsvType::kTimestamp;
    }
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
    if (lower == "true" || lower == "false") return CsvType::kBoolean;
    return CsvType::kString;
  }

  std::shared_ptr<arrow::DataType> ToArrow(CsvType type) const {
    switch (type) {
      case CsvType::kInt: return arrow::int32();
      case CsvType::kLong: return arrow::int64();
      case CsvType::kDecimal: return arrow::decimal128(38, 0);
      case CsvType::kDouble: return arrow::float64();
      case CsvType::kBoolean: return arrow::boolean();
      case CsvType::kDate: return arrow::date32();
      case CsvType::kTimestamp: return types::TimestampLtzType();
      default: return arrow::utf8();
    }
  }

  CsvReadOptions options_;
  FormatContext context_;
  std::shared_ptr<const datetime::TimeZone> zone_;
};

}  // namespace

arrow::Result<std::shared_ptr<const FormatReader>> MakeCsvReader(const OptionMap& options,
                                                                 const FormatContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto parsed, ParseCsvReadOptions(options));
  ARROW_ASSIGN_OR_RAISE(auto zone, ResolveZone(parsed.parse.time_zone, context));
  return std::make_shared<CsvReader>(std::move(parsed), context, std::move(zone));
}

}  // namespace sluice::formats
