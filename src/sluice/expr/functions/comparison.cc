// Spark's comparison operators (= == <=> != <> < <= > >=) and NOT. Values of different types
// meet at their common type first. Floating point follows Spark, not IEEE: NaN equals NaN and
// is greater than every other value.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <optional>
#include <string_view>
#include <type_traits>

#include <arrow/compute/api.h>
#include <arrow/type.h>
#include <arrow/util/decimal.h>

#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/elementwise.h"
#include "sluice/expr/function_registry.h"
#include "sluice/expr/functions/function_areas.h"
#include "sluice/expr/functions/string_columns.h"
#include "sluice/expr/key_bytes.h"
#include "sluice/expr/type_coercion.h"

namespace sluice::expr {

namespace cp = arrow::compute;

namespace {

enum class Comparison { kEqual, kNotEqual, kLess, kLessEqual, kGreater, kGreaterEqual };

const char* ArrowName(Comparison comparison) {
  switch (comparison) {
    case Comparison::kEqual: return "equal";
    case Comparison::kNotEqual: return "not_equal";
    case Comparison::kLess: return "less";
    case Comparison::kLessEqual: return "less_equal";
    case Comparison::kGreater: return "greater";
    case Comparison::kGreaterEqual: return "greater_equal";
  }
  return "equal";
}

// Spark's total order on floating point: NaN is the largest value and equals itself.
template <typename C>
int CompareFloating(C a, C b) {
  const bool a_nan = std::isnan(a), b_nan = std::isnan(b);
  if (a_nan || b_nan) return a_nan == b_nan ? 0 : (a_nan ? 1 : -1);
  return a < b ? -1 : (a > b ? 1 : 0);
}

bool Holds(Comparison comparison, int order) {
  switch (comparison) {
    case Comparison::kEqual: return order == 0;
    case Comparison::kNotEqual: return order != 0;
    case Comparison::kLess: return order < 0;
    case Comparison::kLessEqual: return order <= 0;
    case Comparison::kGreater: return order > 0;
    case Comparison::kGreaterEqual: return order >= 0;
  }
  return false;
}

template <typename T>
arrow::Result<arrow::Datum> CompareFloatingArrays(Comparison comparison,
                                                  const std::vector<arrow::Datum>& args,
                                                  int64_t num_rows, arrow::MemoryPool* pool) {
  using C = typename arrow::TypeTraits<T>::CType;
  // Booleans are bit-packed, so compute into bytes and let Arrow pack them.
  auto compare = [comparison](C a, C b, int8_t* out) {
    *out = Holds(comparison, CompareFloating(a, b)) ? 1 : 0;
    return RowOutcome::kValue;
  };
  auto never = [](int64_t) -> arrow::Result<arrow::Datum> {
    return arrow::Status::Invalid("comparison cannot fail");
  };
  ARROW_ASSIGN_OR_RAISE(auto bytes, (ApplyBinary<T, T, arrow::Int8Type>(
                                        args[0], args[1], num_rows, arrow::int8(), pool, compare,
                                        never)));
  return cp::Cast(bytes, arrow::boolean());
}

/// A decimal as the 128-bit integer it stores (its unscaled value).
__int128 Unscaled(const arrow::Decimal128& value) {
  return static_cast<__int128>(static_cast<unsigned __int128>(value.high_bits()) << 64 |
                               value.low_bits());
}

template <Comparison kComparison, typename T>
bool Compares(const T& a, const T& b) {
  if constexpr (kComparison == Comparison::kEqual) return a == b;
  if constexpr (kComparison == Comparison::kNotEqual) return a != b;
  if constexpr (kComparison == Comparison::kLess) return a < b;
  if constexpr (kComparison == Comparison::kLessEqual) return a <= b;
  if constexpr (kComparison == Comparison::kGreater) return a > b;
  return a >= b;
}

/// A boolean array of `num_rows` rows, 64 at a time: `valid_bits(begin, n)` gives the rows
/// whose arguments are both valid (the others are null), `holds(row)` whether the comparison
/// holds for a valid row.
template <typename ValidBits, typename Holds>
arrow::Result<arrow::Datum> CompareRows(int64_t num_rows, arrow::MemoryPool* pool,
                                        ValidBits valid_bits, Holds holds) {
  ARROW_ASSIGN_OR_RAISE(auto values, arrow::AllocateBitmap(num_rows, pool));
  ARROW_ASSIGN_OR_RAISE(auto validity, arrow::AllocateBitmap(num_rows, pool));
  int64_t null_count = 0;
  for (int64_t begin = 0; begin < num_rows; begin += 64) {
    const int64_t n = std::min<int64_t>(64, num_rows - begin);
    const uint64_t valid = valid_bits(begin, n);
    uint64_t held = 0;
    for (int64_t j = 0; j < n; ++j) held |= uint64_t{holds(begin + j)} << j;
    held &= valid;
    const auto bytes = static_cast<size_t>((n + 7) / 8);
    std::memcpy(values->mutable_data() + begin / 8, &held, bytes);
    std::memcpy(validity->mutable_data() + begin / 8, &valid, bytes);
    null_count += n - std::popcount(valid);
  }
  std::shared_ptr<arrow::Buffer> validity_buffer;
  if (null_count > 0) validity_buffer = std::move(validity);
  return arrow::Datum(arrow::ArrayData::Make(arrow::boolean(), num_rows,
                                             {std::move(validity_buffer), std::move(values)},
                                             null_count));
}

/// Decimals of one precision and scale (the arguments meet at their common type) compare as
/// their unscaled integers; Arrow's kernel called an out-of-line comparison per value, 8% of
/// Nexmark q14's batch thread (`0.908 * price > 1000000`).
template <Comparison kComparison>
arrow::Result<arrow::Datum> CompareDecimals(const std::vector<arrow::Datum>& args,
                                            int64_t num_rows, arrow::MemoryPool* pool) {
  NumericInput<arrow::Decimal128Type> a(args[0]);
  NumericInput<arrow::Decimal128Type> b(args[1]);
  return CompareRows(
      num_rows, pool,
      [&](int64_t begin, int64_t n) { return a.ValidBits(begin, n) & b.ValidBits(begin, n); },
      [&](int64_t row) {
        return Compares<kComparison>(Unscaled(a.Value(row)), Unscaled(b.Value(row)));
      });
}

/// Equality (or not) of each row of the string column `column` with `literal`, a scalar of
/// `Word` to two `Word`s of bytes, without a branch on the row: its first and last words of
/// the literal's length are read whatever its length (within the column's Span: a shorter
/// row's are followed by the next rows' bytes) and compared with the literal's, the lengths
/// beside. Where the literal is one of the column's frequent values (Nexmark q21 compares
/// lower(channel) with four names that are half of its rows), the branch on equal lengths
/// mispredicted: q21 ran a tenth longer.
template <Comparison kComparison, typename Word>
arrow::Result<arrow::Datum> CompareWithShortLiteral(const StringInput& column,
                                                    const StringInput& literal,
                                                    int64_t num_rows, arrow::MemoryPool* pool) {
  constexpr size_t kWord = sizeof(Word);
  const std::string_view value = literal.View(0);
  const size_t n = value.size();
  Word first, last;
  std::memcpy(&first, value.data(), kWord);
  std::memcpy(&last, value.data() + n - kWord, kWord);
  const std::string_view bytes = column.Span();
  const char* end = bytes.data() + bytes.size();
  return CompareRows(
      num_rows, pool,
      [&](int64_t begin, int64_t rows) {
        return column.ValidBits(begin, rows) & literal.ValidBits(begin, rows);
      },
      [&](int64_t row) {
        const std::string_view x = column.View(row);
        bool equal;
        if (static_cast<size_t>(end - x.data()) >= n) [[likely]] {
          Word x_first, x_last;
          std::memcpy(&x_first, x.data(), kWord);
          std::memcpy(&x_last, x.data() + n - kWord, kWord);
          equal = (x.size() == n) & (x_first == first) & (x_last == last);
        } else {
          equal = x == value;  // a row at the end of the bytes, without n of them after it
        }
        return kComparison == Comparison::kEqual ? equal : !equal;
      });
}

/// CompareStrings' equality of a column with an empty literal or one of 4 to 16 bytes
/// (CompareWithShortLiteral), or nullopt for other arguments.
template <Comparison kComparison>
std::optional<arrow::Result<arrow::Datum>> CompareWithLiteral(const StringInput& a,
                                                              const StringInput& b,
                                                              int64_t num_rows,
                                                              arrow::MemoryPool* pool) {
  if constexpr (kComparison != Comparison::kEqual && kComparison != Comparison::kNotEqual) {
    return std::nullopt;
  }
  if (a.is_scalar() == b.is_scalar()) return std::nullopt;
  const StringInput& column = a.is_scalar() ? b : a;
  const StringInput& literal = a.is_scalar() ? a : b;
  const size_t n = literal.View(0).size();
  if (n == 0) {
    // An empty literal is a test of the length (`regexp_extract(...) <> ''`).
    return CompareRows(
        num_rows, pool,
        [&](int64_t begin, int64_t rows) {
          return column.ValidBits(begin, rows) & literal.ValidBits(begin, rows);
        },
        [&](int64_t row) {
          const bool empty = column.View(row).empty();
          return kComparison == Comparison::kEqual ? empty : !empty;
        });
  }
  if (n >= 8 && n <= 16) {
    return CompareWithShortLiteral<kComparison, uint64_t>(column, literal, num_rows, pool);
  }
  if (n >= 4 && n < 8) {
    return CompareWithShortLiteral<kComparison, uint32_t>(column, literal, num_rows, pool);
  }
  return std::nullopt;
}

/// Strings and binaries compare as their bytes, unsigned, as Spark's UTF8String does. Equality
/// looks at the lengths first and compares short values in words (EqualKeyBytes): Arrow's
/// kernel called memcmp for each pair of equal length, and Nexmark q21's comparisons of
/// lower(channel) with four names were a fifth of its batch thread.
template <Comparison kComparison>
arrow::Result<arrow::Datum> CompareStrings(const std::vector<arrow::Datum>& args,
                                           int64_t num_rows, arrow::MemoryPool* pool) {
  StringInput a(args[0]);
  StringInput b(args[1]);
  if (auto compared = CompareWithLiteral<kComparison>(a, b, num_rows, pool)) {
    return std::move(*compared);
  }
  auto equal = [](std::string_view x, std::string_view y) {
    return x.size() == y.size() &&
           EqualKeyBytes(reinterpret_cast<const uint8_t*>(x.data()),
                         reinterpret_cast<const uint8_t*>(y.data()), x.size());
  };
  return CompareRows(
      num_rows, pool,
      [&](int64_t begin, int64_t n) { return a.ValidBits(begin, n) & b.ValidBits(begin, n); },
      [&](int64_t row) {
        const std::string_view x = a.View(row);
        const std::string_view y = b.View(row);
        if constexpr (kComparison == Comparison::kEqual) return equal(x, y);
        if constexpr (kComparison == Comparison::kNotEqual) return !equal(x, y);
        return Compares<kComparison>(x.compare(y), 0);
      });
}

/// `compare(std::integral_constant<Comparison, c>())` for the comparison `c` asked for: the
/// templates above instantiated for each.
template <typename Compare>
arrow::Result<arrow::Datum> ForComparison(Comparison comparison, Compare compare) {
  using C = Comparison;
  switch (comparison) {
    case C::kEqual: return compare(std::integral_constant<C, C::kEqual>());
    case C::kNotEqual: return compare(std::integral_constant<C, C::kNotEqual>());
    case C::kLess: return compare(std::integral_constant<C, C::kLess>());
    case C::kLessEqual: return compare(std::integral_constant<C, C::kLessEqual>());
    case C::kGreater: return compare(std::integral_constant<C, C::kGreater>());
    case C::kGreaterEqual: return compare(std::integral_constant<C, C::kGreaterEqual>());
  }
  return arrow::Status::Invalid("unknown comparison");
}

arrow::Result<std::shared_ptr<arrow::DataType>> ComparisonType(const CallSite& call) {
  auto common = CommonType(call.args[0]->type(), call.args[1]->type());
  if (common == nullptr) {
    return DataTypeMismatch(call, "BINARY_OP_DIFF_TYPES",
                            "the left and right operands of the binary operator have "
                            "incompatible types (\"" +
                                SqlTypeName(*call.args[0]->type()) + "\" and \"" +
                                SqlTypeName(*call.args[1]->type()) + "\").");
  }
  // NULL = NULL compares two booleans that are both null, as Spark coerces it.
  if (common->id() == arrow::Type::NA) return arrow::boolean();
  if (common->id() == arrow::Type::MAP) {
    return DataTypeMismatch(call, "INVALID_ORDERING_TYPE",
                            "The `" + call.name + "` does not support ordering on type \"" +
                                SqlTypeName(*common) + "\".");
  }
  return common;
}

// A year-month interval compared by its months: Arrow has no comparison of month_interval.
arrow::Datum MonthsOf(const arrow::Datum& value) {
  if (value.is_scalar()) {
    const auto& months = value.scalar_as<arrow::MonthIntervalScalar>();
    return months.is_valid ? arrow::Datum(arrow::MakeScalar(months.value))
                           : arrow::Datum(arrow::MakeNullScalar(arrow::int32()));
  }
  return arrow::Datum(value.make_array()->View(arrow::int32()).ValueOrDie());
}

Kernel ComparisonKernel(Comparison comparison, const std::shared_ptr<arrow::DataType>& type) {
  const bool floating = arrow::is_floating(type->id());
  const bool is_float32 = type->id() == arrow::Type::FLOAT;
  if (type->id() == arrow::Type::INTERVAL_MONTHS) {
    Kernel on_months = ComparisonKernel(comparison, arrow::int32());
    return [on_months](const std::vector<arrow::Datum>& args, const EvalContext& context,
                       int64_t num_rows) -> arrow::Result<arrow::Datum> {
      return on_months({MonthsOf(args[0]), MonthsOf(args[1])}, context, num_rows);
    };
  }
  const bool decimal = type->id() == arrow::Type::DECIMAL128;
  const bool strings = type->id() == arrow::Type::STRING || type->id() == arrow::Type::BINARY;
  return [comparison, floating, is_float32, decimal, strings](
             const std::vector<arrow::Datum>& args, const EvalContext& context,
             int64_t num_rows) -> arrow::Result<arrow::Datum> {
    // Two scalars (a comparison of constants) are left to Arrow, which gives a scalar.
    const bool arrays = args[0].is_array() || args[1].is_array();
    if (decimal && arrays) {
      return ForComparison(comparison, [&](auto c) {
        return CompareDecimals<decltype(c)::value>(args, num_rows, context.pool);
      });
    }
    if (strings && arrays) {
      return ForComparison(comparison, [&](auto c) {
        return CompareStrings<decltype(c)::value>(args, num_rows, context.pool);
      });
    }
    if (floating) {
      return is_float32 ? CompareFloatingArrays<arrow::FloatType>(comparison, args, num_rows,
                                                                  context.pool)
                        : CompareFloatingArrays<arrow::DoubleType>(comparison, args, num_rows,
                                                                   context.pool);
    }
    return cp::CallFunction(ArrowName(comparison), args);
  };
}

ScalarResolver BinaryComparison(Comparison comparison) {
  return [comparison](CallSite call) -> arrow::Result<ResolvedCall> {
    ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
    ARROW_ASSIGN_OR_RAISE(auto type, ComparisonType(call));
    ResolvedCall resolved;
    ARROW_ASSIGN_OR_RAISE(resolved.args, CastArguments(call, type));
    resolved.return_type = arrow::boolean();
    resolved.nullable = AnyNullable(resolved.args);
    resolved.kernel = ComparisonKernel(comparison, type);
    return resolved;
  };
}

// a <=> b: true when both are null, false when one is, else a = b.
arrow::Result<ResolvedCall> ResolveNullSafeEqual(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
  ARROW_ASSIGN_OR_RAISE(auto type, ComparisonType(call));
  ResolvedCall resolved;
  ARROW_ASSIGN_OR_RAISE(resolved.args, CastArguments(call, type));
  resolved.return_type = arrow::boolean();
  resolved.nullable = false;
  Kernel equal = ComparisonKernel(Comparison::kEqual, type);
  resolved.kernel = [equal](const std::vector<arrow::Datum>& args, const EvalContext& context,
                            int64_t num_rows) -> arrow::Result<arrow::Datum> {
    ARROW_ASSIGN_OR_RAISE(auto equals, equal(args, context, num_rows));
    ARROW_ASSIGN_OR_RAISE(auto left_null, cp::CallFunction("is_null", {args[0]}));
    ARROW_ASSIGN_OR_RAISE(auto right_null, cp::CallFunction("is_null", {args[1]}));
    ARROW_ASSIGN_OR_RAISE(auto both_null, cp::CallFunction("and", {left_null, right_null}));
    ARROW_ASSIGN_OR_RAISE(auto values_equal,
                          cp::CallFunction("coalesce", {equals, arrow::Datum(false)}));
    return cp::CallFunction("or", {both_null, values_equal});
  };
  return resolved;
}

arrow::Result<ResolvedCall> ResolveNot(CallSite call) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  const auto id = call.args[0]->type()->id();
  if (id != arrow::Type::BOOL && id != arrow::Type::NA) {
    return UnexpectedInputType(call, 0, "\"BOOLEAN\"");
  }
  ResolvedCall resolved;
  ARROW_ASSIGN_OR_RAISE(resolved.args, CastArguments(call, arrow::boolean()));
  resolved.return_type = arrow::boolean();
  resolved.nullable = AnyNullable(resolved.args);
  resolved.kernel = ArrowKernel("invert");
  return resolved;
}

}  // namespace

void RegisterComparisonFunctions(FunctionRegistry& registry) {
  registry.RegisterScalar("=", BinaryComparison(Comparison::kEqual));
  registry.RegisterScalar("==", BinaryComparison(Comparison::kEqual));
  registry.RegisterScalar("!=", BinaryComparison(Comparison::kNotEqual));
  registry.RegisterScalar("<>", BinaryComparison(Comparison::kNotEqual));
  registry.RegisterScalar("<", BinaryComparison(Comparison::kLess));
  registry.RegisterScalar("<=", BinaryComparison(Comparison::kLessEqual));
  registry.RegisterScalar(">", BinaryComparison(Comparison::kGreater));
  registry.RegisterScalar(">=", BinaryComparison(Comparison::kGreaterEqual));
  registry.RegisterScalar("<=>", ResolveNullSafeEqual);
  registry.RegisterScalar("equal_null", ResolveNullSafeEqual);
  registry.RegisterScalar("not", ResolveNot);
  registry.RegisterScalar("!", ResolveNot);
}

}  // namespace sluice::expr
