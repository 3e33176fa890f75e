// The `sluice` program: parses the command line and runs the command (see UsageText()).
// Exit codes: 0 done, 1 the command failed (its error on stderr), 2 a usage error.
#include <unistd.h>

#include <iostream>

#include "sluice/api/session.h"
#include "sluice/checkpoint/atomic_file.h"
#include "sluice/tools/checkpoint_report.h"
#include "sluice/tools/command_line.h"
#include "sluice/tools/edit_line_source.h"
#include "sluice/tools/sql_command.h"
#include "sluice/tools/state_command.h"

namespace sluice::tools {
namespace {

arrow::Result<std::shared_ptr<SparkSession>> MakeSession(const CommandLine& line,
                                                         const std::string& app_name) {
  auto builder = SparkSession::builder();
  builder.appName(app_name);
  for (const auto& [key, value] : line.conf) builder.config(key, value);
  return builder.getOrCreate();
}

arrow::Status RunSql(const CommandLine& line) {
  ARROW_ASSIGN_OR_RAISE(auto session, MakeSession(line, "sluice sql"));
  if (line.statements) return RunSqlScript(*session, *line.statements, std::cout, std::cerr);
  if (line.file) {
    ARROW_ASSIGN_OR_RAISE(auto text, checkpoint::ReadWholeFile(*line.file));
    return RunSqlScript(*session, text, std::cout, std::cerr);
  }
  if (!::isatty(STDIN_FILENO)) {
    StreamLineSource lines(std::cin);
    RunSqlShell(*session, lines, std::cout, std::cerr);
    return arrow::Status::OK();
  }
  ARROW_ASSIGN_OR_RAISE(auto lines, EditLineSource::Make(DefaultHistoryFile()));
  RunSqlShell(*session, *lines, std::cout, std::cerr);
  std::cout << std::endl;
  return arrow::Status::OK();
}

arrow::Status RunCheckpoint(const CommandLine& line) {
  ARROW_ASSIGN_OR_RAISE(auto report, ReadCheckpointReport(line.checkpoint));
  if (line.json) {
    std::cout << CheckpointReportJson(report) << std::endl;
  } else {
    PrintCheckpointReport(report, std::cout);
  }
  return arrow::Status::OK();
}

arrow::Status RunState(const CommandLine& line) {
  ARROW_ASSIGN_OR_RAISE(auto session, MakeSession(line, "sluice state"));
  if (!line.output) return PrintState(*session, line.state, line.limit, std::cout);
  ARROW_ASSIGN_OR_RAISE(int64_t rows, WriteStateParquet(*session, line.state, *line.output));
  std::cout << "Wrote " << rows << " row(s) to " << *line.output << std::endl;
  return arrow::Status::OK();
}

int Main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  auto line = ParseCommandLine(args);
  if (!line.ok()) {
    std::cerr << "sluice: " << line.status().message() << "\n\n" << UsageText();
    return 2;
  }
  arrow::Status status;
  switch (line->command) {
    case CommandLine::Command::kHelp:
      std::cout << UsageText();
      return 0;
    case CommandLine::Command::kSql:
      status = RunSql(*line);
      break;
    case CommandLine::Command::kCheckpoint:
      status = RunCheckpoint(*line);
      break;
    case CommandLine::Command::kState:
      status = RunState(*line);
      break;
  }
  if (!status.ok()) {
    std::cerr << "Error: " << status.message() << std::endl;
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace sluice::tools

int main(int argc, char** argv) { return sluice::tools::Main(argc, argv); }
