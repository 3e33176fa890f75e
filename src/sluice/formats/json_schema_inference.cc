// Spark's JSON schema inference (JsonInferSchema) over JSON Lines or multiLine files.
#include <simdjson.h>

#include <algorithm>
#include <map>
#include <memory>

#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/formats/json_reader.h"
#include "sluice/formats/line_reader.h"
#include "sluice/types/spark_types.h"

namespace sluice::formats {

namespace {

namespace ondemand = simdjson::ondemand;

/// A type while inferring: Spark's NullType, BooleanType, LongType, DoubleType,
/// DecimalType(p, s), StringType, StructType (fields sorted by name) or ArrayType.
struct Inferred {
  enum Kind { kNull, kBoolean, kLong, kDouble, kDecimal, kString, kStruct, kArray } kind = kNull;
  int precision = 0;
  int scale = 0;
  std::map<std::string, Inferred> fields;  // sorted, as Spark sorts inferred fields
  std::unique_ptr<Inferred> element;

  Inferred() = default;
  explicit Inferred(Kind k) : kind(k) {}
  Inferred(const Inferred& other)
      : kind(other.kind),
        precision(other.precision),
        scale(other.scale),
        fields(other.fields),
        element(other.element ? std::make_unique<Inferred>(*other.element) : nullptr) {}
  Inferred& operator=(const Inferred& other) {
    if (this != &other) {
      kind = other.kind;
      precision = other.precision;
      scale = other.scale;
      fields = other.fields;
      element = other.element ? std::make_unique<Inferred>(*other.element) : nullptr;
    }
    return *this;
  }
  Inferred(Inferred&&) = default;
  Inferred& operator=(Inferred&&) = default;
};

Inferred DecimalOf(int precision, int scale) {
  Inferred type(Inferred::kDecimal);
  type.precision = precision;
  type.scale = scale;
  return type;
}

/// Spark's JsonInferSchema.compatibleType.
Inferred Merge(const Inferred& a, const Inferred& b) {
  if (a.kind == Inferred::kNull) return b;
  if (b.kind == Inferred::kNull) return a;
  if (a.kind == b.kind) {
    switch (a.kind) {
      case Inferred::kStruct: {
        Inferred merged = a;
        for (const auto& [name, type] : b.fields) {
          auto found = merged.fields.find(name);
          if (found == merged.fields.end()) {
            merged.fields.emplace(name, type);
          } else {
            found->second = Merge(found->second, type);
          }
        }
        return merged;
      }
      case Inferred::kArray: {
        Inferred merged(Inferred::kArray);
        merged.element = std::make_unique<Inferred>(Merge(*a.element, *b.element));
        return merged;
      }
      case Inferred::kDecimal: {
        int scale = std::max(a.scale, b.scale);
        int range = std::max(a.precision - a.scale, b.precision - b.scale);
        if (range + scale > types::kMaxDecimalPrecision) return Inferred(Inferred::kDouble);
        return DecimalOf(range + scale, scale);
      }
      default:
        return a;
    }
  }
  auto is = [&](Inferred::Kind x, Inferred::Kind y) {
    return (a.kind == x && b.kind == y) || (a.kind == y && b.kind == x);
  };
  if (is(Inferred::kLong, Inferred::kDouble)) return Inferred(Inferred::kDouble);
  if (is(Inferred::kDouble, Inferred::kDecimal)) return Inferred(Inferred::kDouble);
  if (is(Inferred::kLong, Inferred::kDecimal)) {
    const Inferred& decimal = a.kind == Inferred::kDecimal ? a : b;
    return Merge(decimal, DecimalOf(20, 0));
  }
  return Inferred(Inferred::kString);
}

class Inferrer {
 public:
  explicit Inferrer(const JsonReadOptions& options) : options_(options) {}

  /// Infers one record; false if it is malformed.
  bool InferRecord(std::string_view text, size_t padded_size, Inferred* out, bool* blank) {
    *blank = false;
    size_t first = 0;
    while (first < text.size() && static_cast<unsigned char>(text[first]) <= ' ') ++first;
    if (first == text.size()) {
      *blank = true;
      return true;
    }
    ondemand::document document;
    if (parser_.iterate(simdjson::padded_string_view(text.data(), text.size(), padded_size))
            .get(document)) {
      return false;
    }
    ondemand::json_type type;
    if (document.type().get(type)) return false;
    if (type == ondemand::json_type::object) {
      ondemand::object object;
      if (document.get_object().get(object)) return false;
      return InferObject(object, out);
    }
    if (type == ondemand::json_type::array) {
      ondemand::array array;
      if (document.get_array().get(array)) return false;
      Inferred merged(Inferred::kStruct);
      for (auto element : array) {
        ondemand::value value;
        ondemand::json_type element_type;
        if (element.get(value) || value.type().get(element_type)) return false;
        if (element_type != ondemand::json_type::object) return false;
        ondemand::object object;
        Inferred one;
        if (value.get_object().get(object) || !InferObject(object, &one)) return false;
        merged = Merge(merged, one);
      }
      *out = std::move(merged);
      return true;
    }
    return false;
  }

 private:
  bool InferObject(ondemand::object& object, Inferred* out) {
    Inferred result(Inferred::kStruct);
    for (auto field_result : object) {
      ondemand::field field;
      std::string_view key;
      if (std::move(field_result).get(field) || field.unescaped_key().get(key)) return false;
      std::string name(key);
      Inferred value;
      if (!InferValue(field.value(), &value)) return false;
      auto found = result.fields.find(name);
      if (found == result.fields.end()) {
        result.fields.emplace(std::move(name), std::move(value));
      } else {
        found->second = Merge(found->second, value);
      }
    }
    *out = std::move(result);
    return true;
  }

  bool InferValue(ondemand::value value, Inferred* out) {
    ondemand::json_type type;
    if (value.type().get(type)) return false;
    switch (type) {
      case ondemand::json_type::null: {
        bool is_null;
        if (value.is_null().get(is_null) || !is_null) return false;
        *out = Inferred(Inferred::kNull);
        return true;
      }
      case ondemand::json_type::boolean: {
        bool ignored;
        if (value.get_bool().get(ignored)) return false;
        *out = Inferred(options_.primitives_as_string ? Inferred::kString : Inferred::kBoolean);
        return true;
      }
      case ondemand::json_type::string: {
        std::string_view ignored;
        if (value.get_string().get(ignored)) return false;
        *out = Inferred(Inferred::kString);
        return true;
      }
      case ondemand::json_type::number: {
        if (options_.primitives_as_string) {
          *out = Inferred(Inferred::kString);
          return true;
        }
        std::string_view token = value.raw_json_token();
        while (!token.empty() && static_cast<unsigned char>(token.back()) <= ' ') {
          token.remove_suffix(1);
        }
        bool integral = token.find_first_of(".eE") == std::string_view::npos;
        if (integral) {
          int64_t ignored;
          if (!value.get_int64().get(ignored)) {
            *out = Inferred(Inferred::kLong);
            return true;
          }
          size_t digits = token.size() - (token.starts_with('-') ? 1 : 0);
          if (digits <= static_cast<size_t>(types::kMaxDecimalPrecision)) {
            *out = DecimalOf(static_cast<int>(digits), 0);
          } else {
            *out = Inferred(Inferred::kDouble);
          }
          return true;
        }
        double ignored;
        if (value.get_double().get(ignored)) {
          // Out of double's range: still a floating number for Spark.
        }
        if (options_.prefers_decimal) {
          arrow::Decimal128 decimal;
          int32_t precision = 0, scale = 0;
          if (arrow::Decimal128::FromString(token, &decimal, &precision, &scale).ok() &&
              std::max(precision, scale) <= types::kMaxDecimalPrecision && scale >= 0) {
            *out = DecimalOf(std::max(precision, scale), scale);
            return true;
          }
        }
        *out = Inferred(Inferred::kDouble);
        return true;
      }
      case ondemand::json_type::object: {
        ondemand::object object;
        if (value.get_object().get(object)) return false;
        return InferObject(object, out);
      }
      case ondemand::json_type::array: {
        ondemand::array array;
        if (value.get_array().get(array)) return false;
        Inferred element(Inferred::kNull);
        for (auto item : array) {
          ondemand::value item_value;
          if (item.get(item_value)) return false;
          Inferred one;
          if (!InferValue(item_value, &one)) return false;
          element = Merge(element, one);
        }
        Inferred result(Inferred::kArray);
        result.element = std::make_unique<Inferred>(std::move(element));
        *out = std::move(result);
        return true;
      }
    }
    return false;
  }

  JsonReadOptions options_;
  ondemand::parser parser_;
};

/// Spark's canonicalizeType: null -> string, empty structs (and arrays of them) dropped.
std::shared_ptr<arrow::DataType> ToArrow(const Inferred& type, bool drop_all_null) {
  switch (type.kind) {
    case Inferred::kNull: return drop_all_null ? nullptr : arrow::utf8();
    case Inferred::kBoolean: return arrow::boolean();
    case Inferred::kLong: return arrow::int64();
    case Inferred::kDouble: return arrow::float64();
    case Inferred::kDecimal: return arrow::decimal128(type.precision, type.scale);
    case Inferred::kString: return arrow::utf8();
    case Inferred::kArray: {
      auto element = ToArrow(*type.element, drop_all_null);
      if (element == nullptr) return nullptr;
      return types::MakeArrayType(element, true);
    }
    case Inferred::kStruct: {
      arrow::FieldVector fields;
      for (const auto& [name, field_type] : type.fields) {
        if (name.empty()) continue;
        auto arrow_type = ToArrow(field_type, drop_all_null);
        if (arrow_type != nullptr) fields.push_back(arrow::field(name, arrow_type, true));
      }
      if (fields.empty()) return nullptr;
      return arrow::struct_(fields);
    }
  }
  return nullptr;
}

}  // namespace

arrow::Result<std::shared_ptr<arrow::Schema>> InferJsonSchema(
    const std::vector<std::string>& files, const JsonReadOptions& options) {
  Inferrer inferrer(options);
  Inferred merged(Inferred::kStruct);
  bool any_malformed = false;
  auto infer_one = [&](std::string_view text, size_t padded, const std::string& file,
                       int64_t line) -> arrow::Status {
    Inferred record;
    bool blank = false;
    if (inferrer.InferRecord(text, padded, &record, &blank)) {
      if (!blank) merged = Merge(merged, record);
      return arrow::Status::OK();
    }
    switch (options.parse.mode) {
      case ParseMode::kPermissive:
        any_malformed = true;
        break;
      case ParseMode::kDropMalformed:
        break;
      case ParseMode::kFailFast:
        return SparkError("MALFORMED_RECORD_IN_SCHEMA_INFERENCE",
                          "Malformed records are detected in schema inference. Parse Mode: "
                          "FAILFAST. File: file:" + file + ", line " + std::to_string(line) +
                              ", record: " + std::string(text) + ".");
    }
    return arrow::Status::OK();
  };
  for (const auto& file : files) {
    if (options.parse.multi_line) {
      ARROW_ASSIGN_OR_RAISE(std::string content, ReadWholeFile(file));
      ARROW_RETURN_NOT_OK(infer_one(content, content.capacity(), file, 1));
      continue;
    }
    ARROW_ASSIGN_OR_RAISE(auto lines, LineReader::Open(file));
    while (true) {
      ARROW_ASSIGN_OR_RAISE(auto line, lines->Next());
      if (!line) break;
      ARROW_RETURN_NOT_OK(infer_one(*line, line->size() + kLinePadding, file,
                                    lines->line_number()));
    }
  }
  if (any_malformed) {
    merged.fields.emplace(options.parse.column_name_of_corrupt_record,
                          Inferred(Inferred::kString));
  }
  auto type = ToArrow(merged, options.drop_field_if_all_null);
  if (type == nullptr) {
    return SparkError("UNABLE_TO_INFER_SCHEMA",
                      "Unable to infer schema for JSON. It must be specified manually.");
  }
  return arrow::schema(type->fields());
}

}  // namespace sluice::formats
