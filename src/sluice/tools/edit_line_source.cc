#include "sluice/tools/edit_line_source.h"

#include <cstdlib>
#include <filesystem>

#include <editline/readline.h>

namespace sluice::tools {

namespace {

/// How many lines the history file keeps.
constexpr int kHistoryLines = 1000;

}  // namespace

arrow::Result<std::unique_ptr<EditLineSource>> EditLineSource::Make(std::string history_file) {
  using_history();
  stifle_history(kHistoryLines);
  // A missing history file is a first session; there is nothing to load.
  std::error_code error;
  if (!history_file.empty() && std::filesystem::exists(history_file, error) &&
      read_history(history_file.c_str()) != 0) {
    return arrow::Status::IOError("Cannot read the history file ", history_file,
                                  ": move it away to start with an empty history.");
  }
  return std::unique_ptr<EditLineSource>(new EditLineSource(std::move(history_file)));
}

EditLineSource::~EditLineSource() { clear_history(); }

std::optional<std::string> EditLineSource::ReadLine(const std::string& prompt) {
  char* line = readline(prompt.c_str());
  if (line == nullptr) return std::nullopt;
  std::string text(line);
  std::free(line);
  if (text.find_first_not_of(" \t") != std::string::npos) {
    add_history(text.c_str());
    // Saved line by line, so that a shell that is killed keeps what was typed.
    if (!history_file_.empty()) write_history(history_file_.c_str());
  }
  return text;
}

std::string DefaultHistoryFile() {
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') return "";
  return std::string(home) + "/.sluice_history";
}

}  // namespace sluice::tools
