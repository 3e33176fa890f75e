// Time zones as Spark (java.time) resolves them: region ids read from the system's zoneinfo
// files (TZif), fixed offsets ("+01:00", "UTC+1", "Z"), and Java's short ids ("PST", "EST").
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/result.h>

namespace sluice::datetime {

/// One time zone's rules: the UTC offset in force at every instant, and the instant a local
/// wall-clock time stands for. Immutable and thread-safe once made.
class TimeZone {
 public:
  /// The zone named by `id` as Java's ZoneId.of(id, SHORT_IDS) reads it: a region id
  /// ("America/Los_Angeles", "UTC"), an offset ("+01:00", "-0800", "Z"), a prefixed offset
  /// ("GMT+1", "UTC-08:00") or a short id ("PST"). Zones are loaded once per process and
  /// shared. An unknown id is an Invalid status naming it.
  static arrow::Result<std::shared_ptr<const TimeZone>> Find(std::string_view id);

  /// The zone's normalized id, as Java prints it ("America/Los_Angeles", "+01:00", "Z").
  const std::string& id() const { return id_; }
  /// True when the offset never changes.
  bool is_fixed() const { return transitions_.empty(); }

  /// The offset from UTC, in seconds, at `utc_seconds` since the epoch.
  int32_t OffsetAt(int64_t utc_seconds) const { return periods_[PeriodAt(utc_seconds)].offset; }

  /// The instant (UTC seconds) of the local wall-clock time `local_seconds`, resolved as
  /// java.time's ZonedDateTime.of does: a time in a gap moves forward by the gap's length, a
  /// time in an overlap takes the earlier offset.
  int64_t LocalToUtc(int64_t local_seconds) const;

  /// The zone's abbreviation at `utc_seconds` ("PST", "PDT", "UTC"), or the fixed offset's id.
  const std::string& AbbreviationAt(int64_t utc_seconds) const;

  /// Index of the period holding `utc_seconds`, and its bounds: [begin, end) in UTC seconds.
  size_t PeriodAt(int64_t utc_seconds) const;
  int64_t PeriodBegin(size_t period) const;
  int64_t PeriodEnd(size_t period) const;
  int32_t PeriodOffset(size_t period) const { return periods_[period].offset; }

  /// Internal: use Find.
  TimeZone(std::string id, int32_t fixed_offset);
  TimeZone() = default;

 private:
  friend struct TimeZoneLoader;
  struct Period {
    int32_t offset;
    int32_t abbreviation;
  };
  std::string id_;
  // transitions_[i] starts periods_[i + 1]; periods_[0] holds before the first transition.
  std::vector<int64_t> transitions_;
  // transitions_[i] + periods_[i].offset: the local time at which transition i happens, as seen
  // by the offset before it; increasing, so local times can be searched.
  std::vector<int64_t> local_transitions_;
  std::vector<Period> periods_;
  std::vector<std::string> abbreviations_;
};

/// Caches the offset period of the last instant looked up, so a loop over mostly-ordered
/// timestamps finds each offset with two comparisons. One per thread and loop.
class ZoneOffsetCursor {
 public:
  explicit ZoneOffsetCursor(const TimeZone& zone) : zone_(zone) {}

  /// The offset from UTC in seconds at `utc_seconds`.
  int32_t OffsetAt(int64_t utc_seconds) {
    if (utc_seconds < begin_ || utc_seconds >= end_) Refill(utc_seconds);
    return offset_;
  }
  /// The offset at an instant given in microseconds.
  int32_t OffsetAtMicros(int64_t utc_micros) {
    if (utc_micros < begin_micros_ || utc_micros >= end_micros_) RefillMicros(utc_micros);
    return offset_;
  }

 private:
  void Refill(int64_t utc_seconds);
  void RefillMicros(int64_t utc_micros);
  const TimeZone& zone_;
  int64_t begin_ = 1;
  int64_t end_ = 0;
  int64_t begin_micros_ = 1;
  int64_t end_micros_ = 0;
  int32_t offset_ = 0;
};

/// Parses a zone offset of Java's ZoneOffset.of forms (+h, +hh, +hh:mm, +hhmm, +hh:mm:ss,
/// +hhmmss, also with '-'; "Z"); returns false when `text` is not one.
bool ParseZoneOffset(std::string_view text, int32_t* seconds);

/// Java's ZoneOffset id of `seconds`: "Z", "+01:00", "-08:00", "+05:30:15".
std::string ZoneOffsetId(int32_t seconds);

}  // namespace sluice::datetime
