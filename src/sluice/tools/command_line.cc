#include "sluice/tools/command_line.h"

#include <charconv>
#include <limits>

namespace sluice::tools {

namespace {

arrow::Status UsageError(const std::string& message) {
  return arrow::Status::Invalid(message);
}

arrow::Result<int64_t> NonNegativeNumber(const std::string& option, const std::string& text) {
  int64_t value = -1;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0) {
    return UsageError(option + " needs a number of 0 or more, not '" + text + "'.");
  }
  return value;
}

/// Walks the arguments, handing out options and their values.
class Arguments {
 public:
  explicit Arguments(const std::vector<std::string>& args) : args_(args) {}

  bool done() const { return next_ >= args_.size(); }
  const std::string& Next() { return args_[next_++]; }
  /// The value after `option`.
  arrow::Result<std::string> ValueOf(const std::string& option) {
    if (done()) return UsageError(option + " needs a value.");
    return Next();
  }

 private:
  const std::vector<std::string>& args_;
  size_t next_ = 0;
};

arrow::Status AddConf(const std::string& setting, CommandLine* line) {
  const auto equals = setting.find('=');
  if (equals == std::string::npos || equals == 0) {
    return UsageError("--conf needs key=value, not '" + setting + "'.");
  }
  line->conf.emplace_back(setting.substr(0, equals), setting.substr(equals + 1));
  return arrow::Status::OK();
}

arrow::Status ParseSql(Arguments& args, CommandLine* line) {
  while (!args.done()) {
    const std::string& arg = args.Next();
    if (arg == "--conf") {
      ARROW_ASSIGN_OR_RAISE(auto setting, args.ValueOf(arg));
      ARROW_RETURN_NOT_OK(AddConf(setting, line));
    } else if (arg == "-e") {
      ARROW_ASSIGN_OR_RAISE(line->statements, args.ValueOf(arg));
    } else if (arg == "-f") {
      ARROW_ASSIGN_OR_RAISE(line->file, args.ValueOf(arg));
    } else {
      return UsageError("sluice sql does not know the argument '" + arg + "'.");
    }
  }
  if (line->statements && line->file) return UsageError("Give -e or -f, not both.");
  return arrow::Status::OK();
}

arrow::Status ParseCheckpoint(Arguments& args, CommandLine* line) {
  while (!args.done()) {
    const std::string& arg = args.Next();
    if (arg == "--json") {
      line->json = true;
    } else if (!arg.starts_with("-") && line->checkpoint.empty()) {
      line->checkpoint = arg;
    } else {
      return UsageError("sluice checkpoint does not know the argument '" + arg + "'.");
    }
  }
  if (line->checkpoint.empty()) return UsageError("sluice checkpoint needs a checkpoint folder.");
  return arrow::Status::OK();
}

arrow::Status ParseState(Arguments& args, CommandLine* line) {
  StateSelection& state = line->state;
  while (!args.done()) {
    const std::string& arg = args.Next();
    if (arg == "--operator") {
      ARROW_ASSIGN_OR_RAISE(auto value, args.ValueOf(arg));
      ARROW_ASSIGN_OR_RAISE(state.operator_id, NonNegativeNumber(arg, value));
    } else if (arg == "--store-name") {
      ARROW_ASSIGN_OR_RAISE(state.store_name, args.ValueOf(arg));
    } else if (arg == "--join-side") {
      ARROW_ASSIGN_OR_RAISE(state.join_side, args.ValueOf(arg));
    } else if (arg == "--batch-id") {
      ARROW_ASSIGN_OR_RAISE(auto value, args.ValueOf(arg));
      ARROW_ASSIGN_OR_RAISE(state.batch_id, NonNegativeNumber(arg, value));
    } else if (arg == "--limit") {
      ARROW_ASSIGN_OR_RAISE(auto value, args.ValueOf(arg));
      ARROW_ASSIGN_OR_RAISE(int64_t limit, NonNegativeNumber(arg, value));
      if (limit > std::numeric_limits<int>::max()) {
        return UsageError("--limit is at most " +
                          std::to_string(std::numeric_limits<int>::max()) + ".");
      }
      line->limit = static_cast<int>(limit);
    } else if (arg == "--output") {
      ARROW_ASSIGN_OR_RAISE(line->output, args.ValueOf(arg));
    } else if (arg == "--conf") {
      ARROW_ASSIGN_OR_RAISE(auto setting, args.ValueOf(arg));
      ARROW_RETURN_NOT_OK(AddConf(setting, line));
    } else if (!arg.starts_with("-") && state.checkpoint.empty()) {
      state.checkpoint = arg;
    } else {
      return UsageError("sluice state does not know the argument '" + arg + "'.");
    }
  }
  if (state.checkpoint.empty()) return UsageError("sluice state needs a checkpoint folder.");
  return arrow::Status::OK();
}

}  // namespace

arrow::Result<CommandLine> ParseCommandLine(const std::vector<std::string>& args) {
  CommandLine line;
  if (args.empty()) return UsageError("Name a command.");
  const std::string& command = args.front();
  std::vector<std::string> rest(args.begin() + 1, args.end());
  Arguments arguments(rest);
  if (command == "help" || command == "--help" || command == "-h") {
    line.command = CommandLine::Command::kHelp;
  } else if (command == "sql") {
    line.command = CommandLine::Command::kSql;
    ARROW_RETURN_NOT_OK(ParseSql(arguments, &line));
  } else if (command == "checkpoint") {
    line.command = CommandLine::Command::kCheckpoint;
    ARROW_RETURN_NOT_OK(ParseCheckpoint(arguments, &line));
  } else if (command == "state") {
    line.command = CommandLine::Command::kState;
    ARROW_RETURN_NOT_OK(ParseState(arguments, &line));
  } else {
    return UsageError("Unknown command '" + command + "'.");
  }
  return line;
}

std::string UsageText() {
  return R"(Usage:
  sluice sql [--conf key=value]... [-e "statements" | -f file]
      Spark SQL on a session: an interactive shell (history in ~/.sluice_history; end
      statements with ';', Ctrl-D or exit; to leave), or the statements of -e or -f,
      stopping at the first error.
  sluice checkpoint <folder> [--json]
      What a streaming checkpoint holds: query id, batches, the batch a restart re-runs,
      the latest batch's offsets, time and watermark, pinned settings, sources, state.
  sluice state <folder> [--operator N] [--store-name NAME | --join-side left|right]
               [--batch-id B] [--limit N] [--output file.parquet] [--conf key=value]...
      The state rows (key, value, partition_id) of one operator's store at a batch
      (default: operator 0, store default, the last committed batch, 20 rows shown),
      or all of them written to a Parquet file.
  sluice help
)";
}

}  // namespace sluice::tools
