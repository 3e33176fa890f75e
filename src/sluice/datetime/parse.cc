#include "sluice/datetime/parse.h"

#include <string>

#include "sluice/datetime/calendar.h"

namespace sluice::datetime {

namespace {

bool IsSpace(char c) { return static_cast<unsigned char>(c) <= 0x20 || c == 0x7f; }

bool ValidDate(int64_t year, int64_t month, int64_t day) {
  return month >= 1 && month <= 12 && day >= 1 && day <= DaysInMonth(year, static_cast<int32_t>(month));
}

// The digits each segment may have: year 4..6, fraction any, zone segment up to 2, others 1..2.
/// Digits a segment accumulates at most: more than ValidDigits ever accepts, fewer than
/// overflow int64.
constexpr int kMaxSegmentDigits = 18;

bool ValidDigits(int segment, int digits) {
  return segment == 6 || (segment == 0 && digits >= 4 && digits <= 6) ||
         (segment == 7 && digits <= 2) ||
         (segment != 0 && segment != 6 && segment != 7 && digits > 0 && digits <= 2);
}

struct TimestampParts {
  int64_t segments[9] = {1970, 1, 1, 0, 0, 0, 0, 0, 0};
  bool just_time = false;
  bool has_zone = false;
  std::string zone;
};

// Spark's parseTimestampString.
bool ParseParts(std::string_view text, TimestampParts* parts) {
  text = TrimSparkWhitespace(text);
  if (text.empty()) return false;
  int64_t* segments = parts->segments;
  size_t j = 0;
  int i = 0;
  int64_t value = 0;
  int digits = 0;
  int fraction_digits = 0;
  int year_sign = 0;
  if (text[j] == '-' || text[j] == '+') {
    year_sign = text[j] == '-' ? -1 : 1;
    ++j;
  }
  auto close_segment = [&](int segment) -> bool {
    if (!ValidDigits(segment, digits)) return false;
    segments[segment] = value;
    value = 0;
    digits = 0;
    return true;
  };
  while (j < text.size()) {
    const char b = text[j];
    const int parsed = b - '0';
    if (parsed < 0 || parsed > 9) {
      if (j == 0 && b == 'T') {
        parts->just_time = true;
        i += 3;
      } else if (i < 2) {
        if (b == '-') {
          if (!close_segment(i)) return false;
          ++i;
        } else if (i == 0 && b == ':' && year_sign == 0) {
          parts->just_time = true;
          if (!close_segment(3)) return false;
          i = 4;
        } else {
          return false;
        }
      } else if (i == 2) {
        if (b != ' ' && b != 'T') return false;
        if (!close_segment(i)) return false;
        ++i;
      } else if (i == 3 || i == 4) {
        if (b != ':') return false;
        if (!close_segment(i)) return false;
        ++i;
      } else if (i == 5 || i == 6) {
        if (b == '.' && i == 5) {
          if (!close_segment(i)) return false;
          ++i;
        } else {
          if (!close_segment(i)) return false;
          ++i;
          parts->has_zone = true;
          parts->zone = std::string(TrimSparkWhitespace(text.substr(j)));
          j = text.size() - 1;
        }
        if (i == 6 && b != '.') ++i;
      } else {
        if (i < 9 && (b == ':' || b == ' ')) {
          if (!close_segment(i)) return false;
          ++i;
        } else {
          return false;
        }
      }
    } else {
      if (i == 6) ++fraction_digits;
      // A fraction keeps its first six digits. Other segments are refused past six digits
      // (ValidDigits); stopping before int64 overflows keeps that so.
      if (digits < (i == 6 ? 6 : kMaxSegmentDigits)) value = value * 10 + parsed;
      ++digits;
    }
    ++j;
  }
  if (!close_segment(i)) return false;
  while (fraction_digits < 6) {
    segments[6] *= 10;
    ++fraction_digits;
  }
  if (fraction_digits > 6) {
    // Only the first six digits were accumulated.
  }
  if (year_sign != 0) segments[0] *= year_sign;
  return true;
}

// Spark's getZoneId: "+1:00" reads as "+01:00" and "+01:0" as "+01:00".
std::shared_ptr<const TimeZone> FindTextZone(const std::string& name) {
  std::string id = name;
  if (id.size() >= 3 && (id[0] == '+' || id[0] == '-') && std::isdigit(static_cast<unsigned char>(id[1])) &&
      id[2] == ':') {
    id.insert(1, "0");
  }
  if (id.size() >= 5 && (id[id.size() - 5] == '+' || id[id.size() - 5] == '-') &&
      id[id.size() - 2] == ':' && std::isdigit(static_cast<unsigned char>(id.back()))) {
    id.insert(id.size() - 1, "0");
  }
  auto zone = TimeZone::Find(id);
  return zone.ok() ? *zone : nullptr;
}

bool ValidTime(const int64_t* segments) {
  return segments[3] <= 23 && segments[4] <= 59 && segments[5] <= 59;
}

}  // namespace

std::string_view TrimSparkWhitespace(std::string_view text) {
  size_t begin = 0, end = text.size();
  while (begin < end && IsSpace(text[begin])) ++begin;
  while (end > begin && IsSpace(text[end - 1])) --end;
  return text.substr(begin, end - begin);
}

std::optional<int64_t> ParseDate(std::string_view text) {
  text = TrimSparkWhitespace(text);
  if (text.empty()) return std::nullopt;
  int64_t segments[3] = {1, 1, 1};
  int sign = 1;
  size_t j = 0;
  if (text[j] == '-' || text[j] == '+') {
    sign = text[j] == '-' ? -1 : 1;
    ++j;
  }
  int i = 0;
  int64_t value = 0;
  int digits = 0;
  while (j < text.size() && i < 3 && text[j] != ' ' && text[j] != 'T') {
    const char b = text[j];
    if (i < 2 && b == '-') {
      if (!ValidDigits(i, digits)) return std::nullopt;
      segments[i] = value;
      value = 0;
      digits = 0;
      ++i;
    } else {
      const int parsed = b - '0';
      if (parsed < 0 || parsed > 9) return std::nullopt;
      if (digits < kMaxSegmentDigits) value = value * 10 + parsed;
      ++digits;
    }
    ++j;
  }
  if (!ValidDigits(i, digits)) return std::nullopt;
  if (i < 2 && j < text.size()) return std::nullopt;
  segments[i] = value;
  const int64_t year = sign * segments[0];
  if (!ValidDate(year, segments[1], segments[2])) return std::nullopt;
  return DaysFromCivil(year, static_cast<int32_t>(segments[1]), static_cast<int32_t>(segments[2]));
}

/// `seconds` and `micros` as microseconds, or nullopt past int64: a year of six digits reaches
/// beyond what microseconds hold, and Spark's exact arithmetic makes such a text invalid.
std::optional<int64_t> SecondsToMicros(int64_t seconds, int64_t micros) {
  int64_t result;
  if (__builtin_mul_overflow(seconds, kMicrosPerSecond, &result) ||
      __builtin_add_overflow(result, micros, &result)) {
    return std::nullopt;
  }
  return result;
}

std::optional<int64_t> ParseTimestamp(std::string_view text, const TimeZone& zone,
                                      std::optional<int64_t> now_micros) {
  TimestampParts parts;
  if (!ParseParts(text, &parts)) return std::nullopt;
  const TimeZone* effective = &zone;
  std::shared_ptr<const TimeZone> text_zone;
  if (parts.has_zone) {
    text_zone = FindTextZone(parts.zone);
    if (text_zone == nullptr) return std::nullopt;
    effective = text_zone.get();
  }
  const int64_t* s = parts.segments;
  if (!ValidTime(s)) return std::nullopt;
  int64_t days;
  if (parts.just_time) {
    if (!now_micros) return std::nullopt;
    const int64_t now_seconds = FloorDiv(*now_micros, kMicrosPerSecond);
    days = FloorDiv(now_seconds + effective->OffsetAt(now_seconds), kSecondsPerDay);
  } else {
    if (!ValidDate(s[0], s[1], s[2])) return std::nullopt;
    days = DaysFromCivil(s[0], static_cast<int32_t>(s[1]), static_cast<int32_t>(s[2]));
  }
  const int64_t local_seconds = days * kSecondsPerDay + s[3] * 3600 + s[4] * 60 + s[5];
  return SecondsToMicros(effective->LocalToUtc(local_seconds), s[6]);
}

std::optional<int64_t> ParseTimestampNtz(std::string_view text, bool allow_zone,
                                         std::optional<int64_t> now_micros) {
  TimestampParts parts;
  if (!ParseParts(text, &parts)) return std::nullopt;
  if (parts.has_zone && (!allow_zone || FindTextZone(parts.zone) == nullptr)) return std::nullopt;
  const int64_t* s = parts.segments;
  if (!ValidTime(s)) return std::nullopt;
  int64_t days;
  if (parts.just_time) {
    if (!now_micros) return std::nullopt;
    days = FloorDiv(*now_micros, kMicrosPerDay);
  } else {
    if (!ValidDate(s[0], s[1], s[2])) return std::nullopt;
    days = DaysFromCivil(s[0], static_cast<int32_t>(s[1]), static_cast<int32_t>(s[2]));
  }
  return SecondsToMicros(days * kSecondsPerDay + s[3] * 3600 + s[4] * 60 + s[5], s[6]);
}

}  // namespace sluice::datetime
