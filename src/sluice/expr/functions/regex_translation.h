#pragma once

// Java (java.util.regex) patterns as Spark accepts them, compiled to RE2: Java-only syntax is
// rewritten (\p{Alpha}, \uXXXX, (?<name>...), \h, \s with \x0B, \Q...\E, possessive quantifiers),
// constructs RE2 cannot run (look-around, back-references) are rejected with a clear error. Also
// Spark's LIKE patterns and Java's replacement strings ($1, ${name}, \$).

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/result.h>
#include <re2/re2.h>

#include "sluice/expr/functions/regex_prefilter.h"

namespace sluice::expr {

/// Rewrites Java pattern `pattern` to RE2 syntax. Errors: INVALID_PARAMETER_VALUE.PATTERN for
/// malformed patterns, UNSUPPORTED_FEATURE.REGEX for Java features RE2 lacks.
arrow::Result<std::string> JavaRegexToRe2(std::string_view pattern, std::string_view function);

/// A Java pattern compiled to RE2, with the prefilter that rules out texts it cannot match.
/// Safe to share between threads, as RE2 objects are.
class JavaRegex {
 public:
  JavaRegex(std::unique_ptr<const RE2> re2, std::unique_ptr<const RegexPrefilter> prefilter)
      : re2_(std::move(re2)), prefilter_(std::move(prefilter)) {}

  const RE2& re2() const { return *re2_; }
  /// False only when `text` holds no match: then running the regex can be skipped.
  bool MayMatch(std::string_view text) const {
    return prefilter_ == nullptr || prefilter_->MayMatch(text);
  }

 private:
  std::unique_ptr<const RE2> re2_;
  std::unique_ptr<const RegexPrefilter> prefilter_;
};

/// Compiles Java pattern `pattern` for function `function` (named in errors).
arrow::Result<std::shared_ptr<const JavaRegex>> CompileJavaRegex(std::string_view pattern,
                                                                 std::string_view function);

/// Spark's LIKE pattern (% and _ wildcards, `escape` escaping them) as an RE2 pattern for a
/// full match; errors are INVALID_FORMAT.ESC_AT_THE_END / ESC_IN_THE_MIDDLE.
arrow::Result<std::string> LikeToRe2(std::string_view pattern, char escape);

/// A parsed Java replacement string: literal text and group references.
struct Replacement {
  struct Piece {
    std::string literal;
    int group = -1;  // >= 0: a group reference
  };
  std::vector<Piece> pieces;
  /// Java would throw while applying it (bad group, dangling '\' or '$'): applying it to a match
  /// is an INVALID_REGEXP_REPLACE error, as in Spark.
  bool invalid = false;
};

/// Parses a Java replacement string against `regex`'s groups (Matcher.appendReplacement rules).
Replacement ParseReplacement(std::string_view replacement, const RE2& regex);

/// Calls `on_match(groups)` for each match of `regex` in `text` as Java's Matcher.find() finds
/// them (after an empty match the search resumes one character later); `groups` has
/// `group_count` + 1 entries. `on_match` returns false to stop.
template <typename OnMatch>
void ForEachJavaMatch(const JavaRegex& regex, std::string_view text, int group_count,
                      std::vector<re2::StringPiece>& groups, OnMatch&& on_match) {
  groups.resize(static_cast<size_t>(group_count) + 1);
  if (!regex.MayMatch(text)) return;
  size_t pos = 0;
  const re2::StringPiece input(text.data(), text.size());
  while (pos <= text.size()) {
    if (!regex.re2().Match(input, pos, text.size(), RE2::UNANCHORED, groups.data(),
                           group_count + 1)) {
      return;
    }
    const size_t start = static_cast<size_t>(groups[0].data() - text.data());
    const size_t end = start + groups[0].size();
    if (!on_match(groups)) return;
    if (end == start) {
      if (end >= text.size()) return;
      const auto lead = static_cast<unsigned char>(text[end]);
      pos = end + (lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4);
    } else {
      pos = end;
    }
  }
}

}  // namespace sluice::expr
