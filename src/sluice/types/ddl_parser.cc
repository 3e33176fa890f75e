#include "sluice/types/ddl_parser.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <arrow/type.h>
#include <arrow/util/key_value_metadata.h>

#include "sluice/common/errors.h"
#include "sluice/types/ddl_lexer.h"
#include "sluice/types/interval_types.h"
#include "sluice/types/spark_types.h"

namespace sluice::types {

namespace {

/// Deeper nesting than this is refused instead of risking the stack.
constexpr int kMaxNestingDepth = 200;

std::string ToUpper(std::string_view text) {
  std::string upper(text);
  for (char& c : upper) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return upper;
}

/// A primitive type name with its optional "(n, m)" arguments, as written.
struct PrimitiveSpec {
  std::string name;  // upper case
  std::vector<int64_t> params;
  bool has_params = false;

  /// Spark's rendering in UNSUPPORTED_DATATYPE: NAME or NAME(1,2).
  std::string Display() const {
    std::string text = name;
    if (has_params) {
      text += "(";
      for (size_t i = 0; i < params.size(); ++i) {
        if (i > 0) text += ",";
        text += std::to_string(params[i]);
      }
      text += ")";
    }
    return text;
  }
};

/// The atomic types that take no arguments, by upper-case name.
std::shared_ptr<arrow::DataType> SimpleTypeByName(const std::string& name) {
  if (name == "BOOLEAN") return arrow::boolean();
  if (name == "TINYINT" || name == "BYTE") return arrow::int8();
  if (name == "SMALLINT" || name == "SHORT") return arrow::int16();
  if (name == "INT" || name == "INTEGER") return arrow::int32();
  if (name == "BIGINT" || name == "LONG") return arrow::int64();
  if (name == "FLOAT" || name == "REAL") return arrow::float32();
  if (name == "DOUBLE") return arrow::float64();
  if (name == "DATE") return arrow::date32();
  if (name == "TIMESTAMP" || name == "TIMESTAMP_LTZ") return TimestampLtzType();
  if (name == "TIMESTAMP_NTZ") return TimestampNtzType();
  if (name == "STRING") return arrow::utf8();
  if (name == "BINARY") return arrow::binary();
  if (name == "VOID") return arrow::null();
  return nullptr;
}

class DdlParser {
 public:
  explicit DdlParser(std::string_view input) : input_(input), tokens_(TokenizeDdl(input)) {}

  arrow::Result<std::shared_ptr<arrow::DataType>> ParseSingleType() {
    ARROW_ASSIGN_OR_RAISE(auto type, ParseType(0));
    ARROW_RETURN_NOT_OK(ExpectEnd());
    return type;
  }

  arrow::Result<std::shared_ptr<arrow::Schema>> ParseSchema() {
    if (Peek().IsKeyword("STRUCT") && Peek(1).IsSymbol('<')) {
      ARROW_ASSIGN_OR_RAISE(auto type, ParseType(0));
      ARROW_RETURN_NOT_OK(ExpectEnd());
      return arrow::schema(type->fields());
    }
    std::vector<std::shared_ptr<arrow::Field>> fields;
    while (true) {
      ARROW_ASSIGN_OR_RAISE(auto field, ParseColumn(0));
      fields.push_back(std::move(field));
      if (!Peek().IsSymbol(',')) break;
      Next();
    }
    ARROW_RETURN_NOT_OK(ExpectEnd());
    return arrow::schema(std::move(fields));
  }

 private:
  const DdlToken& Peek(size_t ahead = 0) const {
    return tokens_[std::min(position_ + ahead, tokens_.size() - 1)];
  }

  const DdlToken& Next() {
    const DdlToken& token = tokens_[position_];
    if (position_ + 1 < tokens_.size()) ++position_;
    return token;
  }

  /// " (line L, pos P)" and the input with a caret line under the offending position, in the
  /// layout of Spark's ParseException.
  std::string Context(size_t offset) const {
    size_t line = 1;
    size_t line_start = 0;
    for (size_t i = 0; i < offset && i < input_.size(); ++i) {
      if (input_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    size_t line_end = input_.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = input_.size();
    const size_t column = offset - line_start;
    std::string text = " (line " + std::to_string(line) + ", pos " + std::to_string(column) +
                       ")\n\n== SQL ==\n" + std::string(input_.substr(0, line_end)) + "\n" +
                       std::string(column, '-') + "^^^";
    if (line_end < input_.size()) text += std::string(input_.substr(line_end));
    return text;
  }

  arrow::Status ErrorAt(const DdlToken& token, std::string_view error_class,
                        const std::string& message) const {
    return SparkError(error_class, message + Context(token.offset));
  }

  arrow::Status SyntaxError(const DdlToken& token) const {
    std::string near = token.kind == DdlToken::Kind::kEnd ? "end of input" : "'" + token.text + "'";
    return ErrorAt(token, "PARSE_SYNTAX_ERROR", "Syntax error at or near " + near + ".");
  }

  arrow::Status ExpectSymbol(char symbol) {
    if (!Peek().IsSymbol(symbol)) return SyntaxError(Peek());
    Next();
    return arrow::Status::OK();
  }

  arrow::Status ExpectEnd() const {
    if (Peek().kind != DdlToken::Kind::kEnd) return SyntaxError(Peek());
    return arrow::Status::OK();
  }

  /// name [:] type [NOT NULL] [COMMENT 'text'], at the top level or inside struct<...>.
  arrow::Result<std::shared_ptr<arrow::Field>> ParseColumn(int depth) {
    const DdlToken& name = Next();
    if (name.kind != DdlToken::Kind::kWord && name.kind != DdlToken::Kind::kQuotedIdentifier) {
      return SyntaxError(name);
    }
    if (Peek().IsSymbol(':')) Next();
    ARROW_ASSIGN_OR_RAISE(auto type, ParseType(depth + 1));
    bool nullable = true;
    if (Peek().IsKeyword("NOT")) {
      Next();
      if (!Peek().IsKeyword("NULL")) return SyntaxError(Peek());
      Next();
      nullable = false;
    }
    std::shared_ptr<const arrow::KeyValueMetadata> metadata;
    if (Peek().IsKeyword("COMMENT")) {
      Next();
      if (Peek().kind != DdlToken::Kind::kString) return SyntaxError(Peek());
      std::string comment;
      while (Peek().kind == DdlToken::Kind::kString) comment += Next().value;
      metadata = arrow::key_value_metadata({std::string(kCommentMetadataKey)}, {comment});
    }
    return arrow::field(name.value, std::move(type), nullable, std::move(metadata));
  }

  arrow::Status IncompleteType(const DdlToken& token, const std::string& kind,
                               const std::string& what, const std::string& example) const {
    return ErrorAt(token, "INCOMPLETE_TYPE_DEFINITION." + kind,
                   "Incomplete complex type: The definition of \"" + kind +
                       "\" type is incomplete. You must provide " + what +
                       ". For example: \"" + example + "\".");
  }

  arrow::Result<std::shared_ptr<arrow::DataType>> ParseType(int depth) {
    const DdlToken& token = Next();
    if (depth > kMaxNestingDepth) {
      return ErrorAt(token, "PARSE_SYNTAX_ERROR",
                     "Syntax error at or near '" + token.text + "': types are nested more than " +
                         std::to_string(kMaxNestingDepth) + " levels deep.");
    }
    if (token.kind != DdlToken::Kind::kWord) return SyntaxError(token);
    if (token.IsKeyword("ARRAY")) {
      if (!Peek().IsSymbol('<')) {
        return IncompleteType(token, "ARRAY", "an element type", "ARRAY<elementType>");
      }
      Next();
      ARROW_ASSIGN_OR_RAISE(auto element, ParseType(depth + 1));
      ARROW_RETURN_NOT_OK(ExpectSymbol('>'));
      return MakeArrayType(std::move(element));
    }
    if (token.IsKeyword("MAP")) {
      if (!Peek().IsSymbol('<')) {
        return IncompleteType(token, "MAP", "a key type and a value type",
                              "MAP<TIMESTAMP, INT>");
      }
      Next();
      ARROW_ASSIGN_OR_RAISE(auto key, ParseType(depth + 1));
      ARROW_RETURN_NOT_OK(ExpectSymbol(','));
      ARROW_ASSIGN_OR_RAISE(auto value, ParseType(depth + 1));
      ARROW_RETURN_NOT_OK(ExpectSymbol('>'));
      return MakeMapType(std::move(key), std::move(value));
    }
    if (token.IsKeyword("STRUCT")) {
      if (!Peek().IsSymbol('<')) {
        return IncompleteType(token, "STRUCT", "at least one field type",
                              "STRUCT<name STRING, phone DECIMAL(10, 0)>");
      }
      Next();
      std::vector<std::shared_ptr<arrow::Field>> fields;
      if (!Peek().IsSymbol('>')) {
        while (true) {
          ARROW_ASSIGN_OR_RAISE(auto field, ParseColumn(depth + 1));
          fields.push_back(std::move(field));
          if (!Peek().IsSymbol(',')) break;
          Next();
        }
      }
      ARROW_RETURN_NOT_OK(ExpectSymbol('>'));
      return arrow::struct_(std::move(fields));
    }
    return ParsePrimitive(token);
  }

  arrow::Result<std::shared_ptr<arrow::DataType>> ParsePrimitive(const DdlToken& token) {
    PrimitiveSpec spec;
    spec.name = ToUpper(token.text);
    if (spec.name == "TIMESTAMP" && (Peek().IsKeyword("WITHOUT") || Peek().IsKeyword("WITH"))) {
      return ParseTimestampZoneClause();
    }
    if (spec.name == "STRING" && Peek().IsKeyword("COLLATE")) {
      Next();
      const DdlToken& collation = Next();
      if (collation.kind != DdlToken::Kind::kWord &&
          collation.kind != DdlToken::Kind::kQuotedIdentifier) {
        return SyntaxError(collation);
      }
      if (ToUpper(collation.value) == "UTF8_BINARY") return arrow::utf8();
      return ErrorAt(token, "UNSUPPORTED_DATATYPE",
                     "Unsupported data type \"STRING COLLATE " + ToUpper(collation.value) +
                         "\". Only the default collation UTF8_BINARY is supported.");
    }
    if (spec.name == "INTERVAL") {
      while (Peek().kind == DdlToken::Kind::kWord) {
        spec.name.push_back(' ');
        spec.name.append(ToUpper(Next().text));
      }
    }
    if (Peek().IsSymbol('(')) {
      Next();
      spec.has_params = true;
      while (true) {
        const DdlToken& number = Next();
        if (number.kind != DdlToken::Kind::kInteger) return SyntaxError(number);
        // Longer literals than int32 cannot be valid arguments; keep them recognisable.
        spec.params.push_back(number.text.size() > 10 ? INT64_MAX : std::stoll(number.text));
        if (!Peek().IsSymbol(',')) break;
        Next();
      }
      ARROW_RETURN_NOT_OK(ExpectSymbol(')'));
    }
    return ResolvePrimitive(token, spec);
  }

  /// TIMESTAMP WITHOUT TIME ZONE (timestamp_ntz) or TIMESTAMP WITH LOCAL TIME ZONE (timestamp).
  arrow::Result<std::shared_ptr<arrow::DataType>> ParseTimestampZoneClause() {
    const bool without = Next().IsKeyword("WITHOUT");
    if (!without) {
      if (!Peek().IsKeyword("LOCAL")) return SyntaxError(Peek());
      Next();
    }
    if (!Peek().IsKeyword("TIME")) return SyntaxError(Peek());
    Next();
    if (!Peek().IsKeyword("ZONE")) return SyntaxError(Peek());
    Next();
    return without ? TimestampNtzType() : TimestampLtzType();
  }

  arrow::Result<std::shared_ptr<arrow::DataType>> ResolvePrimitive(const DdlToken& token,
                                                                   const PrimitiveSpec& spec) {
    const std::string& name = spec.name;
    if (name == "CHAR" || name == "CHARACTER" || name == "VARCHAR") {
      if (!spec.has_params) {
        const std::string quoted = "\"" + name + "\"";
        return ErrorAt(token, "DATATYPE_MISSING_SIZE",
                       "DataType " + quoted + " requires a length parameter, for example " +
                           quoted + "(10). Please specify the length.");
      }
      if (spec.params.size() == 1) return arrow::utf8();
    } else if (name == "DECIMAL" || name == "DEC" || name == "NUMERIC") {
      if (spec.params.size() <= 2) {
        const int64_t precision = spec.params.empty() ? kDefaultDecimalPrecision : spec.params[0];
        const int64_t scale = spec.params.size() == 2 ? spec.params[1] : 0;
        auto decimal = MakeDecimalType(static_cast<int32_t>(std::min<int64_t>(precision, INT32_MAX)),
                                       static_cast<int32_t>(std::min<int64_t>(scale, INT32_MAX)));
        if (!decimal.ok()) {
          return decimal.status().WithMessage(decimal.status().message() +
                                              Context(token.offset));
        }
        return decimal;
      }
    } else if (!spec.has_params) {
      if (auto type = SimpleTypeByName(name)) return type;
      if (auto type = IntervalTypeByName(name)) return type;
    }
    return ErrorAt(token, "UNSUPPORTED_DATATYPE",
                   "Unsupported data type \"" + spec.Display() + "\".");
  }

  std::string_view input_;
  std::vector<DdlToken> tokens_;
  size_t position_ = 0;
};

}  // namespace

arrow::Result<std::shared_ptr<arrow::DataType>> ParseDataType(std::string_view ddl) {
  return DdlParser(ddl).ParseSingleType();
}

arrow::Result<std::shared_ptr<arrow::Schema>> ParseSchema(std::string_view ddl) {
  return DdlParser(ddl).ParseSchema();
}

}  // namespace sluice::types
