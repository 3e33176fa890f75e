#include <algorithm>
#include <utility>

#include "sluice/sql/query_parser.h"
#include "sluice/sql/statement.h"

namespace sluice::sql {

namespace {

using Kind = SqlToken::Kind;

std::string Trim(std::string_view text) {
  size_t begin = 0;
  size_t end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return std::string(text.substr(begin, end - begin));
}

/// Reads the statements around the queries, with the query parser's cursor.
class StatementParser {
 public:
  StatementParser(std::string_view input, const std::vector<SqlToken>& tokens)
      : input_(input), queries_(input, tokens), p_(queries_.expressions()) {}

  arrow::Result<StatementPtr> ParseStatement() {
    const SqlToken& token = p_.Peek();
    auto statement = std::make_shared<Statement>();
    if (queries_.AtQuery()) {
      ARROW_ASSIGN_OR_RAISE(statement->query, queries_.ParseQuery());
    } else if (p_.AcceptKeyword("CREATE")) {
      ARROW_RETURN_NOT_OK(ParseCreate(*statement));
    } else if (p_.AcceptKeyword("INSERT")) {
      ARROW_RETURN_NOT_OK(ParseInsert(*statement));
    } else if (p_.AcceptKeyword("DROP")) {
      ARROW_RETURN_NOT_OK(ParseDrop(*statement));
    } else if (p_.AcceptKeyword("DESCRIBE") || p_.AcceptKeyword("DESC")) {
      ARROW_RETURN_NOT_OK(ParseDescribe(*statement));
    } else if (p_.AcceptKeyword("SHOW")) {
      ARROW_RETURN_NOT_OK(ParseShow(*statement));
    } else if (p_.AcceptKeyword("EXPLAIN")) {
      statement->kind = Statement::Kind::kExplain;
      if (p_.AcceptKeyword("EXTENDED")) {
        statement->extended = true;
      } else if (p_.Peek().IsKeyword("CODEGEN") || p_.Peek().IsKeyword("COST") ||
                 p_.Peek().IsKeyword("FORMATTED")) {
        p_.Next();
      }
      ARROW_ASSIGN_OR_RAISE(statement->explained, ParseStatement());
    } else if (token.IsKeyword("SET")) {
      ARROW_RETURN_NOT_OK(ParseSet(*statement));
    } else if (token.IsKeyword("RESET")) {
      statement->kind = Statement::Kind::kReset;
      p_.Next();
      std::string key = RestOfInput();
      if (!key.empty()) statement->key = std::move(key);
    } else {
      return p_.SyntaxError(token);
    }
    return statement;
  }

  arrow::Status ExpectEnd() {
    p_.AcceptSymbol(";");
    return p_.ExpectEnd();
  }

 private:
  // The text from the cursor to the end of input (or a final `;`), consuming it.
  std::string RestOfInput() {
    const size_t begin = p_.Peek().offset;
    size_t end = begin;
    while (p_.Peek().kind != Kind::kEnd && !(p_.Peek().IsSymbol(";") && p_.Peek(1).kind == Kind::kEnd)) {
      end = p_.Next().end_offset();
    }
    return Trim(input_.substr(begin, end - begin));
  }

  arrow::Result<std::string> ParseName() {
    const SqlToken& first = p_.Peek();
    ARROW_RETURN_NOT_OK(p_.ParseIdentifier().status());
    std::string name = first.kind == Kind::kQuotedIdentifier ? first.text : first.value;
    while (p_.AcceptSymbol(".")) {
      const SqlToken& part = p_.Peek();
      ARROW_RETURN_NOT_OK(p_.ParseIdentifier().status());
      name += "." + part.text;
    }
    return name;
  }

  arrow::Result<std::vector<std::string>> ParseNameList() {
    ARROW_RETURN_NOT_OK(p_.ExpectSymbol("("));
    std::vector<std::string> names;
    do {
      ARROW_ASSIGN_OR_RAISE(auto name, p_.ParseIdentifier());
      // A view's column may carry a comment: (a COMMENT 'text').
      if (p_.AcceptKeyword("COMMENT")) p_.Next();
      names.push_back(std::move(name));
    } while (p_.AcceptSymbol(","));
    ARROW_RETURN_NOT_OK(p_.ExpectSymbol(")"));
    return names;
  }

  arrow::Result<std::string> ParseString() {
    const SqlToken& token = p_.Peek();
    if (token.kind != Kind::kString) return p_.SyntaxError(token, ": a string is expected");
    return p_.Next().value;
  }

  bool AcceptIfNotExists() {
    if (!(p_.Peek().IsKeyword("IF") && p_.Peek(1).IsKeyword("NOT") &&
          p_.Peek(2).IsKeyword("EXISTS"))) {
      return false;
    }
    p_.Next();
    p_.Next();
    p_.Next();
    return true;
  }

  bool AcceptIfExists() {
    if (!(p_.Peek().IsKeyword("IF") && p_.Peek(1).IsKeyword("EXISTS"))) return false;
    p_.Next();
    p_.Next();
    return true;
  }

  arrow::Status ParseCreate(Statement& statement) {
    if (p_.AcceptKeyword("OR")) {
      ARROW_RETURN_NOT_OK(p_.ExpectKeyword("REPLACE"));
      statement.or_replace = true;
    }
    statement.global = p_.AcceptKeyword("GLOBAL");
    const bool temporary = p_.AcceptKeyword("TEMPORARY") || p_.AcceptKeyword("TEMP");
    if (p_.AcceptKeyword("VIEW")) {
      if (!temporary) {
        return p_.SyntaxError(p_.Peek(), ": only temporary views are supported (CREATE TEMP VIEW)");
      }
      statement.kind = Statement::Kind::kCreateView;
      statement.if_not_exists = AcceptIfNotExists();
      ARROW_ASSIGN_OR_RAISE(statement.name, ParseName());
      if (p_.Peek().IsSymbol("(")) {
        ARROW_ASSIGN_OR_RAISE(statement.columns, ParseNameList());
      }
      ARROW_RETURN_NOT_OK(p_.ExpectKeyword("AS"));
      ARROW_ASSIGN_OR_RAISE(statement.query, queries_.ParseQuery());
      return arrow::Status::OK();
    }
    if (temporary || statement.global) return p_.SyntaxError(p_.Peek(), ": missing 'VIEW'");
    p_.AcceptKeyword("EXTERNAL");
    ARROW_RETURN_NOT_OK(p_.ExpectKeyword("TABLE"));
    statement.kind = Statement::Kind::kCreateTable;
    statement.if_not_exists = AcceptIfNotExists();
    ARROW_ASSIGN_OR_RAISE(statement.name, ParseName());
    if (p_.Peek().IsSymbol("(")) {
      // The column list is DDL text: the type parser reads it.
      const size_t begin = p_.Next().end_offset();
      int depth = 0;
      while (true) {
        const SqlToken& token = p_.Peek();
        if (token.kind == Kind::kEnd || token.kind == Kind::kInvalid) {
          return p_.SyntaxError(token, ": missing ')'");
        }
        if (token.IsSymbol("(")) ++depth;
        if (token.IsSymbol(")") && depth-- == 0) break;
        p_.Next();
      }
      statement.schema_ddl = std::string(input_.substr(begin, p_.Peek().offset - begin));
      p_.Next();
    }
    while (true) {
      if (p_.AcceptKeyword("USING")) {
        ARROW_ASSIGN_OR_RAISE(statement.format, p_.ParseIdentifier());
      } else if (p_.AcceptKeyword("PARTITIONED")) {
        ARROW_RETURN_NOT_OK(p_.ExpectKeyword("BY"));
        ARROW_ASSIGN_OR_RAISE(statement.partition_by, ParseNameList());
      } else if (p_.AcceptKeyword("LOCATION")) {
        ARROW_ASSIGN_OR_RAISE(statement.location, ParseString());
      } else if (p_.AcceptKeyword("OPTIONS") || p_.AcceptKeyword("TBLPROPERTIES")) {
        ARROW_RETURN_NOT_OK(ParseOptions(statement.options));
      } else if (p_.AcceptKeyword("COMMENT")) {
        ARROW_RETURN_NOT_OK(ParseString().status());
      } else {
        break;
      }
    }
    if (p_.AcceptKeyword("AS")) {
      ARROW_ASSIGN_OR_RAISE(statement.query, queries_.ParseQuery());
    } else if (queries_.AtQuery() && !p_.Peek().IsSymbol("(")) {
      ARROW_ASSIGN_OR_RAISE(statement.query, queries_.ParseQuery());
    }
    return arrow::Status::OK();
  }

  // (key = value, 'key' 'value', ...): keys are names with dots or strings; values are strings,
  // numbers or booleans, kept as written.
  arrow::Status ParseOptions(std::map<std::string, std::string>& options) {
    ARROW_RETURN_NOT_OK(p_.ExpectSymbol("("));
    do {
      std::string key;
      if (p_.Peek().kind == Kind::kString) {
        key = p_.Next().value;
      } else {
        ARROW_ASSIGN_OR_RAISE(key, p_.ParseIdentifier());
        while (p_.AcceptSymbol(".")) {
          ARROW_ASSIGN_OR_RAISE(auto part, p_.ParseIdentifier());
          key += "." + part;
        }
      }
      p_.AcceptSymbol("=");
      const SqlToken& value = p_.Peek();
      if (value.kind != Kind::kString && value.kind != Kind::kInteger &&
          value.kind != Kind::kNumber && value.kind != Kind::kWord) {
        return p_.SyntaxError(value, ": an option value is expected");
      }
      options[key] = p_.Next().value;
    } while (p_.AcceptSymbol(","));
    return p_.ExpectSymbol(")");
  }

  arrow::Status ParseInsert(Statement& statement) {
    statement.kind = Statement::Kind::kInsert;
    if (p_.AcceptKeyword("OVERWRITE")) {
      statement.overwrite = true;
    } else {
      ARROW_RETURN_NOT_OK(p_.ExpectKeyword("INTO"));
    }
    p_.AcceptKeyword("TABLE");
    ARROW_ASSIGN_OR_RAISE(statement.name, ParseName());
    if (p_.Peek().IsSymbol("(") && !(p_.Peek(1).IsKeyword("SELECT") || p_.Peek(1).IsKeyword("WITH"))) {
      ARROW_ASSIGN_OR_RAISE(statement.columns, ParseNameList());
    }
    ARROW_ASSIGN_OR_RAISE(statement.query, queries_.ParseQuery());
    return arrow::Status::OK();
  }

  arrow::Status ParseDrop(Statement& statement) {
    if (p_.AcceptKeyword("TABLE")) {
      statement.kind = Statement::Kind::kDropTable;
    } else if (p_.AcceptKeyword("VIEW")) {
      statement.kind = Statement::Kind::kDropView;
    } else {
      return p_.SyntaxError(p_.Peek(), ": missing 'TABLE' or 'VIEW'");
    }
    statement.if_exists = AcceptIfExists();
    ARROW_ASSIGN_OR_RAISE(statement.name, ParseName());
    p_.AcceptKeyword("PURGE");
    return arrow::Status::OK();
  }

  arrow::Status ParseDescribe(Statement& statement) {
    statement.kind = Statement::Kind::kDescribe;
    const bool table = p_.AcceptKeyword("TABLE");
    if (!table && (p_.AcceptKeyword("QUERY") || queries_.AtQuery())) {
      ARROW_ASSIGN_OR_RAISE(statement.query, queries_.ParseQuery());
      return arrow::Status::OK();
    }
    statement.extended = p_.AcceptKeyword("EXTENDED") || p_.AcceptKeyword("FORMATTED");
    ARROW_ASSIGN_OR_RAISE(statement.name, ParseName());
    return arrow::Status::OK();
  }

  arrow::Status ParsePattern(Statement& statement) {
    p_.AcceptKeyword("LIKE");
    if (p_.Peek().kind == Kind::kString) statement.pattern = p_.Next().value;
    return arrow::Status::OK();
  }

  arrow::Status ParseShow(Statement& statement) {
    if (p_.AcceptKeyword("TABLES")) {
      statement.kind = Statement::Kind::kShowTables;
      if (p_.AcceptKeyword("FROM") || p_.AcceptKeyword("IN")) {
        ARROW_ASSIGN_OR_RAISE(statement.database, p_.ParseIdentifier());
      }
      return ParsePattern(statement);
    }
    if (p_.AcceptKeyword("VIEWS")) {
      statement.kind = Statement::Kind::kShowViews;
      return ParsePattern(statement);
    }
    if (p_.Peek().IsKeyword("USER") || p_.Peek().IsKeyword("SYSTEM") ||
        p_.Peek().IsKeyword("ALL")) {
      p_.Next();
    }
    if (p_.AcceptKeyword("FUNCTIONS")) {
      statement.kind = Statement::Kind::kShowFunctions;
      return ParsePattern(statement);
    }
    return p_.SyntaxError(p_.Peek(), ": SHOW TABLES, SHOW VIEWS or SHOW FUNCTIONS is expected");
  }

  // SET, SET key, SET key = value: as Spark, the key is the raw text before `=` and the value
  // the raw text after it, both trimmed.
  arrow::Status ParseSet(Statement& statement) {
    statement.kind = Statement::Kind::kSet;
    p_.Next();  // SET
    std::string rest = RestOfInput();
    if (rest.empty()) return arrow::Status::OK();
    const size_t equals = rest.find('=');
    std::string key = Trim(std::string_view(rest).substr(0, equals));
    if (key.size() >= 2 && key.front() == '`' && key.back() == '`') {
      key = key.substr(1, key.size() - 2);
    }
    if (key.empty() || key == "-v") {
      if (equals == std::string::npos) return arrow::Status::OK();
      return SqlParseError(input_, 0, "INVALID_SET_SYNTAX",
                           "Expected format is 'SET', 'SET key', or 'SET key=value'.");
    }
    statement.key = std::move(key);
    if (equals != std::string::npos) {
      std::string value = Trim(std::string_view(rest).substr(equals + 1));
      if (value.size() >= 2 && (value.front() == '\'' || value.front() == '"') &&
          value.back() == value.front()) {
        value = value.substr(1, value.size() - 2);
      }
      statement.value = std::move(value);
    }
    return arrow::Status::OK();
  }

  std::string_view input_;
  QueryParser queries_;
  ExpressionParser& p_;
};

}  // namespace

arrow::Result<StatementPtr> ParseStatement(std::string_view text) {
  const auto tokens = TokenizeSql(text);
  StatementParser parser(text, tokens);
  ARROW_ASSIGN_OR_RAISE(auto statement, parser.ParseStatement());
  ARROW_RETURN_NOT_OK(parser.ExpectEnd());
  return statement;
}

}  // namespace sluice::sql
