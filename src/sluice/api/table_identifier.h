// Named tables: a name as Spark's session catalog reads it, and where the table of that name
// lives. Named tables are Delta tables in the warehouse folder (spark.sql.warehouse.dir), laid
// out as Spark lays out managed tables: <warehouse>/<table> for the default database and
// <warehouse>/<database>.db/<table> for the others, so the folder alone says which tables
// exist, across sessions and processes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <arrow/result.h>

#include "sluice/common/session_config.h"

namespace sluice {
struct SessionState;
}  // namespace sluice

namespace sluice {

/// `[spark_catalog.][database.]table`, lower-cased as the session catalog keeps names.
struct TableIdentifier {
  std::string database = "default";
  std::string table;

  /// `spark_catalog`.`database`.`table`, as Spark's messages print it.
  std::string Quoted() const;
  /// `database.table`: how the session keeps the table's location.
  std::string Key() const { return database + "." + table; }
};

/// Reads a table name; parts may be backquoted (`my table`, with `` for a backquote). An empty
/// part, more than three parts or another catalog than spark_catalog fails with Spark's
/// PARSE_SYNTAX_ERROR / REQUIRES_SINGLE_PART_NAMESPACE-style errors naming the text.
arrow::Result<TableIdentifier> ParseTableIdentifier(std::string_view name);

/// The folder of the managed table `id` in the session's warehouse.
std::string ManagedTablePath(const SessionConfig& config, const TableIdentifier& id);

/// A name resolved against the session's table locations and the warehouse.
struct NamedTable {
  TableIdentifier id;
  std::string path;
  /// Whether a Delta table exists at `path`.
  bool exists = false;
  /// Whether the table was created with a LOCATION (its folder is not the warehouse's).
  bool external = false;
};

/// Parses `name` and looks for its table (a Delta log with a commit at its folder): at the
/// location the session registered for it, else in the warehouse.
arrow::Result<NamedTable> ResolveTable(const SessionState& state, std::string_view name);

/// The names of the tables of `database`: those with a location and the warehouse's (folders
/// holding a Delta table), sorted; none when there are neither.
arrow::Result<std::vector<std::string>> ListTables(const SessionState& state,
                                                   const std::string& database);

/// Spark's TABLE_OR_VIEW_NOT_FOUND for `name`.
arrow::Status TableNotFound(std::string_view name);

}  // namespace sluice
