// Cuts SQL text into statements at their closing `;`, as the SQL shell reads it line by line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sluice::tools {

/// Collects SQL text and hands out each statement once its closing `;` has arrived. A `;`
/// inside a string, a backquoted name or a comment does not end a statement: Spark's lexer
/// (sql::TokenizeSql) decides what is what, so an unclosed quote or comment simply waits for
/// more text. Not thread-safe; one buffer per input.
class SqlStatementBuffer {
 public:
  /// Appends `line` (without its line break; one is put back between lines) and returns the
  /// statements it completed, in order, without their `;` or surrounding whitespace.
  /// Statements that hold nothing but whitespace and comments are dropped.
  std::vector<std::string> AddLine(std::string_view line);
  /// True when no statement is under way: what is pending is only whitespace and comments.
  bool empty() const;
  /// The statement under way (text after the last `;`, trimmed; empty when empty()), which
  /// leaves the buffer empty: at the end of the input, a last statement may lack its `;`.
  std::string TakeRest();

 private:
  std::string pending_;
};

}  // namespace sluice::tools
