#pragma once

#include "sluice/common/json_string.h"

// A small lenient JSON reader and writer with the behaviour of the Jackson parser Spark's JSON
// functions use: optional single quotes, NaN/Infinity, leading zeros, and the text of numbers
// kept as written. Pure functions; thread-safe.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sluice::expr {

/// Jackson features Spark's JSON options switch (names as Spark's options).
struct JsonParseOptions {
  bool allow_single_quotes = true;
  bool allow_non_numeric_numbers = true;
  bool allow_numeric_leading_zeros = false;
  bool allow_unquoted_field_names = false;
  bool allow_comments = false;
  bool allow_backslash_escaping_any_character = false;
  bool allow_unquoted_control_chars = false;
};

/// One parsed JSON value. Numbers keep their text; objects keep duplicate keys in order.
struct JsonNode {
  enum class Kind : uint8_t { kNull, kTrue, kFalse, kInteger, kFloat, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  /// The decoded string, or a number's text as written ("1.50", "NaN", "-Infinity").
  std::string text;
  std::vector<JsonNode> items;
  std::vector<std::string> keys;  // for objects, parallel to items
};

enum class JsonParseResult { kOk, kEmpty, kMalformed };

/// Parses the first JSON value of `text` (leading whitespace skipped, trailing text ignored).
JsonParseResult ParseJson(std::string_view text, const JsonParseOptions& options, JsonNode* out);


/// The double value of a number node (NaN and infinities included).
double JsonNumberValue(const JsonNode& node);

/// Appends `node` as compact JSON the way Jackson copies a parsed structure: integers as written,
/// floating point numbers as Java doubles ("1.5", "100.0"), NaN/Infinity bare.
void AppendJsonNode(const JsonNode& node, std::string* out);

}  // namespace sluice::expr
