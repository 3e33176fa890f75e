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

}  // namespace sluice::execution
