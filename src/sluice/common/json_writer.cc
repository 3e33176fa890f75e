#include "sluice/common/json_writer.h"

#include <cassert>
#include <charconv>

#include "sluice/common/json_string.h"

namespace sluice {

void JsonWriter::NewLineAndIndent() {
  out_.push_back('\n');
  out_.append(static_cast<size_t>(2 * object_depth_), ' ');
}

void JsonWriter::BeforeValue() {
  if (scopes_.empty() || scopes_.back().is_object) return;
  // Jackson's FixedSpaceIndenter: "[ a, b ]".
  Scope& array = scopes_.back();
  if (array.entries > 0) out_.push_back(',');
  if (pretty_) out_.push_back(' ');
  ++array.entries;
}

void JsonWriter::StartObject() {
  BeforeValue();
  out_.push_back('{');
  scopes_.push_back(Scope{true, 0});
  ++object_depth_;
}

void JsonWriter::EndObject() {
  assert(!scopes_.empty() && scopes_.back().is_object);
  const int64_t entries = scopes_.back().entries;
  scopes_.pop_back();
  --object_depth_;
  if (pretty_) {
    if (entries > 0) {
      NewLineAndIndent();
    } else {
      out_.push_back(' ');
    }
  }
  out_.push_back('}');
}

void JsonWriter::StartArray() {
  BeforeValue();
  out_.push_back('[');
  scopes_.push_back(Scope{false, 0});
}

void JsonWriter::EndArray() {
  assert(!scopes_.empty() && !scopes_.back().is_object);
  scopes_.pop_back();
  // Empty or not, the pretty printer puts one space before the bracket: "[ ]", "[ 1 ]".
  if (pretty_) out_.push_back(' ');
  out_.push_back(']');
}

void JsonWriter::Key(std::string_view name) {
  assert(!scopes_.empty() && scopes_.back().is_object);
  Scope& object = scopes_.back();
  if (object.entries > 0) out_.push_back(',');
  ++object.entries;
  if (pretty_) NewLineAndIndent();
  AppendJsonString(name, &out_);
  out_.append(pretty_ ? " : " : ":");
}

void JsonWriter::String(std::string_view value) {
  BeforeValue();
  AppendJsonString(value, &out_);
}

void JsonWriter::Int(int64_t value) {
  BeforeValue();
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out_.append(buffer, result.ptr);
}

void JsonWriter::Number(std::string_view literal) {
  BeforeValue();
  out_.append(literal);
}

void JsonWriter::Bool(bool value) {
  BeforeValue();
  out_.append(value ? "true" : "false");
}

void JsonWriter::Null() {
  BeforeValue();
  out_.append("null");
}

}  // namespace sluice
