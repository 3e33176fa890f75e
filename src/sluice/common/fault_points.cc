#include "sluice/common/fault_points.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace sluice {

namespace {

/// One of the variables, parsed.
struct FaultSpec {
  std::string point;
  int64_t hit = 0;
  std::string path_part;
  std::atomic<int64_t> seen{0};

  /// True at the pass the spec names.
  bool Reached(std::string_view at, std::string_view path) {
    if (at != point) return false;
    if (!path_part.empty() && path.find(path_part) == std::string_view::npos) return false;
    return seen.fetch_add(1) + 1 == hit;
  }
};

/// `value` of `variable` parsed, or null when empty. A malformed value is reported and ignored: the
/// harness notices a fault that never comes, since its processes then finish normally.
FaultSpec* ParseSpec(const char* variable, std::string value) {
  if (value.empty()) return nullptr;
  size_t first = value.find(',');
  size_t second = first == std::string::npos ? first : value.find(',', first + 1);
  std::string hit = first == std::string::npos
                        ? std::string()
                        : value.substr(first + 1, second == std::string::npos
                                                      ? std::string::npos
                                                      : second - first - 1);
  char* end = nullptr;
  int64_t number = hit.empty() ? 0 : std::strtoll(hit.c_str(), &end, 10);
  if (number < 1 || *end != '\0') {
    std::cerr << variable << "=" << value
              << " ignored: expected <point>,<hit>[,<path part>] with a hit >= 1" << std::endl;
    return nullptr;
  }
  auto* spec = new FaultSpec();
  spec->point = value.substr(0, first);
  spec->hit = number;
  if (second != std::string::npos) spec->path_part = value.substr(second + 1);
  return spec;
}

FaultSpec* ParseVariable(const char* variable) {
  const char* text = std::getenv(variable);
  return ParseSpec(variable, text == nullptr ? std::string() : std::string(text));
}

/// The failing operation; replaced only by SetFailPointForTesting.
std::atomic<FaultSpec*>& FailSpec() {
  static std::atomic<FaultSpec*> spec{ParseVariable("SLUICE_FAIL_AT")};
  return spec;
}

}  // namespace

void KillPoint(std::string_view point, std::string_view path) {
  // Leaked on purpose: a kill point may be reached while the process exits.
  static FaultSpec* const spec = ParseVariable("SLUICE_KILL_AT");
  if (spec == nullptr || !spec->Reached(point, path)) return;
  ::kill(::getpid(), SIGKILL);
  ::pause();
}

bool FailPoint(std::string_view operation, std::string_view path) {
  FaultSpec* spec = FailSpec().load(std::memory_order_acquire);
  return spec != nullptr && spec->Reached(operation, path);
}

void SetFailPointForTesting(std::string_view value) {
  // Every spec armed stays alive (and reachable) until the process exits: a thread of a
  // finished query may still read the one it replaces.
  static std::mutex mutex;
  static auto* const armed = new std::vector<std::unique_ptr<FaultSpec>>();
  FaultSpec* spec = ParseSpec("SLUICE_FAIL_AT", std::string(value));
  std::lock_guard<std::mutex> lock(mutex);
  if (spec != nullptr) armed->emplace_back(spec);
  FailSpec().store(spec, std::memory_order_release);
}

}  // namespace sluice
