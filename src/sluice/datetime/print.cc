#include "sluice/datetime/print.h"

#include <charconv>

#include "sluice/datetime/calendar.h"

namespace sluice::datetime {

namespace {

void AppendPadded(int64_t value, int width, std::string* out) {
  char buffer[24];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  const int length = static_cast<int>(result.ptr - buffer);
  if (length < width) out->append(static_cast<size_t>(width - length), '0');
  out->append(buffer, static_cast<size_t>(length));
}

}  // namespace

void AppendDate(int64_t days, std::string* out) {
  const CivilDate date = CivilFromDays(days);
  if (date.year > 9999) {
    out->push_back('+');
    AppendPadded(date.year, 4, out);
  } else if (date.year < 0) {
    out->push_back('-');
    AppendPadded(-date.year, 4, out);
  } else {
    AppendPadded(date.year, 4, out);
  }
  out->push_back('-');
  AppendPadded(date.month, 2, out);
  out->push_back('-');
  AppendPadded(date.day, 2, out);
}

void AppendLocalTimestamp(int64_t local_micros, std::string* out) {
  const int64_t days = FloorDiv(local_micros, kMicrosPerDay);
  const int64_t micros_of_day = local_micros - days * kMicrosPerDay;
  AppendDate(days, out);
  const int64_t seconds = micros_of_day / 1000000;
  int64_t fraction = micros_of_day % 1000000;
  char buffer[16];
  buffer[0] = ' ';
  buffer[1] = static_cast<char>('0' + seconds / 36000);
  buffer[2] = static_cast<char>('0' + seconds / 3600 % 10);
  buffer[3] = ':';
  buffer[4] = static_cast<char>('0' + seconds / 600 % 6);
  buffer[5] = static_cast<char>('0' + seconds / 60 % 10);
  buffer[6] = ':';
  buffer[7] = static_cast<char>('0' + seconds % 60 / 10);
  buffer[8] = static_cast<char>('0' + seconds % 10);
  out->append(buffer, 9);
  if (fraction != 0) {
    int digits = 6;
    while (fraction % 10 == 0) {
      fraction /= 10;
      --digits;
    }
    out->push_back('.');
    AppendPadded(fraction, digits, out);
  }
}

}  // namespace sluice::datetime
