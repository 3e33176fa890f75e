// Tokens of Spark SQL text, shared by the expression parser and the statement parser, and the
// error layout of Spark's ParseException.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/status.h>

namespace sluice::sql {

/// One token of SQL text, as Spark's SqlBaseLexer splits it.
struct SqlToken {
  enum class Kind {
    kWord,              ///< identifier or keyword: letters, digits, '_' (not a number)
    kQuotedIdentifier,  ///< `...`; value holds the name with `` folded to `
    kString,            ///< '...', "..." or raw r'...'; value holds the unescaped text
    kInteger,           ///< unsigned decimal digits only: 42
    kNumber,            ///< any other numeric literal: 1.5, .5, 1e3, 10L, 2S, 3Y, 1.5D, 2F, 1BD
    kSymbol,            ///< an operator or punctuation: ( ) [ ] , . + - <=> :: || and unknowns
    kInvalid,           ///< unterminated quote or comment; text holds the rest of the input
    kEnd,               ///< end of input
  };

  Kind kind;
  /// The token as written, for error messages and for re-reading a span of the input.
  std::string text;
  /// The identifier or string after unquoting; for other kinds equal to text.
  std::string value;
  /// Byte offset of the token's first character in the input.
  size_t offset;

  /// True for a word equal to `keyword` ignoring ASCII case; `keyword` must be upper case.
  bool IsKeyword(std::string_view keyword) const;
  /// True for a symbol token equal to `symbol`.
  bool IsSymbol(std::string_view symbol) const;
  /// Offset just past the token's last character.
  size_t end_offset() const { return offset + text.size(); }
};

/// Splits SQL text into tokens the way Spark's lexer does: whitespace and comments (-- to end of
/// line, nested /* */) are skipped; keywords are words (the parser decides, case-insensitively);
/// strings follow Spark's escapes (\n, \t, \uXXXX, octal \ooo; a doubled quote ends one string
/// and starts the next) and adjacent strings stay separate tokens; a run of word characters
/// that starts with a digit is a number only if the whole run is one (`1L`, `1e3`), otherwise a
/// word (`1a`); multi-character operators (<=>, <=, >=, <>, !=, ==, ||, ::, ->, =>, <<, >>, >>>)
/// are single symbols. Never fails: problems become kInvalid or unknown kSymbol tokens for the
/// parser to report. The last token is always kEnd, and the input is read once (linear time).
std::vector<SqlToken> TokenizeSql(std::string_view input);

/// A parse error in the layout of Spark's ParseException: "[CLASS] message (line L, pos P)",
/// then "== SQL ==", the input, and a line of dashes ending in "^^^" under byte `offset`.
arrow::Status SqlParseError(std::string_view input, size_t offset, std::string_view error_class,
                            const std::string& message);

/// Adds the context of byte `offset` of `input` to an error of a part of it: an error with a
/// Spark error class and no context (a bad literal) gets the caret at `offset`; one with its own
/// one-line context (the type parser's, for the text of a type) gets it moved to the same place
/// in `input`. Other errors are returned unchanged.
arrow::Status WithSqlContext(const arrow::Status& status, std::string_view input, size_t offset);

/// Upper-cases ASCII letters only, for keywords and Spark's names of keywords.
std::string AsciiUpper(std::string_view text);
/// Lower-cases ASCII letters only, for function names.
std::string AsciiLower(std::string_view text);

/// "[PARSE_SYNTAX_ERROR] Syntax error at or near 'tok'<detail>." at the token, with its context.
/// At the end of input the token is named "end of input"; an unclosed /* comment is
/// UNCLOSED_BRACKETED_COMMENT instead. `detail` is empty or starts with ": ".
arrow::Status SqlSyntaxError(std::string_view input, const SqlToken& token,
                             const std::string& detail = "");

}  // namespace sluice::sql
