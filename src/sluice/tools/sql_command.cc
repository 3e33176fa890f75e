#include "sluice/tools/sql_command.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>

#include <arrow/table.h>

#include "sluice/common/ascii.h"
#include "sluice/tools/sql_statement_buffer.h"

namespace sluice::tools {

namespace {

constexpr const char* kPrompt = "sluice-sql> ";
constexpr const char* kContinuationPrompt = "          > ";

/// spark-sql's "Time taken: 0.012 seconds, Fetched 3 row(s)".
std::string TimeTaken(std::chrono::steady_clock::duration elapsed, int64_t rows) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count();
  char seconds[32];
  std::snprintf(seconds, sizeof(seconds), "%.3f", static_cast<double>(ms) / 1000.0);
  std::string line = "Time taken: " + std::string(seconds) + " seconds";
  if (rows > 0) line += ", Fetched " + std::to_string(rows) + " row(s)";
  return line;
}

void PrintError(const arrow::Status& status, std::ostream& err) {
  err << "Error in query: " << status.message() << std::endl;
}

}  // namespace

arrow::Status RunSqlStatement(const SparkSession& session, const std::string& statement,
                              std::ostream& out, std::ostream& err) {
  const auto start = std::chrono::steady_clock::now();
  DataFrame result = session.sql(statement);
  // The rows are collected once and shown from memory, so the query runs once.
  ARROW_ASSIGN_OR_RAISE(auto table, result.collect());
  const int64_t rows = table->num_rows();
  if (table->num_columns() > 0) {
    const int shown = static_cast<int>(std::min<int64_t>(rows, INT_MAX));
    ARROW_ASSIGN_OR_RAISE(auto text,
                          session.createDataFrame(table).showString(shown, /*truncate_to=*/0));
    out << text << std::flush;
  }
  err << TimeTaken(std::chrono::steady_clock::now() - start, rows) << std::endl;
  return arrow::Status::OK();
}

arrow::Status RunSqlScript(const SparkSession& session, const std::string& text,
                           std::ostream& out, std::ostream& err) {
  SqlStatementBuffer buffer;
  std::vector<std::string> statements = buffer.AddLine(text);
  if (!buffer.empty()) statements.push_back(buffer.TakeRest());
  for (const std::string& statement : statements) {
    ARROW_RETURN_NOT_OK(RunSqlStatement(session, statement, out, err));
  }
  return arrow::Status::OK();
}

void RunSqlShell(const SparkSession& session, LineSource& lines, std::ostream& out,
                 std::ostream& err) {
  SqlStatementBuffer buffer;
  // Runs a statement; false for `exit` and `quit`, which end the shell as in spark-sql.
  auto run = [&](const std::string& statement) {
    if (AsciiEqualsIgnoreCase(statement, "exit") || AsciiEqualsIgnoreCase(statement, "quit")) {
      return false;
    }
    arrow::Status status = RunSqlStatement(session, statement, out, err);
    if (!status.ok()) PrintError(status, err);
    return true;
  };
  while (true) {
    auto line = lines.ReadLine(buffer.empty() ? kPrompt : kContinuationPrompt);
    if (!line) break;
    for (const std::string& statement : buffer.AddLine(*line)) {
      if (!run(statement)) return;
    }
  }
  if (!buffer.empty()) run(buffer.TakeRest());
}

}  // namespace sluice::tools
