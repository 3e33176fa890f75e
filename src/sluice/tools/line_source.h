// Where the SQL shell reads its input: the terminal with line editing, or any stream.
#pragma once

#include <istream>
#include <optional>
#include <string>

namespace sluice::tools {

/// A source of input lines for the SQL shell.
class LineSource {
 public:
  virtual ~LineSource() = default;
  /// The next line without its line break, after showing `prompt` where there is someone to
  /// see it; nullopt at the end of the input (Ctrl-D on a terminal).
  virtual std::optional<std::string> ReadLine(const std::string& prompt) = 0;
};

/// The lines of a stream, without prompts: input that is not a terminal (a pipe, a test).
/// The stream must outlive the source.
class StreamLineSource final : public LineSource {
 public:
  explicit StreamLineSource(std::istream& in) : in_(in) {}
  std::optional<std::string> ReadLine(const std::string& prompt) override;

 private:
  std::istream& in_;
};

}  // namespace sluice::tools
