// SQL statements as the parser reads them: a query, or a command on views, tables and settings.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/result.h>

#include "sluice/sql/query_ast.h"

namespace sluice::sql {

struct Statement;
using StatementPtr = std::shared_ptr<const Statement>;

/// One statement. Which fields are set depends on the kind.
struct Statement {
  enum class Kind {
    kQuery,          ///< query
    kCreateView,     ///< CREATE [OR REPLACE] [GLOBAL] TEMP VIEW [IF NOT EXISTS] name [(cols)] AS query
    kCreateTable,    ///< CREATE [OR REPLACE] TABLE [IF NOT EXISTS] name [(schema)] [USING format]
                     ///< [PARTITIONED BY (cols)] [LOCATION 'path'] [OPTIONS (...)] [AS query]
    kInsert,         ///< INSERT INTO|OVERWRITE [TABLE] name [(cols)] query
    kDropTable,      ///< DROP TABLE [IF EXISTS] name
    kDropView,       ///< DROP VIEW [IF EXISTS] name
    kDescribe,       ///< DESCRIBE [TABLE] [EXTENDED] name, or DESCRIBE QUERY query
    kShowTables,     ///< SHOW TABLES [FROM|IN db] [[LIKE] 'pattern']
    kShowViews,      ///< SHOW VIEWS [[LIKE] 'pattern']
    kShowFunctions,  ///< SHOW FUNCTIONS [[LIKE] 'pattern']
    kExplain,        ///< EXPLAIN [EXTENDED] statement
    kSet,            ///< SET, SET key, SET key = value
    kReset,          ///< RESET [key]
  };
  Kind kind = Kind::kQuery;

  /// The query of kQuery, a view's definition, CREATE TABLE ... AS, INSERT, DESCRIBE QUERY.
  QueryPtr query;
  /// The view or table, as written (parts joined by dots, backquotes kept).
  std::string name;
  bool or_replace = false;
  bool if_not_exists = false;
  bool if_exists = false;
  /// GLOBAL TEMP VIEW; INSERT OVERWRITE; DESCRIBE/EXPLAIN EXTENDED.
  bool global = false;
  bool overwrite = false;
  bool extended = false;
  /// Column names of a view or an INSERT.
  std::vector<std::string> columns;
  /// CREATE TABLE: the column list as DDL text (`a INT, b STRING`), format, partition columns,
  /// location and options.
  std::string schema_ddl;
  std::string format;
  std::vector<std::string> partition_by;
  std::optional<std::string> location;
  std::map<std::string, std::string> options;
  /// SHOW ... LIKE pattern; SHOW TABLES IN database.
  std::optional<std::string> pattern;
  std::string database;
  /// SET/RESET key and value.
  std::optional<std::string> key;
  std::optional<std::string> value;
  /// EXPLAIN's statement.
  StatementPtr explained;
};

/// Parses one statement (a trailing `;` allowed). Errors are PARSE_SYNTAX_ERROR with line,
/// position and a caret, or the class of the bad part (a literal, a type).
arrow::Result<StatementPtr> ParseStatement(std::string_view text);

}  // namespace sluice::sql
