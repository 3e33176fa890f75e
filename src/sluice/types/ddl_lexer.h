// Tokens of Spark's DDL type and schema strings, for ddl_parser.cc.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace sluice::types {

/// One token of a DDL string.
struct DdlToken {
  enum class Kind {
    kWord,              ///< identifier or keyword: letters, digits, '_' (not all digits)
    kQuotedIdentifier,  ///< `...`, value holds the name with `` folded to `
    kInteger,           ///< unsigned decimal digits
    kString,            ///< '...' or "...", value holds the unescaped text
    kSymbol,            ///< one punctuation character: < > ( ) , : and anything unexpected
    kInvalid,           ///< unterminated quote or comment; text holds the rest of the input
    kEnd,               ///< end of input
  };

  Kind kind;
  /// The token as written, for error messages.
  std::string text;
  /// The identifier or string after unquoting; for other kinds equal to text.
  std::string value;
  /// Byte offset of the token's first character in the input.
  size_t offset;

  /// True for a word equal to `keyword` ignoring ASCII case; `keyword` must be upper case.
  bool IsKeyword(std::string_view keyword) const;
  /// True for a symbol token equal to `symbol`.
  bool IsSymbol(char symbol) const;
};

/// Splits a DDL string into tokens the way Spark's SQL lexer does for type strings: whitespace
/// and comments (-- to end of line, nested /* */) are skipped, strings follow Spark's escapes
/// (\n, \t, \uXXXX, \' ...) and adjacent strings stay separate tokens (the parser joins
/// them, as Spark does). Never fails: problems become kInvalid or kSymbol tokens that the parser
/// reports. The last token is always kEnd.
std::vector<DdlToken> TokenizeDdl(std::string_view input);

}  // namespace sluice::types
