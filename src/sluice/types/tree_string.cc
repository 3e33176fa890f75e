#include "sluice/types/tree_string.h"

#include <arrow/type.h>
#include <arrow/util/checked_cast.h>

#include "sluice/types/spark_type_names.h"

namespace sluice::types {

namespace {

using arrow::internal::checked_cast;

/// Spark's escapeMetaCharacters: control characters that would break the tree become escapes.
std::string EscapeMetaCharacters(std::string_view name) {
  std::string escaped;
  escaped.reserve(name.size());
  for (char c : name) {
    switch (c) {
      case '\n': escaped += "\\n"; break;
      case '\r': escaped += "\\r"; break;
      case '\t': escaped += "\\t"; break;
      case '\f': escaped += "\\f"; break;
      case '\b': escaped += "\\b"; break;
      case '\v': escaped += "\\v"; break;
      case '\a': escaped += "\\a"; break;
      default: escaped.push_back(c);
    }
  }
  return escaped;
}

const char* BoolText(bool value) { return value ? "true" : "false"; }

void AppendField(const arrow::Field& field, const std::string& prefix, int max_depth,
                 std::string* out);

/// Spark's DataType.buildFormattedString: recurse into arrays, maps and structs one level down.
void AppendChildren(const arrow::DataType& type, const std::string& prefix, int max_depth,
                    std::string* out) {
  const int depth = max_depth - 1;
  if (depth <= 0) return;
  switch (type.id()) {
    case arrow::Type::STRUCT:
      for (const auto& child : type.fields()) AppendField(*child, prefix, depth, out);
      break;
    case arrow::Type::MAP: {
      const auto& map = checked_cast<const arrow::MapType&>(type);
      *out += prefix + "-- key: " + TypeName(*map.key_type()) + "\n";
      AppendChildren(*map.key_type(), prefix + "    |", depth, out);
      *out += prefix + "-- value: " + TypeName(*map.item_type()) + " (valueContainsNull = " +
              BoolText(map.item_field()->nullable()) + ")\n";
      AppendChildren(*map.item_type(), prefix + "    |", depth, out);
      break;
    }
    case arrow::Type::LIST:
    case arrow::Type::LARGE_LIST:
    case arrow::Type::LIST_VIEW:
    case arrow::Type::LARGE_LIST_VIEW:
    case arrow::Type::FIXED_SIZE_LIST: {
      const auto& element = *checked_cast<const arrow::BaseListType&>(type).value_field();
      *out += prefix + "-- element: " + TypeName(*element.type()) + " (containsNull = " +
              BoolText(element.nullable()) + ")\n";
      AppendChildren(*element.type(), prefix + "    |", depth, out);
      break;
    }
    default:
      break;
  }
}

/// Spark's StructField.buildFormattedString.
void AppendField(const arrow::Field& field, const std::string& prefix, int max_depth,
                 std::string* out) {
  if (max_depth <= 0) return;
  *out += prefix + "-- " + EscapeMetaCharacters(field.name()) + ": " + TypeName(*field.type()) +
          " (nullable = " + BoolText(field.nullable()) + ")\n";
  AppendChildren(*field.type(), prefix + "    |", max_depth, out);
}

}  // namespace

std::string TreeString(const arrow::Schema& schema, int max_depth) {
  const int depth = max_depth > 0 ? max_depth : std::numeric_limits<int>::max();
  std::string out = "root\n";
  for (const auto& field : schema.fields()) AppendField(*field, " |", depth, &out);
  return out;
}

}  // namespace sluice::types
