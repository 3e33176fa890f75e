// Writing half of json_schema.h.
#include <string>

#include "sluice/common/json_string.h"
#include <string_view>
#include <unordered_set>

#include <arrow/type.h>
#include <arrow/util/checked_cast.h>
#include <arrow/util/key_value_metadata.h>

#include "sluice/types/json_schema.h"
#include "sluice/types/spark_type_names.h"

namespace sluice::types {

namespace {

using arrow::internal::checked_cast;


const char* JsonBool(bool value) { return value ? "true" : "false"; }

bool IsReaderAddedKey(std::string_view key) {
  return key.substr(0, 8) == "PARQUET:" || key.substr(0, 6) == "ARROW:";
}

std::unordered_set<std::string> JsonValuedKeys(const arrow::KeyValueMetadata& metadata) {
  std::unordered_set<std::string> keys;
  auto listed = metadata.Get(kJsonValuedMetadataKeysKey);
  if (!listed.ok()) return keys;
  std::string_view rest = *listed;
  while (!rest.empty()) {
    size_t end = rest.find('\n');
    keys.emplace(rest.substr(0, end));
    if (end == std::string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  return keys;
}

void AppendMetadata(const arrow::Field& field, std::string* out) {
  out->push_back('{');
  if (field.metadata() != nullptr) {
    const auto& metadata = *field.metadata();
    const auto json_valued = JsonValuedKeys(metadata);
    bool first = true;
    for (int64_t i = 0; i < metadata.size(); ++i) {
      const std::string& key = metadata.key(i);
      if (key == kJsonValuedMetadataKeysKey || IsReaderAddedKey(key)) continue;
      if (!first) out->push_back(',');
      first = false;
      AppendJsonString(key, out);
      out->push_back(':');
      if (json_valued.count(key) > 0) {
        *out += metadata.value(i);
      } else {
        AppendJsonString(metadata.value(i), out);
      }
    }
  }
  out->push_back('}');
}

void AppendType(const arrow::DataType& type, std::string* out);

void AppendField(const arrow::Field& field, std::string* out) {
  *out += "{\"name\":";
  AppendJsonString(field.name(), out);
  *out += ",\"type\":";
  AppendType(*field.type(), out);
  *out += ",\"nullable\":";
  *out += JsonBool(field.nullable());
  *out += ",\"metadata\":";
  AppendMetadata(field, out);
  out->push_back('}');
}

void AppendStruct(const arrow::FieldVector& fields, std::string* out) {
  *out += "{\"type\":\"struct\",\"fields\":[";
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out->push_back(',');
    AppendField(*fields[i], out);
  }
  *out += "]}";
}

void AppendType(const arrow::DataType& type, std::string* out) {
  switch (type.id()) {
    case arrow::Type::STRUCT:
      AppendStruct(type.fields(), out);
      return;
    case arrow::Type::MAP: {
      const auto& map = checked_cast<const arrow::MapType&>(type);
      *out += "{\"type\":\"map\",\"keyType\":";
      AppendType(*map.key_type(), out);
      *out += ",\"valueType\":";
      AppendType(*map.item_type(), out);
      *out += ",\"valueContainsNull\":";
      *out += JsonBool(map.item_field()->nullable());
      out->push_back('}');
      return;
    }
    case arrow::Type::LIST:
    case arrow::Type::LARGE_LIST:
    case arrow::Type::LIST_VIEW:
    case arrow::Type::LARGE_LIST_VIEW:
    case arrow::Type::FIXED_SIZE_LIST: {
      const auto& element = *checked_cast<const arrow::BaseListType&>(type).value_field();
      *out += "{\"type\":\"array\",\"elementType\":";
      AppendType(*element.type(), out);
      *out += ",\"containsNull\":";
      *out += JsonBool(element.nullable());
      out->push_back('}');
      return;
    }
    case arrow::Type::DICTIONARY:
      AppendType(*checked_cast<const arrow::DictionaryType&>(type).value_type(), out);
      return;
    default:
      AppendJsonString(TypeName(type), out);
  }
}

}  // namespace

std::string SchemaToJson(const arrow::Schema& schema) {
  std::string out;
  AppendStruct(schema.fields(), &out);
  return out;
}

std::string DataTypeToJson(const arrow::DataType& type) {
  std::string out;
  AppendType(type, &out);
  return out;
}

}  // namespace sluice::types
