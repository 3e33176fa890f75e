// Spark's ANSI interval types: names, the text of their values, and reading that text back.
// Expected texts are Spark 4.0.1's (CAST(interval AS STRING) and the literals' column names).
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

#include "sluice/types/interval_types.h"
#include "sluice/types/spark_type_names.h"

namespace sluice::types {
namespace {

constexpr DayTimeFields kDayToSecond{};
constexpr DayTimeFields kMinute{DayTimeField::kMinute, DayTimeField::kMinute};
constexpr DayTimeFields kHour{DayTimeField::kHour, DayTimeField::kHour};
constexpr DayTimeFields kSecond{DayTimeField::kSecond, DayTimeField::kSecond};
constexpr DayTimeFields kDayToHour{DayTimeField::kDay, DayTimeField::kHour};
constexpr DayTimeFields kHourToMinute{DayTimeField::kHour, DayTimeField::kMinute};
constexpr int64_t kSecondMicros = 1'000'000;
constexpr int64_t kHourMicros = 3600 * kSecondMicros;

TEST(IntervalTypesTest, NamesCarryTheFields) {
  EXPECT_EQ(SimpleString(*DayTimeInterval(kMinute)), "interval minute");
  EXPECT_EQ(SimpleString(*DayTimeInterval(kDayToHour)), "interval day to hour");
  EXPECT_EQ(SqlString(*DayTimeInterval(kHourToMinute)), "INTERVAL HOUR TO MINUTE");
  EXPECT_EQ(SimpleString(*YearMonthInterval({YearMonthField::kMonth, YearMonthField::kMonth})),
            "interval month");
  // Arrow's own types read as the widest fields.
  EXPECT_EQ(SimpleString(*arrow::duration(arrow::TimeUnit::MICRO)), "interval day to second");
  EXPECT_EQ(SimpleString(*arrow::month_interval()), "interval year to month");
  // One storage type: Arrow sees no difference between the fields.
  EXPECT_TRUE(DayTimeInterval(kMinute)->Equals(*arrow::duration(arrow::TimeUnit::MICRO)));
  EXPECT_EQ(IntervalTypeByName("INTERVAL DAY TO MINUTE"),
            DayTimeInterval({DayTimeField::kDay, DayTimeField::kMinute}));
  EXPECT_EQ(IntervalTypeByName("INTERVAL YEAR"),
            YearMonthInterval({YearMonthField::kYear, YearMonthField::kYear}));
  EXPECT_EQ(IntervalTypeByName("INTERVAL MINUTE TO HOUR"), nullptr);
}

TEST(IntervalTypesTest, FormatsValuesAsSpark) {
  EXPECT_EQ(FormatDayTimeInterval(600 * kSecondMicros, kMinute), "INTERVAL '10' MINUTE");
  EXPECT_EQ(FormatDayTimeInterval(100 * kHourMicros, kHour), "INTERVAL '100' HOUR");
  EXPECT_EQ(FormatDayTimeInterval(-3 * kHourMicros, kHour), "INTERVAL '-03' HOUR");
  EXPECT_EQ(FormatDayTimeInterval(1'500'000, kSecond), "INTERVAL '01.5' SECOND");
  EXPECT_EQ(FormatDayTimeInterval(-1, kSecond), "INTERVAL '-00.000001' SECOND");
  EXPECT_EQ(FormatDayTimeInterval(0, kSecond), "INTERVAL '00' SECOND");
  EXPECT_EQ(FormatDayTimeInterval(26 * kHourMicros + 3'250'000, kDayToSecond),
            "INTERVAL '1 02:00:03.25' DAY TO SECOND");
  // Fields below the end are cut off.
  EXPECT_EQ(FormatDayTimeInterval(-23 * kHourMicros - 59, kDayToHour),
            "INTERVAL '-0 23' DAY TO HOUR");
  EXPECT_EQ(FormatDayTimeInterval(std::numeric_limits<int64_t>::min(), kDayToSecond),
            "INTERVAL '-106751991 04:00:54.775808' DAY TO SECOND");
  EXPECT_EQ(FormatYearMonthInterval(27, {}), "INTERVAL '2-3' YEAR TO MONTH");
  EXPECT_EQ(FormatYearMonthInterval(-23, {}), "INTERVAL '-1-11' YEAR TO MONTH");
  EXPECT_EQ(FormatYearMonthInterval(14, {YearMonthField::kMonth, YearMonthField::kMonth}),
            "INTERVAL '14' MONTH");
  EXPECT_EQ(FormatYearMonthInterval(-24, {YearMonthField::kYear, YearMonthField::kYear}),
            "INTERVAL '-2' YEAR");
}

TEST(IntervalTypesTest, ReadsTheTextOfEachFieldRange) {
  EXPECT_EQ(ParseDayTimeIntervalText("1 02:03:04.5", kDayToSecond),
            ((24 + 2) * 3600 + 3 * 60 + 4) * kSecondMicros + 500'000);
  EXPECT_EQ(ParseDayTimeIntervalText("-1 02", kDayToHour), -26 * kHourMicros);
  EXPECT_EQ(ParseDayTimeIntervalText("25:00", kHourToMinute), 25 * kHourMicros);
  EXPECT_EQ(ParseDayTimeIntervalText(" 1.000000999 ", kSecond), 1'000'000);
  // Only the leading field is unbounded.
  EXPECT_EQ(ParseDayTimeIntervalText("1 24", kDayToHour), std::nullopt);
  EXPECT_EQ(ParseDayTimeIntervalText("1:60", kHourToMinute), std::nullopt);
  EXPECT_EQ(ParseDayTimeIntervalText("1.5", kMinute), std::nullopt);
  EXPECT_EQ(ParseDayTimeIntervalText("1 02", kDayToSecond), std::nullopt);
  EXPECT_EQ(ParseDayTimeIntervalText("99999999999999999", kHour), std::nullopt);
  EXPECT_EQ(ParseYearMonthIntervalText("-1-11", {}), -23);
  EXPECT_EQ(ParseYearMonthIntervalText("1-12", {}), std::nullopt);
  EXPECT_EQ(ParseYearMonthIntervalText("14", {YearMonthField::kMonth, YearMonthField::kMonth}),
            14);
}

TEST(IntervalTypesTest, CastsReadTheValueOrTheWholeLiteralAndDropLowerFields) {
  EXPECT_EQ(ParseDayTimeIntervalCast("10", kMinute), 600 * kSecondMicros);
  EXPECT_EQ(ParseDayTimeIntervalCast(" interval '1 02'  day to hour ", kDayToHour),
            26 * kHourMicros);
  // A literal of other fields is not the target's.
  EXPECT_EQ(ParseDayTimeIntervalCast("INTERVAL '10' MINUTE", kHour), std::nullopt);
  EXPECT_EQ(ParseDayTimeIntervalCast("INTERVAL '10 MINUTE", kMinute), std::nullopt);
  EXPECT_EQ(ParseYearMonthIntervalCast("INTERVAL '-1-2' YEAR TO MONTH", {}), -14);
  EXPECT_EQ(TruncateDayTimeInterval(-90 * 60 * kSecondMicros, kHour), -kHourMicros);
  EXPECT_EQ(TruncateDayTimeInterval(1'500'000, kSecond), 1'500'000);
  EXPECT_EQ(TruncateYearMonthInterval(-14, {YearMonthField::kYear, YearMonthField::kYear}), -12);
}

}  // namespace
}  // namespace sluice::types
