#include "sluice/execution/iso_timestamp.h"

#include <chrono>
#include <cstdio>

namespace sluice::execution {

std::string FormatIsoTimestamp(int64_t epoch_ms) {
  using namespace std::chrono;
  sys_time<milliseconds> time{milliseconds(epoch_ms)};
  auto day = floor<days>(time);
  year_month_day date{day};
  hh_mm_ss<milliseconds> clock{time - day};
  // Java's "yyyy" is the year of the era (1 BC prints 0001) with a '+' past four digits.
  int year = static_cast<int>(date.year());
  if (year <= 0) year = 1 - year;
  char text[40];
  std::snprintf(text, sizeof(text), "%s%04d-%02u-%02uT%02d:%02d:%02d.%03dZ",
                year > 9999 ? "+" : "", year, static_cast<unsigned>(date.month()),
                static_cast<unsigned>(date.day()), static_cast<int>(clock.hours().count()),
                static_cast<int>(clock.minutes().count()),
                static_cast<int>(clock.seconds().count()),
                static_cast<int>(clock.subseconds().count()));
  return text;
}

std::optional<int64_t> ParseIsoTimestamp(std::string_view text) {
  // Exactly "yyyy-MM-ddTHH:mm:ss.SSSZ": 24 characters, digits where the pattern has them.
  constexpr std::string_view kPattern = "dddd-dd-ddTdd:dd:dd.dddZ";
  if (text.size() != kPattern.size()) return std::nullopt;
  for (size_t i = 0; i < text.size(); ++i) {
    bool digit = text[i] >= '0' && text[i] <= '9';
    if (kPattern[i] == 'd' ? !digit : text[i] != kPattern[i]) return std::nullopt;
  }
  auto number = [text](size_t begin, size_t length) {
    int value = 0;
    for (size_t i = begin; i < begin + length; ++i) value = value * 10 + (text[i] - '0');
    return value;
  };
  using namespace std::chrono;
  year_month_day date{year(number(0, 4)), month(static_cast<unsigned>(number(5, 2))),
                      day(static_cast<unsigned>(number(8, 2)))};
  int hours = number(11, 2), minutes = number(14, 2), seconds = number(17, 2);
  if (!date.ok() || hours > 23 || minutes > 59 || seconds > 59) return std::nullopt;
  auto time = sys_days(date) + std::chrono::hours(hours) + std::chrono::minutes(minutes) +
              std::chrono::seconds(seconds) + milliseconds(number(20, 3));
  return duration_cast<milliseconds>(time.time_since_epoch()).count();
}

}  // namespace sluice::execution
