#include "sluice/execution/watermark_tracker.h"

#include <algorithm>

namespace sluice::execution {

void WatermarkTracker::Update(const std::vector<int64_t>& delays_ms,
                              const std::vector<const physical::EventTimeStats*>& stats) {
  for (size_t i = 0; i < stats.size(); ++i) {
    if (stats[i] == nullptr || stats[i]->count == 0) continue;
    int64_t candidate = stats[i]->max - delays_ms[i];
    auto previous = operator_watermarks_.find(i);
    if (previous == operator_watermarks_.end() || candidate > previous->second) {
      operator_watermarks_[i] = candidate;
    }
  }
  if (operator_watermarks_.empty()) return;
  int64_t chosen = operator_watermarks_.begin()->second;
  for (const auto& [index, value] : operator_watermarks_) {
    chosen = use_max_ ? std::max(chosen, value) : std::min(chosen, value);
  }
  watermark_ms_ = std::max(watermark_ms_, chosen);
}

}  // namespace sluice::execution
