// Terminal input with line editing and a history file, through libedit's readline API.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <arrow/result.h>

#include "sluice/tools/line_source.h"

namespace sluice::tools {

/// Lines typed at the terminal, with libedit's line editing; every line entered is added to
/// the history, which is loaded from and saved to a file so that it survives the session.
/// libedit keeps its state in globals: at most one EditLineSource may exist at a time, used
/// from one thread.
class EditLineSource final : public LineSource {
 public:
  /// Loads the history in `history_file` (a missing file is an empty history; empty
  /// `history_file` keeps none); fails naming the file when it exists but cannot be read.
  static arrow::Result<std::unique_ptr<EditLineSource>> Make(std::string history_file);
  ~EditLineSource() override;

  /// Shows `prompt` and reads a line with editing; nullopt on Ctrl-D at an empty line.
  std::optional<std::string> ReadLine(const std::string& prompt) override;

 private:
  explicit EditLineSource(std::string history_file) : history_file_(std::move(history_file)) {}

  std::string history_file_;
};

/// ~/.sluice_history, or empty when HOME is not set.
std::string DefaultHistoryFile();

}  // namespace sluice::tools
