#pragma once

#include <memory>
#include <vector>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

namespace sluice::expr {

/// The type two operands are both cast to before an operator or a function that needs one type
/// (arithmetic, comparison, CASE, coalesce, IN, union), following Spark 4's ANSI type coercion:
/// numbers widen along byte < short < int < long < decimal < float < double, NULL takes the
/// other type, date and timestamp meet at timestamp, and a string meets any atomic type at that
/// type (its values are cast, failing on bad input under ANSI). Null result: no common type.
std::shared_ptr<arrow::DataType> CommonType(const std::shared_ptr<arrow::DataType>& left,
                                            const std::shared_ptr<arrow::DataType>& right);

/// CommonType folded over several types; nullptr when some pair has none.
std::shared_ptr<arrow::DataType> CommonType(
    const std::vector<std::shared_ptr<arrow::DataType>>& types);

/// The decimal type that holds every value of an integral type (int -> decimal(10,0)), or the
/// type itself for decimals; nullptr for other types.
std::shared_ptr<arrow::DataType> DecimalForIntegral(const arrow::DataType& type);

/// The decimal type an integral literal takes when it meets a decimal in a binary operator: just
/// the digits its value needs (1 -> decimal(1,0), -120 -> decimal(3,0)), as Spark's
/// DecimalPrecision rule does for short, int and bigint literals; tinyint literals and other types
/// take DecimalForIntegral. Null for a null value or a non-integral type.
std::shared_ptr<arrow::DataType> DecimalForIntegralLiteral(const arrow::Scalar& value);

/// Spark's bounding of a decimal result whose precision exceeds 38 digits: keeps at least 6
/// fractional digits and gives up scale before integral digits (DecimalType.adjustPrecisionScale).
std::shared_ptr<arrow::DataType> BoundedDecimal(int32_t precision, int32_t scale);

}  // namespace sluice::expr
