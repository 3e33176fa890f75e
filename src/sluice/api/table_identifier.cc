#include "sluice/api/table_identifier.h"

#include <algorithm>
#include <filesystem>
#include <vector>

#include "sluice/api/session_state.h"
#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"
#include "sluice/delta/delta_log.h"
#include "sluice/formats/partition_discovery.h"

namespace sluice {

namespace {

arrow::Status InvalidName(std::string_view name, const std::string& why) {
  return SparkError("PARSE_SYNTAX_ERROR",
                    "Syntax error in the table name '" + std::string(name) + "': " + why + ".");
}

}  // namespace

std::string TableIdentifier::Quoted() const {
  return QuoteIdentifier("spark_catalog") + "." + QuoteIdentifier(database) + "." +
         QuoteIdentifier(table);
}

arrow::Result<TableIdentifier> ParseTableIdentifier(std::string_view name) {
  std::vector<std::string> parts(1);
  bool quoted = false;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (quoted) {
      if (c == '`' && i + 1 < name.size() && name[i + 1] == '`') {
        parts.back().push_back('`');
        ++i;
      } else if (c == '`') {
        quoted = false;
      } else {
        parts.back().push_back(c);
      }
    } else if (c == '`') {
      quoted = true;
    } else if (c == '.') {
      parts.emplace_back();
    } else if (c == ' ' || c == '\t') {
      return InvalidName(name, "unquoted names cannot hold spaces");
    } else {
      parts.back().push_back(c);
    }
  }
  if (quoted) return InvalidName(name, "a backquote is not closed");
  for (const auto& part : parts) {
    if (part.empty()) return InvalidName(name, "a part of the name is empty");
  }
  if (parts.size() == 3) {
    if (AsciiLower(parts[0]) != "spark_catalog") {
      return SparkError("REQUIRES_SINGLE_PART_NAMESPACE",
                        "spark_catalog requires a single-part namespace, and there is no other "
                        "catalog: got " + std::string(name) + ".");
    }
    parts.erase(parts.begin());
  }
  if (parts.size() > 2) {
    return SparkError("REQUIRES_SINGLE_PART_NAMESPACE",
                      "spark_catalog requires a single-part namespace, but got " +
                          std::string(name) + ".");
  }
  TableIdentifier id;
  if (parts.size() == 2) id.database = AsciiLower(parts[0]);
  id.table = AsciiLower(parts.back());
  return id;
}

std::string ManagedTablePath(const SessionConfig& config, const TableIdentifier& id) {
  std::filesystem::path warehouse =
      std::filesystem::absolute(formats::LocalPath(config.warehouse_dir()));
  if (id.database == "default") return (warehouse / id.table).string();
  return (warehouse / (id.database + ".db") / id.table).string();
}

arrow::Result<NamedTable> ResolveTable(const SessionState& state, std::string_view name) {
  NamedTable named;
  ARROW_ASSIGN_OR_RAISE(named.id, ParseTableIdentifier(name));
  auto location = state.TableLocation(named.id.Key());
  named.external = location.has_value();
  named.path = location ? *location : ManagedTablePath(state.config, named.id);
  ARROW_ASSIGN_OR_RAISE(auto version, delta::DeltaLog(named.path).LatestVersion());
  named.exists = version.has_value();
  return named;
}

arrow::Result<std::vector<std::string>> ListTables(const SessionState& state,
                                                   const std::string& database) {
  TableIdentifier probe;
  probe.database = AsciiLower(database);
  probe.table = "probe";
  std::vector<std::string> names;
  const std::string prefix = probe.database + ".";
  for (const auto& key : state.TableLocationKeys()) {
    if (key.compare(0, prefix.size(), prefix) == 0) names.push_back(key.substr(prefix.size()));
  }
  const auto folder = std::filesystem::path(ManagedTablePath(state.config, probe)).parent_path();
  std::error_code error;
  if (!std::filesystem::is_directory(folder, error)) {
    std::sort(names.begin(), names.end());
    return names;
  }
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    if (!entry.is_directory()) continue;
    ARROW_ASSIGN_OR_RAISE(auto version, delta::DeltaLog(entry.path().string()).LatestVersion());
    if (version.has_value()) names.push_back(entry.path().filename().string());
  }
  if (error) {
    return arrow::Status::IOError("Cannot list the warehouse folder ", folder.string(), ": ",
                                  error.message());
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

arrow::Status TableNotFound(std::string_view name) {
  std::string quoted;
  size_t start = 0;
  while (true) {
    size_t dot = name.find('.', start);
    std::string_view part = name.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (!part.empty() && part.front() == '`' && part.back() == '`' && part.size() >= 2) {
      quoted += (quoted.empty() ? "" : ".") + std::string(part);
    } else {
      quoted += (quoted.empty() ? "" : ".") + QuoteIdentifier(part);
    }
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return SparkError("TABLE_OR_VIEW_NOT_FOUND",
                    "The table or view " + quoted +
                        " cannot be found. Verify the spelling and correctness of the schema "
                        "and catalog. If you did not qualify the name with a schema, verify "
                        "the current_schema() output, or qualify the name with the correct "
                        "schema and catalog.");
}

}  // namespace sluice
