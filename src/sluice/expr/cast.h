#pragma once

#include <memory>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/common/session_config.h"
#include "sluice/expr/bound_expression.h"

namespace sluice::expr {

/// How a cast came to be: written by the user (`CAST(a AS INT)`, named as such), inserted by type
/// coercion (named as its child), `try_cast` (null instead of an error), or show()'s rendering
/// of values as strings (Spark's ToPrettyString, named as its child: binary as hex bytes
/// "[68 65]", nulls inside nested values as NULL; to string only).
enum class CastKind { kExplicit, kImplicit, kTry, kPretty };

/// Whether Spark allows casting `from` to `to` at all (under ANSI rules); a disallowed cast is an
/// analysis error, an allowed one may still fail on a value at run time.
bool CanCast(const arrow::DataType& from, const arrow::DataType& to);

/// Builds CAST(child AS target) with Spark's semantics in the session's time zone and ANSI mode:
/// a value that does not convert fails with CAST_INVALID_INPUT or CAST_OVERFLOW (ANSI, explicit
/// and implicit casts) or becomes null (try_cast, or ANSI off). Returns `child` itself when it
/// already has the target type. A disallowed cast is DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION.
arrow::Result<BoundExprPtr> MakeCast(BoundExprPtr child, std::shared_ptr<arrow::DataType> target,
                                     CastKind kind, const SessionConfig& config);

}  // namespace sluice::expr
