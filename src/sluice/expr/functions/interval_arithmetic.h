// Arithmetic with Spark's ANSI intervals (types/interval_types.h), resolved before numeric
// arithmetic takes a call:
//
//   interval +/- interval (same family)      -> interval spanning both types' fields
//   timestamp +/- interval, date +/- interval -> timestamp or date (months added on the calendar
//                                               of the session time zone, days and time as is)
//   timestamp - timestamp, date - date        -> interval day to second, interval day
//   interval * number, number * interval, interval / number -> interval (rounded half up)
//   - interval
#pragma once

#include <optional>

#include <arrow/result.h>

#include "sluice/expr/function_registry.h"

namespace sluice::expr {

enum class IntervalOperator { kAdd, kSubtract, kMultiply, kDivide };

/// The call `op` over `call.args` (two arguments) when one is an interval, or a date or
/// timestamp subtracted from another; nullopt otherwise.
std::optional<arrow::Result<ResolvedCall>> ResolveIntervalArithmetic(IntervalOperator op,
                                                                     const CallSite& call);

/// Negation of an interval argument; nullopt for other types.
std::optional<arrow::Result<ResolvedCall>> ResolveIntervalNegation(const CallSite& call);

}  // namespace sluice::expr
