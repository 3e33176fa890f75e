// SparkSession::sql: parses a statement and runs it, queries through the SQL query planner and
// commands against the session's views, the warehouse's tables and the settings.
#include <algorithm>
#include <filesystem>
#include <regex>

#include <arrow/builder.h>
#include <arrow/table.h>

#include "sluice/api/dataframe_reader.h"
#include "sluice/api/session.h"
#include "sluice/api/session_state.h"
#include "sluice/api/sql_query_planner.h"
#include "sluice/api/table_identifier.h"
#include "sluice/common/errors.h"
#include "sluice/delta/delta_log.h"
#include "sluice/expr/binder.h"
#include "sluice/plan/window.h"
#include "sluice/sql/statement.h"
#include "sluice/types/ddl_parser.h"
#include "sluice/types/spark_type_names.h"

namespace sluice {

namespace {

using sql::Statement;

// Result rows of a command: string columns, as Spark's commands return them.
arrow::Result<std::shared_ptr<arrow::Table>> StringRows(
    const std::vector<std::string>& names, const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::shared_ptr<arrow::Field>> fields;
  std::vector<std::shared_ptr<arrow::Array>> columns;
  for (size_t c = 0; c < names.size(); ++c) {
    arrow::StringBuilder builder;
    for (const auto& row : rows) ARROW_RETURN_NOT_OK(builder.Append(row[c]));
    ARROW_ASSIGN_OR_RAISE(auto array, builder.Finish());
    fields.push_back(arrow::field(names[c], arrow::utf8(), false));
    columns.push_back(std::move(array));
  }
  return arrow::Table::Make(arrow::schema(fields), columns);
}

// Spark's SHOW ... LIKE pattern: `*` matches any text, `|` separates alternatives,
// case-insensitively.
bool MatchesPattern(const std::optional<std::string>& pattern, const std::string& name) {
  if (!pattern) return true;
  std::string expression;
  for (char c : *pattern) {
    if (c == '*') {
      expression += ".*";
    } else if (c == '|') {
      expression += '|';
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      expression += c;
    } else {
      expression += std::string("\\") + c;
    }
  }
  return std::regex_match(name, std::regex(expression, std::regex::icase));
}

class StatementRunner {
 public:
  explicit StatementRunner(const SparkSession& session)
      : session_(session), state_(session.state()) {}

  arrow::Result<DataFrame> Run(const Statement& statement) {
    switch (statement.kind) {
      case Statement::Kind::kQuery:
        return Checked(PlanSqlQuery(session_, *statement.query));
      case Statement::Kind::kCreateView:
        return CreateView(statement);
      case Statement::Kind::kCreateTable:
        return CreateTable(statement);
      case Statement::Kind::kInsert:
        return Insert(statement);
      case Statement::Kind::kDropTable:
        return DropTable(statement);
      case Statement::Kind::kDropView:
        if (!state_->DropTempView(statement.name) && !statement.if_exists) {
          return TableNotFound(statement.name);
        }
        return Empty();
      case Statement::Kind::kDescribe:
        return Describe(statement);
      case Statement::Kind::kShowTables:
        return ShowTables(statement);
      case Statement::Kind::kShowViews:
        return ShowViews(statement);
      case Statement::Kind::kShowFunctions:
        return ShowFunctions(statement);
      case Statement::Kind::kExplain:
        return Explain(statement);
      case Statement::Kind::kSet:
        return Set(statement);
      case Statement::Kind::kReset:
        if (statement.key) {
          state_->config.Unset(*statement.key);
        } else {
          std::vector<std::string> keys;
          for (const auto& [key, value] : state_->config.explicit_values()) keys.push_back(key);
          for (const auto& key : keys) state_->config.Unset(key);
        }
        return Empty();
    }
    return arrow::Status::Invalid("unknown statement kind");
  }

 private:
  arrow::Result<DataFrame> Checked(DataFrame df) {
    ARROW_RETURN_NOT_OK(df.status());
    return df;
  }

  arrow::Result<DataFrame> Rows(const std::vector<std::string>& names,
                                const std::vector<std::vector<std::string>>& rows) {
    ARROW_ASSIGN_OR_RAISE(auto table, StringRows(names, rows));
    return Checked(session_.createDataFrame(std::move(table)));
  }

  arrow::Result<DataFrame> Empty() { return Rows({}, {}); }

  arrow::Result<DataFrame> CreateView(const Statement& statement) {
    if (statement.global) {
      return SparkError("UNSUPPORTED_FEATURE.GLOBAL_TEMP_VIEW",
                        "The feature is not supported: global temporary views; create a "
                        "temporary view instead.");
    }
    if (statement.name.find('.') != std::string::npos) {
      return SparkError("TEMP_VIEW_NAME_TOO_MANY_NAME_PARTS",
                        "CREATE TEMPORARY VIEW expects a single-part view name, got " +
                            statement.name + ".");
    }
    if (state_->FindTempView(statement.name)) {
      if (statement.if_not_exists) return Empty();
      if (!statement.or_replace) {
        return SparkError("TEMP_TABLE_OR_VIEW_ALREADY_EXISTS",
                          "Cannot create the temporary view " + QuoteIdentifier(statement.name) +
                              " because it already exists.");
      }
    }
    DataFrame view = PlanSqlQuery(session_, *statement.query);
    if (!statement.columns.empty()) view = view.toDF(statement.columns);
    ARROW_RETURN_NOT_OK(view.status());
    state_->RegisterTempView(statement.name, view.plan());
    return Empty();
  }

  // Named tables are Delta tables: CREATE TABLE makes one in the warehouse, or at its LOCATION,
  // empty with the given columns or filled by its AS query.
  arrow::Result<DataFrame> CreateTable(const Statement& statement) {
    if (statement.location) return CreateTableAt(statement, *statement.location);
    return WriteNewTable(statement);
  }

  // CREATE TABLE ... LOCATION: the session names the folder; a Delta table already there is
  // taken as it is (as Delta does), otherwise the table is written there. DROP TABLE forgets
  // the name and leaves the files.
  arrow::Result<DataFrame> CreateTableAt(const Statement& statement, const std::string& location) {
    ARROW_ASSIGN_OR_RAISE(auto named, ResolveTable(*state_, statement.name));
    if ((named.exists || named.external) && statement.if_not_exists) return Empty();
    if ((named.exists || named.external) && !statement.or_replace) {
      return SparkError("TABLE_OR_VIEW_ALREADY_EXISTS",
                        "Cannot create table or view " + named.id.Quoted() +
                            " because it already exists.");
    }
    std::error_code error;
    const std::string path = std::filesystem::absolute(location, error).lexically_normal().string();
    ARROW_ASSIGN_OR_RAISE(auto version, delta::DeltaLog(path).LatestVersion());
    const bool occupied = !version && std::filesystem::is_directory(path, error) &&
                          !std::filesystem::is_empty(path, error);
    if (occupied || (version && statement.query && !statement.or_replace)) {
      return SparkError("DELTA_CREATE_TABLE_WITH_NON_EMPTY_LOCATION",
                        "Cannot create table (" + named.id.Quoted() +
                            "). The associated location (" + path + ") is not empty " +
                            (occupied ? "and also not a Delta table."
                                      : "and already holds a Delta table."));
    }
    std::optional<std::string> previous = state_->TableLocation(named.id.Key());
    state_->RegisterTableLocation(named.id.Key(), path);
    if (version && !statement.query && !statement.or_replace) return Empty();
    auto written = WriteNewTable(statement);
    if (!written.ok()) {
      // The name keeps what it meant before the failed statement.
      if (previous) {
        state_->RegisterTableLocation(named.id.Key(), *previous);
      } else {
        state_->DropTableLocation(named.id.Key());
      }
    }
    return written;
  }

  arrow::Result<DataFrame> WriteNewTable(const Statement& statement) {
    ARROW_ASSIGN_OR_RAISE(auto named, ResolveTable(*state_, statement.name));
    if (named.exists && statement.if_not_exists) return Empty();
    if (named.exists && !statement.or_replace) {
      return SparkError("TABLE_OR_VIEW_ALREADY_EXISTS",
                        "Cannot create table or view " + named.id.Quoted() +
                            " because it already exists.");
    }
    DataFrame rows(state_, arrow::Status::OK());
    if (statement.query) {
      if (!statement.schema_ddl.empty()) {
        return SparkError("_LEGACY_ERROR_TEMP_0035",
                          "Operation not allowed: Schema may not be specified in a Create Table "
                          "As Select (CTAS) statement.");
      }
      rows = PlanSqlQuery(session_, *statement.query);
    } else {
      if (statement.schema_ddl.empty()) {
        return SparkError("_LEGACY_ERROR_TEMP_0035",
                          "Operation not allowed: CREATE TABLE without columns or AS query.");
      }
      ARROW_ASSIGN_OR_RAISE(auto schema, types::ParseSchema(statement.schema_ddl));
      ARROW_ASSIGN_OR_RAISE(auto empty, arrow::Table::MakeEmpty(schema));
      rows = session_.createDataFrame(std::move(empty));
    }
    ARROW_RETURN_NOT_OK(rows.status());
    DataFrameWriter writer = rows.write();
    writer.format(statement.format.empty() ? "delta" : statement.format)
        .mode(statement.or_replace ? "overwrite" : "errorifexists")
        .options(statement.options);
    if (!statement.partition_by.empty()) writer.partitionBy(statement.partition_by);
    if (statement.or_replace) writer.option("overwriteSchema", "true");
    ARROW_RETURN_NOT_OK(writer.saveAsTable(statement.name));
    return Empty();
  }

  // INSERT matches the query's columns to the table's by position (or to the named columns).
  arrow::Result<DataFrame> Insert(const Statement& statement) {
    if (state_->FindTempView(statement.name)) {
      return SparkError("UNSUPPORTED_INSERT.NOT_ALLOWED",
                        "Can't insert into the target: the temporary view " +
                            QuoteIdentifier(statement.name) + " is not a table.");
    }
    DataFrame target = DataFrameReader(state_).table(statement.name);
    ARROW_RETURN_NOT_OK(target.status());
    DataFrame rows = PlanSqlQuery(session_, *statement.query);
    ARROW_RETURN_NOT_OK(rows.status());
    const std::vector<std::string> table_columns = target.columns();
    const std::vector<std::string>& names =
        statement.columns.empty() ? table_columns : statement.columns;
    if (rows.columns().size() != names.size()) {
      return SparkError("INSERT_COLUMN_ARITY_MISMATCH.NOT_ENOUGH_DATA_COLUMNS",
                        "Cannot write to " + QuoteIdentifier(statement.name) +
                            ", the reason is not enough data columns: table columns: " +
                            std::to_string(names.size()) + ", data columns: " +
                            std::to_string(rows.columns().size()) + ".");
    }
    rows = rows.toDF(names);
    ARROW_RETURN_NOT_OK(rows.write()
                            .format("delta")
                            .mode(statement.overwrite ? "overwrite" : "append")
                            .saveAsTable(statement.name));
    return Empty();
  }

  arrow::Result<DataFrame> DropTable(const Statement& statement) {
    if (state_->DropTempView(statement.name)) return Empty();  // DROP TABLE drops views too
    ARROW_ASSIGN_OR_RAISE(auto named, ResolveTable(*state_, statement.name));
    if (named.external) {
      state_->DropTableLocation(named.id.Key());
      return Empty();
    }
    if (!named.exists) {
      if (statement.if_exists) return Empty();
      return TableNotFound(statement.name);
    }
    std::error_code error;
    std::filesystem::remove_all(named.path, error);
    if (error) {
      return arrow::Status::IOError("Cannot drop the table ", named.id.Quoted(),
                                    ": removing its folder ", named.path,
                                    " failed: ", error.message());
    }
    return Empty();
  }

  arrow::Result<DataFrame> Describe(const Statement& statement) {
    DataFrame described = statement.query ? PlanSqlQuery(session_, *statement.query)
                                          : session_.table(statement.name);
    ARROW_ASSIGN_OR_RAISE(auto schema, described.schema());
    std::vector<std::vector<std::string>> rows;
    for (const auto& field : schema->fields()) {
      rows.push_back({field->name(), types::SimpleString(*field->type()), ""});
    }
    ARROW_ASSIGN_OR_RAISE(auto table, StringRows({"col_name", "data_type", "comment"}, rows));
    // The comment column is null where a column has no comment, as in Spark.
    ARROW_ASSIGN_OR_RAISE(auto nulls, arrow::MakeArrayOfNull(arrow::utf8(), table->num_rows()));
    ARROW_ASSIGN_OR_RAISE(
        table, table->SetColumn(2, arrow::field("comment", arrow::utf8()),
                                std::make_shared<arrow::ChunkedArray>(std::move(nulls))));
    return Checked(session_.createDataFrame(std::move(table)));
  }

  arrow::Result<DataFrame> ShowTables(const Statement& statement) {
    const std::string database = statement.database.empty() ? "default" : statement.database;
    ARROW_ASSIGN_OR_RAISE(auto tables, ListTables(*state_, database));
    std::vector<std::vector<std::string>> rows;
    for (const auto& table : tables) {
      if (MatchesPattern(statement.pattern, table)) rows.push_back({database, table, "false"});
    }
    for (const auto& view : state_->TempViewNames()) {
      if (MatchesPattern(statement.pattern, view)) rows.push_back({"", view, "true"});
    }
    ARROW_ASSIGN_OR_RAISE(auto table, StringRows({"namespace", "tableName", "isTemporary"}, rows));
    // isTemporary is a boolean column.
    arrow::BooleanBuilder temporary;
    for (const auto& row : rows) ARROW_RETURN_NOT_OK(temporary.Append(row[2] == "true"));
    ARROW_ASSIGN_OR_RAISE(auto flags, temporary.Finish());
    ARROW_ASSIGN_OR_RAISE(
        table, table->SetColumn(2, arrow::field("isTemporary", arrow::boolean(), false),
                                std::make_shared<arrow::ChunkedArray>(std::move(flags))));
    return Checked(session_.createDataFrame(std::move(table)));
  }

  arrow::Result<DataFrame> ShowViews(const Statement& statement) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& view : state_->TempViewNames()) {
      if (MatchesPattern(statement.pattern, view)) rows.push_back({"", view});
    }
    return Rows({"namespace", "viewName"}, rows);
  }

  arrow::Result<DataFrame> ShowFunctions(const Statement& statement) {
    std::vector<std::string> names = state_->registry->Names();
    const auto& own = expr::BinderFunctionNames();
    names.insert(names.end(), own.begin(), own.end());
    const auto& window = plan::WindowFunctionNames();
    names.insert(names.end(), window.begin(), window.end());
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    std::vector<std::vector<std::string>> rows;
    for (const auto& name : names) {
      if (MatchesPattern(statement.pattern, name)) rows.push_back({name});
    }
    return Rows({"function"}, rows);
  }

  arrow::Result<DataFrame> Explain(const Statement& statement) {
    const Statement& explained = *statement.explained;
    if (explained.kind != Statement::Kind::kQuery) {
      return Rows({"plan"}, {{"== Physical Plan ==\nExecute " + explained.name + "\n"}});
    }
    DataFrame query = PlanSqlQuery(session_, *explained.query);
    ARROW_ASSIGN_OR_RAISE(auto text, query.explainString(statement.extended));
    return Rows({"plan"}, {{text}});
  }

  arrow::Result<DataFrame> Set(const Statement& statement) {
    std::vector<std::vector<std::string>> rows;
    if (!statement.key) {
      for (const auto& [key, value] : state_->config.explicit_values()) {
        rows.push_back({key, value});
      }
    } else if (statement.value) {
      ARROW_RETURN_NOT_OK(state_->config.Set(*statement.key, *statement.value));
      rows.push_back({*statement.key, *statement.value});
    } else {
      rows.push_back({*statement.key, state_->config.Get(*statement.key).value_or("<undefined>")});
    }
    return Rows({"key", "value"}, rows);
  }

  const SparkSession& session_;
  std::shared_ptr<SessionState> state_;
};

}  // namespace

DataFrame SparkSession::sql(const std::string& text) const {
  auto statement = sql::ParseStatement(text);
  if (!statement.ok()) return DataFrame(state_, statement.status());
  auto result = StatementRunner(*this).Run(**statement);
  if (!result.ok()) return DataFrame(state_, result.status());
  return *std::move(result);
}

arrow::Status DataFrame::createOrReplaceTempView(const std::string& name) const {
  ARROW_RETURN_NOT_OK(status_);
  session_->RegisterTempView(name, plan_);
  return arrow::Status::OK();
}

arrow::Status DataFrame::createTempView(const std::string& name) const {
  ARROW_RETURN_NOT_OK(status_);
  if (session_->FindTempView(name)) {
    return SparkError("TEMP_TABLE_OR_VIEW_ALREADY_EXISTS",
                      "Cannot create the temporary view " + QuoteIdentifier(name) +
                          " because it already exists.");
  }
  session_->RegisterTempView(name, plan_);
  return arrow::Status::OK();
}

}  // namespace sluice
