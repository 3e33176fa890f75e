#include "sluice/tools/sql_statement_buffer.h"

#include "sluice/sql/sql_lexer.h"

namespace sluice::tools {

namespace {

std::string Trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "";
  const auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

}  // namespace

std::vector<std::string> SqlStatementBuffer::AddLine(std::string_view line) {
  if (!pending_.empty()) pending_ += '\n';
  pending_ += line;
  std::vector<std::string> statements;
  size_t start = 0;
  // Whether a token other than `;` came since `start`: a statement of comments is dropped.
  bool has_content = false;
  for (const sql::SqlToken& token : sql::TokenizeSql(pending_)) {
    if (token.kind == sql::SqlToken::Kind::kEnd) break;
    if (!token.IsSymbol(";")) {
      has_content = true;
      continue;
    }
    if (has_content) {
      statements.push_back(Trimmed(std::string_view(pending_).substr(start, token.offset - start)));
    }
    start = token.end_offset();
    has_content = false;
  }
  pending_.erase(0, start);
  return statements;
}

bool SqlStatementBuffer::empty() const {
  return sql::TokenizeSql(pending_).front().kind == sql::SqlToken::Kind::kEnd;
}

std::string SqlStatementBuffer::TakeRest() {
  std::string rest = empty() ? "" : Trimmed(pending_);
  pending_.clear();
  return rest;
}

}  // namespace sluice::tools
