// ApplyBinary, which every binary numeric kernel runs on: its validity is read and written a
// word of 64 rows at a time, so rows are checked across word boundaries, at offsets that are
// not a multiple of 8, and with scalars on either side.
#include "sluice/expr/elementwise.h"

#include <gtest/gtest.h>

#include <optional>

#include <arrow/array/builder_primitive.h>

namespace sluice::expr {
namespace {

constexpr int64_t kRows = 200;

// Row i of the column: null when i % 7 == 3, else i - 100 (some rows 0, to divide by).
std::shared_ptr<arrow::Array> Column() {
  arrow::Int64Builder builder;
  for (int64_t i = 0; i < kRows; ++i) {
    if (i % 7 == 3) {
      EXPECT_TRUE(builder.AppendNull().ok());
    } else {
      EXPECT_TRUE(builder.Append(i - 100).ok());
    }
  }
  return builder.Finish().ValueOrDie();
}

// a % b, null for a zero divisor (kNull); an error for a divisor of 1013.
RowOutcome Remainder(int64_t a, int64_t b, int64_t* out) {
  if (b == 1013) return RowOutcome::kError;
  if (b == 0) return RowOutcome::kNull;
  *out = a % b;
  return RowOutcome::kValue;
}

std::optional<int64_t> ValueAt(const arrow::Datum& datum, int64_t row) {
  if (datum.is_scalar()) {
    const auto& scalar = datum.scalar_as<arrow::Int64Scalar>();
    if (!scalar.is_valid) return std::nullopt;
    return scalar.value;
  }
  const auto& array = static_cast<const arrow::Int64Array&>(*datum.make_array());
  if (array.IsNull(row)) return std::nullopt;
  return array.Value(row);
}

arrow::Result<arrow::Datum> Apply(const arrow::Datum& left, const arrow::Datum& right,
                                  int64_t rows) {
  return ApplyBinary<arrow::Int64Type, arrow::Int64Type, arrow::Int64Type>(
      left, right, rows, arrow::int64(), arrow::default_memory_pool(), Remainder,
      [](int64_t row) -> arrow::Result<arrow::Datum> {
        return arrow::Status::Invalid("error at row ", row);
      });
}

// Checks every row of Apply(left, right) against Remainder applied row by row.
void ExpectRowByRow(const arrow::Datum& left, const arrow::Datum& right, int64_t rows) {
  auto result = Apply(left, right, rows);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  auto out = std::static_pointer_cast<arrow::Int64Array>(result->make_array());
  ASSERT_EQ(out->length(), rows);
  ASSERT_TRUE(out->ValidateFull().ok());
  int64_t nulls = 0;
  for (int64_t i = 0; i < rows; ++i) {
    auto a = ValueAt(left, i);
    auto b = ValueAt(right, i);
    int64_t expected = 0;
    const bool valid = a && b && Remainder(*a, *b, &expected) == RowOutcome::kValue;
    nulls += !valid;
    ASSERT_EQ(out->IsValid(i), valid) << "row " << i;
    if (valid) {
      EXPECT_EQ(out->Value(i), expected) << "row " << i;
    }
  }
  EXPECT_EQ(out->null_count(), nulls);
}

TEST(ApplyBinaryTest, RowsAcrossWordsAndUnalignedOffsets) {
  auto column = Column();
  // Nulls on both sides, at their own offsets; row 100 (offset 0) is a zero divisor.
  for (int64_t offset : {0, 1, 3, 8, 13, 64, 65}) {
    SCOPED_TRACE("offset " + std::to_string(offset));
    auto left = column->Slice(offset + 100, kRows - offset - 100);
    auto right = column->Slice(offset, kRows - offset - 100);
    const int64_t rows = std::min(left->length(), right->length());
    ExpectRowByRow(left, right, rows);
    ExpectRowByRow(right, left->Slice(0, rows), rows);
  }
}

TEST(ApplyBinaryTest, ScalarsOnEitherSide) {
  auto column = Column()->Slice(5, 150);
  ExpectRowByRow(column, arrow::Datum(int64_t{7}), 150);
  ExpectRowByRow(arrow::Datum(int64_t{1000}), column->Slice(0, 90), 90);
  ExpectRowByRow(column, arrow::MakeNullScalar(arrow::int64()), 150);
  ExpectRowByRow(arrow::Datum(int64_t{9}), arrow::Datum(int64_t{4}), 70);
}

TEST(ApplyBinaryTest, NoNullsGivesNoValidityBitmap) {
  arrow::Int64Builder builder;
  for (int64_t i = 1; i <= 100; ++i) ASSERT_TRUE(builder.Append(i).ok());
  auto column = builder.Finish().ValueOrDie();
  auto result = Apply(column, arrow::Datum(int64_t{10}), 100);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result->array()->null_count, 0);
  EXPECT_EQ(result->array()->buffers[0], nullptr);
}

TEST(ApplyBinaryTest, AnErrorNamesItsRow) {
  arrow::Int64Builder builder;
  for (int64_t i = 0; i < 100; ++i) ASSERT_TRUE(builder.Append(i == 77 ? 1013 : 5).ok());
  auto divisors = builder.Finish().ValueOrDie();
  auto result = Apply(arrow::Datum(int64_t{1}), divisors, 100);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().message(), "error at row 77");
}

}  // namespace
}  // namespace sluice::expr
