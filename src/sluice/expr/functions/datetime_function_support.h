// What the date and time function files share: argument conversions, the session zone,
// typed element-wise loops over dates and timestamps.
#pragma once

#include <cmath>
#include <limits>
#include <optional>

#include <arrow/array/builder_binary.h>
#include <arrow/array/util.h>
#include <arrow/scalar.h>
#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/datetime/calendar.h"
#include "sluice/datetime/parse.h"
#include "sluice/datetime/pattern.h"
#include "sluice/datetime/zone.h"
#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/cast_internal.h"
#include "sluice/expr/elementwise.h"
#include "sluice/expr/function_registry.h"
#include "sluice/expr/functions/function_areas.h"
#include "sluice/expr/functions/string_columns.h"
#include "sluice/types/spark_types.h"


namespace sluice::expr::datetime_functions {


using namespace datetime;  // NOLINT: the calendar vocabulary of the date functions
using Type = arrow::Type;
using ZonePtr = std::shared_ptr<const TimeZone>;

constexpr std::string_view kDefaultPattern = "yyyy-MM-dd HH:mm:ss";

inline std::shared_ptr<arrow::DataType> Timestamp() { return types::TimestampLtzType(); }

inline bool IsLtz(const arrow::DataType& type) {
  return type.id() == Type::TIMESTAMP &&
         !static_cast<const arrow::TimestampType&>(type).timezone().empty();
}

inline arrow::Result<BoundExprPtr> ArgAs(const CallSite& call, size_t index,
                                  const std::shared_ptr<arrow::DataType>& type) {
  return MakeCast(call.args[index], type, CastKind::kImplicit, *call.config);
}

inline arrow::Result<ZonePtr> SessionZone(const CallSite& call) {
  return TimeZone::Find(call.config->session_time_zone());
}

// Requires argument `index` to be one of the types a date function takes (date, timestamps,
// string, null) and returns it cast to a date.
inline arrow::Result<BoundExprPtr> DateArg(const CallSite& call, size_t index) {
  const auto& type = *call.args[index]->type();
  if (type.id() != Type::DATE32 && type.id() != Type::TIMESTAMP && type.id() != Type::STRING &&
      type.id() != Type::NA) {
    return UnexpectedInputType(call, index, "\"DATE\"");
  }
  return ArgAs(call, index, arrow::date32());
}

// Argument `index` as a timestamp (ltz), from a date, string or timestamp_ntz.
inline arrow::Result<BoundExprPtr> TimestampArg(const CallSite& call, size_t index) {
  const auto& type = *call.args[index]->type();
  if (type.id() != Type::DATE32 && type.id() != Type::TIMESTAMP && type.id() != Type::STRING &&
      type.id() != Type::NA) {
    return UnexpectedInputType(call, index, "\"TIMESTAMP\"");
  }
  return ArgAs(call, index, Timestamp());
}

// Applies `fn(in, &out) -> bool` (false: null) to every non-null value of a fixed-width input.
template <typename InT, typename OutT, typename Fn>
arrow::Result<arrow::Datum> MapUnary(const arrow::Datum& input, int64_t num_rows,
                                     const std::shared_ptr<arrow::DataType>& out_type,
                                     arrow::MemoryPool* pool, Fn&& fn) {
  using OutC = typename arrow::TypeTraits<OutT>::CType;
  const bool scalar = input.is_scalar();
  const int64_t rows = scalar ? 1 : num_rows;
  NumericInput<InT> in(input);
  cast_internal::FixedWidthOutput<OutC> output;
  ARROW_RETURN_NOT_OK(output.Allocate(rows, pool));
  for (int64_t i = 0; i < rows; ++i) {
    if (!in.IsValid(i)) {
      output.SetNull(i);
      continue;
    }
    OutC value{};
    ARROW_ASSIGN_OR_RAISE(bool valid, fn(in.Value(i), &value));
    if (valid) {
      output.data[i] = value;
    } else {
      output.SetNull(i);
    }
  }
  auto array = output.Finish(out_type);
  if (scalar) {
    ARROW_ASSIGN_OR_RAISE(auto value, array->GetScalar(0));
    return arrow::Datum(std::move(value));
  }
  return arrow::Datum(std::move(array));
}

inline arrow::Status RequireStringPattern(const CallSite& call, size_t index) {
  const auto id = call.args[index]->type()->id();
  if (id != Type::STRING && id != Type::NA) return UnexpectedInputType(call, index, "\"STRING\"");
  return arrow::Status::OK();
}

/// Registers date truncation, date arithmetic, epoch conversions and the current time.
void RegisterDatetimeArithmeticFunctions(FunctionRegistry& registry);

}  // namespace sluice::expr::datetime_functions
