#include "sluice/execution/progress_json.h"

#include <charconv>
#include <cstdint>
#include <string>

#include <simdjson.h>

#include "sluice/expr/cast_format.h"

namespace sluice::execution {

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

void WriteElement(const element& value, JsonWriter* writer) {
  switch (value.type()) {
    case element_type::OBJECT: {
      // Copied out of the temporary result: iterating the temporary itself would dangle.
      const simdjson::dom::object object = value.get_object().value_unsafe();
      writer->StartObject();
      for (const auto member : object) {
        writer->Key(member.key);
        WriteElement(member.value, writer);
      }
      writer->EndObject();
      return;
    }
    case element_type::ARRAY: {
      const simdjson::dom::array array = value.get_array().value_unsafe();
      writer->StartArray();
      for (const element item : array) WriteElement(item, writer);
      writer->EndArray();
      return;
    }
    case element_type::INT64:
      writer->Int(value.get_int64().value_unsafe());
      return;
    case element_type::UINT64: {
      // Above INT64_MAX; json4s keeps integers as BigInt, so the digits print unchanged.
      char buffer[24];
      const auto result =
          std::to_chars(buffer, buffer + sizeof(buffer), value.get_uint64().value_unsafe());
      writer->Number(std::string_view(buffer, static_cast<size_t>(result.ptr - buffer)));
      return;
    }
    case element_type::DOUBLE: {
      // json4s reads a number with a fraction or an exponent as a JDouble, which Jackson
      // prints with Double.toString.
      std::string text;
      expr::AppendJavaDouble(value.get_double().value_unsafe(), &text);
      writer->Number(text);
      return;
    }
    case element_type::STRING:
      writer->String(value.get_string().value_unsafe());
      return;
    case element_type::BOOL:
      writer->Bool(value.get_bool().value_unsafe());
      return;
    case element_type::NULL_VALUE:
      writer->Null();
      return;
  }
}

}  // namespace

void WriteEmbeddedJson(std::string_view text, JsonWriter* writer) {
  // A parser per call: reports are written once per batch, and sharing one would make the
  // function unsafe to call from two queries at once.
  simdjson::dom::parser parser;
  element root;
  if (parser.parse(text.data(), text.size(), /*realloc_if_needed=*/true).get(root) !=
      simdjson::SUCCESS) {
    writer->String(text);
    return;
  }
  WriteElement(root, writer);
}

}  // namespace sluice::execution
