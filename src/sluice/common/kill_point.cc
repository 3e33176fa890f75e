#include "sluice/common/kill_point.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

namespace sluice {

namespace {

struct KillSpec {
  std::string point;
  int64_t hit = 0;
  std::string path_part;
  std::atomic<int64_t> seen{0};
};

/// SLUICE_KILL_AT parsed, or null when unset. A malformed value is reported and ignored: a
/// crash test that silently never crashes would prove nothing, so the harness checks that
/// its processes die.
KillSpec* ParseSpec() {
  const char* text = std::getenv("SLUICE_KILL_AT");
  if (text == nullptr || *text == '\0') return nullptr;
  std::string value(text);
  auto* spec = new KillSpec();
  size_t first = value.find(',');
  if (first == std::string::npos) {
    std::cerr << "SLUICE_KILL_AT=" << value << " ignored: expected <point>,<hit>[,<path part>]"
              << std::endl;
    delete spec;
    return nullptr;
  }
  spec->point = value.substr(0, first);
  size_t second = value.find(',', first + 1);
  std::string hit = value.substr(first + 1, second == std::string::npos
                                                ? std::string::npos
                                                : second - first - 1);
  char* end = nullptr;
  spec->hit = std::strtoll(hit.c_str(), &end, 10);
  if (hit.empty() || *end != '\0' || spec->hit < 1) {
    std::cerr << "SLUICE_KILL_AT=" << value << " ignored: the hit must be a number >= 1"
              << std::endl;
    delete spec;
    return nullptr;
  }
  if (second != std::string::npos) spec->path_part = value.substr(second + 1);
  return spec;
}

}  // namespace

void KillPoint(std::string_view point, std::string_view path) {
  // Leaked on purpose: a kill point may be reached while the process exits.
  static KillSpec* const spec = ParseSpec();
  if (spec == nullptr || point != spec->point) return;
  if (!spec->path_part.empty() && path.find(spec->path_part) == std::string_view::npos) return;
  if (spec->seen.fetch_add(1) + 1 != spec->hit) return;
  ::kill(::getpid(), SIGKILL);
  ::pause();
}

}  // namespace sluice
