// Splitting a string at a plain-text separator, as Spark's split does when its pattern has no
// regex metacharacter: shared by split itself and by split(...)[i], which takes one part
// without making the array of them all.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

namespace sluice::expr {

/// True when `pattern` means the same as a regex and as plain text: not empty, and without a
/// regex metacharacter.
inline bool IsLiteralPattern(std::string_view pattern) {
  if (pattern.empty()) return false;
  for (char c : pattern) {
    if (std::strchr(".$|()[]{}^?*+\\", c) != nullptr) return false;
  }
  return true;
}

/// The parts of `text` split at `separator` (a literal pattern) into at most `limit` parts,
/// the last holding the rest (every part when limit <= 0), in order: Java's String.split with
/// trailing empty parts kept, as Spark 4 splits. A text without the separator is one part.
class LiteralSplitter {
 public:
  LiteralSplitter(std::string_view text, std::string_view separator, int64_t limit)
      : text_(text), separator_(separator), limit_(limit) {}

  /// The next part, or nullopt after the last.
  std::optional<std::string_view> Next() {
    if (done_) return std::nullopt;
    if (limit_ <= 0 || parts_ < limit_ - 1) {
      // A one-character separator (the usual case) is a memchr, not a memchr and a memcmp.
      const size_t found = separator_.size() == 1 ? text_.find(separator_[0], start_)
                                                  : text_.find(separator_, start_);
      if (found != std::string_view::npos) {
        const std::string_view part = text_.substr(start_, found - start_);
        start_ = found + separator_.size();
        ++parts_;
        return part;
      }
    }
    done_ = true;
    return text_.substr(start_);
  }

 private:
  std::string_view text_;
  std::string_view separator_;
  int64_t limit_;
  size_t start_ = 0;
  int64_t parts_ = 0;  // parts returned before the last
  bool done_ = false;
};

}  // namespace sluice::expr
