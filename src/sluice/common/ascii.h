// ASCII case folding for the names Spark compares case-insensitively (formats, modes, option
// values, column names). Only A-Z fold, whatever the C locale says; user data never goes
// through here.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace sluice {

/// `text` with A-Z lowered to a-z; every other byte (UTF-8 included) is kept as is.
inline std::string AsciiLower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lower;
}

/// Whether `a` and `b` are equal when A-Z are folded to a-z (column names under
/// spark.sql.caseSensitive=false, option values).
inline bool AsciiEqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i];
    char y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

}  // namespace sluice
