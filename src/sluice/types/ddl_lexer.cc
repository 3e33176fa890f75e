#include "sluice/types/ddl_lexer.h"

#include <cstdint>

namespace sluice::types {

namespace {

bool IsWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || static_cast<unsigned char>(c) >= 0x80;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

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

/// Spark's unescapeSQLString for the body of a quoted string (quotes excluded).
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
        if (i + 2 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '7' &&
            body[i + 2] >= '0' && body[i + 2] <= '7') {
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
        if (next >= '1' && next <= '3' && i + 2 < body.size() && body[i + 1] >= '0' &&
            body[i + 1] <= '7' && body[i + 2] >= '0' && body[i + 2] <= '7') {
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

/// Skips whitespace and comments from `pos`; returns false on an unclosed /* comment.
bool SkipSpaceAndComments(std::string_view input, size_t* pos) {
  size_t i = *pos;
  while (i < input.size()) {
    if (IsSpace(input[i])) {
      ++i;
    } else if (input.substr(i, 2) == "--") {
      while (i < input.size() && input[i] != '\n') ++i;
    } else if (input.substr(i, 2) == "/*") {
      int depth = 0;
      size_t start = i;
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

}  // namespace

bool DdlToken::IsKeyword(std::string_view keyword) const {
  if (kind != Kind::kWord || text.size() != keyword.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c != keyword[i]) return false;
  }
  return true;
}

bool DdlToken::IsSymbol(char symbol) const {
  return kind == Kind::kSymbol && text.size() == 1 && text[0] == symbol;
}

std::vector<DdlToken> TokenizeDdl(std::string_view input) {
  std::vector<DdlToken> tokens;
  size_t pos = 0;
  while (true) {
    if (!SkipSpaceAndComments(input, &pos)) {
      std::string rest(input.substr(pos));
      tokens.push_back({DdlToken::Kind::kInvalid, rest, rest, pos});
      break;
    }
    if (pos >= input.size()) break;
    const size_t start = pos;
    const char c = input[pos];
    if (IsWordChar(c)) {
      bool all_digits = true;
      while (pos < input.size() && IsWordChar(input[pos])) {
        all_digits = all_digits && IsDigit(input[pos]);
        ++pos;
      }
      std::string text(input.substr(start, pos - start));
      tokens.push_back({all_digits ? DdlToken::Kind::kInteger : DdlToken::Kind::kWord, text,
                        text, start});
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
      std::string text(input.substr(start, pos - start));
      tokens.push_back({closed ? DdlToken::Kind::kQuotedIdentifier : DdlToken::Kind::kInvalid,
                        text, closed ? name : text, start});
      if (!closed) break;
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
      if (pos > input.size()) pos = input.size();
      std::string text(input.substr(start, pos - start));
      if (!closed) {
        tokens.push_back({DdlToken::Kind::kInvalid, text, text, start});
        break;
      }
      tokens.push_back({DdlToken::Kind::kString, text,
                        Unescape(input.substr(start + 1, pos - start - 2)), start});
    } else {
      std::string text(1, c);
      tokens.push_back({DdlToken::Kind::kSymbol, text, text, start});
      ++pos;
    }
  }
  tokens.push_back({DdlToken::Kind::kEnd, "", "", input.size()});
  return tokens;
}

}  // namespace sluice::types
