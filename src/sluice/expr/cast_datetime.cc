// CAST between dates, timestamps and timestamp_ntz (through the session time zone), and between
// numbers and timestamps (seconds since the epoch).
#include <cmath>
#include <limits>

#include "sluice/datetime/calendar.h"
#include "sluice/expr/cast_internal.h"

namespace sluice::expr::cast_internal {

namespace {

using Type = arrow::Type;
using datetime::FloorDiv;
using datetime::kMicrosPerDay;
using datetime::kMicrosPerSecond;
using datetime::kSecondsPerDay;

bool IsLtz(const arrow::DataType& type) {
  return type.id() == Type::TIMESTAMP &&
         !static_cast<const arrow::TimestampType&>(type).timezone().empty();
}

// Applies `fn(value, &out) -> bool` (false: the value does not convert) over a fixed-width input.
template <typename InC, typename OutC, typename Fn, typename OnError>
arrow::Result<std::shared_ptr<arrow::Array>> MapValues(
    const arrow::Array& input, const std::shared_ptr<arrow::DataType>& target,
    const CastSettings& settings, Fn fn, OnError on_error) {
  const InC* values = input.data()->GetValues<InC>(1);
  FixedWidthOutput<OutC> output;
  ARROW_RETURN_NOT_OK(output.Allocate(input.length(), settings.pool));
  for (int64_t i = 0; i < input.length(); ++i) {
    if (input.IsNull(i)) {
      output.SetNull(i);
      continue;
    }
    if (!fn(values[i], &output.data[i])) {
      if (settings.fail_on_error) return on_error(i);
      output.SetNull(i);
    }
  }
  return output.Finish(target);
}

// Seconds times 1e6, saturating as Java's TimeUnit.SECONDS.toMicros does.
int64_t SecondsToMicros(int64_t seconds) {
  if (seconds > std::numeric_limits<int64_t>::max() / kMicrosPerSecond) {
    return std::numeric_limits<int64_t>::max();
  }
  if (seconds < std::numeric_limits<int64_t>::min() / kMicrosPerSecond) {
    return std::numeric_limits<int64_t>::min();
  }
  return seconds * kMicrosPerSecond;
}

arrow::Result<std::shared_ptr<arrow::Array>> NumberToTimestamp(
    const arrow::Array& input, const std::shared_ptr<arrow::DataType>& target,
    const CastSettings& settings) {
  auto no_error = [](int64_t) { return arrow::Status::OK(); };
  switch (input.type_id()) {
    case Type::INT8:
    case Type::INT16:
    case Type::INT32:
    case Type::INT64: {
      ARROW_ASSIGN_OR_RAISE(auto wide, CastNumeric(input, arrow::int64(), settings));
      return MapValues<int64_t, int64_t>(
          *wide, target, settings,
          [](int64_t seconds, int64_t* out) {
            *out = SecondsToMicros(seconds);
            return true;
          },
          no_error);
    }
    case Type::FLOAT:
    case Type::DOUBLE: {
      ARROW_ASSIGN_OR_RAISE(auto wide, CastNumeric(input, arrow::float64(), settings));
      const double* values = wide->data()->GetValues<double>(1);
      return MapValues<double, int64_t>(
          *wide, target, settings,
          [](double seconds, int64_t* out) {
            if (!std::isfinite(seconds)) return false;
            const double micros = seconds * static_cast<double>(kMicrosPerSecond);
            if (!(std::floor(micros) <= 9223372036854775807.0 &&
                  std::ceil(micros) >= -9223372036854775808.0)) {
              return false;
            }
            *out = micros >= 9223372036854775807.0 ? std::numeric_limits<int64_t>::max()
                                                   : static_cast<int64_t>(micros);
            return true;
          },
          [&](int64_t i) -> arrow::Status {
            const double seconds = values[i];
            if (!std::isfinite(seconds)) {
              return InvalidInput(ValueSql(*wide, i, settings), *input.type(), *target);
            }
            auto product = arrow::MakeArrayFromScalar(
                arrow::DoubleScalar(seconds * static_cast<double>(kMicrosPerSecond)), 1);
            return Overflow(product.ok() ? ValueSql(**product, 0, settings) : "?",
                            *arrow::float64(), *arrow::int64());
          });
    }
    case Type::DECIMAL128: {
      const int32_t scale = static_cast<const arrow::DecimalType&>(*input.type()).scale();
      return MapValues<arrow::Decimal128, int64_t>(
          input, target, settings,
          [scale](const arrow::Decimal128& value, int64_t* out) {
            // value * 1e6, truncated toward zero.
            arrow::Decimal128 micros = value;
            if (scale > 6) {
              arrow::Decimal128 remainder;
              if (!DivideDecimal(value, arrow::Decimal128::GetScaleMultiplier(scale - 6), &micros,
                                 &remainder)) {
                return false;
              }
            } else if (scale < 6) {
              micros = value * arrow::Decimal128::GetScaleMultiplier(6 - scale);
            }
            if (micros > arrow::Decimal128(std::numeric_limits<int64_t>::max()) ||
                micros < arrow::Decimal128(std::numeric_limits<int64_t>::min())) {
              return false;
            }
            *out = static_cast<int64_t>(micros.low_bits());
            return true;
          },
          [&](int64_t i) {
            return Overflow(ValueSql(input, i, settings), *input.type(), *arrow::int64());
          });
    }
    case Type::BOOL: {
      ARROW_ASSIGN_OR_RAISE(auto wide, CastNumeric(input, arrow::int64(), settings));
      return NumberToTimestamp(*wide, target, settings);
    }
    default:
      return MissingCastKernel(*input.type(), *target);
  }
}

arrow::Result<std::shared_ptr<arrow::Array>> TimestampToNumber(
    const arrow::Array& input, const std::shared_ptr<arrow::DataType>& target,
    const CastSettings& settings) {
  auto no_error = [](int64_t) { return arrow::Status::OK(); };
  if (arrow::is_floating(target->id()) || target->id() == Type::DECIMAL128) {
    ARROW_ASSIGN_OR_RAISE(
        auto seconds,
        (MapValues<int64_t, double>(
            input, arrow::float64(), settings,
            [](int64_t micros, double* out) {
              *out = static_cast<double>(micros) / static_cast<double>(kMicrosPerSecond);
              return true;
            },
            no_error)));
    if (target->id() == Type::DOUBLE) return seconds;
    return CastNumeric(*seconds, target, settings);
  }
  ARROW_ASSIGN_OR_RAISE(auto seconds,
                        (MapValues<int64_t, int64_t>(
                            input, arrow::int64(), settings,
                            [](int64_t micros, int64_t* out) {
                              *out = FloorDiv(micros, kMicrosPerSecond);
                              return true;
                            },
                            no_error)));
  if (target->id() == Type::INT64) return seconds;
  if (target->id() == Type::BOOL) return CastNumeric(*seconds, target, settings);
  // Narrowing reports the timestamp itself when it overflows.
  CastSettings checked = settings;
  checked.fail_on_error = false;
  ARROW_ASSIGN_OR_RAISE(auto narrowed, CastNumeric(*seconds, target, checked));
  if (settings.fail_on_error && narrowed->null_count() != input.null_count()) {
    for (int64_t i = 0; i < input.length(); ++i) {
      if (narrowed->IsNull(i) && !input.IsNull(i)) {
        return Overflow(ValueSql(input, i, settings), *input.type(), *target);
      }
    }
  }
  return narrowed;
}

}  // namespace

arrow::Result<std::shared_ptr<arrow::Array>> CastDatetime(
    const arrow::Array& input, const std::shared_ptr<arrow::DataType>& target,
    const CastSettings& settings) {
  const auto& from = *input.type();
  const datetime::TimeZone& zone = *settings.zone;
  auto no_error = [](int64_t) { return arrow::Status::OK(); };
  if (from.id() == Type::DATE32) {
    if (target->id() == Type::TIMESTAMP) {
      if (!IsLtz(*target)) {
        return MapValues<int32_t, int64_t>(
            input, target, settings,
            [](int32_t days, int64_t* out) {
              *out = int64_t{days} * kMicrosPerDay;
              return true;
            },
            no_error);
      }
      return MapValues<int32_t, int64_t>(
          input, target, settings,
          [&zone](int32_t days, int64_t* out) {
            *out = zone.LocalToUtc(int64_t{days} * kSecondsPerDay) * kMicrosPerSecond;
            return true;
          },
          no_error);
    }
    if (target->id() == Type::BOOL || arrow::is_integer(target->id()) ||
        arrow::is_floating(target->id()) || target->id() == Type::DECIMAL128) {
      // Legacy (ANSI off): always null.
      return arrow::MakeArrayOfNull(target, input.length(), settings.pool);
    }
  }
  if (from.id() == Type::TIMESTAMP) {
    const bool ltz = IsLtz(from);
    if (target->id() == Type::DATE32) {
      if (!ltz) {
        return MapValues<int64_t, int32_t>(
            input, target, settings,
            [](int64_t micros, int32_t* out) {
              *out = static_cast<int32_t>(FloorDiv(micros, kMicrosPerDay));
              return true;
            },
            no_error);
      }
      datetime::ZoneOffsetCursor cursor(zone);
      return MapValues<int64_t, int32_t>(
          input, target, settings,
          [&cursor](int64_t micros, int32_t* out) {
            const int64_t local = micros + int64_t{cursor.OffsetAtMicros(micros)} * kMicrosPerSecond;
            *out = static_cast<int32_t>(FloorDiv(local, kMicrosPerDay));
            return true;
          },
          no_error);
    }
    if (target->id() == Type::TIMESTAMP) {
      if (ltz) {
        datetime::ZoneOffsetCursor cursor(zone);
        return MapValues<int64_t, int64_t>(
            input, target, settings,
            [&cursor](int64_t micros, int64_t* out) {
              *out = micros + int64_t{cursor.OffsetAtMicros(micros)} * kMicrosPerSecond;
              return true;
            },
            no_error);
      }
      return MapValues<int64_t, int64_t>(
          input, target, settings,
          [&zone](int64_t local, int64_t* out) {
            const int64_t seconds = FloorDiv(local, kMicrosPerSecond);
            *out = zone.LocalToUtc(seconds) * kMicrosPerSecond + (local - seconds * kMicrosPerSecond);
            return true;
          },
          no_error);
    }
    if (ltz) return TimestampToNumber(input, target, settings);
    if (target->id() == Type::BOOL) {
      ARROW_ASSIGN_OR_RAISE(auto as_long, TimestampToNumber(input, arrow::int64(), settings));
      return CastNumeric(*as_long, target, settings);
    }
  }
  if (target->id() == Type::TIMESTAMP) return NumberToTimestamp(input, target, settings);
  if (target->id() == Type::DATE32) {
    // Legacy (ANSI off) numbers to dates: null.
    return arrow::MakeArrayOfNull(target, input.length(), settings.pool);
  }
  return MissingCastKernel(from, *target);
}

}  // namespace sluice::expr::cast_internal
