// A streaming JSON generator laid out exactly as Jackson lays it out, which is what Spark's
// json4s-based `json` / `prettyJson` methods print: compact, or Jackson's DefaultPrettyPrinter.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sluice {

/// Writes one JSON value token by token into a string.
///
/// kCompact prints no whitespace at all. kPretty reproduces Jackson's DefaultPrettyPrinter:
/// each object member on its own line, indented two spaces per enclosing object, "key" : value;
/// arrays stay on one line ("[ 1, 2 ]", "[ {" ... "}, {" ... "} ]") and do not indent their
/// contents; empty containers print "{ }" and "[ ]". Strings are escaped by AppendJsonString.
///
/// The caller must emit a well-formed sequence (a Key before each object member value, ends
/// matching starts); misuse is a programming error and is only checked in debug builds.
/// Not thread-safe; one writer builds one text.
class JsonWriter {
 public:
  enum class Layout { kCompact, kPretty };

  explicit JsonWriter(Layout layout) : pretty_(layout == Layout::kPretty) {}

  void StartObject();
  void EndObject();
  void StartArray();
  void EndArray();
  /// The name of the next object member.
  void Key(std::string_view name);

  void String(std::string_view value);
  void Int(int64_t value);
  /// A number already spelled as JSON (e.g. "1.0E-5", "123456789012345678901234567890").
  void Number(std::string_view literal);
  void Bool(bool value);
  void Null();

  /// The text written so far; complete once every started container is ended.
  const std::string& text() const { return out_; }
  std::string TakeText() && { return std::move(out_); }

 private:
  struct Scope {
    bool is_object;
    int64_t entries;
  };

  /// Separators before a value: ", " between array elements, nothing after a key.
  void BeforeValue();
  void NewLineAndIndent();

  bool pretty_;
  std::string out_;
  std::vector<Scope> scopes_;
  /// Jackson indents by the number of open objects only: arrays do not nest the indentation.
  int object_depth_ = 0;
};

}  // namespace sluice
