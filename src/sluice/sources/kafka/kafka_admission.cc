#include "sluice/sources/kafka/kafka_admission.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sluice/formats/text_values.h"

namespace sluice::sources::kafka {

namespace {

// Java's (long) cast of a double: NaN is 0, values beyond the long range saturate.
int64_t JavaDoubleToLong(double value) {
  if (std::isnan(value)) return 0;
  if (value >= 9223372036854775807.0) return std::numeric_limits<int64_t>::max();
  if (value <= -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(value);
}

}  // namespace

PartitionOffsets RateLimit(int64_t limit, const PartitionOffsets& from,
                           const PartitionOffsets& until,
                           const PartitionOffsets& earliest_of_new) {
  auto begin_of = [&](const TopicPartition& partition) -> std::optional<int64_t> {
    if (auto it = from.find(partition); it != from.end()) return it->second;
    if (auto it = earliest_of_new.find(partition); it != earliest_of_new.end()) {
      return it->second;
    }
    return std::nullopt;
  };
  PartitionOffsets sizes;
  // Spark sums the backlog as a double.
  double total = 0;
  for (const auto& [partition, end] : until) {
    std::optional<int64_t> begin = begin_of(partition);
    if (!begin) continue;
    const int64_t size = end - *begin;
    if (size > 0) {
      sizes[partition] = size;
      total += static_cast<double>(size);
    }
  }
  if (total < 1) return until;
  PartitionOffsets limited;
  for (const auto& [partition, end] : until) {
    auto size = sizes.find(partition);
    if (size == sizes.end()) {
      limited[partition] = end;
      continue;
    }
    const int64_t begin = *begin_of(partition);
    const double prorate =
        static_cast<double>(limit) * (static_cast<double>(size->second) / total);
    const int64_t prorate_long =
        JavaDoubleToLong(prorate < 1 ? std::ceil(prorate) : std::floor(prorate));
    // As Spark (SPARK-26718): saturate instead of overflowing.
    const int64_t offset = prorate_long > std::numeric_limits<int64_t>::max() - begin
                               ? std::numeric_limits<int64_t>::max()
                               : begin + prorate_long;
    limited[partition] = std::min(end, offset);
  }
  return limited;
}

bool TriggerDelay::ShouldSkip(const PartitionOffsets& latest, const PartitionOffsets& current,
                              int64_t now_ms) {
  if (now_ms - last_trigger_ms_ >= max_trigger_delay_ms_) {
    last_trigger_ms_ = now_ms;
    return false;
  }
  double new_records = 0;
  for (const auto& [partition, offset] : latest) {
    auto it = current.find(partition);
    new_records += static_cast<double>(offset - (it == current.end() ? 0 : it->second));
  }
  if (new_records < static_cast<double>(min_offsets_)) return true;
  last_trigger_ms_ = now_ms;
  return false;
}

std::map<std::string, std::string> OffsetsBehindLatestMetrics(const PartitionOffsets& consumed,
                                                              const PartitionOffsets& latest) {
  std::map<std::string, std::string> metrics;
  int64_t min_behind = std::numeric_limits<int64_t>::max();
  int64_t max_behind = std::numeric_limits<int64_t>::min();
  int64_t sum = 0;
  int64_t count = 0;
  for (const auto& [partition, offset] : latest) {
    auto it = consumed.find(partition);
    // A partition found after the last batch was planned has not been consumed at all.
    if (it == consumed.end()) continue;
    const int64_t behind = offset - it->second;
    min_behind = std::min(min_behind, behind);
    max_behind = std::max(max_behind, behind);
    sum += behind;
    ++count;
  }
  if (count == 0) return metrics;
  std::string average;
  formats::AppendJavaDouble(static_cast<double>(sum) / static_cast<double>(count), &average);
  metrics["minOffsetsBehindLatest"] = std::to_string(min_behind);
  metrics["maxOffsetsBehindLatest"] = std::to_string(max_behind);
  metrics["avgOffsetsBehindLatest"] = std::move(average);
  return metrics;
}

}  // namespace sluice::sources::kafka
