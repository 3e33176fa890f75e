// Interval literals, in Spark's forms. Part of ExpressionParser.
//
//   INTERVAL '1 02:03:04.5' DAY TO SECOND     INTERVAL '2-3' YEAR TO MONTH     (unit to unit)
//   INTERVAL '10' MINUTE                      INTERVAL '1.5' SECOND            (one field)
//   INTERVAL 1 DAY 2 HOURS                    INTERVAL -3 HOURS                (multi-unit)
//   INTERVAL '1 day 2 hours 3.25 seconds'                                      (in a string)
//
// A day-time literal's type spans the largest to the smallest unit written (weeks count as
// days, milli- and microseconds as seconds), as Spark's; years and months give a year-month
// interval, and the two families cannot be mixed.
#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <string>

#include <arrow/scalar.h>

#include "sluice/common/ascii.h"
#include "sluice/sql/expression_parser.h"
#include "sluice/sql/sql_lexer.h"
#include "sluice/types/interval_types.h"

namespace sluice::sql {

namespace {

using expr::ExprPtr;
using Kind = SqlToken::Kind;
using types::DayTimeField;
using types::YearMonthField;

bool IsNumberToken(const SqlToken& token) {
  return token.kind == Kind::kInteger || token.kind == Kind::kNumber;
}

// A unit of the multi-unit form: which family, which field it widens the type to, and how many
// microseconds (or months) one of it is.
struct Unit {
  bool year_month = false;
  int field = 0;  // a DayTimeField or YearMonthField
  int64_t size = 0;
  bool fractional = false;  // seconds may have a fraction
};

std::optional<Unit> UnitByName(std::string name) {
  name = AsciiUpper(name);
  if (name.size() > 1 && name.back() == 'S') name.pop_back();
  constexpr int64_t second = 1'000'000;
  if (name == "YEAR") return Unit{true, static_cast<int>(YearMonthField::kYear), 12};
  if (name == "MONTH") return Unit{true, static_cast<int>(YearMonthField::kMonth), 1};
  if (name == "WEEK") return Unit{false, static_cast<int>(DayTimeField::kDay), 7 * 86400 * second};
  if (name == "DAY") return Unit{false, static_cast<int>(DayTimeField::kDay), 86400 * second};
  if (name == "HOUR") return Unit{false, static_cast<int>(DayTimeField::kHour), 3600 * second};
  if (name == "MINUTE") return Unit{false, static_cast<int>(DayTimeField::kMinute), 60 * second};
  if (name == "SECOND") {
    return Unit{false, static_cast<int>(DayTimeField::kSecond), second, true};
  }
  if (name == "MILLISECOND") return Unit{false, static_cast<int>(DayTimeField::kSecond), 1000};
  if (name == "MICROSECOND") return Unit{false, static_cast<int>(DayTimeField::kSecond), 1};
  return std::nullopt;
}

// The field a word names in the unit-to-unit and one-field forms (singular only).
std::optional<int> FieldByName(const std::string& word, bool* year_month) {
  static constexpr std::array<std::string_view, 6> kFields = {"YEAR", "MONTH", "DAY",
                                                               "HOUR", "MINUTE", "SECOND"};
  const std::string upper = AsciiUpper(word);
  for (size_t i = 0; i < kFields.size(); ++i) {
    if (upper == kFields[i]) {
      *year_month = i < 2;
      return static_cast<int>(i < 2 ? i : i - 2);
    }
  }
  return std::nullopt;
}

// `count` units, the count written as `text` ("-3", "1.5"): microseconds or months, or nullopt
// when the text is not a number the unit takes.
std::optional<__int128> UnitAmount(const std::string& text, const Unit& unit) {
  size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) negative = text[pos++] == '-';
  __int128 whole = 0;
  const size_t digits_begin = pos;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
    whole = whole * 10 + (text[pos++] - '0');
    if (whole > std::numeric_limits<int64_t>::max()) return std::nullopt;
  }
  if (pos == digits_begin) return std::nullopt;
  __int128 amount = whole * unit.size;
  if (pos < text.size() && text[pos] == '.' && unit.fractional) {
    ++pos;
    int64_t scale = unit.size;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      scale /= 10;
      amount += (text[pos++] - '0') * scale;
    }
  }
  if (pos != text.size()) return std::nullopt;
  return negative ? -amount : amount;
}

}  // namespace

arrow::Result<ExprPtr> ExpressionParser::ParseIntervalLiteral() {
  const SqlToken& keyword = Next();  // INTERVAL
  auto invalid = [&](const char* error_class, const std::string& detail) {
    return SqlParseError(input_, keyword.offset, error_class,
                         "Error parsing interval literal: " + detail + ".");
  };
  // `INTERVAL 'text' FIELD [TO FIELD]`.
  bool year_month = false;
  if (Peek().kind == Kind::kString && Peek(1).kind == Kind::kWord) {
    auto start = FieldByName(Peek(1).text, &year_month);
    const bool to = Peek(2).IsKeyword("TO");
    const bool multi_unit = Peek(2).kind == Kind::kInteger || Peek(2).kind == Kind::kString ||
                            Peek(2).IsSymbol("-");
    if (start && !multi_unit) {
      const std::string text = Next().value;
      Next();  // the field
      int end = *start;
      if (to) {
        Next();  // TO
        bool end_year_month = false;
        auto written_end = FieldByName(Peek().text, &end_year_month);
        if (!written_end || end_year_month != year_month || *written_end < *start) {
          return SyntaxError(Peek(), ": not an interval field range");
        }
        end = *written_end;
        Next();
      }
      if (year_month) {
        const types::YearMonthFields fields{static_cast<YearMonthField>(*start),
                                            static_cast<YearMonthField>(end)};
        auto months = types::ParseYearMonthIntervalText(text, fields);
        if (!months) {
          return invalid(*start == end ? "_LEGACY_ERROR_TEMP_0026"
                                      : "INVALID_INTERVAL_FORMAT.INTERVAL_PARSING",
                         "'" + text + "' does not match " +
                             types::IntervalTypeName(*types::YearMonthInterval(fields), true));
        }
        return expr::Lit(std::make_shared<arrow::MonthIntervalScalar>(
            *months, types::YearMonthInterval(fields)));
      }
      const types::DayTimeFields fields{static_cast<DayTimeField>(*start),
                                        static_cast<DayTimeField>(end)};
      auto micros = types::ParseDayTimeIntervalText(text, fields);
      if (!micros) {
        return invalid(*start == end ? "_LEGACY_ERROR_TEMP_0026"
                                     : "INVALID_INTERVAL_FORMAT.UNMATCHED_FORMAT_STRING_WITH_NOTICE",
                       "'" + text + "' does not match " +
                           types::IntervalTypeName(*types::DayTimeInterval(fields), true));
      }
      return expr::Lit(std::make_shared<arrow::DurationScalar>(*micros,
                                                               types::DayTimeInterval(fields)));
    }
  }
  // The multi-unit forms: pairs of a count and a unit, written out or inside one string.
  std::vector<std::pair<std::string, std::string>> parts;
  if (Peek().kind == Kind::kString && !(Peek(1).kind == Kind::kWord && UnitByName(Peek(1).text))) {
    const std::string text = Next().value;
    std::vector<std::string> words;
    std::string word;
    for (char c : text + " ") {
      if (c == ' ' || c == '\t') {
        if (!word.empty()) words.push_back(std::move(word));
        word.clear();
      } else {
        word.push_back(c);
      }
    }
    if (words.empty() || words.size() % 2 != 0) {
      return invalid("_LEGACY_ERROR_TEMP_0026", "'" + text + "' is not a count and a unit");
    }
    for (size_t i = 0; i < words.size(); i += 2) parts.emplace_back(words[i], words[i + 1]);
  } else {
    while (true) {
      std::string count;
      if ((Peek().IsSymbol("-") || Peek().IsSymbol("+")) && IsNumberToken(Peek(1))) {
        count = Next().text;
      }
      if (!IsNumberToken(Peek()) && Peek().kind != Kind::kString) break;
      const SqlToken& value = Next();
      count += value.kind == Kind::kString ? value.value : value.text;
      if (Peek().kind != Kind::kWord || !UnitByName(Peek().text)) {
        return SyntaxError(Peek(), ": an interval needs a unit after " + count);
      }
      parts.emplace_back(count, Next().text);
    }
    if (parts.empty()) return SyntaxError(Peek());
  }
  std::optional<bool> family;
  int smallest = 0;
  int largest = 3;
  __int128 total = 0;
  for (const auto& [count, unit_name] : parts) {
    auto unit = UnitByName(unit_name);
    if (!unit) return invalid("_LEGACY_ERROR_TEMP_0026", "unknown unit '" + unit_name + "'");
    if (family && *family != unit->year_month) {
      return invalid("_LEGACY_ERROR_TEMP_0029",
                     "year-month and day-time fields cannot be mixed in one interval");
    }
    if (!family) {
      smallest = unit->field;
      largest = unit->field;
    }
    family = unit->year_month;
    smallest = std::max(smallest, unit->field);
    largest = std::min(largest, unit->field);
    auto amount = UnitAmount(count, *unit);
    if (!amount) {
      const bool fraction = count.find('.') != std::string::npos;
      return invalid(fraction ? "INVALID_INTERVAL_FORMAT.INVALID_FRACTION"
                              : "_LEGACY_ERROR_TEMP_0026",
                     "'" + count + "' is not a valid count of " + unit_name +
                         (fraction ? " (only seconds can have a fractional part)" : ""));
    }
    total += *amount;
  }
  if (*family) {
    if (total > std::numeric_limits<int32_t>::max() || total < std::numeric_limits<int32_t>::min()) {
      return invalid("_LEGACY_ERROR_TEMP_0026", "the interval is out of range");
    }
    return expr::Lit(std::make_shared<arrow::MonthIntervalScalar>(
        static_cast<int32_t>(total),
        types::YearMonthInterval({static_cast<YearMonthField>(largest),
                                  static_cast<YearMonthField>(smallest)})));
  }
  if (total > std::numeric_limits<int64_t>::max() || total < std::numeric_limits<int64_t>::min()) {
    return invalid("_LEGACY_ERROR_TEMP_0026", "the interval is out of range");
  }
  return expr::Lit(std::make_shared<arrow::DurationScalar>(
      static_cast<int64_t>(total),
      types::DayTimeInterval({static_cast<DayTimeField>(largest),
                              static_cast<DayTimeField>(smallest)})));
}

}  // namespace sluice::sql
