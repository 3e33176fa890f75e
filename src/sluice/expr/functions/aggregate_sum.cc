// sum, avg/mean, try_sum-free ANSI semantics: integral sums are bigint and fail on overflow,
// decimal sums widen by 10 digits, everything else sums as double.
#include <cmath>

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/type.h>
#include <arrow/util/bit_util.h>
#include <arrow/util/decimal.h>

#include "sluice/common/errors.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/functions/aggregate_support.h"
#include "sluice/expr/functions/decimal_int128.h"
#include "sluice/expr/type_coercion.h"
#include "sluice/types/interval_types.h"

namespace sluice::expr::aggregates {

namespace {

arrow::Status LongOverflow() {
  return SparkError("ARITHMETIC_OVERFLOW",
                    "long overflow. Use 'try_add' to tolerate overflow and return NULL instead. "
                    "If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this "
                    "error.");
}

arrow::Status DecimalSumOverflow() {
  return SparkError("ARITHMETIC_OVERFLOW",
                    "Overflow in sum of decimals. Use 'try_sum' to tolerate overflow and return "
                    "NULL instead. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to "
                    "bypass this error.");
}

bool AnsiEnabled(const EvalContext& context) {
  return context.config == nullptr || context.config->ansi_enabled();
}

// The input kinds sum and avg accumulate.
// kInterval: day-time intervals, summed as their microseconds (overflow always fails, as
// Spark's interval arithmetic does).
enum class SumKind { kLong, kDouble, kDecimal, kInterval };

// Per group: a running sum of `Value` and the number of non-null inputs. sum finalizes to the
// sum (null when nothing was summed), avg to sum / count.
template <typename Value>
class SumAccumulator final : public GroupedAccumulator {
 public:
  SumAccumulator(SumKind kind, bool average, std::shared_ptr<arrow::DataType> input_type,
                 std::shared_ptr<arrow::DataType> result_type, arrow::MemoryPool* pool)
      : kind_(kind),
        average_(average),
        input_type_(std::move(input_type)),
        result_type_(std::move(result_type)),
        pool_(pool) {}

  arrow::Status Resize(int64_t num_groups) override {
    sums_.resize(num_groups, Value{});
    counts_.resize(num_groups, 0);
    overflowed_.resize(num_groups, 0);
    return arrow::Status::OK();
  }

  arrow::Status Update(const GroupId* group_ids, int64_t num_rows,
                       const std::vector<arrow::Datum>& args,
                       const EvalContext& context) override {
    ARROW_ASSIGN_OR_RAISE(auto array, ArgumentArray(args[0], num_rows, pool_));
    return Fold(group_ids, num_rows, *array->data(), nullptr, context);
  }

  arrow::Status Merge(const GroupId* group_ids, int64_t num_rows,
                      const arrow::ArrayVector& states, const EvalContext& context) override {
    const auto& counts = static_cast<const arrow::Int64Array&>(*states[1]);
    return Fold(group_ids, num_rows, *states[0]->data(), &counts, context);
  }

  arrow::Result<arrow::ArrayVector> State() const override {
    ARROW_ASSIGN_OR_RAISE(auto sums, BuildSums(input_type_));
    arrow::Int64Builder counts(pool_);
    ARROW_RETURN_NOT_OK(counts.AppendValues(counts_));
    ARROW_ASSIGN_OR_RAISE(auto count_array, counts.Finish());
    return arrow::ArrayVector{sums, count_array};
  }

  arrow::Result<std::shared_ptr<arrow::Array>> Finalize(const EvalContext& context) override {
    if (!average_) {
      if constexpr (std::is_same_v<Value, Int128>) {
        if (kind_ == SumKind::kDecimal) {
          const int precision =
              static_cast<const arrow::Decimal128Type&>(*result_type_).precision();
          const Int128 limit = PowerOfTen(precision);
          for (size_t g = 0; g < sums_.size(); ++g) {
            if (counts_[g] > 0 && (overflowed_[g] || sums_[g] >= limit || sums_[g] <= -limit)) {
              if (AnsiEnabled(context)) return DecimalSumOverflow();
              counts_[g] = 0;
            }
          }
        }
      }
      return BuildSums(result_type_);
    }
    if constexpr (std::is_same_v<Value, double>) {
      arrow::DoubleBuilder builder(pool_);
      ARROW_RETURN_NOT_OK(builder.Reserve(sums_.size()));
      for (size_t g = 0; g < sums_.size(); ++g) {
        if (counts_[g] == 0) {
          builder.UnsafeAppendNull();
        } else {
          builder.UnsafeAppend(sums_[g] / static_cast<double>(counts_[g]));
        }
      }
      return builder.Finish();
    } else if constexpr (std::is_same_v<Value, Int128>) {
      return DecimalAverage(context);
    } else {
      return IntervalAverage();
    }
  }

 private:
  arrow::Status Fold(const GroupId* group_ids, int64_t num_rows, const arrow::ArrayData& data,
                     const arrow::Int64Array* counts, const EvalContext& context) {
    if (data.type->id() == arrow::Type::NA) return arrow::Status::OK();
    const uint8_t* validity = data.GetNullCount() != 0 ? data.buffers[0]->data() : nullptr;
    const bool ansi = AnsiEnabled(context);
    for (int64_t i = 0; i < num_rows; ++i) {
      if (validity && !arrow::bit_util::GetBit(validity, data.offset + i)) continue;
      const GroupId g = group_ids[i];
      counts_[g] += counts ? counts->Value(i) : 1;
      if constexpr (std::is_same_v<Value, int64_t>) {
        const int64_t v = data.GetValues<int64_t>(1)[i];
        if (__builtin_add_overflow(sums_[g], v, &sums_[g])) {
          if (ansi || kind_ == SumKind::kInterval) return LongOverflow();
        }
      } else if constexpr (std::is_same_v<Value, double>) {
        sums_[g] += data.GetValues<double>(1)[i];
      } else {
        const auto* words = data.GetValues<uint64_t>(1, 0) + 2 * (data.offset + i);
        const Int128 v = (static_cast<Int128>(static_cast<int64_t>(words[1])) << 64) |
                         static_cast<Int128>(words[0]);
        overflowed_[g] |= __builtin_add_overflow(sums_[g], v, &sums_[g]);
      }
    }
    return arrow::Status::OK();
  }

  arrow::Result<std::shared_ptr<arrow::Array>> BuildSums(
      const std::shared_ptr<arrow::DataType>& type) const {
    const int64_t n = static_cast<int64_t>(sums_.size());
    if constexpr (std::is_same_v<Value, int64_t>) {
      arrow::Int64Builder builder(pool_);
      ARROW_RETURN_NOT_OK(builder.Reserve(n));
      for (int64_t g = 0; g < n; ++g) {
        if (counts_[g] == 0) builder.UnsafeAppendNull(); else builder.UnsafeAppend(sums_[g]);
      }
      ARROW_ASSIGN_OR_RAISE(auto sums, builder.Finish());
      // An interval's microseconds, typed as the interval.
      if (kind_ == SumKind::kInterval) return sums->View(type);
      return sums;
    } else if constexpr (std::is_same_v<Value, double>) {
      arrow::DoubleBuilder builder(pool_);
      ARROW_RETURN_NOT_OK(builder.Reserve(n));
      for (int64_t g = 0; g < n; ++g) {
        if (counts_[g] == 0) builder.UnsafeAppendNull(); else builder.UnsafeAppend(sums_[g]);
      }
      return builder.Finish();
    } else {
      arrow::Decimal128Builder builder(type, pool_);
      ARROW_RETURN_NOT_OK(builder.Reserve(n));
      for (int64_t g = 0; g < n; ++g) {
        if (counts_[g] == 0) {
          builder.UnsafeAppendNull();
        } else {
          builder.UnsafeAppend(ToDecimal128(sums_[g]));
        }
      }
      return builder.Finish();
    }
  }

  // Spark's decimal average: sum / count computed at the scale of Spark's decimal division
  // (rounded half up), then rounded half up again to the result scale.
  arrow::Result<std::shared_ptr<arrow::Array>> DecimalAverage(const EvalContext& context) {
    const auto& input = static_cast<const arrow::Decimal128Type&>(*input_type_);
    const auto& result = static_cast<const arrow::Decimal128Type&>(*result_type_);
    const int32_t sum_precision = std::min(38, input.precision() + 10);
    const int32_t s = input.scale();
    // Spark divides decimal(p + 10, s) by the count as decimal(20, 0).
    const int32_t divide_scale =
        static_cast<const arrow::Decimal128Type&>(*BoundedDecimal(sum_precision + 21, s + 21))
            .scale();
    arrow::Decimal128Builder builder(result_type_, pool_);
    ARROW_RETURN_NOT_OK(builder.Reserve(sums_.size()));
    for (size_t g = 0; g < sums_.size(); ++g) {
      if (counts_[g] == 0) {
        builder.UnsafeAppendNull();
        continue;
      }
      arrow::Decimal256 numerator(arrow::BasicDecimal256(ToDecimal128(sums_[g])));
      numerator *= arrow::Decimal256::GetScaleMultiplier(divide_scale - s);
      ARROW_ASSIGN_OR_RAISE(auto quotient, RoundedDivide(numerator, arrow::Decimal256(counts_[g])));
      if (result.scale() < divide_scale) {
        ARROW_ASSIGN_OR_RAISE(
            quotient, RoundedDivide(quotient, arrow::Decimal256(arrow::Decimal256::GetScaleMultiplier(
                                                  divide_scale - result.scale()))));
      } else if (result.scale() > divide_scale) {
        quotient *= arrow::Decimal256::GetScaleMultiplier(result.scale() - divide_scale);
      }
      if (!quotient.FitsInPrecision(result.precision())) {
        if (AnsiEnabled(context)) return DecimalSumOverflow();
        builder.UnsafeAppendNull();
        continue;
      }
      const auto& words = quotient.little_endian_array();
      builder.UnsafeAppend(
          arrow::Decimal128(static_cast<int64_t>(words[1]), static_cast<uint64_t>(words[0])));
    }
    return builder.Finish();
  }

  // The average of day-time intervals: the sum divided by the count, rounded half up, as
  // Spark's DivideDTInterval.
  arrow::Result<std::shared_ptr<arrow::Array>> IntervalAverage() const {
    arrow::Int64Builder builder(pool_);
    ARROW_RETURN_NOT_OK(builder.Reserve(sums_.size()));
    for (size_t g = 0; g < sums_.size(); ++g) {
      if (counts_[g] == 0) {
        builder.UnsafeAppendNull();
        continue;
      }
      const __int128 sum = static_cast<__int128>(sums_[g]);
      const __int128 count = counts_[g];
      __int128 quotient = sum / count;
      const __int128 remainder = sum % count;
      if (2 * (remainder < 0 ? -remainder : remainder) >= count) quotient += sum < 0 ? -1 : 1;
      builder.UnsafeAppend(static_cast<int64_t>(quotient));
    }
    ARROW_ASSIGN_OR_RAISE(auto averages, builder.Finish());
    return averages->View(result_type_);
  }

  static arrow::Result<arrow::Decimal256> RoundedDivide(const arrow::Decimal256& numerator,
                                                        const arrow::Decimal256& divisor) {
    ARROW_ASSIGN_OR_RAISE(auto parts, numerator.Divide(divisor));
    arrow::Decimal256 remainder = parts.second;
    remainder.Abs();
    arrow::Decimal256 twice = remainder + remainder;
    arrow::Decimal256 magnitude = divisor;
    magnitude.Abs();
    if (twice >= magnitude) {
      parts.first += numerator.IsNegative() ? arrow::Decimal256(-1) : arrow::Decimal256(1);
    }
    return parts.first;
  }

  SumKind kind_;
  bool average_;
  std::shared_ptr<arrow::DataType> input_type_;
  std::shared_ptr<arrow::DataType> result_type_;
  arrow::MemoryPool* pool_;
  std::vector<Value> sums_;
  std::vector<int64_t> counts_;
  std::vector<uint8_t> overflowed_;
};

bool IsIntegral(arrow::Type::type id) {
  return id == arrow::Type::INT8 || id == arrow::Type::INT16 || id == arrow::Type::INT32 ||
         id == arrow::Type::INT64;
}

arrow::Result<std::shared_ptr<AggregateFunction>> ResolveSum(CallSite call, bool distinct,
                                                             bool average) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  // Named as called: mean(x) is Spark's `mean(x)`, though it is avg.
  const std::string name = call.name;
  auto arg = call.args[0];
  const auto id = arg->type()->id();
  SumKind kind;
  std::shared_ptr<arrow::DataType> input_type, result_type;
  if (types::IsDayTimeInterval(*arg->type())) {
    kind = SumKind::kInterval;
    input_type = arg->type();
    result_type = average ? types::DayTimeInterval() : input_type;
  } else if (IsIntegral(id) && !average) {
    kind = SumKind::kLong;
    input_type = result_type = arrow::int64();
  } else if (id == arrow::Type::DECIMAL128) {
    kind = SumKind::kDecimal;
    input_type = arg->type();
    const auto& decimal = static_cast<const arrow::Decimal128Type&>(*input_type);
    result_type = average ? arrow::decimal128(std::min(38, decimal.precision() + 4),
                                              std::min(38, decimal.scale() + 4))
                          : arrow::decimal128(std::min(38, decimal.precision() + 10),
                                              decimal.scale());
  } else if (IsIntegral(id) || id == arrow::Type::FLOAT || id == arrow::Type::DOUBLE ||
             id == arrow::Type::STRING || id == arrow::Type::NA) {
    kind = SumKind::kDouble;
    input_type = result_type = arrow::float64();
  } else {
    return UnexpectedInputType(call, 0, "(\"NUMERIC\" or \"ANSI INTERVAL\")");
  }
  ARROW_ASSIGN_OR_RAISE(auto cast,
                        MakeCast(arg, input_type, CastKind::kImplicit, *call.config));
  arrow::FieldVector state{arrow::field("sum", input_type),
                           arrow::field("count", arrow::int64(), false)};
  AccumulatorFactory factory = [=](arrow::MemoryPool* pool)
      -> arrow::Result<std::unique_ptr<GroupedAccumulator>> {
    switch (kind) {
      case SumKind::kLong:
      case SumKind::kInterval:
        return std::make_unique<SumAccumulator<int64_t>>(kind, average, input_type, result_type,
                                                         pool);
      case SumKind::kDouble:
        return std::make_unique<SumAccumulator<double>>(kind, average, input_type, result_type,
                                                        pool);
      case SumKind::kDecimal:
        break;
    }
    return std::make_unique<SumAccumulator<Int128>>(kind, average, input_type, result_type,
                                                    pool);
  };
  // The call keeps the argument as written (sum(a), not sum(CAST(a AS BIGINT))).
  auto function = MakeAggregateFunction(name, {std::move(cast)}, result_type, true, distinct,
                                        std::move(state), std::move(factory));
  (void)arg;
  return function;
}

}  // namespace

void RegisterSumFunctions(FunctionRegistry& registry) {
  registry.RegisterAggregate("sum", [](CallSite call, bool distinct) {
    return ResolveSum(std::move(call), distinct, false);
  });
  for (const char* name : {"avg", "mean"}) {
    registry.RegisterAggregate(name, [](CallSite call, bool distinct) {
      return ResolveSum(std::move(call), distinct, true);
    });
  }
}

}  // namespace sluice::expr::aggregates
