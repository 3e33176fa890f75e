// Reading half of json_schema.h.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <simdjson.h>

#include <arrow/type.h>
#include <arrow/util/key_value_metadata.h>

#include "sluice/common/errors.h"
#include "sluice/types/interval_types.h"
#include "sluice/types/json_schema.h"
#include "sluice/types/spark_types.h"

namespace sluice::types {

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

/// Deeper nesting than this is refused instead of risking the stack.
constexpr int kMaxNestingDepth = 200;

/// The members of a JSON object by key (the last one wins for a repeated key).
using Members = std::map<std::string_view, element>;

/// `value` must be an object.
Members MembersOf(const element& value) {
  Members members;
  simdjson::dom::object object;
  if (value.get_object().get(object) != simdjson::SUCCESS) return members;
  for (auto member : object) members[member.key] = member.value;
  return members;
}

bool HasExactly(const Members& members, std::initializer_list<std::string_view> keys) {
  if (members.size() != keys.size()) return false;
  for (auto key : keys) {
    if (members.count(key) == 0) return false;
  }
  return true;
}

arrow::Status InvalidType(const element& value) {
  return SparkError("INVALID_JSON_DATA_TYPE",
                    "Failed to convert the JSON string '" + simdjson::minify(value) +
                        "' to a data type. Please enter a valid data type.");
}

arrow::Status InvalidField(const element& value) {
  return SparkError("_LEGACY_ERROR_TEMP_3250", "Failed to convert the JSON string '" +
                                                   simdjson::minify(value) + "' to a field.");
}

/// Parses an unsigned decimal number at `text[*pos]`, skipping spaces around it.
bool ReadNumber(std::string_view text, size_t* pos, bool allow_minus, int64_t* number) {
  while (*pos < text.size() && text[*pos] == ' ') ++*pos;
  bool negative = false;
  if (allow_minus && *pos < text.size() && text[*pos] == '-') {
    negative = true;
    ++*pos;
  }
  size_t start = *pos;
  int64_t value = 0;
  while (*pos < text.size() && text[*pos] >= '0' && text[*pos] <= '9') {
    if (value < INT32_MAX) value = value * 10 + (text[*pos] - '0');
    ++*pos;
  }
  if (*pos == start) return false;
  while (*pos < text.size() && text[*pos] == ' ') ++*pos;
  *number = negative ? -value : value;
  return true;
}

/// Matches "<prefix>(n)" or "<prefix>(n,m)" (with spaces allowed inside the parentheses).
bool MatchParameterized(std::string_view name, std::string_view prefix, size_t count,
                        std::vector<int64_t>* numbers) {
  if (name.substr(0, prefix.size()) != prefix || name.size() < prefix.size() + 2 ||
      name[prefix.size()] != '(' || name.back() != ')') {
    return false;
  }
  std::string_view inner = name.substr(prefix.size() + 1, name.size() - prefix.size() - 2);
  size_t pos = 0;
  numbers->clear();
  for (size_t i = 0; i < count; ++i) {
    if (i > 0) {
      if (pos >= inner.size() || inner[pos] != ',') return false;
      ++pos;
    }
    int64_t number = 0;
    // Only a decimal scale may be negative, as Spark's pattern allows.
    if (!ReadNumber(inner, &pos, /*allow_minus=*/i == 1, &number)) return false;
    numbers->push_back(number);
  }
  return pos == inner.size();
}

/// Spark's DataType.nameToType.
arrow::Result<std::shared_ptr<arrow::DataType>> TypeFromName(std::string_view name,
                                                             const element& value) {
  if (name == "null" || name == "void") return arrow::null();
  if (name == "boolean") return arrow::boolean();
  if (name == "byte") return arrow::int8();
  if (name == "short") return arrow::int16();
  if (name == "integer") return arrow::int32();
  if (name == "long") return arrow::int64();
  if (name == "float") return arrow::float32();
  if (name == "double") return arrow::float64();
  if (name == "string" || name == "string collate UTF8_BINARY") return arrow::utf8();
  if (name == "binary") return arrow::binary();
  if (name == "date") return arrow::date32();
  if (name == "timestamp" || name == "timestamp_ltz") return TimestampLtzType();
  if (name == "timestamp_ntz") return TimestampNtzType();
  if (name == "decimal") return MakeDecimalType(kDefaultDecimalPrecision, 0);
  std::vector<int64_t> numbers;
  if (MatchParameterized(name, "decimal", 2, &numbers)) {
    return MakeDecimalType(static_cast<int32_t>(numbers[0]), static_cast<int32_t>(numbers[1]));
  }
  if (MatchParameterized(name, "char", 1, &numbers) ||
      MatchParameterized(name, "varchar", 1, &numbers)) {
    return arrow::utf8();
  }
  if (name.substr(0, 8) == "interval" || name.substr(0, 5) == "time(" || name == "variant" ||
      name == "calendarinterval" || name.substr(0, 14) == "string collate") {
    std::string upper(name);
    for (char& c : upper) {
      if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    }
    if (auto interval = IntervalTypeByName(upper)) return interval;
    return SparkError("UNSUPPORTED_DATATYPE", "Unsupported data type \"" + upper +
                                                  "\". It has no Arrow mapping in this engine.");
  }
  return InvalidType(value);
}

arrow::Result<std::shared_ptr<arrow::DataType>> ReadType(const element& value, int depth);

/// Spark's Metadata.fromJObject into Arrow string metadata: strings stay as they are, other
/// values keep their compact JSON text and are listed under kJsonValuedMetadataKeysKey.
arrow::Result<std::shared_ptr<const arrow::KeyValueMetadata>> ReadMetadata(const element& value) {
  if (value.type() != element_type::OBJECT) return InvalidType(value);
  std::vector<std::string> keys;
  std::vector<std::string> values;
  std::string json_valued;
  simdjson::dom::object object;
  if (value.get_object().get(object) != simdjson::SUCCESS) return InvalidType(value);
  for (auto member : object) {
    keys.emplace_back(member.key);
    if (member.value.type() == element_type::STRING) {
      values.emplace_back(member.value.get_string().value_unsafe());
    } else {
      values.push_back(simdjson::minify(member.value));
      if (!json_valued.empty()) json_valued.push_back('\n');
      json_valued += member.key;
    }
  }
  if (keys.empty()) return nullptr;
  if (!json_valued.empty()) {
    keys.emplace_back(kJsonValuedMetadataKeysKey);
    values.push_back(std::move(json_valued));
  }
  return arrow::key_value_metadata(std::move(keys), std::move(values));
}

arrow::Result<std::shared_ptr<arrow::Field>> ReadField(const element& value, int depth) {
  if (value.type() != element_type::OBJECT) return InvalidField(value);
  const Members members = MembersOf(value);
  const bool has_metadata = members.count("metadata") > 0;
  const bool has_nullable = members.count("nullable") > 0;
  if (members.size() != 2u + has_metadata + has_nullable || members.count("name") == 0 ||
      members.count("type") == 0 || (has_metadata && !has_nullable)) {
    return InvalidField(value);
  }
  std::string_view name;
  if (members.at("name").get_string().get(name) != simdjson::SUCCESS) return InvalidField(value);
  bool nullable = true;
  if (has_nullable && members.at("nullable").get_bool().get(nullable) != simdjson::SUCCESS) {
    return InvalidField(value);
  }
  ARROW_ASSIGN_OR_RAISE(auto type, ReadType(members.at("type"), depth + 1));
  std::shared_ptr<const arrow::KeyValueMetadata> metadata;
  if (has_metadata) {
    ARROW_ASSIGN_OR_RAISE(metadata, ReadMetadata(members.at("metadata")));
  }
  return arrow::field(std::string(name), std::move(type), nullable, std::move(metadata));
}

arrow::Result<std::shared_ptr<arrow::DataType>> ReadType(const element& value, int depth) {
  if (depth > kMaxNestingDepth) {
    return arrow::Status::Invalid("Schema JSON is nested more than ", kMaxNestingDepth,
                                  " levels deep");
  }
  if (value.type() == element_type::STRING) {
    return TypeFromName(value.get_string().value_unsafe(), value);
  }
  if (value.type() != element_type::OBJECT) return InvalidType(value);
  const Members members = MembersOf(value);
  auto type_member = members.find("type");
  std::string_view kind;
  if (type_member == members.end() ||
      type_member->second.get_string().get(kind) != simdjson::SUCCESS) {
    return InvalidType(value);
  }
  if (kind == "array" && HasExactly(members, {"type", "elementType", "containsNull"})) {
    bool contains_null = true;
    if (members.at("containsNull").get_bool().get(contains_null) != simdjson::SUCCESS) {
      return InvalidType(value);
    }
    ARROW_ASSIGN_OR_RAISE(auto element_type, ReadType(members.at("elementType"), depth + 1));
    return MakeArrayType(std::move(element_type), contains_null);
  }
  if (kind == "map" &&
      HasExactly(members, {"type", "keyType", "valueType", "valueContainsNull"})) {
    bool value_contains_null = true;
    if (members.at("valueContainsNull").get_bool().get(value_contains_null) !=
        simdjson::SUCCESS) {
      return InvalidType(value);
    }
    ARROW_ASSIGN_OR_RAISE(auto key, ReadType(members.at("keyType"), depth + 1));
    ARROW_ASSIGN_OR_RAISE(auto item, ReadType(members.at("valueType"), depth + 1));
    return MakeMapType(std::move(key), std::move(item), value_contains_null);
  }
  if (kind == "struct" && HasExactly(members, {"type", "fields"})) {
    simdjson::dom::array fields_json;
    if (members.at("fields").get_array().get(fields_json) != simdjson::SUCCESS) {
      return InvalidType(value);
    }
    std::vector<std::shared_ptr<arrow::Field>> fields;
    for (element field_json : fields_json) {
      ARROW_ASSIGN_OR_RAISE(auto field, ReadField(field_json, depth + 1));
      fields.push_back(std::move(field));
    }
    return arrow::struct_(std::move(fields));
  }
  if (kind == "udt" && members.count("sqlType") > 0) {
    // A user-defined type is stored as its SQL type; the class itself cannot exist here.
    return ReadType(members.at("sqlType"), depth + 1);
  }
  return InvalidType(value);
}

arrow::Result<std::shared_ptr<arrow::DataType>> ParseJsonType(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::padded_string padded(json.data(), json.size());
  element root;
  auto error = parser.parse(padded).get(root);
  if (error != simdjson::SUCCESS) {
    return arrow::Status::Invalid("Schema JSON is malformed (", simdjson::error_message(error),
                                  "); expected Spark's DataType.json form. JSON: ", json);
  }
  return ReadType(root, 0);
}

}  // namespace

arrow::Result<std::shared_ptr<arrow::DataType>> DataTypeFromJson(std::string_view json) {
  return ParseJsonType(json);
}

arrow::Result<std::shared_ptr<arrow::Schema>> SchemaFromJson(std::string_view json) {
  ARROW_ASSIGN_OR_RAISE(auto type, ParseJsonType(json));
  if (type->id() != arrow::Type::STRUCT) {
    return SparkError("FAILED_PARSE_STRUCT_TYPE",
                      "Failed parsing struct: " + std::string(json) + ".");
  }
  return arrow::schema(type->fields());
}

}  // namespace sluice::types
