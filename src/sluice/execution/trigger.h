// When a streaming query runs its micro-batches (the spec, section 3).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <arrow/result.h>

namespace sluice::execution {

/// Spark's Trigger: processingTime (interval 0 is the default trigger), once, availableNow.
struct Trigger {
  enum class Kind { kProcessingTime, kOnce, kAvailableNow };

  Kind kind = Kind::kProcessingTime;
  /// For kProcessingTime: batches start on multiples of this; 0 runs the next batch as soon
  /// as the previous one finished.
  int64_t interval_ms = 0;

  /// The default trigger: ProcessingTime(0).
  static Trigger Default() { return Trigger{}; }
  static Trigger ProcessingTime(int64_t interval_ms) {
    return Trigger{Kind::kProcessingTime, interval_ms};
  }
  /// ProcessingTime("2 seconds"); a month or year interval, a negative or unparsable one fail.
  static arrow::Result<Trigger> ProcessingTime(std::string_view interval);
  /// One batch of everything available, rate limits ignored (deprecated in Spark).
  static Trigger Once() { return Trigger{Kind::kOnce, 0}; }
  /// Everything available at start, in as many batches as the rate limits need, then stop.
  static Trigger AvailableNow() { return Trigger{Kind::kAvailableNow, 0}; }

  /// "ProcessingTimeTrigger(2000)", "OneTimeTrigger", "AvailableNowTrigger", as Spark names them.
  std::string ToString() const;
};

}  // namespace sluice::execution
