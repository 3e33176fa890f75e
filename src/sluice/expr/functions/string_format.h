#pragma once

// format_string/printf: Java's java.util.Formatter over Spark values, as Spark's FormatString
// evaluates it (%s %d %f %e %g %x %o %c %b %% %n with flags, width, precision and argument
// indexes; a null argument prints "null").

#include <arrow/result.h>

#include "sluice/expr/function_registry.h"

namespace sluice::expr {

/// Resolver of format_string(format, args...) and printf.
arrow::Result<ResolvedCall> ResolveFormatString(CallSite call);

/// Java's Double.toString(value): "1.0E10", "0.1", "1.0E-5", "NaN", "-Infinity".
std::string JavaDoubleToString(double value);

/// Java's Float.toString(value).
std::string JavaFloatToString(float value);

}  // namespace sluice::expr
