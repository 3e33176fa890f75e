// The arguments of the `sluice` program, parsed once into what each command needs.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <arrow/result.h>

#include "sluice/tools/state_command.h"

namespace sluice::tools {

/// A parsed command line.
struct CommandLine {
  enum class Command { kHelp, kSql, kCheckpoint, kState };
  Command command = Command::kHelp;
  /// --conf key=value, in order (sql and state): session settings.
  std::vector<std::pair<std::string, std::string>> conf;

  /// sql: -e's statements or -f's file; neither starts the interactive shell.
  std::optional<std::string> statements;
  std::optional<std::string> file;

  /// checkpoint: --json prints the report as JSON.
  std::string checkpoint;
  bool json = false;

  /// state: what to read, how many rows to show (--limit), or the Parquet file to write
  /// every row to (--output).
  StateSelection state;
  int limit = 20;
  std::optional<std::string> output;
};

/// Parses the arguments after the program name. A wrong command, option or value fails
/// naming it; the caller prints UsageText() with the error.
arrow::Result<CommandLine> ParseCommandLine(const std::vector<std::string>& args);

/// How to call the program, for --help and for usage errors.
std::string UsageText();

}  // namespace sluice::tools
