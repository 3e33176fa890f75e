#include "sluice/tools/line_source.h"

namespace sluice::tools {

std::optional<std::string> StreamLineSource::ReadLine(const std::string& prompt) {
  std::string line;
  if (!std::getline(in_, line)) return std::nullopt;
  return line;
}

}  // namespace sluice::tools
