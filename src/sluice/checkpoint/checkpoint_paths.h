// Where everything lives inside a checkpoint folder, in Spark's layout (the spec, section 7).
// Every path of a checkpoint is built here.
#pragma once

#include <string>

namespace sluice::checkpoint {

/// The paths of one checkpoint folder. A value; builds strings, touches no disk.
class CheckpointPaths {
 public:
  explicit CheckpointPaths(std::string root) : root_(std::move(root)) {}

  const std::string& root() const { return root_; }
  /// {"id":"<queryId>"}
  std::string metadata() const { return root_ + "/metadata"; }
  /// offsets/<N>
  std::string offsets() const { return root_ + "/offsets"; }
  /// commits/<N>
  std::string commits() const { return root_ + "/commits"; }
  /// The private folder of the source at `index` in the plan: sources/<index>.
  std::string source(int index) const { return root_ + "/sources/" + std::to_string(index); }
  /// State of stateful operators: state/<operator>/<partition>/...
  std::string state() const { return root_ + "/state"; }

 private:
  std::string root_;
};

}  // namespace sluice::checkpoint
