#include "support/delta_rs.h"

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace sluice::testing {

namespace {

std::string Quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

/// The standard output of delta_rs_tool.py with `arguments`; its failure is an error holding
/// what it printed.
arrow::Result<std::string> RunTool(const std::vector<std::string>& arguments) {
  std::string command = Quote(SLUICE_TEST_PYTHON) + " " +
                        Quote(std::string(SLUICE_TEST_DATA_DIR) + "/delta/delta_rs_tool.py");
  for (const auto& argument : arguments) command += " " + Quote(argument);
  command += " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return arrow::Status::IOError("Cannot run ", command);
  std::string output;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) output.append(buffer, n);
  int status = ::pclose(pipe);
  if (status != 0) {
    return arrow::Status::IOError("delta-rs failed (", command, "):\n", output);
  }
  return output;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

}  // namespace

arrow::Result<DeltaRsTable> DeltaRsRead(const std::string& path, std::optional<int64_t> version) {
  std::vector<std::string> arguments = {"read", path};
  if (version) arguments.push_back(std::to_string(*version));
  ARROW_ASSIGN_OR_RAISE(auto output, RunTool(arguments));
  auto lines = Lines(output);
  if (lines.empty()) return arrow::Status::Invalid("delta-rs printed nothing");
  DeltaRsTable table;
  // {"version":3,"columns":["id","name"]}
  const std::string& header = lines.front();
  size_t version_at = header.find("\"version\":");
  if (version_at == std::string::npos) return arrow::Status::Invalid("bad header: ", header);
  table.version = std::stoll(header.substr(version_at + 10));
  size_t columns_at = header.find('[');
  std::string columns = header.substr(columns_at + 1, header.rfind(']') - columns_at - 1);
  std::istringstream names(columns);
  std::string name;
  while (std::getline(names, name, ',')) {
    name.erase(0, name.find('"') + 1);
    name.erase(name.rfind('"'));
    table.columns.push_back(name);
  }
  table.rows.assign(lines.begin() + 1, lines.end());
  return table;
}

arrow::Result<std::optional<int64_t>> DeltaRsTransactionVersion(const std::string& path,
                                                                const std::string& app_id) {
  ARROW_ASSIGN_OR_RAISE(auto output, RunTool({"txn", path, app_id}));
  auto lines = Lines(output);
  if (lines.size() != 1) return arrow::Status::Invalid("unexpected output: ", output);
  if (lines[0] == "null") return std::nullopt;
  return std::stoll(lines[0]);
}

arrow::Status DeltaRsWriteFixture(const std::string& path) {
  return RunTool({"fixture", path}).status();
}

}  // namespace sluice::testing
