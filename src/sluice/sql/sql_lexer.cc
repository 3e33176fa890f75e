#include "sluice/sql/sql_lexer.h"

#include <array>
#include <cstdint>
#include <cstdlib>

#include "sluice/common/errors.h"

namespace sluice::sql {

namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool IsWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || IsDigit(c) || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

char Upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsOctal(char c) { return c >= '0' && c <= '7'; }

void AppendUtf8(uint32_t code_point, std::string* out) {
  if (code_point < 0x80) {
    out->push_back(static_cast<char>(code_point));
  } else if (code_point < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (code_point >> 6)));
    out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xE0 | (code_point >> 12)));
    out->push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  }
}

/// Spark's unescapeSQLString for the body of a quoted string (quotes excluded). A doubled
/// quote is not an escape: 'it''s' is two adjacent strings, which the parser joins ("its"),
/// as in Spark 4.0.
std::string Unescape(std::string_view body) {
  std::string out;
  out.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\' || i + 1 >= body.size()) {
      out.push_back(c);
      continue;
    }
    char next = body[++i];
    switch (next) {
      case '0':
        if (i + 2 < body.size() && IsOctal(body[i + 1]) && IsOctal(body[i + 2])) {
          out.push_back(static_cast<char>((body[i + 1] - '0') * 8 + (body[i + 2] - '0')));
          i += 2;
        } else {
          out.push_back('\0');
        }
        break;
      case 'b': out.push_back('\b'); break;
      case 'n': out.push_back('\n'); break;
      case 'r': out.push_back('\r'); break;
      case 't': out.push_back('\t'); break;
      case 'Z': out.push_back('\x1A'); break;
      // Kept escaped, so that LIKE patterns still see them.
      case '%': out += "\\%"; break;
      case '_': out += "\\_"; break;
      case 'u': {
        uint32_t code_point = 0;
        bool valid = i + 4 < body.size();
        for (size_t k = 1; valid && k <= 4; ++k) {
          int digit = HexValue(body[i + k]);
          valid = digit >= 0;
          code_point = code_point * 16 + static_cast<uint32_t>(digit);
        }
        if (valid) {
          AppendUtf8(code_point, &out);
          i += 4;
        } else {
          out.push_back('u');
        }
        break;
      }
      default:
        if (next >= '1' && next <= '3' && i + 2 < body.size() && IsOctal(body[i + 1]) &&
            IsOctal(body[i + 2])) {
          out.push_back(static_cast<char>((next - '0') * 64 + (body[i + 1] - '0') * 8 +
                                          (body[i + 2] - '0')));
          i += 2;
        } else {
          out.push_back(next);
        }
    }
  }
  return out;
}

/// Skips whitespace and comments from `pos`; returns false on an unclosed /* comment, leaving
/// `pos` at its start.
bool SkipSpaceAndComments(std::string_view input, size_t* pos) {
  size_t i = *pos;
  while (i < input.size()) {
    if (IsSpace(input[i])) {
      ++i;
    } else if (input.substr(i, 2) == "--") {
      while (i < input.size() && input[i] != '\n') ++i;
    } else if (input.substr(i, 2) == "/*") {
      const size_t start = i;
      int depth = 0;
      do {
        if (input.substr(i, 2) == "/*") {
          ++depth;
          i += 2;
        } else if (input.substr(i, 2) == "*/") {
          --depth;
          i += 2;
        } else {
          ++i;
        }
      } while (depth > 0 && i < input.size());
      if (depth > 0) {
        *pos = start;
        return false;
      }
    } else {
      break;
    }
  }
  *pos = i;
  return true;
}

/// The end of a numeric literal starting at `start` (a digit, or '.' before a digit), as Spark's
/// number rules match it, or `start` if none matches. Sets `*integer` for plain digits.
size_t ScanNumber(std::string_view input, size_t start, bool* integer) {
  size_t i = start;
  while (i < input.size() && IsDigit(input[i])) ++i;
  const size_t digits_end = i;
  bool has_dot = false;
  if (i < input.size() && input[i] == '.') {
    has_dot = true;
    ++i;
    while (i < input.size() && IsDigit(input[i])) ++i;
  }
  bool has_exponent = false;
  if (i < input.size() && Upper(input[i]) == 'E') {
    size_t j = i + 1;
    if (j < input.size() && (input[j] == '+' || input[j] == '-')) ++j;
    if (j < input.size() && IsDigit(input[j])) {
      while (j < input.size() && IsDigit(input[j])) ++j;
      i = j;
      has_exponent = true;
    }
  }
  const char suffix = i < input.size() ? Upper(input[i]) : '\0';
  if (!has_dot && !has_exponent && (suffix == 'L' || suffix == 'S' || suffix == 'Y')) {
    ++i;
  } else if (suffix == 'D' || suffix == 'F') {
    ++i;
  } else if (suffix == 'B' && i + 1 < input.size() && Upper(input[i + 1]) == 'D') {
    i += 2;
  }
  *integer = !has_dot && i == digits_end;
  // A number with a decimal point must not run into a word (Spark's isValidDecimal): `1.5x`
  // lexes as `1`, `.`, `5x`.
  if (has_dot && i < input.size() && IsWordChar(input[i])) {
    *integer = true;
    return digits_end;
  }
  return i;
}

// Multi-character operators, longest first.
constexpr std::array<std::string_view, 14> kOperators = {
    ">>>", "<=>", "<=", ">=", "<>", "!=", "==", "||", "::", "->", "=>", "<<", ">>", "|>"};

}  // namespace

bool SqlToken::IsKeyword(std::string_view keyword) const {
  if (kind != Kind::kWord || text.size() != keyword.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (Upper(text[i]) != keyword[i]) return false;
  }
  return true;
}

bool SqlToken::IsSymbol(std::string_view symbol) const {
  return kind == Kind::kSymbol && text == symbol;
}

std::vector<SqlToken> TokenizeSql(std::string_view input) {
  using Kind = SqlToken::Kind;
  std::vector<SqlToken> tokens;
  size_t pos = 0;
  auto push = [&](Kind kind, size_t start, size_t end) {
    std::string text(input.substr(start, end - start));
    tokens.push_back({kind, text, text, start});
  };
  while (true) {
    if (!SkipSpaceAndComments(input, &pos)) {
      push(Kind::kInvalid, pos, input.size());
      break;
    }
    if (pos >= input.size()) break;
    const size_t start = pos;
    const char c = input[pos];
    const char next = pos + 1 < input.size() ? input[pos + 1] : '\0';
    if (IsDigit(c) || (c == '.' && IsDigit(next))) {
      bool integer = false;
      size_t number_end = ScanNumber(input, start, &integer);
      size_t word_end = start;
      while (word_end < input.size() && IsWordChar(input[word_end])) ++word_end;
      if (number_end == start) {  // '.' that did not start a valid decimal
        push(Kind::kSymbol, start, start + 1);
        pos = start + 1;
      } else if (word_end > number_end) {
        push(Kind::kWord, start, word_end);
        pos = word_end;
      } else {
        push(integer ? Kind::kInteger : Kind::kNumber, start, number_end);
        pos = number_end;
      }
    } else if ((c == 'r' || c == 'R') && (next == '\'' || next == '"')) {
      // Raw string: no escapes.
      size_t close = input.find(next, start + 2);
      if (close == std::string_view::npos) {
        push(Kind::kInvalid, start, input.size());
        break;
      }
      std::string text(input.substr(start, close + 1 - start));
      tokens.push_back(
          {Kind::kString, text, std::string(input.substr(start + 2, close - start - 2)), start});
      pos = close + 1;
    } else if (IsWordChar(c)) {
      while (pos < input.size() && IsWordChar(input[pos])) ++pos;
      push(Kind::kWord, start, pos);
    } else if (c == '`') {
      std::string name;
      bool closed = false;
      for (++pos; pos < input.size(); ++pos) {
        if (input[pos] != '`') {
          name.push_back(input[pos]);
        } else if (pos + 1 < input.size() && input[pos + 1] == '`') {
          name.push_back('`');
          ++pos;
        } else {
          closed = true;
          ++pos;
          break;
        }
      }
      if (!closed) {
        push(Kind::kInvalid, start, input.size());
        break;
      }
      std::string text(input.substr(start, pos - start));
      tokens.push_back({Kind::kQuotedIdentifier, text, std::move(name), start});
    } else if (c == '\'' || c == '"') {
      bool closed = false;
      for (++pos; pos < input.size(); ++pos) {
        if (input[pos] == '\\') {
          ++pos;
        } else if (input[pos] == c) {
          closed = true;
          ++pos;
          break;
        }
      }
      if (!closed) {
        push(Kind::kInvalid, start, input.size());
        break;
      }
      std::string text(input.substr(start, pos - start));
      tokens.push_back({Kind::kString, text, Unescape(input.substr(start + 1, pos - start - 2)),
                        start});
    } else {
      size_t length = 1;
      for (std::string_view op : kOperators) {
        if (input.substr(start, op.size()) == op) {
          length = op.size();
          break;
        }
      }
      push(Kind::kSymbol, start, start + length);
      pos = start + length;
    }
  }
  tokens.push_back({Kind::kEnd, "", "", input.size()});
  return tokens;
}

arrow::Status SqlParseError(std::string_view input, size_t offset, std::string_view error_class,
                            const std::string& message) {
  if (offset > input.size()) offset = input.size();
  size_t line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (input[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  size_t line_end = input.find('\n', line_start);
  if (line_end == std::string_view::npos) line_end = input.size();
  const size_t column = offset - line_start;
  std::string text = message + " (line " + std::to_string(line) + ", pos " +
                     std::to_string(column) + ")\n\n== SQL ==\n" +
                     std::string(input.substr(0, line_end)) + "\n" + std::string(column, '-') +
                     "^^^";
  if (line_end < input.size()) text += std::string(input.substr(line_end));
  return SparkError(error_class, text);
}

arrow::Status SqlSyntaxError(std::string_view input, const SqlToken& token,
                             const std::string& detail) {
  std::string near;
  if (token.kind == SqlToken::Kind::kEnd) {
    near = "end of input";
  } else if (token.kind == SqlToken::Kind::kInvalid) {
    if (token.text.compare(0, 2, "/*") == 0) {
      return SqlParseError(input, token.offset, "UNCLOSED_BRACKETED_COMMENT",
                           "Found an unclosed bracketed comment. Please, append */ at the end of "
                           "the comment.");
    }
    // An unterminated quote is named by the quote character, as Spark does.
    near = "'" + token.text.substr(0, 1) + "'";
  } else {
    near = "'" + token.text + "'";
  }
  return SqlParseError(input, token.offset, "PARSE_SYNTAX_ERROR",
                       "Syntax error at or near " + near + detail + ".");
}

arrow::Status WithSqlContext(const arrow::Status& status, std::string_view input, size_t offset) {
  auto error_class = ErrorClassOf(status);
  if (!error_class) return status;
  std::string message = status.message();
  const std::string prefix = "[" + *error_class + "] ";
  if (message.compare(0, prefix.size(), prefix) == 0) message.erase(0, prefix.size());
  constexpr std::string_view kContext = " (line 1, pos ";
  const size_t context = message.rfind(kContext);
  if (context != std::string::npos) {
    offset += std::strtoul(message.c_str() + context + kContext.size(), nullptr, 10);
    message.erase(context);
  } else if (message.find("\n== SQL ==\n") != std::string::npos) {
    return status;  // a context over several lines: keep it
  }
  return SqlParseError(input, offset, *error_class, message);
}

std::string AsciiUpper(std::string_view text) {
  std::string result(text);
  for (auto& c : result) c = Upper(c);
  return result;
}

std::string AsciiLower(std::string_view text) {
  std::string result(text);
  for (auto& c : result) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return result;
}

}  // namespace sluice::sql
