#include "sluice/formats/json_reader.h"

#include <simdjson.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <unordered_map>

#include <arrow/type.h>
#include <arrow/util/decimal.h>

#include "sluice/common/errors.h"
#include "sluice/datetime/calendar.h"
#include "sluice/datetime/parse.h"
#include "sluice/datetime/pattern.h"
#include "sluice/formats/column_buffer.h"
#include "sluice/formats/line_reader.h"
#include "sluice/formats/text_values.h"

namespace sluice::formats {

namespace {

namespace ondemand = simdjson::ondemand;

/// What became of one value: converted, not convertible to the field's type (the field is null
/// and the record is malformed, Spark's partial result), or not JSON at all.
enum class Outcome { kOk, kConversionFailed, kSyntaxError };

/// Field lookup of one struct level, with a guess that keys come in schema order.
struct StructLookup {
  std::vector<std::string> names;
  std::unordered_map<std::string_view, int> index;
  std::vector<uint8_t> seen;  // scratch for the row being decoded
  size_t hint = 0;

  int Find(std::string_view key) {
    if (hint < names.size() && names[hint] == key) return static_cast<int>(hint++);
    auto found = index.find(key);
    if (found == index.end()) return -1;
    hint = static_cast<size_t>(found->second) + 1;
    return found->second;
  }
};

std::string_view TrimToken(std::string_view token) {
  while (!token.empty() && (token.back() == ' ' || token.back() == '\t' || token.back() == '\n' ||
                            token.back() == '\r')) {
    token.remove_suffix(1);
  }
  return token;
}

}  // namespace

class JsonRecordDecoder::Impl {
 public:
  arrow::Status Init(std::shared_ptr<arrow::Schema> schema, const JsonReadOptions& options,
                     std::shared_ptr<const datetime::TimeZone> zone) {
    schema_ = std::move(schema);
    options_ = options;
    zone_ = std::move(zone);
    if (options.parse.timestamp_format) {
      ARROW_ASSIGN_OR_RAISE(timestamp_pattern_,
                            datetime::DateTimePattern::Compile(*options.parse.timestamp_format));
    }
    if (options.parse.timestamp_ntz_format) {
      ARROW_ASSIGN_OR_RAISE(
          timestamp_ntz_pattern_,
          datetime::DateTimePattern::Compile(*options.parse.timestamp_ntz_format));
    }
    if (options.parse.date_format) {
      ARROW_ASSIGN_OR_RAISE(date_pattern_,
                            datetime::DateTimePattern::Compile(*options.parse.date_format));
    }
    // The corrupt-record column is filled by the decoder, not from the JSON fields.
    arrow::FieldVector data_fields;
    for (int i = 0; i < schema_->num_fields(); ++i) {
      const auto& field = schema_->field(i);
      if (field->name() == options.parse.column_name_of_corrupt_record) {
        if (field->type()->id() != arrow::Type::STRING) {
          return SparkError("INVALID_CORRUPT_RECORD_TYPE",
                            "The column " + QuoteIdentifier(field->name()) +
                                " for corrupt records must have the nullable STRING type, but "
                                "got " + field->type()->ToString() + ".");
        }
        corrupt_index_ = i;
        continue;
      }
      data_positions_.push_back(i);
      data_fields.push_back(field);
    }
    ARROW_ASSIGN_OR_RAISE(root_, ColumnBuffer::Make(arrow::struct_(data_fields)));
    corrupt_ = std::make_unique<ColumnBuffer>();
    ARROW_ASSIGN_OR_RAISE(corrupt_, ColumnBuffer::Make(arrow::utf8()));
    BuildLookups(*root_);
    return arrow::Status::OK();
  }

  arrow::Status Decode(std::string_view text, size_t padded_size, const std::string& file,
                       int64_t line) {
    const int64_t start = root_->length();
    Outcome outcome = DecodeDocument(text, padded_size);
    if (outcome == Outcome::kOk) {
      // Rows appended (possibly none for a blank record); their corrupt column is null.
      while (corrupt_->length() < root_->length()) corrupt_->AppendNull();
      return arrow::Status::OK();
    }
    switch (options_.parse.mode) {
      case ParseMode::kPermissive:
        if (outcome == Outcome::kSyntaxError || root_->length() != start + 1) {
          root_->Truncate(start);
          root_->AppendNull();
        }
        corrupt_->Truncate(start);
        corrupt_->AppendBytes(text);
        return arrow::Status::OK();
      case ParseMode::kDropMalformed:
        root_->Truncate(start);
        corrupt_->Truncate(start);
        return arrow::Status::OK();
      case ParseMode::kFailFast:
        root_->Truncate(start);
        corrupt_->Truncate(start);
        return SparkError(
            "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION",
            "Malformed records are detected in record parsing: " + std::string(text) +
                ".\nParse Mode: FAILFAST. To process malformed records as null result, try "
                "setting the option 'mode' as 'PERMISSIVE'. File: file:" + file +
                ", line " + std::to_string(line) + ".");
    }
    return arrow::Status::OK();
  }

  int64_t num_rows() const { return root_->length(); }

  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Flush() {
    const int64_t rows = root_->length();
    std::vector<std::shared_ptr<arrow::Array>> columns(schema_->num_fields());
    for (size_t i = 0; i < data_positions_.size(); ++i) {
      ARROW_ASSIGN_OR_RAISE(columns[data_positions_[i]], root_->children[i]->Finish());
    }
    root_->validity.clear();
    if (corrupt_index_ >= 0) {
      ARROW_ASSIGN_OR_RAISE(columns[corrupt_index_], corrupt_->Finish());
    } else {
      corrupt_->Truncate(0);
    }
    return arrow::RecordBatch::Make(schema_, rows, std::move(columns));
  }

 private:
  void BuildLookups(const ColumnBuffer& column) {
    if (column.kind == ColumnKind::kStruct) {
      auto lookup = std::make_unique<StructLookup>();
      for (int i = 0; i < column.type->num_fields(); ++i) {
        lookup->names.push_back(column.type->field(i)->name());
      }
      for (size_t i = 0; i < lookup->names.size(); ++i) {
        lookup->index.emplace(lookup->names[i], static_cast<int>(i));
      }
      lookup->seen.resize(lookup->names.size());
      lookups_.emplace(&column, std::move(lookup));
    }
    for (const auto& child : column.children) BuildLookups(*child);
  }

  /// True when objects and arrays nest deeper than Jackson's limit (StreamReadConstraints:
  /// 1000), which makes Spark take the record as malformed. simdjson would read it (a string
  /// column keeps a nested value's text without descending into it), so the depth is counted
  /// here, only in records long enough to reach it.
  static bool NestedTooDeep(std::string_view text) {
    constexpr int kMaxDepth = 1000;
    if (text.size() <= 2 * kMaxDepth) return false;
    int depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < text.size(); ++i) {
      char c = text[i];
      if (in_string) {
        if (c == '\\') {
          ++i;
        } else if (c == '"') {
          in_string = false;
        }
      } else if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        if (++depth > kMaxDepth) return true;
      } else if (c == '}' || c == ']') {
        --depth;
      }
    }
    return false;
  }

  Outcome DecodeDocument(std::string_view text, size_t padded_size) {
    // A blank record yields no row, as in Spark.
    size_t first = 0;
    while (first < text.size() && (text[first] == ' ' || text[first] == '\t' ||
                                   text[first] == '\n' || text[first] == '\r')) {
      ++first;
    }
    if (first == text.size()) return Outcome::kOk;
    if (NestedTooDeep(text)) return Outcome::kSyntaxError;
    ondemand::document document;
    if (parser_.iterate(simdjson::padded_string_view(text.data(), text.size(), padded_size))
            .get(document)) {
      return Outcome::kSyntaxError;
    }
    ondemand::json_type type;
    if (document.type().get(type)) return Outcome::kSyntaxError;
    if (type == ondemand::json_type::object) {
      ondemand::object object;
      if (document.get_object().get(object)) return Outcome::kSyntaxError;
      return DecodeObject(object, *root_);
    }
    if (type == ondemand::json_type::array) {
      // A top-level array of objects: one row per element.
      ondemand::array array;
      if (document.get_array().get(array)) return Outcome::kSyntaxError;
      Outcome outcome = Outcome::kOk;
      for (auto element : array) {
        ondemand::value value;
        if (element.get(value)) return Outcome::kSyntaxError;
        ondemand::json_type element_type;
        if (value.type().get(element_type)) return Outcome::kSyntaxError;
        if (element_type != ondemand::json_type::object) return Outcome::kSyntaxError;
        ondemand::object object;
        if (value.get_object().get(object)) return Outcome::kSyntaxError;
        Outcome row = DecodeObject(object, *root_);
        if (row == Outcome::kSyntaxError) return row;
        if (row == Outcome::kConversionFailed) outcome = row;
      }
      return outcome;
    }
    return Outcome::kSyntaxError;
  }

  Outcome DecodeObject(ondemand::object& object, ColumnBuffer& column) {
    StructLookup& lookup = *lookups_[&column];
    const int64_t row = column.length();
    std::fill(lookup.seen.begin(), lookup.seen.end(), 0);
    lookup.hint = 0;
    Outcome outcome = Outcome::kOk;
    for (auto field_result : object) {
      ondemand::field field;
      if (std::move(field_result).get(field)) return Outcome::kSyntaxError;
      std::string_view key;
      if (field.unescaped_key().get(key)) return Outcome::kSyntaxError;
      int index = lookup.Find(key);
      if (index < 0) continue;
      ColumnBuffer& child = *column.children[static_cast<size_t>(index)];
      if (lookup.seen[static_cast<size_t>(index)]) child.Truncate(row);  // last one wins
      lookup.seen[static_cast<size_t>(index)] = 1;
      Outcome value = DecodeValue(field.value(), child);
      if (value == Outcome::kSyntaxError) return value;
      if (value == Outcome::kConversionFailed) outcome = value;
    }
    for (size_t i = 0; i < lookup.seen.size(); ++i) {
      if (!lookup.seen[i]) column.children[i]->AppendNull();
    }
    column.EndStruct();
    return outcome;
  }

  static Outcome Fail(ColumnBuffer& column) {
    column.AppendNull();
    return Outcome::kConversionFailed;
  }

  template <typename T>
  Outcome AppendIntegral(ondemand::value& value, ondemand::json_type type, ColumnBuffer& column) {
    if (type != ondemand::json_type::number) return Fail(column);
    int64_t parsed;
    if (value.get_int64().get(parsed)) return Fail(column);
    if (parsed < std::numeric_limits<T>::min() || parsed > std::numeric_limits<T>::max()) {
      return Fail(column);
    }
    column.AppendFixed<T>(static_cast<T>(parsed));
    return Outcome::kOk;
  }

  template <typename T>
  Outcome AppendFloating(ondemand::value& value, ondemand::json_type type, ColumnBuffer& column) {
    double parsed;
    if (type == ondemand::json_type::number) {
      if (value.get_double().get(parsed)) {
        // Beyond double's range: Jackson gives infinity.
        std::string_view token = TrimToken(value.raw_json_token());
        parsed = token.starts_with('-') ? -std::numeric_limits<double>::infinity()
                                        : std::numeric_limits<double>::infinity();
      }
    } else if (type == ondemand::json_type::string && options_.allow_non_numeric_numbers) {
      std::string_view text;
      if (value.get_string().get(text)) return Outcome::kSyntaxError;
      auto special = ParseNonNumericNumber(text);
      if (!special) return Fail(column);
      parsed = *special;
    } else {
      return Fail(column);
    }
    column.AppendFixed<T>(static_cast<T>(parsed));
    return Outcome::kOk;
  }

  Outcome DecodeValue(ondemand::value value, ColumnBuffer& column) {
    ondemand::json_type type;
    if (value.type().get(type)) return Outcome::kSyntaxError;
    if (type == ondemand::json_type::null) {
      bool is_null = false;
      if (value.is_null().get(is_null) || !is_null) return Outcome::kSyntaxError;
      column.AppendNull();
      return Outcome::kOk;
    }
    switch (column.kind) {
      case ColumnKind::kNull:
        column.AppendNull();
        return Outcome::kOk;
      case ColumnKind::kBoolean: {
        bool parsed;
        if (type != ondemand::json_type::boolean) return Fail(column);
        if (value.get_bool().get(parsed)) return Outcome::kSyntaxError;
        column.AppendFixed<uint8_t>(parsed ? 1 : 0);
        return Outcome::kOk;
      }
      case ColumnKind::kInt8: return AppendIntegral<int8_t>(value, type, column);
      case ColumnKind::kInt16: return AppendIntegral<int16_t>(value, type, column);
      case ColumnKind::kInt32: return AppendIntegral<int32_t>(value, type, column);
      case ColumnKind::kInt64: return AppendIntegral<int64_t>(value, type, column);
      case ColumnKind::kFloat: return AppendFloating<float>(value, type, column);
      case ColumnKind::kDouble: return AppendFloating<double>(value, type, column);
      case ColumnKind::kDecimal: {
        std::string_view text;
        if (type == ondemand::json_type::number) {
          text = TrimToken(value.raw_json_token());
        } else if (type == ondemand::json_type::string) {
          if (value.get_string().get(text)) return Outcome::kSyntaxError;
        } else {
          return Fail(column);
        }
        auto parsed = ParseDecimalText(text, *column.type);
        if (!parsed) return Fail(column);
        column.AppendFixed(*parsed);
        return Outcome::kOk;
      }
      case ColumnKind::kString: {
        std::string_view text;
        switch (type) {
          case ondemand::json_type::string:
            if (value.get_string().get(text)) return Outcome::kSyntaxError;
            column.AppendBytes(text);
            return Outcome::kOk;
          case ondemand::json_type::number:
          case ondemand::json_type::boolean:
            column.AppendBytes(TrimToken(value.raw_json_token()));
            return Outcome::kOk;
          case ondemand::json_type::object: {
            ondemand::object object;
            if (value.get_object().get(object) || object.raw_json().get(text)) {
              return Outcome::kSyntaxError;
            }
            return AppendMinified(text, column);
          }
          case ondemand::json_type::array: {
            ondemand::array array;
            if (value.get_array().get(array) || array.raw_json().get(text)) {
              return Outcome::kSyntaxError;
            }
            return AppendMinified(text, column);
          }
          default:
            return Fail(column);
        }
      }
      case ColumnKind::kBinary: {
        std::string_view text;
        if (type != ondemand::json_type::string) return Fail(column);
        if (value.get_string().get(text)) return Outcome::kSyntaxError;
        auto decoded = DecodeBase64(text);
        if (!decoded) return Fail(column);
        column.AppendBytes(*decoded);
        return Outcome::kOk;
      }
      case ColumnKind::kDate: {
        std::string_view text;
        if (type != ondemand::json_type::string) return Fail(column);
        if (value.get_string().get(text)) return Outcome::kSyntaxError;
        std::optional<int64_t> days;
        if (date_pattern_) {
          datetime::ParsedDateTime parsed;
          std::string error;
          if (date_pattern_->Parse(text, &parsed, &error)) {
            days = datetime::FloorDiv(parsed.local_micros, datetime::kMicrosPerDay);
          }
        }
        if (!days) days = datetime::ParseDate(text);
        if (!days) return Fail(column);
        column.AppendFixed<int32_t>(static_cast<int32_t>(*days));
        return Outcome::kOk;
      }
      case ColumnKind::kTimestamp:
      case ColumnKind::kTimestampNtz: {
        const bool ntz = column.kind == ColumnKind::kTimestampNtz;
        if (type == ondemand::json_type::number && !ntz) {
          int64_t seconds;
          if (value.get_int64().get(seconds)) return Fail(column);
          if (seconds > std::numeric_limits<int64_t>::max() / 1000000 ||
              seconds < std::numeric_limits<int64_t>::min() / 1000000) {
            return Fail(column);
          }
          column.AppendFixed<int64_t>(seconds * 1000000);
          return Outcome::kOk;
        }
        std::string_view text;
        if (type != ondemand::json_type::string) return Fail(column);
        if (value.get_string().get(text)) return Outcome::kSyntaxError;
        const auto& pattern = ntz ? timestamp_ntz_pattern_ : timestamp_pattern_;
        std::optional<int64_t> micros;
        if (pattern) {
          datetime::ParsedDateTime parsed;
          std::string error;
          if (!pattern->Parse(text, &parsed, &error)) return Fail(column);
          if (ntz) {
            // A time zone in the text does not fit a timestamp without one.
            if (parsed.has_offset || parsed.zone) return Fail(column);
            micros = parsed.local_micros;
          } else {
            micros = parsed.ToUtcMicros(*zone_);
          }
        } else if (ntz) {
          micros = datetime::ParseTimestampNtz(text, /*allow_zone=*/false, std::nullopt);
        } else {
          micros = datetime::ParseTimestamp(text, *zone_, std::nullopt);
        }
        if (!micros) return Fail(column);
        column.AppendFixed<int64_t>(*micros);
        return Outcome::kOk;
      }
      case ColumnKind::kStruct: {
        if (type != ondemand::json_type::object) return Fail(column);
        ondemand::object object;
        if (value.get_object().get(object)) return Outcome::kSyntaxError;
        return DecodeObject(object, column);
      }
      case ColumnKind::kList: {
        if (type != ondemand::json_type::array) return Fail(column);
        ondemand::array array;
        if (value.get_array().get(array)) return Outcome::kSyntaxError;
        ColumnBuffer& elements = *column.children[0];
        const int64_t start = elements.length();
        Outcome outcome = Outcome::kOk;
        for (auto element : array) {
          ondemand::value element_value;
          if (element.get(element_value)) return Outcome::kSyntaxError;
          Outcome one = DecodeValue(element_value, elements);
          if (one == Outcome::kSyntaxError) return one;
          if (one == Outcome::kConversionFailed) outcome = one;
        }
        if (outcome != Outcome::kOk) {
          elements.Truncate(start);
          return Fail(column);
        }
        column.EndNested(elements.length());
        return Outcome::kOk;
      }
      case ColumnKind::kMap: {
        if (type != ondemand::json_type::object) return Fail(column);
        ondemand::object object;
        if (value.get_object().get(object)) return Outcome::kSyntaxError;
        ColumnBuffer& keys = *column.children[0];
        ColumnBuffer& items = *column.children[1];
        const int64_t start = keys.length();
        Outcome outcome = Outcome::kOk;
        for (auto field_result : object) {
          ondemand::field field;
          if (std::move(field_result).get(field)) return Outcome::kSyntaxError;
          std::string_view key;
          if (field.unescaped_key().get(key)) return Outcome::kSyntaxError;
          if (keys.kind != ColumnKind::kString) {
            outcome = Outcome::kConversionFailed;
            continue;
          }
          keys.AppendBytes(key);
          Outcome one = DecodeValue(field.value(), items);
          if (one == Outcome::kSyntaxError) return one;
          if (one == Outcome::kConversionFailed) outcome = one;
        }
        if (outcome != Outcome::kOk) {
          keys.Truncate(start);
          items.Truncate(start);
          return Fail(column);
        }
        column.EndNested(keys.length());
        return Outcome::kOk;
      }
    }
    return Fail(column);
  }

  Outcome AppendMinified(std::string_view json, ColumnBuffer& column) {
    scratch_.resize(json.size() + simdjson::SIMDJSON_PADDING);
    size_t length = 0;
    if (simdjson::minify(json.data(), json.size(), scratch_.data(), length)) {
      column.AppendBytes(json);
    } else {
      column.AppendBytes(std::string_view(scratch_.data(), length));
    }
    return Outcome::kOk;
  }

  std::shared_ptr<arrow::Schema> schema_;
  JsonReadOptions options_;
  std::shared_ptr<const datetime::TimeZone> zone_;
  std::optional<datetime::DateTimePattern> timestamp_pattern_;
  std::optional<datetime::DateTimePattern> timestamp_ntz_pattern_;
  std::optional<datetime::DateTimePattern> date_pattern_;
  std::unique_ptr<ColumnBuffer> root_;
  std::unique_ptr<ColumnBuffer> corrupt_;
  std::vector<int> data_positions_;
  int corrupt_index_ = -1;
  std::unordered_map<const ColumnBuffer*, std::unique_ptr<StructLookup>> lookups_;
  ondemand::parser parser_;
  std::string scratch_;
};

JsonRecordDecoder::JsonRecordDecoder(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
JsonRecordDecoder::~JsonRecordDecoder() = default;

arrow::Result<std::unique_ptr<JsonRecordDecoder>> JsonRecordDecoder::Make(
    std::shared_ptr<arrow::Schema> schema, const JsonReadOptions& options,
    std::shared_ptr<const datetime::TimeZone> zone) {
  auto impl = std::make_unique<Impl>();
  ARROW_RETURN_NOT_OK(impl->Init(std::move(schema), options, std::move(zone)));
  return std::unique_ptr<JsonRecordDecoder>(new JsonRecordDecoder(std::move(impl)));
}

arrow::Status JsonRecordDecoder::Decode(std::string_view text, size_t padded_size,
                                        const std::string& file, int64_t line) {
  return impl_->Decode(text, padded_size, file, line);
}

int64_t JsonRecordDecoder::num_rows() const { return impl_->num_rows(); }

arrow::Result<std::shared_ptr<arrow::RecordBatch>> JsonRecordDecoder::Flush() {
  return impl_->Flush();
}

namespace {

/// Batches of one JSON file: lines decoded until a batch is full.
class JsonFileReader final : public arrow::RecordBatchReader {
 public:
  JsonFileReader(std::string path, std::shared_ptr<arrow::Schema> schema,
                 std::unique_ptr<JsonRecordDecoder> decoder, std::unique_ptr<LineReader> lines,
                 std::string whole_file, int64_t batch_rows)
      : path_(std::move(path)),
        schema_(std::move(schema)),
        decoder_(std::move(decoder)),
        lines_(std::move(lines)),
        whole_file_(std::move(whole_file)),
        batch_rows_(batch_rows) {}

  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }

  arrow::Status ReadNext(std::shared_ptr<arrow::RecordBatch>* batch) override {
    *batch = nullptr;
    if (done_) return arrow::Status::OK();
    if (lines_ == nullptr) {
      // multiLine: the whole file is one record.
      ARROW_RETURN_NOT_OK(
          decoder_->Decode(whole_file_, whole_file_.capacity(), path_, /*line=*/1));
      done_ = true;
      std::string().swap(whole_file_);
      ARROW_ASSIGN_OR_RAISE(*batch, decoder_->Flush());
      return arrow::Status::OK();
    }
    while (decoder_->num_rows() < batch_rows_) {
      ARROW_ASSIGN_OR_RAISE(auto line, lines_->Next());
      if (!line) {
        done_ = true;
        break;
      }
      ARROW_RETURN_NOT_OK(
          decoder_->Decode(*line, line->size() + kLinePadding, path_, lines_->line_number()));
    }
    if (decoder_->num_rows() == 0 && done_) return arrow::Status::OK();
    ARROW_ASSIGN_OR_RAISE(*batch, decoder_->Flush());
    return arrow::Status::OK();
  }

 private:
  std::string path_;
  std::shared_ptr<arrow::Schema> schema_;
  std::unique_ptr<JsonRecordDecoder> decoder_;
  std::unique_ptr<LineReader> lines_;
  std::string whole_file_;
  int64_t batch_rows_;
  bool done_ = false;
};

}  // namespace

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> OpenJsonFile(
    const std::string& path, std::shared_ptr<arrow::Schema> schema, const JsonReadOptions& options,
    std::shared_ptr<const datetime::TimeZone> zone, int64_t batch_rows) {
  ARROW_ASSIGN_OR_RAISE(auto decoder, JsonRecordDecoder::Make(schema, options, std::move(zone)));
  std::unique_ptr<LineReader> lines;
  std::string whole_file;
  if (options.parse.multi_line) {
    ARROW_ASSIGN_OR_RAISE(whole_file, ReadWholeFile(path));
  } else {
    ARROW_ASSIGN_OR_RAISE(lines, LineReader::Open(path));
  }
  return std::make_shared<JsonFileReader>(path, std::move(schema), std::move(decoder),
                                          std::move(lines), std::move(whole_file), batch_rows);
}

}  // namespace sluice::formats
