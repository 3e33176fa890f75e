#include "sluice/expr/functions/regex_translation.h"

#include <cstdio>
#include <cstring>

#include "sluice/common/errors.h"

namespace sluice::expr {

namespace {

arrow::Status InvalidPattern(std::string_view pattern, std::string_view function) {
  return SparkError("INVALID_PARAMETER_VALUE.PATTERN",
                    "The value of parameter(s) `regexp` in `" + std::string(function) +
                        "` is invalid: '" + std::string(pattern) + "'.");
}

arrow::Status Unsupported(std::string_view pattern, std::string_view what) {
  return SparkError("UNSUPPORTED_FEATURE.REGEX",
                    "The regular expression '" + std::string(pattern) + "' uses " +
                        std::string(what) +
                        ", which this engine's regex library (RE2) cannot run; rewrite the "
                        "pattern without it.");
}

std::string HexEscape(uint32_t cp) {
  char buffer[16];
  std::snprintf(buffer, sizeof(buffer), "\\x{%X}", cp);
  return buffer;
}

// Java's POSIX-like property names and their RE2 classes (without brackets).
struct PropertyName {
  const char* java;
  const char* re2;
};
constexpr PropertyName kProperties[] = {
    {"Lower", "[:lower:]"},   {"Upper", "[:upper:]"},   {"ASCII", "\\x00-\\x7F"},
    {"Alpha", "[:alpha:]"},   {"Digit", "[:digit:]"},   {"Alnum", "[:alnum:]"},
    {"Punct", "[:punct:]"},   {"Graph", "[:graph:]"},   {"Print", "[:print:]"},
    {"Blank", "[:blank:]"},   {"Cntrl", "[:cntrl:]"},   {"XDigit", "[:xdigit:]"},
    {"Space", "[:space:]"},   {"javaLowerCase", "\\p{Ll}"}, {"javaUpperCase", "\\p{Lu}"},
    {"javaWhitespace", "\\t-\\r\\x1C-\\x20"}, {"javaMirrored", ""},
    {"IsAlphabetic", "\\pL"}, {"IsLetter", "\\pL"},     {"IsDigit", "\\p{Nd}"},
    {"IsUppercase", "\\p{Lu}"}, {"IsLowercase", "\\p{Ll}"}, {"IsWhite_Space", "\\s"},
    {"IsPunctuation", "\\pP"},
};

// The RE2 class body (to be put inside [...]) for Java's \p{name}, or empty when unknown.
std::string PropertyBody(const std::string& name) {
  for (const auto& property : kProperties) {
    if (name == property.java) return property.re2;
  }
  // Unicode categories and scripts: \p{L}, \p{Lu}, \p{IsLatin}, \p{script=Greek}.
  std::string bare = name;
  if (bare.rfind("Is", 0) == 0) bare = bare.substr(2);
  if (bare.rfind("sc=", 0) == 0) bare = bare.substr(3);
  if (bare.rfind("script=", 0) == 0) bare = bare.substr(7);
  if (bare.rfind("gc=", 0) == 0) bare = bare.substr(3);
  if (bare.rfind("general_category=", 0) == 0) bare = bare.substr(17);
  if (bare.empty() || bare.rfind("In", 0) == 0) return "";
  return "\\p{" + bare + "}";
}

constexpr const char* kJavaSpace = "\\t\\n\\x0B\\f\\r ";
constexpr const char* kHorizontalSpace =
    " \\t\\x{A0}\\x{1680}\\x{180E}\\x{2000}-\\x{200A}\\x{202F}\\x{205F}\\x{3000}";
constexpr const char* kVerticalSpace = "\\n\\x0B\\f\\r\\x{85}\\x{2028}\\x{2029}";

class Translator {
 public:
  Translator(std::string_view pattern, std::string_view function)
      : p_(pattern), function_(function) {}

  arrow::Result<std::string> Run() {
    while (i_ < p_.size()) {
      const char c = p_[i_];
      if (c == '\\') {
        ARROW_RETURN_NOT_OK(Escape(false));
      } else if (c == '[') {
        ARROW_RETURN_NOT_OK(Class());
      } else if (c == '(') {
        ARROW_RETURN_NOT_OK(Group());
      } else if ((c == '*' || c == '+' || c == '?' || c == '}') && i_ + 1 < p_.size() &&
                 p_[i_ + 1] == '+') {
        // Possessive quantifier: run as greedy (same result unless backtracking would differ).
        out_.push_back(c);
        i_ += 2;
      } else {
        out_.push_back(c);
        ++i_;
      }
    }
    return out_;
  }

 private:
  // Appends the class with `body`: bare inside a class, else bracketed (negated if asked).
  void Set(std::string_view body, bool in_class, bool negate) {
    if (!in_class) out_.append(negate ? "[^" : "[");
    out_.append(body);
    if (!in_class) out_.push_back(']');
  }

  arrow::Status Escape(bool in_class) {
    if (i_ + 1 >= p_.size()) return InvalidPattern(p_, function_);
    const char c = p_[i_ + 1];
    i_ += 2;
    switch (c) {
      case 'Q': {
        const size_t end = p_.find("\\E", i_);
        const std::string_view quoted =
            p_.substr(i_, end == std::string_view::npos ? std::string_view::npos : end - i_);
        for (char q : quoted) {
          if (std::strchr("\\^$.|?*+()[]{}-&", q) != nullptr) out_.push_back('\\');
          out_.push_back(q);
        }
        i_ = end == std::string_view::npos ? p_.size() : end + 2;
        return arrow::Status::OK();
      }
      case 'E':
        return arrow::Status::OK();
      case 'p':
      case 'P': {
        std::string name;
        if (i_ < p_.size() && p_[i_] == '{') {
          const size_t end = p_.find('}', i_);
          if (end == std::string_view::npos) return InvalidPattern(p_, function_);
          name = std::string(p_.substr(i_ + 1, end - i_ - 1));
          i_ = end + 1;
        } else if (i_ < p_.size()) {
          name = std::string(1, p_[i_++]);
        } else {
          return InvalidPattern(p_, function_);
        }
        const std::string body = PropertyBody(name);
        if (body.empty()) return InvalidPattern(p_, function_);
        const bool negate = c == 'P';
        if (in_class) {
          if (negate) return Unsupported(p_, "a negated property inside a character class");
          out_ += body;
        } else {
          Set(body, false, negate);
        }
        return arrow::Status::OK();
      }
      case 's':
        Set(kJavaSpace, in_class, false);
        return arrow::Status::OK();
      case 'S':
        if (in_class) {
          out_.append("\\S");
        } else {
          Set(kJavaSpace, false, true);
        }
        return arrow::Status::OK();
      case 'h':
        Set(kHorizontalSpace, in_class, false);
        return arrow::Status::OK();
      case 'H':
        if (in_class) return Unsupported(p_, "\\H inside a character class");
        Set(kHorizontalSpace, false, true);
        return arrow::Status::OK();
      case 'v':
        Set(kVerticalSpace, in_class, false);
        return arrow::Status::OK();
      case 'V':
        if (in_class) return Unsupported(p_, "\\V inside a character class");
        Set(kVerticalSpace, false, true);
        return arrow::Status::OK();
      case 'R':
        if (in_class) return InvalidPattern(p_, function_);
        out_.append("(?:\\r\\n|");
        Set(kVerticalSpace, false, false);
        out_.push_back(')');
        return arrow::Status::OK();
      case 'Z':
        // End of input, before a final line terminator in Java; RE2 has only the strict end.
        out_ += "\\z";
        return arrow::Status::OK();
      case 'e':
        out_ += "\\x1B";
        return arrow::Status::OK();
      case 'a':
        out_ += "\\x07";
        return arrow::Status::OK();
      case 'u': {
        if (i_ + 4 > p_.size()) return InvalidPattern(p_, function_);
        uint32_t cp = 0;
        for (int k = 0; k < 4; ++k) {
          const char h = p_[i_ + k];
          if (!std::isxdigit(static_cast<unsigned char>(h))) return InvalidPattern(p_, function_);
          cp = cp * 16 + static_cast<uint32_t>(std::isdigit(static_cast<unsigned char>(h))
                                                   ? h - '0'
                                                   : (std::tolower(h) - 'a' + 10));
        }
        i_ += 4;
        out_ += HexEscape(cp);
        return arrow::Status::OK();
      }
      case '0': {
        uint32_t cp = 0;
        int digits = 0;
        while (i_ < p_.size() && digits < 3 && p_[i_] >= '0' && p_[i_] <= '7' &&
               cp * 8 + static_cast<uint32_t>(p_[i_] - '0') <= 0377) {
          cp = cp * 8 + static_cast<uint32_t>(p_[i_++] - '0');
          ++digits;
        }
        if (digits == 0) return InvalidPattern(p_, function_);
        out_ += HexEscape(cp);
        return arrow::Status::OK();
      }
      case 'c': {
        if (i_ >= p_.size()) return InvalidPattern(p_, function_);
        out_ += HexEscape(static_cast<uint32_t>(p_[i_++]) ^ 64);
        return arrow::Status::OK();
      }
      case 'k':
        return Unsupported(p_, "a named back-reference (\\k<name>)");
      case 'G':
        return Unsupported(p_, "\\G");
      case 'X':
        return Unsupported(p_, "\\X");
      default:
        break;
    }
    if (c >= '1' && c <= '9') {
      if (in_class) return InvalidPattern(p_, function_);
      return Unsupported(p_, "a back-reference (\\" + std::string(1, c) + ")");
    }
    if (std::isalpha(static_cast<unsigned char>(c)) &&
        std::strchr("tnrfdDwWbBAzx", c) == nullptr) {
      return InvalidPattern(p_, function_);
    }
    if (in_class && (c == 'b' || c == 'B' || c == 'A' || c == 'z')) {
      return InvalidPattern(p_, function_);
    }
    out_.push_back('\\');
    out_.push_back(c);
    return arrow::Status::OK();
  }

  arrow::Status Class() {
    out_.push_back('[');
    ++i_;
    if (i_ < p_.size() && p_[i_] == '^') {
      out_.push_back('^');
      ++i_;
    }
    bool first = true;
    while (i_ < p_.size()) {
      const char c = p_[i_];
      if (c == ']' && !first) {
        out_.push_back(']');
        ++i_;
        return arrow::Status::OK();
      }
      first = false;
      if (c == '\\') {
        ARROW_RETURN_NOT_OK(Escape(true));
      } else if (c == '[') {
        if (i_ + 1 < p_.size() && p_[i_ + 1] == ':') {
          out_ += "\\[";
          ++i_;
        } else {
          return Unsupported(p_, "a nested character class");
        }
      } else if (c == '&' && i_ + 1 < p_.size() && p_[i_ + 1] == '&') {
        return Unsupported(p_, "a character class intersection (&&)");
      } else {
        out_.push_back(c);
        ++i_;
      }
    }
    return InvalidPattern(p_, function_);
  }

  arrow::Status Group() {
    if (i_ + 1 >= p_.size() || p_[i_ + 1] != '?') {
      out_.push_back('(');
      ++i_;
      return arrow::Status::OK();
    }
    const std::string_view rest = p_.substr(i_ + 2);
    if (rest.starts_with("<=") || rest.starts_with("<!") || rest.starts_with("=") ||
        rest.starts_with("!")) {
      return Unsupported(p_, "look-around ((?=, (?!, (?<=, (?<!)");
    }
    if (rest.starts_with(">")) return Unsupported(p_, "an atomic group ((?>...))");
    if (rest.starts_with("<")) {
      out_ += "(?P<";
      i_ += 3;
      return arrow::Status::OK();
    }
    if (rest.starts_with(":")) {
      out_ += "(?:";
      i_ += 3;
      return arrow::Status::OK();
    }
    // Inline flags (?idmsuxU-idmsuxU) or (?flags:...): RE2 knows i, m and s.
    size_t k = 0;
    std::string flags;
    bool negated = false;
    while (k < rest.size() && rest[k] != ')' && rest[k] != ':') {
      const char f = rest[k++];
      if (f == '-') {
        negated = true;
        flags.push_back(f);
      } else if (f == 'i' || f == 'm' || f == 's') {
        flags.push_back(f);
      } else if (f == 'x') {
        return Unsupported(p_, "the comments flag (?x)");
      } else if (f != 'd' && f != 'u' && f != 'U') {
        return InvalidPattern(p_, function_);
      }
    }
    if (k >= rest.size()) return InvalidPattern(p_, function_);
    (void)negated;
    if (!flags.empty() && flags.back() == '-') flags.pop_back();
    const char end = rest[k];
    i_ += 2 + k + 1;
    if (flags.empty()) {
      out_ += end == ':' ? "(?:" : "";
    } else {
      out_ += "(?" + flags + end;
    }
    return arrow::Status::OK();
  }

  std::string_view p_;
  std::string_view function_;
  size_t i_ = 0;
  std::string out_;
};

}  // namespace

arrow::Result<std::string> JavaRegexToRe2(std::string_view pattern, std::string_view function) {
  return Translator(pattern, function).Run();
}

arrow::Result<std::shared_ptr<const JavaRegex>> CompileJavaRegex(std::string_view pattern,
                                                                 std::string_view function) {
  ARROW_ASSIGN_OR_RAISE(auto translated, JavaRegexToRe2(pattern, function));
  RE2::Options options;
  options.set_log_errors(false);
  auto regex = std::make_unique<const RE2>(translated, options);
  if (!regex->ok()) return InvalidPattern(pattern, function);
  return std::make_shared<const JavaRegex>(std::move(regex),
                                           RegexPrefilter::Make(translated, options));
}

arrow::Result<std::string> LikeToRe2(std::string_view pattern, char escape) {
  std::string out = "(?s)";
  auto quote = [&](char c) {
    if (std::strchr("\\^$.|?*+()[]{}", c) != nullptr) out.push_back('\\');
    out.push_back(c);
  };
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == escape) {
      if (i + 1 >= pattern.size()) {
        return SparkError("INVALID_FORMAT.ESC_AT_THE_END",
                          "The format is invalid: '" + std::string(pattern) +
                              "'. The escape character is not allowed to end with.");
      }
      const char next = pattern[++i];
      if (next != '_' && next != '%' && next != escape) {
        return SparkError("INVALID_FORMAT.ESC_IN_THE_MIDDLE",
                          "The format is invalid: '" + std::string(pattern) +
                              "'. The escape character is not allowed to precede '" +
                              std::string(1, next) + "'.");
      }
      quote(next);
    } else if (c == '_') {
      out.push_back('.');
    } else if (c == '%') {
      out += ".*";
    } else {
      quote(c);
    }
  }
  return out;
}

Replacement ParseReplacement(std::string_view text, const RE2& regex) {
  Replacement replacement;
  const int group_count = regex.NumberOfCapturingGroups();
  auto literal = [&]() -> std::string& {
    if (replacement.pieces.empty() || replacement.pieces.back().group >= 0) {
      replacement.pieces.push_back({});
    }
    return replacement.pieces.back().literal;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\') {
      if (++i >= text.size()) {
        replacement.invalid = true;
        return replacement;
      }
      literal().push_back(text[i]);
    } else if (c == '$') {
      if (++i >= text.size()) {
        replacement.invalid = true;
        return replacement;
      }
      int group;
      if (text[i] == '{') {
        const size_t end = text.find('}', i);
        if (end == std::string_view::npos) {
          replacement.invalid = true;
          return replacement;
        }
        const std::string name(text.substr(i + 1, end - i - 1));
        const auto& names = regex.NamedCapturingGroups();
        auto it = names.find(name);
        if (it == names.end()) {
          replacement.invalid = true;
          return replacement;
        }
        group = it->second;
        i = end;
      } else if (text[i] >= '0' && text[i] <= '9') {
        group = text[i] - '0';
        if (group > group_count) {
          replacement.invalid = true;
          return replacement;
        }
        // Further digits belong to the number while it stays a valid group.
        while (i + 1 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '9') {
          const int longer = group * 10 + (text[i + 1] - '0');
          if (longer > group_count) break;
          group = longer;
          ++i;
        }
      } else {
        replacement.invalid = true;
        return replacement;
      }
      replacement.pieces.push_back({"", group});
    } else {
      literal().push_back(c);
    }
  }
  return replacement;
}

}  // namespace sluice::expr
