// The time windows of window(time, windowDuration, slideDuration, startTime), for the operators
// that work with them beside the functions of datetime_window.cc.
#pragma once

#include <cstdint>
#include <optional>

#include "sluice/datetime/calendar.h"
#include "sluice/expr/bound_expression.h"

namespace sluice::expr {

/// The durations of a time window, in microseconds: its length, the distance between the
/// starts of consecutive windows, and the offset of the starts from the epoch.
struct TimeWindowSpec {
  int64_t window = 0;
  int64_t slide = 0;
  int64_t start = 0;
};

/// The durations of `e` when it is a bound `__time_windows(time, window, slide, start)`, the
/// windows of a time that the API layer explodes for a sliding window; nullopt for any other
/// expression.
std::optional<TimeWindowSpec> TimeWindowsOf(const BoundExpr& e);

/// Calls `fn(start)` for the start of every window of `spec` that contains the time `t`, the
/// latest start first (Spark's Expand order): with lastStart = t - floorMod(t - startTime,
/// slide), the candidates are lastStart - i * slide for i < ceil(window / slide), kept when
/// t < start + window.
template <typename Fn>
void ForEachWindowOf(int64_t t, const TimeWindowSpec& spec, Fn&& fn) {
  const int64_t candidates = (spec.window + spec.slide - 1) / spec.slide;
  const int64_t last_start = t - datetime::FloorMod(t - spec.start, spec.slide);
  for (int64_t i = 0; i < candidates; ++i) {
    const int64_t window_start = last_start - i * spec.slide;
    if (t < window_start + spec.window) fn(window_start);
  }
}

}  // namespace sluice::expr
