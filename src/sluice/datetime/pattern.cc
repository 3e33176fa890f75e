#include "sluice/datetime/pattern.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "sluice/common/errors.h"
#include "sluice/datetime/calendar.h"

namespace sluice::datetime {

namespace {

constexpr const char* kMonthNames[] = {"January", "February", "March",     "April",
                                       "May",     "June",     "July",      "August",
                                       "September", "October", "November", "December"};
constexpr const char* kDayNames[] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                     "Friday", "Saturday", "Sunday"};
constexpr const char* kQuarterNames[] = {"1st quarter", "2nd quarter", "3rd quarter",
                                         "4th quarter"};

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

// What parsing has found so far.
struct ParseState {
  int64_t year = 1970;
  bool has_year = false;
  int month = 1, day = 1, day_of_year = 0;
  int hour = 0, minute = 0, second = 0;
  int hour12 = -1;  // h or K
  bool clock_hour = false;
  int am_pm = -1;   // 0 AM, 1 PM
  int64_t nanos = 0;
  int era = 1;
  int day_of_week = 0;
  bool has_offset = false;
  int32_t offset = 0;
  std::shared_ptr<const TimeZone> zone;
};

namespace {

bool MatchText(std::string_view text, size_t pos, std::string_view word) {
  if (pos + word.size() > text.size()) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[pos + i])) !=
        std::tolower(static_cast<unsigned char>(word[i]))) {
      return false;
    }
  }
  return true;
}

// Parses one of `names` (longest first); returns its index or -1.
int MatchName(std::string_view text, size_t* pos, const char* const* names, int count,
              size_t length) {
  int best = -1;
  size_t best_length = 0;
  for (int i = 0; i < count; ++i) {
    std::string_view name(names[i]);
    if (length != 0) name = name.substr(0, length);
    if (name.size() > best_length && MatchText(text, *pos, name)) {
      best = i;
      best_length = name.size();
    }
  }
  if (best >= 0) *pos += best_length;
  return best;
}

size_t CountDigits(std::string_view text, size_t pos) {
  size_t n = 0;
  while (pos + n < text.size() && text[pos + n] >= '0' && text[pos + n] <= '9') ++n;
  return n;
}

// Parses an offset "+HH", "+HHMM", "+HH:MM", "+HH:MM:SS"; accepts "Z" when `allow_z`.
bool ParseOffsetText(std::string_view text, size_t* pos, bool allow_z, int32_t* offset) {
  if (allow_z && *pos < text.size() && (text[*pos] == 'Z' || text[*pos] == 'z')) {
    ++*pos;
    *offset = 0;
    return true;
  }
  if (*pos >= text.size() || (text[*pos] != '+' && text[*pos] != '-')) return false;
  const int sign = text[*pos] == '-' ? -1 : 1;
  size_t p = *pos + 1;
  if (CountDigits(text, p) < 2) return false;
  int hours = (text[p] - '0') * 10 + (text[p + 1] - '0');
  p += 2;
  int minutes = 0, seconds = 0;
  const bool colon = p < text.size() && text[p] == ':';
  if (colon) ++p;
  if (CountDigits(text, p) >= 2) {
    minutes = (text[p] - '0') * 10 + (text[p + 1] - '0');
    p += 2;
    const bool colon2 = p < text.size() && text[p] == ':';
    if ((colon2 == colon) && CountDigits(text, p + (colon2 ? 1 : 0)) >= 2) {
      p += colon2 ? 1 : 0;
      seconds = (text[p] - '0') * 10 + (text[p + 1] - '0');
      p += 2;
    }
  } else if (colon) {
    return false;
  }
  if (hours > 18 || minutes > 59 || seconds > 59) return false;
  *offset = sign * (hours * 3600 + minutes * 60 + seconds);
  *pos = p;
  return true;
}

// The fixed width of a numeric item when it is one (for adjacent value parsing), else 0.
int FixedWidth(char letter, int count) {
  switch (letter) {
    case 'y':
      return count == 2 ? 2 : 0;
    case 'M':
    case 'L':
    case 'd':
    case 'H':
    case 'h':
    case 'K':
    case 'k':
    case 'm':
    case 's':
    case 'Q':
    case 'q':
      return count == 2 ? 2 : 0;
    case 'D':
      return count >= 2 ? count : 0;
    case 'S':
      return count;
    default:
      return 0;
  }
}

bool IsNumericItem(char letter, int count) {
  switch (letter) {
    case 'y':
    case 'd':
    case 'D':
    case 'H':
    case 'h':
    case 'K':
    case 'k':
    case 'm':
    case 's':
    case 'S':
    case 'F':
      return true;
    case 'M':
    case 'L':
    case 'Q':
    case 'q':
      return count <= 2;
    default:
      return false;
  }
}

}  // namespace

bool DateTimePattern::ParseItems(std::string_view text, size_t first, size_t last, size_t* pos,
                                 ParseState* state, std::string* error) const {
  auto fail = [&](size_t at) {
    *error = "Text '" + std::string(text) + "' could not be parsed at index " + std::to_string(at);
    return false;
  };
  auto range_error = [&](std::string_view field, int64_t value) {
    *error = "Text '" + std::string(text) + "' could not be parsed: Invalid value for " +
             std::string(field) + ": " + std::to_string(value);
    return false;
  };
  for (size_t k = first; k < last; ++k) {
    const Item& item = items_[k];
    if (item.letter == '[') {
      // An optional section: parse it if it matches, else skip it.
      size_t end = k + 1;
      int depth = 1;
      while (end < last && depth > 0) {
        if (items_[end].letter == '[') ++depth;
        if (items_[end].letter == ']') --depth;
        if (depth > 0) ++end;
      }
      ParseState saved = *state;
      size_t try_pos = *pos;
      std::string ignored;
      if (ParseItems(text, k + 1, end, &try_pos, state, &ignored)) {
        *pos = try_pos;
      } else {
        *state = saved;
      }
      k = end;
      continue;
    }
    if (item.letter == ']') continue;
    if (item.letter == 0) {
      if (!MatchText(text, *pos, item.literal)) return fail(*pos);
      *pos += item.literal.size();
      continue;
    }
    const int n = item.count;
    if (IsNumericItem(item.letter, n)) {
      const size_t available = CountDigits(text, *pos);
      size_t min_width = static_cast<size_t>(n), max_width = 19;
      const int fixed = FixedWidth(item.letter, n);
      if (item.letter == 'S') {
        // Spark parses a fraction of 1 to n digits.
        min_width = 1;
        max_width = static_cast<size_t>(n);
      } else if (fixed > 0) {
        min_width = max_width = static_cast<size_t>(fixed);
      } else if (item.letter == 'y' && n >= 4) {
        min_width = static_cast<size_t>(n);
      } else {
        min_width = 1;
      }
      // Adjacent value parsing: leave the digits the following fixed-width fields need.
      size_t reserved = 0;
      if (fixed == 0 || item.letter == 'S') {
        for (size_t next = k + 1; next < last; ++next) {
          const Item& following = items_[next];
          if (following.letter == 0 || !IsNumericItem(following.letter, following.count)) break;
          const int width = FixedWidth(following.letter, following.count);
          if (width == 0) break;
          reserved += static_cast<size_t>(width);
        }
      }
      size_t take = std::min(max_width, available > reserved ? available - reserved : 0);
      if (take < min_width) return fail(*pos);
      int64_t value = 0;
      for (size_t d = 0; d < take; ++d) value = value * 10 + (text[*pos + d] - '0');
      *pos += take;
      switch (item.letter) {
        case 'y':
          if (n == 2) {
            value += 2000;
          }
          state->year = value;
          state->has_year = true;
          break;
        case 'M':
        case 'L':
          state->month = static_cast<int>(value);
          break;
        case 'd':
          state->day = static_cast<int>(value);
          break;
        case 'D':
          state->day_of_year = static_cast<int>(value);
          break;
        case 'H':
          state->hour = static_cast<int>(value);
          if (value > 23) return range_error("HourOfDay (valid values 0 - 23)", value);
          break;
        case 'k':
          if (value < 1 || value > 24) {
            return range_error("ClockHourOfDay (valid values 1 - 24)", value);
          }
          state->hour = static_cast<int>(value % 24);
          break;
        case 'h':
        case 'K':
          state->hour12 = static_cast<int>(value);
          state->clock_hour = item.letter == 'h';
          break;
        case 'm':
          state->minute = static_cast<int>(value);
          if (value > 59) return range_error("MinuteOfHour (valid values 0 - 59)", value);
          break;
        case 's':
          state->second = static_cast<int>(value);
          if (value > 59) return range_error("SecondOfMinute (valid values 0 - 59)", value);
          break;
        case 'S': {
          int64_t nanos = value;
          for (size_t d = take; d < 9; ++d) nanos *= 10;
          state->nanos = nanos;
          break;
        }
        default:
          break;
      }
      continue;
    }
    switch (item.letter) {
      case 'M':
      case 'L': {
        const int index = MatchName(text, pos, kMonthNames, 12, n == 3 ? 3 : 0);
        if (index < 0) return fail(*pos);
        state->month = index + 1;
        break;
      }
      case 'E': {
        const int index = MatchName(text, pos, kDayNames, 7, n <= 3 ? 3 : 0);
        if (index < 0) return fail(*pos);
        state->day_of_week = index + 1;
        break;
      }
      case 'Q':
      case 'q': {
        if (n == 3) {
          if (!MatchText(text, *pos, "Q") || CountDigits(text, *pos + 1) < 1) return fail(*pos);
          *pos += 2;
        } else {
          const int index = MatchName(text, pos, kQuarterNames, 4, 0);
          if (index < 0) return fail(*pos);
        }
        break;
      }
      case 'a':
        if (MatchText(text, *pos, "AM")) {
          state->am_pm = 0;
        } else if (MatchText(text, *pos, "PM")) {
          state->am_pm = 1;
        } else {
          return fail(*pos);
        }
        *pos += 2;
        break;
      case 'G':
        if (MatchText(text, *pos, "AD")) {
          state->era = 1;
          *pos += 2;
        } else if (MatchText(text, *pos, "BC")) {
          state->era = 0;
          *pos += 2;
        } else {
          return fail(*pos);
        }
        break;
      case 'X':
      case 'x':
      case 'Z': {
        int32_t offset = 0;
        size_t p = *pos;
        if (item.letter == 'Z' && n == 4 && MatchText(text, p, "GMT")) p += 3;
        if (!ParseOffsetText(text, &p, item.letter != 'x', &offset)) {
          if (item.letter == 'Z' && n == 4 && p == *pos + 3) {
            offset = 0;
          } else {
            return fail(*pos);
          }
        }
        *pos = p;
        state->has_offset = true;
        state->offset = offset;
        break;
      }
      case 'O': {
        if (!MatchText(text, *pos, "GMT")) return fail(*pos);
        size_t p = *pos + 3;
        int32_t offset = 0;
        if (p < text.size() && (text[p] == '+' || text[p] == '-')) {
          const int sign = text[p] == '-' ? -1 : 1;
          ++p;
          const size_t digits = std::min<size_t>(CountDigits(text, p), 2);
          if (digits == 0) return fail(p);
          int hours = 0;
          for (size_t d = 0; d < digits; ++d) hours = hours * 10 + (text[p + d] - '0');
          p += digits;
          int minutes = 0;
          if (p < text.size() && text[p] == ':' && CountDigits(text, p + 1) >= 2) {
            minutes = (text[p + 1] - '0') * 10 + (text[p + 2] - '0');
            p += 3;
          }
          offset = sign * (hours * 3600 + minutes * 60);
        }
        *pos = p;
        state->has_offset = true;
        state->offset = offset;
        break;
      }
      case 'V':
      case 'z': {
        // A zone id or offset: the longest run of id characters that names a zone.
        size_t end = *pos;
        while (end < text.size() &&
               (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '/' ||
                text[end] == '_' || text[end] == '-' || text[end] == '+' || text[end] == ':')) {
          ++end;
        }
        bool found = false;
        for (size_t stop = end; stop > *pos; --stop) {
          auto zone = TimeZone::Find(text.substr(*pos, stop - *pos));
          if (zone.ok()) {
            state->zone = *zone;
            *pos = stop;
            found = true;
            break;
          }
        }
        if (!found) return fail(*pos);
        break;
      }
      default:
        return fail(*pos);
    }
  }
  return true;
}

bool DateTimePattern::Parse(std::string_view text, ParsedDateTime* out, std::string* error) const {
  ParseState state;
  size_t pos = 0;
  if (!ParseItems(text, 0, items_.size(), &pos, &state, error)) return false;
  if (pos != text.size()) {
    *error = "Text '" + std::string(text) + "' could not be parsed, unparsed text found at index " +
             std::to_string(pos);
    return false;
  }
  auto invalid = [&](const std::string& reason) {
    *error = "Text '" + std::string(text) + "' could not be parsed: " + reason;
    return false;
  };
  int64_t year = state.year;
  if (state.era == 0) year = 1 - year;
  int64_t days;
  if (state.day_of_year > 0) {
    if (state.day_of_year > (IsLeapYear(year) ? 366 : 365)) {
      return invalid("Invalid date 'DayOfYear 366' as '" + std::to_string(year) +
                     "' is not a leap year");
    }
    days = DaysFromCivil(year, 1, 1) + state.day_of_year - 1;
  } else {
    if (state.month < 1 || state.month > 12) {
      return invalid("Invalid value for MonthOfYear (valid values 1 - 12): " +
                     std::to_string(state.month));
    }
    if (state.day < 1 || state.day > 31) {
      return invalid("Invalid value for DayOfMonth (valid values 1 - 28/31): " +
                     std::to_string(state.day));
    }
    if (state.day > DaysInMonth(year, state.month)) {
      std::string month = kMonthNames[state.month - 1];
      for (auto& c : month) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (state.month == 2 && state.day == 29) {
        return invalid("Invalid date 'February 29' as '" + std::to_string(year) +
                       "' is not a leap year");
      }
      return invalid("Invalid date '" + month + " " + std::to_string(state.day) + "'");
    }
    days = DaysFromCivil(year, state.month, state.day);
  }
  if (state.day_of_week != 0 && IsoDayOfWeek(days) != state.day_of_week) {
    return invalid("Conflict found: Field DayOfWeek differs from the date");
  }
  int hour = state.hour;
  if (state.hour12 >= 0) {
    int h = state.hour12;
    if (state.clock_hour) {
      if (h < 1 || h > 12) return invalid("Invalid value for ClockHourOfAmPm: " + std::to_string(h));
      h %= 12;
    } else if (h > 11) {
      return invalid("Invalid value for HourOfAmPm: " + std::to_string(h));
    }
    hour = h + (state.am_pm == 1 ? 12 : 0);
  }
  out->local_micros = (days * kSecondsPerDay + hour * 3600 + state.minute * 60 + state.second) *
                          kMicrosPerSecond +
                      state.nanos / 1000;
  out->has_offset = state.has_offset;
  out->offset_seconds = state.offset;
  out->zone = state.zone;
  return true;
}

int64_t ParsedDateTime::ToUtcMicros(const TimeZone& default_zone) const {
  const int64_t local_seconds = FloorDiv(local_micros, kMicrosPerSecond);
  const int64_t fraction = local_micros - local_seconds * kMicrosPerSecond;
  int64_t utc_seconds;
  if (has_offset) {
    utc_seconds = local_seconds - offset_seconds;
  } else if (zone) {
    utc_seconds = zone->LocalToUtc(local_seconds);
  } else {
    utc_seconds = default_zone.LocalToUtc(local_seconds);
  }
  return utc_seconds * kMicrosPerSecond + fraction;
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
