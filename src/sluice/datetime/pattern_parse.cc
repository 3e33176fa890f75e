// Parsing text with a compiled DateTimePattern (DateTimePattern::Parse), as Spark's
// DateTimeFormatter-based parsers do; compiling and formatting are in pattern.cc.
#include "sluice/datetime/pattern.h"

#include <algorithm>
#include <string>

#include "sluice/datetime/calendar.h"
#include "sluice/datetime/pattern_names.h"

namespace sluice::datetime {

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

}  // namespace sluice::datetime
