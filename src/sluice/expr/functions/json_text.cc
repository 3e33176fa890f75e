#include "sluice/expr/functions/json_text.h"

#include "sluice/common/json_string.h"

#include <cmath>
#include <cstdlib>
#include <limits>

#include "sluice/expr/cast_format.h"

namespace sluice::expr {

namespace {

class Reader {
 public:
  Reader(std::string_view text, const JsonParseOptions& options)
      : text_(text), options_(options) {}

  bool SkipSpace() {
    while (position_ < text_.size()) {
      const char c = text_[position_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++position_;
      } else if (c == '/' && options_.allow_comments && position_ + 1 < text_.size()) {
        if (text_[position_ + 1] == '/') {
          while (position_ < text_.size() && text_[position_] != '\n') ++position_;
        } else if (text_[position_ + 1] == '*') {
          const size_t end = text_.find("*/", position_ + 2);
          if (end == std::string_view::npos) return false;
          position_ = end + 2;
        } else {
          return true;
        }
      } else {
        return true;
      }
    }
    return true;
  }

  bool AtEnd() const { return position_ >= text_.size(); }

  bool Value(JsonNode* node, int depth) {
    if (depth > 1000 || !SkipSpace() || AtEnd()) return false;
    const char c = text_[position_];
    switch (c) {
      case '{': return Object(node, depth);
      case '[': return Array(node, depth);
      case '"': node->kind = JsonNode::Kind::kString; return String('"', &node->text);
      case '\'':
        if (!options_.allow_single_quotes) return false;
        node->kind = JsonNode::Kind::kString;
        return String('\'', &node->text);
      case 't': node->kind = JsonNode::Kind::kTrue; return Word("true");
      case 'f': node->kind = JsonNode::Kind::kFalse; return Word("false");
      case 'n': node->kind = JsonNode::Kind::kNull; return Word("null");
      default: return Number(node);
    }
  }

 private:
  bool Word(std::string_view word) {
    if (text_.substr(position_, word.size()) != word) return false;
    position_ += word.size();
    // A word must end at a delimiter (Jackson rejects "truex").
    if (position_ < text_.size()) {
      const char c = text_[position_];
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') return false;
    }
    return true;
  }

  bool NonNumeric(JsonNode* node, std::string_view word, std::string_view value) {
    if (!options_.allow_non_numeric_numbers) return false;
    if (text_.substr(position_, word.size()) != word) return false;
    position_ += word.size();
    node->kind = JsonNode::Kind::kFloat;
    node->text = std::string(value);
    return true;
  }

  bool Number(JsonNode* node) {
    const size_t start = position_;
    const char first = text_[position_];
    if (first == 'N') return NonNumeric(node, "NaN", "NaN");
    if (first == 'I') return NonNumeric(node, "Infinity", "Infinity");
    if (first == '+') {
      if (text_.substr(position_, 9) == "+Infinity") {
        return NonNumeric(node, "+Infinity", "Infinity");
      }
      return NonNumeric(node, "+INF", "Infinity");
    }
    if (first == '-' && position_ + 1 < text_.size() && text_[position_ + 1] == 'I') {
      ++position_;
      if (NonNumeric(node, "Infinity", "-Infinity")) return true;
      return NonNumeric(node, "INF", "-Infinity");
    }
    if (text_[position_] == '-') ++position_;
    const size_t digits_start = position_;
    while (position_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[position_]))) {
      ++position_;
    }
    const size_t integer_digits = position_ - digits_start;
    if (integer_digits == 0) return false;
    if (integer_digits > 1 && text_[digits_start] == '0' && !options_.allow_numeric_leading_zeros) {
      return false;
    }
    bool is_float = false;
    if (position_ < text_.size() && text_[position_] == '.') {
      is_float = true;
      ++position_;
      const size_t fraction_start = position_;
      while (position_ < text_.size() &&
             std::isdigit(static_cast<unsigned char>(text_[position_]))) {
        ++position_;
      }
      if (position_ == fraction_start) return false;
    }
    if (position_ < text_.size() && (text_[position_] == 'e' || text_[position_] == 'E')) {
      is_float = true;
      ++position_;
      if (position_ < text_.size() && (text_[position_] == '+' || text_[position_] == '-')) {
        ++position_;
      }
      const size_t exponent_start = position_;
      while (position_ < text_.size() &&
             std::isdigit(static_cast<unsigned char>(text_[position_]))) {
        ++position_;
      }
      if (position_ == exponent_start) return false;
    }
    if (position_ < text_.size()) {
      const char c = text_[position_];
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return false;
    }
    node->kind = is_float ? JsonNode::Kind::kFloat : JsonNode::Kind::kInteger;
    node->text = std::string(text_.substr(start, position_ - start));
    if (!is_float && options_.allow_numeric_leading_zeros) {
      // Leading zeros read as the number itself: 01 is 1.
      std::string& t = node->text;
      const size_t sign = t[0] == '-' ? 1 : 0;
      const size_t nonzero = t.find_first_not_of('0', sign);
      if (nonzero == std::string::npos) {
        t.assign(1, '0');
      } else if (nonzero > sign) {
        t.erase(sign, nonzero - sign);
      }
    }
    return true;
  }

  static void AppendUtf8(uint32_t code, std::string* out) {
    if (code < 0x80) {
      out->push_back(static_cast<char>(code));
    } else if (code < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (code >> 6)));
      out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else if (code < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (code >> 12)));
      out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (code >> 18)));
      out->push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
    }
  }

  bool Hex4(uint32_t* value) {
    if (position_ + 4 > text_.size()) return false;
    *value = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = text_[position_++];
      int digit;
      if (c >= '0' && c <= '9') digit = c - '0';
      else if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F') digit = c - 'A' + 10;
      else return false;
      *value = *value * 16 + digit;
    }
    return true;
  }

  bool String(char quote, std::string* out) {
    ++position_;
    out->clear();
    while (position_ < text_.size()) {
      const char c = text_[position_++];
      if (c == quote) return true;
      if (static_cast<unsigned char>(c) < 0x20 && !options_.allow_unquoted_control_chars) {
        return false;
      }
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (position_ >= text_.size()) return false;
      const char e = text_[position_++];
      switch (e) {
        case '"': out->push_back('"'); break;
        case '\\': out->push_back('\\'); break;
        case '/': out->push_back('/'); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'n': out->push_back('\n'); break;
        case 'r': out->push_back('\r'); break;
        case 't': out->push_back('\t'); break;
        case 'u': {
          uint32_t code;
          if (!Hex4(&code)) return false;
          if (code >= 0xD800 && code < 0xDC00 && position_ + 6 <= text_.size() &&
              text_[position_] == '\\' && text_[position_ + 1] == 'u') {
            position_ += 2;
            uint32_t low;
            if (!Hex4(&low)) return false;
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(code, out);
          break;
        }
        default:
          if (e == '\'' || options_.allow_backslash_escaping_any_character) {
            out->push_back(e);
            break;
          }
          return false;
      }
    }
    return false;
  }

  bool Key(std::string* key) {
    if (!SkipSpace() || AtEnd()) return false;
    const char c = text_[position_];
    if (c == '"') return String('"', key);
    if (c == '\'' && options_.allow_single_quotes) return String('\'', key);
    if (!options_.allow_unquoted_field_names) return false;
    const size_t start = position_;
    while (position_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[position_])) ||
            text_[position_] == '_' || text_[position_] == '$')) {
      ++position_;
    }
    if (position_ == start) return false;
    *key = std::string(text_.substr(start, position_ - start));
    return true;
  }

  bool Object(JsonNode* node, int depth) {
    ++position_;
    node->kind = JsonNode::Kind::kObject;
    if (!SkipSpace()) return false;
    if (!AtEnd() && text_[position_] == '}') {
      ++position_;
      return true;
    }
    while (true) {
      std::string key;
      if (!Key(&key) || !SkipSpace() || AtEnd() || text_[position_] != ':') return false;
      ++position_;
      node->keys.push_back(std::move(key));
      node->items.emplace_back();
      if (!Value(&node->items.back(), depth + 1) || !SkipSpace() || AtEnd()) return false;
      const char c = text_[position_++];
      if (c == '}') return true;
      if (c != ',') return false;
    }
  }

  bool Array(JsonNode* node, int depth) {
    ++position_;
    node->kind = JsonNode::Kind::kArray;
    if (!SkipSpace()) return false;
    if (!AtEnd() && text_[position_] == ']') {
      ++position_;
      return true;
    }
    while (true) {
      node->items.emplace_back();
      if (!Value(&node->items.back(), depth + 1) || !SkipSpace() || AtEnd()) return false;
      const char c = text_[position_++];
      if (c == ']') return true;
      if (c != ',') return false;
    }
  }

  std::string_view text_;
  const JsonParseOptions& options_;
  size_t position_ = 0;
};

}  // namespace

JsonParseResult ParseJson(std::string_view text, const JsonParseOptions& options, JsonNode* out) {
  Reader reader(text, options);
  if (!reader.SkipSpace()) return JsonParseResult::kMalformed;
  if (reader.AtEnd()) return JsonParseResult::kEmpty;
  *out = JsonNode();
  return reader.Value(out, 0) ? JsonParseResult::kOk : JsonParseResult::kMalformed;
}


double JsonNumberValue(const JsonNode& node) {
  if (node.text == "NaN") return std::numeric_limits<double>::quiet_NaN();
  if (node.text == "Infinity") return std::numeric_limits<double>::infinity();
  if (node.text == "-Infinity") return -std::numeric_limits<double>::infinity();
  return std::strtod(node.text.c_str(), nullptr);
}

void AppendJsonNode(const JsonNode& node, std::string* out) {
  switch (node.kind) {
    case JsonNode::Kind::kNull: out->append("null"); return;
    case JsonNode::Kind::kTrue: out->append("true"); return;
    case JsonNode::Kind::kFalse: out->append("false"); return;
    case JsonNode::Kind::kInteger: out->append(node.text); return;
    case JsonNode::Kind::kFloat: AppendJavaDouble(JsonNumberValue(node), out); return;
    case JsonNode::Kind::kString: AppendJsonString(node.text, out); return;
    case JsonNode::Kind::kArray:
      out->push_back('[');
      for (size_t i = 0; i < node.items.size(); ++i) {
        if (i) out->push_back(',');
        AppendJsonNode(node.items[i], out);
      }
      out->push_back(']');
      return;
    case JsonNode::Kind::kObject:
      out->push_back('{');
      for (size_t i = 0; i < node.items.size(); ++i) {
        if (i) out->push_back(',');
        AppendJsonString(node.keys[i], out);
        out->push_back(':');
        AppendJsonNode(node.items[i], out);
      }
      out->push_back('}');
      return;
  }
}

}  // namespace sluice::expr
