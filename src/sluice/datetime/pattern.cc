// Compiling Spark's datetime patterns and formatting with them; parsing text with a compiled
// pattern is in pattern_parse.cc.
#include "sluice/datetime/pattern.h"

#include <algorithm>
#include <charconv>
#include <string>

#include "sluice/common/errors.h"
#include "sluice/datetime/calendar.h"
#include "sluice/datetime/pattern_names.h"

namespace sluice::datetime {

namespace {

bool IsPatternLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

void AppendNumber(int64_t value, int min_width, std::string* out) {
  if (value < 0) {
    out->push_back('-');
    value = -value;
  }
  char buffer[24];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  const int length = static_cast<int>(result.ptr - buffer);
  if (length < min_width) out->append(static_cast<size_t>(min_width - length), '0');
  out->append(buffer, static_cast<size_t>(length));
}

void AppendTwoDigits(int value, std::string* out) {
  out->push_back(static_cast<char>('0' + value / 10));
  out->push_back(static_cast<char>('0' + value % 10));
}

// Java's offset printing: pattern "+HH", "+HHMM", "+HH:MM", "+HHMMss", "+HH:MM:ss" styles.
void AppendOffset(int32_t offset, bool colon, bool minutes_always, bool seconds_optional,
                  bool hours_only_if_possible, std::string* out) {
  const int32_t total = offset < 0 ? -offset : offset;
  const int hours = total / 3600, minutes = total / 60 % 60, seconds = total % 60;
  out->push_back(offset < 0 ? '-' : '+');
  AppendTwoDigits(hours, out);
  if (hours_only_if_possible && minutes == 0 && seconds == 0) return;
  if (minutes_always || minutes != 0 || seconds != 0) {
    if (colon) out->push_back(':');
    AppendTwoDigits(minutes, out);
  }
  if (seconds_optional && seconds != 0) {
    if (colon) out->push_back(':');
    AppendTwoDigits(seconds, out);
  }
}

struct LocalFields {
  CivilDate date;
  int64_t days;
  int hour, minute, second;
  int64_t micros;
};

LocalFields FieldsOf(int64_t local_micros) {
  LocalFields f;
  f.days = FloorDiv(local_micros, kMicrosPerDay);
  const int64_t of_day = local_micros - f.days * kMicrosPerDay;
  f.date = CivilFromDays(f.days);
  const int64_t seconds = of_day / kMicrosPerSecond;
  f.hour = static_cast<int>(seconds / 3600);
  f.minute = static_cast<int>(seconds / 60 % 60);
  f.second = static_cast<int>(seconds % 60);
  f.micros = of_day % kMicrosPerSecond;
  return f;
}

}  // namespace

arrow::Result<DateTimePattern> DateTimePattern::Compile(std::string_view pattern) {
  DateTimePattern compiled;
  compiled.pattern_ = std::string(pattern);
  int depth = 0;
  for (size_t i = 0; i < pattern.size();) {
    const char c = pattern[i];
    if (c == '\'') {
      // Quoted literal; '' is a single quote.
      Item item;
      item.optional_depth = depth;
      if (i + 1 < pattern.size() && pattern[i + 1] == '\'') {
        item.literal = "'";
        i += 2;
      } else {
        size_t j = i + 1;
        while (j < pattern.size()) {
          if (pattern[j] == '\'') {
            if (j + 1 < pattern.size() && pattern[j + 1] == '\'') {
              item.literal.push_back('\'');
              j += 2;
              continue;
            }
            break;
          }
          item.literal.push_back(pattern[j++]);
        }
        if (j >= pattern.size()) {
          return arrow::Status::Invalid("Pattern ends with an incomplete string literal: ",
                                        pattern);
        }
        i = j + 1;
      }
      compiled.items_.push_back(std::move(item));
      continue;
    }
    if (c == '[' || c == ']') {
      Item item;
      item.letter = c;
      depth += c == '[' ? 1 : -1;
      item.optional_depth = depth;
      compiled.items_.push_back(item);
      ++i;
      continue;
    }
    if (!IsPatternLetter(c)) {
      if (c == '{' || c == '}' || c == '#') {
        return arrow::Status::Invalid("Pattern includes reserved character: '", c, "'");
      }
      Item item;
      item.literal = std::string(1, c);
      item.optional_depth = depth;
      compiled.items_.push_back(std::move(item));
      ++i;
      continue;
    }
    size_t j = i;
    while (j < pattern.size() && pattern[j] == c) ++j;
    const int count = static_cast<int>(j - i);
    if (c == 'Y' || c == 'w' || c == 'u' || c == 'e' || c == 'c' || c == 'W') {
      return SparkError("INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN",
                        "You may get a different result due to the upgrading to Spark >= 3.0: "
                        "All week-based patterns are unsupported since Spark 3.0, detected "
                        "week-based character: " +
                            std::string(1, c) +
                            ". Please use the SQL function EXTRACT instead.");
    }
    static constexpr std::string_view kSupported = "GyMLdDQqEFahKkHmsSVzOXxZ";
    if (kSupported.find(c) == std::string_view::npos) {
      return arrow::Status::Invalid("Unknown pattern letter: ", std::string(1, c));
    }
    auto too_many = [&]() {
      return arrow::Status::Invalid("Too many pattern letters: ", std::string(1, c));
    };
    if ((c == 'd' || c == 'H' || c == 'h' || c == 'K' || c == 'k' || c == 'm' || c == 's') &&
        count > 2) {
      return too_many();
    }
    if (((c == 'M' || c == 'L' || c == 'Q' || c == 'q' || c == 'E' || c == 'G') && count >= 5) ||
        (c == 'y' && count >= 11)) {
      const std::string letters(static_cast<size_t>(count), c);
      return SparkError("INVALID_DATETIME_PATTERN.LENGTH",
                        "Unrecognized datetime pattern: " + letters +
                            ". Too many letters in datetime pattern: " + letters +
                            ". Please reduce pattern length.");
    }
    if ((c == 'D' && count > 3) || (c == 'a' && count > 1) || (c == 'S' && count > 9) ||
        ((c == 'X' || c == 'x' || c == 'Z') && count > 5) || (c == 'z' && count > 4) ||
        (c == 'V' && count != 2) || (c == 'O' && count != 1 && count != 4) ||
        (c == 'F' && count > 1)) {
      return too_many();
    }
    if (c == 'z' || c == 'V' || c == 'O' || c == 'X' || c == 'x' || c == 'Z') {
      compiled.uses_zone_ = true;
    }
    const int64_t unit = c == 'S'                        ? 1
                         : c == 's'                      ? kMicrosPerSecond
                         : c == 'm'                      ? kMicrosPerMinute
                         : std::string_view("ahKkH").find(c) != std::string_view::npos
                             ? kMicrosPerHour
                             : kMicrosPerDay;
    compiled.unit_micros_ = std::min(compiled.unit_micros_, unit);
    Item item;
    item.letter = c;
    item.count = count;
    item.optional_depth = depth;
    compiled.items_.push_back(std::move(item));
    i = j;
  }
  return compiled;
}

void DateTimePattern::Format(int64_t local_micros, const ZoneFacts& zone, std::string* out) const {
  const LocalFields f = FieldsOf(local_micros);
  for (const Item& item : items_) {
    if (item.letter == 0) {
      out->append(item.literal);
      continue;
    }
    const int n = item.count;
    switch (item.letter) {
      case '[':
      case ']':
        break;
      case 'G':
        out->append(f.date.year > 0 ? (n == 4 ? "Anno Domini" : n == 5 ? "A" : "AD")
                                    : (n == 4 ? "Before Christ" : n == 5 ? "B" : "BC"));
        break;
      case 'y': {
        const int64_t year = f.date.year > 0 ? f.date.year : 1 - f.date.year;
        if (n == 2) {
          AppendTwoDigits(static_cast<int>(year % 100), out);
        } else {
          if (n >= 4 && year > 9999) out->push_back('+');
          AppendNumber(year, n, out);
        }
        break;
      }
      case 'M':
      case 'L':
        if (n <= 2) {
          AppendNumber(f.date.month, n, out);
        } else {
          const char* name = kMonthNames[f.date.month - 1];
          if (n == 3) {
            out->append(name, 3);
          } else if (n == 4) {
            out->append(name);
          } else {
            out->push_back(name[0]);
          }
        }
        break;
      case 'd':
        AppendNumber(f.date.day, n, out);
        break;
      case 'D':
        AppendNumber(DayOfYear(f.days), n, out);
        break;
      case 'Q':
      case 'q': {
        const int quarter = (f.date.month - 1) / 3 + 1;
        if (n <= 2) {
          AppendNumber(quarter, n, out);
        } else if (n == 3) {
          out->push_back('Q');
          AppendNumber(quarter, 1, out);
        } else {
          out->append(kQuarterNames[quarter - 1]);
        }
        break;
      }
      case 'E': {
        const char* name = kDayNames[IsoDayOfWeek(f.days) - 1];
        if (n <= 3) {
          out->append(name, 3);
        } else if (n == 4) {
          out->append(name);
        } else {
          out->push_back(name[0]);
        }
        break;
      }
      case 'F':
        AppendNumber((f.date.day - 1) % 7 + 1, n, out);
        break;
      case 'a':
        out->append(f.hour < 12 ? "AM" : "PM");
        break;
      case 'h':
        AppendNumber(f.hour % 12 == 0 ? 12 : f.hour % 12, n, out);
        break;
      case 'K':
        AppendNumber(f.hour % 12, n, out);
        break;
      case 'k':
        AppendNumber(f.hour == 0 ? 24 : f.hour, n, out);
        break;
      case 'H':
        AppendNumber(f.hour, n, out);
        break;
      case 'm':
        AppendNumber(f.minute, n, out);
        break;
      case 's':
        AppendNumber(f.second, n, out);
        break;
      case 'S': {
        char digits[10];
        int64_t nanos = f.micros * 1000;
        for (int k = 8; k >= 0; --k) {
          digits[k] = static_cast<char>('0' + nanos % 10);
          nanos /= 10;
        }
        out->append(digits, static_cast<size_t>(n));
        break;
      }
      case 'V':
        out->append(zone.id);
        break;
      case 'z':
        out->append(zone.abbreviation);
        break;
      case 'O':
        out->append("GMT");
        if (zone.offset_seconds != 0) {
          if (n == 1) {
            const int32_t total = std::abs(zone.offset_seconds);
            out->push_back(zone.offset_seconds < 0 ? '-' : '+');
            AppendNumber(total / 3600, 1, out);
            if (total % 3600 != 0) {
              out->push_back(':');
              AppendTwoDigits(total / 60 % 60, out);
            }
          } else {
            AppendOffset(zone.offset_seconds, true, true, true, false, out);
          }
        }
        break;
      case 'X':
      case 'x':
        if (item.letter == 'X' && zone.offset_seconds == 0) {
          out->push_back('Z');
          break;
        }
        switch (n) {
          case 1: AppendOffset(zone.offset_seconds, false, false, false, true, out); break;
          case 2: AppendOffset(zone.offset_seconds, false, true, false, false, out); break;
          case 3: AppendOffset(zone.offset_seconds, true, true, false, false, out); break;
          case 4: AppendOffset(zone.offset_seconds, false, true, true, false, out); break;
          default: AppendOffset(zone.offset_seconds, true, true, true, false, out); break;
        }
        break;
      case 'Z':
        if (n <= 3) {
          AppendOffset(zone.offset_seconds, false, true, true, false, out);
        } else if (n == 4) {
          out->append("GMT");
          if (zone.offset_seconds != 0) {
            AppendOffset(zone.offset_seconds, true, true, true, false, out);
          }
        } else if (zone.offset_seconds == 0) {
          out->push_back('Z');
        } else {
          AppendOffset(zone.offset_seconds, true, true, true, false, out);
        }
        break;
      default:
        break;
    }
  }
}

ZoneFacts ZoneFactsAt(const TimeZone& zone, int64_t utc_micros) {
  const int64_t utc_seconds = FloorDiv(utc_micros, kMicrosPerSecond);
  ZoneFacts facts;
  facts.offset_seconds = zone.OffsetAt(utc_seconds);
  facts.id = zone.id();
  facts.abbreviation = zone.AbbreviationAt(utc_seconds);
  return facts;
}

}  // namespace sluice::datetime
