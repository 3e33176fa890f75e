#include "sluice/formats/datetime_text.h"

#include <arrow/vendored/datetime/tz.h>

#include <cctype>
#include <chrono>
#include <exception>

#include "sluice/common/errors.h"

namespace sluice::formats {

namespace {

namespace date = arrow_vendored::date;

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = 86400 * kMicrosPerSecond;

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

bool IsLeap(int64_t year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

unsigned DaysInMonth(int64_t year, unsigned month) {
  static constexpr unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeap(year) ? 29 : kDays[month - 1];
}

void CivilFromDays(int64_t days, int64_t* year, unsigned* month, unsigned* day) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(days - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  *day = doy - (153 * mp + 2) / 5 + 1;
  *month = mp < 10 ? mp + 3 : mp - 9;
  *year = y + (*month <= 2);
}

/// Reads 1..max_digits digits; false if none.
bool ReadDigits(std::string_view text, size_t* pos, int min_digits, int max_digits,
                int64_t* value) {
  int count = 0;
  int64_t v = 0;
  while (*pos < text.size() && count < max_digits &&
         std::isdigit(static_cast<unsigned char>(text[*pos]))) {
    v = v * 10 + (text[*pos] - '0');
    ++*pos;
    ++count;
  }
  if (count < min_digits) return false;
  *value = v;
  return true;
}

/// Parses a zone suffix: Z, +h, +hh, +hh:mm, +hhmm, +hh:mm:ss, UTC/GMT/UT[+-offset], or a
/// region id.
bool ParseZone(std::string_view zone, ParsedTimestamp* out) {
  if (zone.empty()) return true;
  if (zone == "Z" || zone == "z") {
    out->offset_seconds = 0;
    return true;
  }
  std::string_view rest = zone;
  for (std::string_view prefix : {"UTC", "GMT", "UT"}) {
    if (rest.substr(0, prefix.size()) == prefix) {
      rest.remove_prefix(prefix.size());
      if (rest.empty()) {
        out->offset_seconds = 0;
        return true;
      }
      break;
    }
  }
  if (rest[0] == '+' || rest[0] == '-') {
    int sign = rest[0] == '-' ? -1 : 1;
    size_t pos = 1;
    int64_t hours = 0, minutes = 0, seconds = 0;
    if (!ReadDigits(rest, &pos, 1, 2, &hours)) return false;
    if (pos < rest.size() && rest[pos] == ':') ++pos;
    if (pos < rest.size() && !ReadDigits(rest, &pos, 2, 2, &minutes)) return false;
    if (pos < rest.size() && rest[pos] == ':') ++pos;
    if (pos < rest.size() && !ReadDigits(rest, &pos, 2, 2, &seconds)) return false;
    if (pos != rest.size() || hours > 18 || minutes > 59 || seconds > 59) return false;
    out->offset_seconds = static_cast<int32_t>(sign * (hours * 3600 + minutes * 60 + seconds));
    return true;
  }
  if (rest.size() != zone.size()) return false;
  for (char c : zone) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '/' && c != '_' && c != '-' &&
        c != '+') {
      return false;
    }
  }
  out->zone_name = std::string(zone);
  return true;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && static_cast<unsigned char>(text.front()) <= ' ') text.remove_prefix(1);
  while (!text.empty() && static_cast<unsigned char>(text.back()) <= ' ') text.remove_suffix(1);
  return text;
}

/// Reads [+-]yyyy[-[m]m[-[d]d]] from the start of `text`.
bool ParseDatePart(std::string_view text, size_t* pos, int64_t* days) {
  int sign = 1;
  if (*pos < text.size() && (text[*pos] == '-' || text[*pos] == '+')) {
    sign = text[*pos] == '-' ? -1 : 1;
    ++*pos;
  }
  int64_t year = 0, month = 1, day = 1;
  if (!ReadDigits(text, pos, 4, 7, &year)) return false;
  if (*pos < text.size() && text[*pos] == '-') {
    ++*pos;
    if (!ReadDigits(text, pos, 1, 2, &month)) return false;
    if (*pos < text.size() && text[*pos] == '-') {
      ++*pos;
      if (!ReadDigits(text, pos, 1, 2, &day)) return false;
    }
  }
  year *= sign;
  if (month < 1 || month > 12 || day < 1 ||
      day > static_cast<int64_t>(DaysInMonth(year, static_cast<unsigned>(month)))) {
    return false;
  }
  *days = DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  return true;
}

}  // namespace

int64_t DaysFromCivil(int64_t year, unsigned month, unsigned day) {
  year -= month <= 2;
  const int64_t era = (year >= 0 ? year : year - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(year - era * 400);
  const unsigned doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

// ---- TimeZone ----------------------------------------------------------------------------

arrow::Result<std::shared_ptr<const TimeZone>> TimeZone::Make(std::string_view name) {
  std::shared_ptr<TimeZone> zone(new TimeZone());
  ParsedTimestamp parsed;
  if (ParseZone(name, &parsed) && parsed.offset_seconds.has_value()) {
    zone->fixed_offset_seconds_ = *parsed.offset_seconds;
    return zone;
  }
  try {
    zone->region_ = date::locate_zone(name);
  } catch (const std::exception&) {
    return SparkError("INVALID_TIMEZONE",
                      "The time zone '" + std::string(name) +
                          "' is invalid. Use a region-based zone id such as "
                          "'America/Los_Angeles' or an offset such as '+01:00'.");
  }
  return zone;
}

int64_t TimeZone::LocalToUtc(int64_t local_micros) const {
  if (region_ == nullptr) return local_micros - fixed_offset_seconds_ * kMicrosPerSecond;
  const auto* tz = static_cast<const date::time_zone*>(region_);
  int64_t seconds = FloorDiv(local_micros, kMicrosPerSecond);
  date::local_seconds local{std::chrono::seconds(seconds)};
  auto info = tz->get_info(local);
  int64_t offset = info.first.offset.count();
  if (info.result == date::local_info::nonexistent) {
    // In a gap: java.time shifts forward by the length of the gap.
    offset = info.first.offset.count();
  }
  return local_micros - offset * kMicrosPerSecond;
}

int32_t TimeZone::OffsetAt(int64_t utc_micros) const {
  if (region_ == nullptr) return fixed_offset_seconds_;
  const auto* tz = static_cast<const date::time_zone*>(region_);
  date::sys_seconds instant{std::chrono::seconds(FloorDiv(utc_micros, kMicrosPerSecond))};
  return static_cast<int32_t>(tz->get_info(instant).offset.count());
}

// ---- ISO parsing -------------------------------------------------------------------------

std::optional<ParsedTimestamp> ParseIsoTimestamp(std::string_view input) {
  std::string_view text = Trim(input);
  ParsedTimestamp out;
  size_t pos = 0;
  int64_t days = 0;
  if (text.empty()) return std::nullopt;
  // A bare time "T10:00" is not supported; Spark takes today's date for it.
  if (!ParseDatePart(text, &pos, &days)) return std::nullopt;
  int64_t micros = 0;
  if (pos < text.size() && (text[pos] == ' ' || text[pos] == 'T')) {
    ++pos;
    int64_t hour = 0, minute = 0, second = 0;
    size_t time_start = pos;
    if (ReadDigits(text, &pos, 1, 2, &hour)) {
      if (pos < text.size() && text[pos] == ':') {
        ++pos;
        if (!ReadDigits(text, &pos, 1, 2, &minute)) return std::nullopt;
        if (pos < text.size() && text[pos] == ':') {
          ++pos;
          if (!ReadDigits(text, &pos, 1, 2, &second)) return std::nullopt;
          if (pos < text.size() && text[pos] == '.') {
            ++pos;
            int64_t fraction = 0;
            int digits = 0;
            while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) {
              if (digits < 6) fraction = fraction * 10 + (text[pos] - '0');
              ++digits;
              ++pos;
            }
            if (digits > 9) return std::nullopt;
            for (int i = std::min(digits, 6); i < 6; ++i) fraction *= 10;
            micros += fraction;
          }
        }
      } else if (pos < text.size() && text[pos] != ' ' && text[pos] != 'Z' &&
                 text[pos] != '+' && text[pos] != '-') {
        return std::nullopt;
      }
      if (hour > 23 || minute > 59 || second > 59) return std::nullopt;
      micros += (hour * 3600 + minute * 60 + second) * kMicrosPerSecond;
    } else if (pos != time_start || pos < text.size()) {
      // "2024-01-01T" followed by a zone only.
    }
    while (pos < text.size() && text[pos] == ' ') ++pos;
    if (!ParseZone(text.substr(pos), &out)) return std::nullopt;
  } else if (pos != text.size()) {
    return std::nullopt;
  }
  out.local_micros = days * kMicrosPerDay + micros;
  return out;
}

std::optional<int32_t> ParseIsoDate(std::string_view input) {
  std::string_view text = Trim(input);
  size_t pos = 0;
  int64_t days = 0;
  if (!ParseDatePart(text, &pos, &days)) return std::nullopt;
  if (pos != text.size() && text[pos] != ' ' && text[pos] != 'T') return std::nullopt;
  return static_cast<int32_t>(days);
}

arrow::Result<int64_t> ToUtcMicros(const ParsedTimestamp& parsed, const TimeZone& zone) {
  if (parsed.offset_seconds.has_value()) {
    return parsed.local_micros - *parsed.offset_seconds * kMicrosPerSecond;
  }
  if (!parsed.zone_name.empty()) {
    ARROW_ASSIGN_OR_RAISE(auto own, TimeZone::Make(parsed.zone_name));
    return own->LocalToUtc(parsed.local_micros);
  }
  return zone.LocalToUtc(parsed.local_micros);
}

void AppendIsoDate(int32_t days, std::string* out) {
  int64_t year;
  unsigned month, day;
  CivilFromDays(days, &year, &month, &day);
  char buffer[32];
  int n;
  if (year > 9999) {
    n = std::snprintf(buffer, sizeof(buffer), "+%lld-%02u-%02u", static_cast<long long>(year),
                      month, day);
  } else if (year < 0) {
    n = std::snprintf(buffer, sizeof(buffer), "-%04lld-%02u-%02u",
                      static_cast<long long>(-year), month, day);
  } else {
    n = std::snprintf(buffer, sizeof(buffer), "%04lld-%02u-%02u", static_cast<long long>(year),
                      month, day);
  }
  out->append(buffer, static_cast<size_t>(n));
}

// ---- Patterns ----------------------------------------------------------------------------

arrow::Result<DatetimePattern> DatetimePattern::Compile(std::string_view pattern) {
  DatetimePattern compiled;
  int depth = 0;
  size_t i = 0;
  while (i < pattern.size()) {
    char c = pattern[i];
    if (c == '\'') {
      size_t end = i + 1;
      std::string literal;
      while (end < pattern.size()) {
        if (pattern[end] == '\'') {
          if (end + 1 < pattern.size() && pattern[end + 1] == '\'') {
            literal.push_back('\'');
            end += 2;
            continue;
          }
          break;
        }
        literal.push_back(pattern[end++]);
      }
      if (end == i + 1) literal = "'";
      compiled.elements_.push_back({0, 0, literal, depth});
      i = end + 1;
      continue;
    }
    if (c == '[') {
      ++depth;
      ++i;
      continue;
    }
    if (c == ']') {
      --depth;
      ++i;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c))) {
      size_t end = i;
      while (end < pattern.size() && pattern[end] == c) ++end;
      int count = static_cast<int>(end - i);
      static constexpr std::string_view kSupported = "yuMLdHhmsSaXxZDE";
      if (kSupported.find(c) == std::string_view::npos) {
        return SparkError("INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER",
                          "Found the illegal character '" + std::string(1, c) +
                              "' in the datetime pattern '" + std::string(pattern) + "'.");
      }
      compiled.elements_.push_back({c, count, "", depth});
      i = end;
      continue;
    }
    compiled.elements_.push_back({0, 0, std::string(1, c), depth});
    ++i;
  }
  return compiled;
}

std::optional<ParsedTimestamp> DatetimePattern::Parse(std::string_view text) const {
  int64_t year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, micros = 0;
  bool pm = false, has_ampm = false;
  ParsedTimestamp out;
  size_t pos = 0;
  int skip_depth = 0;  // > 0: an optional section at that depth failed; skip its elements
  for (size_t e = 0; e < elements_.size(); ++e) {
    const Element& element = elements_[e];
    if (skip_depth > 0) {
      if (element.optional_depth >= skip_depth) continue;
      skip_depth = 0;
    }
    size_t start = pos;
    bool ok = true;
    int64_t value = 0;
    switch (element.letter) {
      case 0:
        ok = text.substr(pos, element.literal.size()) == element.literal;
        if (ok) pos += element.literal.size();
        break;
      case 'y':
      case 'u':
        ok = ReadDigits(text, &pos, element.count == 2 ? 2 : std::max(element.count, 1),
                        element.count == 2 ? 2 : 9, &value);
        year = element.count == 2 ? 2000 + value : value;
        break;
      case 'M':
      case 'L':
        ok = ReadDigits(text, &pos, element.count, 2, &month);
        break;
      case 'd':
        ok = ReadDigits(text, &pos, element.count, 2, &day);
        break;
      case 'D':
        ok = ReadDigits(text, &pos, element.count, 3, &value);
        if (ok) day = value, month = 1;  // day of year, resolved below
        break;
      case 'H':
      case 'h':
        ok = ReadDigits(text, &pos, element.count, 2, &hour);
        break;
      case 'm':
        ok = ReadDigits(text, &pos, element.count, 2, &minute);
        break;
      case 's':
        ok = ReadDigits(text, &pos, element.count, 2, &second);
        break;
      case 'S': {
        int digits = 0;
        int64_t fraction = 0;
        while (pos < text.size() && digits < element.count &&
               std::isdigit(static_cast<unsigned char>(text[pos]))) {
          if (digits < 6) fraction = fraction * 10 + (text[pos] - '0');
          ++digits;
          ++pos;
        }
        ok = digits > 0;
        for (int i = std::min(digits, 6); i < 6; ++i) fraction *= 10;
        micros = fraction;
        break;
      }
      case 'a':
        if (text.substr(pos, 2) == "AM" || text.substr(pos, 2) == "am") {
          has_ampm = true;
          pos += 2;
        } else if (text.substr(pos, 2) == "PM" || text.substr(pos, 2) == "pm") {
          has_ampm = pm = true;
          pos += 2;
        } else {
          ok = false;
        }
        break;
      case 'X':
      case 'x':
      case 'Z': {
        size_t end = pos;
        if (end < text.size() && (text[end] == 'Z' || text[end] == 'z') && element.letter == 'X') {
          out.offset_seconds = 0;
          pos = end + 1;
          break;
        }
        if (end < text.size() && (text[end] == '+' || text[end] == '-')) {
          ++end;
          while (end < text.size() &&
                 (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == ':')) {
            ++end;
          }
          ParsedTimestamp zone;
          ok = ParseZone(text.substr(pos, end - pos), &zone);
          if (ok) {
            out.offset_seconds = zone.offset_seconds;
            pos = end;
          }
        } else {
          ok = false;
        }
        break;
      }
      case 'E':
        while (pos < text.size() && std::isalpha(static_cast<unsigned char>(text[pos]))) ++pos;
        ok = pos > start;
        break;
      default:
        ok = false;
    }
    if (!ok) {
      if (element.optional_depth == 0) return std::nullopt;
      pos = start;
      skip_depth = element.optional_depth;
    }
  }
  if (pos != text.size()) return std::nullopt;
  if (has_ampm) {
    if (hour < 1 || hour > 12) return std::nullopt;
    hour = hour % 12 + (pm ? 12 : 0);
  }
  if (month < 1 || month > 12 || day < 1 ||
      day > static_cast<int64_t>(DaysInMonth(year, static_cast<unsigned>(month))) || hour > 23 ||
      minute > 59 || second > 59) {
    return std::nullopt;
  }
  int64_t days = DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  out.local_micros =
      days * kMicrosPerDay + (hour * 3600 + minute * 60 + second) * kMicrosPerSecond + micros;
  return out;
}

void DatetimePattern::Format(int64_t local_micros, int32_t offset_seconds,
                             std::string* out) const {
  int64_t days = FloorDiv(local_micros, kMicrosPerDay);
  int64_t in_day = local_micros - days * kMicrosPerDay;
  int64_t year;
  unsigned month, day;
  CivilFromDays(days, &year, &month, &day);
  int64_t hour = in_day / (3600 * kMicrosPerSecond);
  int64_t minute = in_day / (60 * kMicrosPerSecond) % 60;
  int64_t second = in_day / kMicrosPerSecond % 60;
  int64_t micros = in_day % kMicrosPerSecond;
  char buffer[32];
  auto append_number = [&](int64_t value, int width) {
    int n = std::snprintf(buffer, sizeof(buffer), "%0*lld", width, static_cast<long long>(value));
    out->append(buffer, static_cast<size_t>(n));
  };
  for (const Element& element : elements_) {
    switch (element.letter) {
      case 0:
        out->append(element.literal);
        break;
      case 'y':
      case 'u':
        if (element.count == 2) {
          append_number(((year % 100) + 100) % 100, 2);
        } else {
          append_number(year, std::max(element.count, 4));
        }
        break;
      case 'M':
      case 'L':
        append_number(month, element.count);
        break;
      case 'd':
        append_number(day, element.count);
        break;
      case 'D':
        append_number(days - DaysFromCivil(year, 1, 1) + 1, element.count);
        break;
      case 'H':
        append_number(hour, element.count);
        break;
      case 'h':
        append_number(hour % 12 == 0 ? 12 : hour % 12, element.count);
        break;
      case 'a':
        out->append(hour < 12 ? "AM" : "PM");
        break;
      case 'm':
        append_number(minute, element.count);
        break;
      case 's':
        append_number(second, element.count);
        break;
      case 'S': {
        int n = std::snprintf(buffer, sizeof(buffer), "%06lld", static_cast<long long>(micros));
        std::string digits(buffer, static_cast<size_t>(n));
        digits.resize(static_cast<size_t>(element.count), '0');
        out->append(digits);
        break;
      }
      case 'X':
      case 'x':
      case 'Z': {
        if (offset_seconds == 0 && element.letter == 'X') {
          out->push_back('Z');
          break;
        }
        int32_t magnitude = offset_seconds < 0 ? -offset_seconds : offset_seconds;
        out->push_back(offset_seconds < 0 ? '-' : '+');
        append_number(magnitude / 3600, 2);
        bool colon = element.letter != 'Z' && (element.count == 3 || element.count == 5);
        if (element.count > 1 || magnitude % 3600 != 0 || element.letter == 'Z') {
          if (colon) out->push_back(':');
          append_number(magnitude / 60 % 60, 2);
        }
        break;
      }
      case 'E': {
        static constexpr const char* kDays[] = {"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"};
        out->append(kDays[((days % 7) + 7) % 7]);
        break;
      }
      default:
        break;
    }
  }
}

}  // namespace sluice::formats
