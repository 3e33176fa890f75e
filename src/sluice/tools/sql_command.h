// `sluice sql`: Spark SQL statements run on a session, printed as spark-sql prints them.
#pragma once

#include <ostream>
#include <string>

#include <arrow/status.h>

#include "sluice/api/session.h"
#include "sluice/tools/line_source.h"

namespace sluice::tools {

/// Runs one statement on `session` (SparkSession::sql). A result with columns prints to `out`
/// as Spark's show() lays it out, every row, no cell cut; then "Time taken: 0.012 seconds,
/// Fetched 3 row(s)" goes to `err` as spark-sql prints it (without the row count when there
/// are no rows). Returns the statement's error, printing nothing for it.
arrow::Status RunSqlStatement(const SparkSession& session, const std::string& statement,
                              std::ostream& out, std::ostream& err);

/// Runs the statements of `text` (each ended by `;`, the last one may lack it) in order, and
/// stops at the first error, which it returns.
arrow::Status RunSqlScript(const SparkSession& session, const std::string& text,
                           std::ostream& out, std::ostream& err);

/// The interactive shell: reads `lines` with the prompt "sluice-sql> " (and "          > "
/// while a statement is under way), runs each statement once its `;` arrives, prints an
/// error to `err` as "Error in query: <message>" and goes on. Returns after `exit;` or
/// `quit;`, or at the end of the input after running a last statement that lacks its `;`.
void RunSqlShell(const SparkSession& session, LineSource& lines, std::ostream& out,
                 std::ostream& err);

}  // namespace sluice::tools
