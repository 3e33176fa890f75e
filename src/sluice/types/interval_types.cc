#include "sluice/types/interval_types.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <limits>

namespace sluice::types {

namespace {

constexpr int64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kMicrosPerMinute = 60 * kMicrosPerSecond;
constexpr int64_t kMicrosPerHour = 60 * kMicrosPerMinute;
constexpr int64_t kMicrosPerDay = 24 * kMicrosPerHour;

constexpr std::array<const char*, 4> kDayTimeNames = {"day", "hour", "minute", "second"};
constexpr std::array<const char*, 2> kYearMonthNames = {"year", "month"};
constexpr std::array<int64_t, 4> kDayTimeUnits = {kMicrosPerDay, kMicrosPerHour,
                                                  kMicrosPerMinute, kMicrosPerSecond};

int Index(DayTimeField field) { return static_cast<int>(field); }
int Index(YearMonthField field) { return static_cast<int>(field); }

std::string Upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

std::string FieldsName(const char* start, const char* end, bool same, bool upper) {
  std::string name = std::string("interval ") + start + (same ? "" : std::string(" to ") + end);
  return upper ? Upper(name) : name;
}

// Java's BigDecimal.valueOf(micros, 6).stripTrailingZeros().toPlainString() for micros >= 0.
std::string SecondsText(int64_t micros) {
  std::string text = std::to_string(micros / kMicrosPerSecond);
  int64_t fraction = micros % kMicrosPerSecond;
  if (fraction != 0) {
    std::string digits = std::to_string(fraction);
    digits.insert(0, 6 - digits.size(), '0');
    while (digits.back() == '0') digits.pop_back();
    text += "." + digits;
  }
  // Seconds below ten get a leading zero, as Spark writes them.
  return (micros < 10 * kMicrosPerSecond ? "0" : "") + text;
}

std::string TwoDigits(int64_t value) {
  return (value < 10 ? "0" : "") + std::to_string(value);
}

// Reads digits at `text[*pos]` (at most `max_digits`), or nullopt when there are none.
std::optional<int64_t> ReadNumber(std::string_view text, size_t* pos, size_t max_digits) {
  const size_t begin = *pos;
  int64_t value = 0;
  while (*pos < text.size() && text[*pos] >= '0' && text[*pos] <= '9') {
    if (*pos - begin >= max_digits) return std::nullopt;
    value = value * 10 + (text[*pos] - '0');
    ++*pos;
  }
  if (*pos == begin) return std::nullopt;
  return value;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

}  // namespace

namespace {

// One shared instance per field range of an interval type with `kFields` fields, indexed by
// start * kFields + end.
template <typename IntervalType, typename Fields, int kFields>
std::shared_ptr<arrow::DataType> SharedInstance(Fields fields) {
  using Field = decltype(fields.start);
  static const auto instances = [] {
    std::array<std::shared_ptr<arrow::DataType>, kFields * kFields> all;
    for (int start = 0; start < kFields; ++start) {
      for (int end = start; end < kFields; ++end) {
        all[start * kFields + end] = std::make_shared<IntervalType>(
            Fields{static_cast<Field>(start), static_cast<Field>(end)});
      }
    }
    return all;
  }();
  return instances[Index(fields.start) * kFields + Index(fields.end)];
}

}  // namespace

std::shared_ptr<arrow::DataType> DayTimeInterval(DayTimeFields fields) {
  return SharedInstance<DayTimeIntervalType, DayTimeFields, 4>(fields);
}

std::shared_ptr<arrow::DataType> YearMonthInterval(YearMonthFields fields) {
  return SharedInstance<YearMonthIntervalType, YearMonthFields, 2>(fields);
}

bool IsDayTimeInterval(const arrow::DataType& type) {
  return type.id() == arrow::Type::DURATION &&
         static_cast<const arrow::DurationType&>(type).unit() == arrow::TimeUnit::MICRO;
}

bool IsYearMonthInterval(const arrow::DataType& type) {
  return type.id() == arrow::Type::INTERVAL_MONTHS;
}

DayTimeFields DayTimeFieldsOf(const arrow::DataType& type) {
  if (const auto* typed = dynamic_cast<const DayTimeIntervalType*>(&type)) return typed->fields();
  return {};
}

YearMonthFields YearMonthFieldsOf(const arrow::DataType& type) {
  if (const auto* typed = dynamic_cast<const YearMonthIntervalType*>(&type)) {
    return typed->fields();
  }
  return {};
}

DayTimeFields Union(DayTimeFields a, DayTimeFields b) {
  return {std::min(a.start, b.start), std::max(a.end, b.end)};
}

YearMonthFields Union(YearMonthFields a, YearMonthFields b) {
  return {std::min(a.start, b.start), std::max(a.end, b.end)};
}

std::string IntervalTypeName(const arrow::DataType& type, bool upper) {
  if (IsYearMonthInterval(type)) {
    const auto fields = YearMonthFieldsOf(type);
    return FieldsName(kYearMonthNames[Index(fields.start)], kYearMonthNames[Index(fields.end)],
                      fields.start == fields.end, upper);
  }
  const auto fields = DayTimeFieldsOf(type);
  return FieldsName(kDayTimeNames[Index(fields.start)], kDayTimeNames[Index(fields.end)],
                    fields.start == fields.end, upper);
}

std::shared_ptr<arrow::DataType> IntervalTypeByName(std::string_view name) {
  for (int s = 0; s < 4; ++s) {
    for (int e = s; e < 4; ++e) {
      if (Upper(FieldsName(kDayTimeNames[s], kDayTimeNames[e], s == e, false)) == name) {
        return DayTimeInterval({static_cast<DayTimeField>(s), static_cast<DayTimeField>(e)});
      }
    }
  }
  for (int s = 0; s < 2; ++s) {
    for (int e = s; e < 2; ++e) {
      if (Upper(FieldsName(kYearMonthNames[s], kYearMonthNames[e], s == e, false)) == name) {
        return YearMonthInterval({static_cast<YearMonthField>(s), static_cast<YearMonthField>(e)});
      }
    }
  }
  return nullptr;
}

std::string FormatDayTimeInterval(int64_t micros, DayTimeFields fields) {
  const int start = Index(fields.start);
  const int end = Index(fields.end);
  std::string text = "INTERVAL '";
  // The magnitude as unsigned: the most negative value has no positive counterpart.
  uint64_t rest = micros < 0 ? 0 - static_cast<uint64_t>(micros) : static_cast<uint64_t>(micros);
  if (micros < 0) text += "-";
  for (int field = start; field <= end; ++field) {
    const auto unit = static_cast<uint64_t>(kDayTimeUnits[field]);
    if (field > start) text += field == 1 ? " " : ":";
    if (field == 3) {
      // Seconds keep their fraction; a leading seconds field holds everything left.
      text += SecondsText(static_cast<int64_t>(rest));
      rest = 0;
    } else if (field == 0) {
      text += std::to_string(rest / unit);
    } else {
      text += TwoDigits(static_cast<int64_t>(rest / unit));
    }
    rest %= unit;
  }
  const std::string from = Upper(kDayTimeNames[start]);
  return text + "' " + (start == end ? from : from + " TO " + Upper(kDayTimeNames[end]));
}

std::string FormatYearMonthInterval(int32_t months, YearMonthFields fields) {
  const int64_t magnitude = std::abs(static_cast<int64_t>(months));
  const std::string sign = months < 0 ? "-" : "";
  const std::string year = sign + std::to_string(magnitude / 12);
  std::string value;
  if (fields.start != fields.end) {
    value = year + "-" + std::to_string(magnitude % 12);
  } else {
    value = fields.start == YearMonthField::kYear ? year : std::to_string(months);
  }
  const std::string from = Upper(kYearMonthNames[Index(fields.start)]);
  return "INTERVAL '" + value + "' " +
         (fields.start == fields.end ? from
                                     : from + " TO " + Upper(kYearMonthNames[Index(fields.end)]));
}

std::optional<int64_t> ParseDayTimeIntervalText(std::string_view text, DayTimeFields fields) {
  text = Trim(text);
  size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    negative = text[pos] == '-';
    ++pos;
  }
  const int start = Index(fields.start);
  const int end = Index(fields.end);
  __int128 total = 0;
  for (int field = start; field <= end; ++field) {
    const bool leading = field == start;
    if (!leading) {
      const char separator = field == 1 ? ' ' : ':';
      if (pos >= text.size() || text[pos] != separator) return std::nullopt;
      ++pos;
    }
    // The leading field may be as large as the type holds; the others stay within their unit.
    auto value = ReadNumber(text, &pos, leading ? 18 : 2);
    if (!value) return std::nullopt;
    const int64_t limits[] = {std::numeric_limits<int64_t>::max(), 23, 59, 59};
    if (!leading && *value > limits[field]) return std::nullopt;
    total += static_cast<__int128>(*value) * kDayTimeUnits[field];
    if (field == 3 && pos < text.size() && text[pos] == '.') {
      ++pos;
      const size_t digits_begin = pos;
      auto fraction = ReadNumber(text, &pos, 9);
      if (!fraction) return std::nullopt;
      // Nanoseconds are cut to microseconds, as Spark's parser does.
      int64_t micros = *fraction;
      for (size_t digits = pos - digits_begin; digits < 6; ++digits) micros *= 10;
      for (size_t digits = pos - digits_begin; digits > 6; --digits) micros /= 10;
      total += micros;
    }
  }
  if (pos != text.size()) return std::nullopt;
  if (negative) total = -total;
  if (total > std::numeric_limits<int64_t>::max() || total < std::numeric_limits<int64_t>::min()) {
    return std::nullopt;
  }
  return static_cast<int64_t>(total);
}

std::optional<int32_t> ParseYearMonthIntervalText(std::string_view text, YearMonthFields fields) {
  text = Trim(text);
  size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    negative = text[pos] == '-';
    ++pos;
  }
  auto first = ReadNumber(text, &pos, 10);
  if (!first) return std::nullopt;
  int64_t months = fields.start == YearMonthField::kYear ? *first * 12 : *first;
  if (fields.start != fields.end) {
    if (pos >= text.size() || text[pos] != '-') return std::nullopt;
    ++pos;
    auto month = ReadNumber(text, &pos, 2);
    if (!month || *month > 11) return std::nullopt;
    months += *month;
  }
  if (pos != text.size()) return std::nullopt;
  if (negative) months = -months;
  if (months > std::numeric_limits<int32_t>::max() || months < std::numeric_limits<int32_t>::min()) {
    return std::nullopt;
  }
  return static_cast<int32_t>(months);
}

namespace {

// The quoted value of `INTERVAL '<value>' <fields>` when `text` is such a literal with the
// fields `name` (upper case); `text` itself when it is not a literal; nullopt for a literal of
// other fields.
std::optional<std::string_view> LiteralValue(std::string_view text, const std::string& name) {
  text = Trim(text);
  constexpr std::string_view kPrefix = "INTERVAL";
  if (text.size() < kPrefix.size() || Upper(std::string(text.substr(0, kPrefix.size()))) != kPrefix) {
    return text;
  }
  std::string_view rest = Trim(text.substr(kPrefix.size()));
  if (rest.empty() || rest.front() != '\'') return std::nullopt;
  const size_t close = rest.find('\'', 1);
  if (close == std::string_view::npos) return std::nullopt;
  std::string fields = Upper(std::string(Trim(rest.substr(close + 1))));
  // "INTERVAL DAY TO SECOND" named as written: one space between words.
  std::string words;
  for (char c : fields) {
    if (c == ' ' && (words.empty() || words.back() == ' ')) continue;
    words.push_back(c);
  }
  if ("INTERVAL " + words != name) return std::nullopt;
  return rest.substr(1, close - 1);
}

}  // namespace

std::optional<int64_t> ParseDayTimeIntervalCast(std::string_view text, DayTimeFields fields) {
  auto value = LiteralValue(text, IntervalTypeName(*DayTimeInterval(fields), /*upper=*/true));
  if (!value) return std::nullopt;
  return ParseDayTimeIntervalText(*value, fields);
}

std::optional<int32_t> ParseYearMonthIntervalCast(std::string_view text, YearMonthFields fields) {
  auto value = LiteralValue(text, IntervalTypeName(*YearMonthInterval(fields), /*upper=*/true));
  if (!value) return std::nullopt;
  return ParseYearMonthIntervalText(*value, fields);
}

int64_t TruncateDayTimeInterval(int64_t micros, DayTimeFields fields) {
  const int64_t unit = kDayTimeUnits[Index(fields.end)];
  return unit == kMicrosPerSecond ? micros : micros - micros % unit;
}

int32_t TruncateYearMonthInterval(int32_t months, YearMonthFields fields) {
  return fields.end == YearMonthField::kYear ? months - months % 12 : months;
}

}  // namespace sluice::types
