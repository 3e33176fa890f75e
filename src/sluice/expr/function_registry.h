#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/result.h>

#include "sluice/common/session_config.h"
#include "sluice/expr/bound_expression.h"

namespace sluice::expr {

class AggregateFunction;

/// How a resolved scalar function runs: its arguments after implicit casts, result type, and
/// kernel.
struct ResolvedCall {
  std::vector<BoundExprPtr> args;
  std::shared_ptr<arrow::DataType> return_type;
  /// False only when the function never returns null for non-null inputs and its inputs are
  /// not nullable; the resolver decides.
  bool nullable = true;
  /// True when the kernel can fail for some input rows (ANSI errors).
  bool can_fail = false;
  /// True when the kernel costs far more per row than a hash lookup (BoundCall).
  bool costly_per_value = false;
  Kernel kernel;
  /// Spark's name for the call when it differs from the generic `name(arg, ...)` form (e.g.
  /// `d + 1` on a date is named `date_add(d, 1)`); empty for the generic form.
  std::string sql;
};

/// What a resolver sees: the call's name as written (lower case), its bound arguments (types
/// known, literals inspectable, e.g. a constant regex or format) and the session settings.
struct CallSite {
  std::string name;
  std::vector<BoundExprPtr> args;
  const SessionConfig* config = nullptr;
};

/// Checks a call's argument types, inserts implicit casts, and builds the kernel; a wrong call
/// returns Spark's DATATYPE_MISMATCH / WRONG_NUM_ARGS error naming the function and argument.
using ScalarResolver = std::function<arrow::Result<ResolvedCall>(CallSite call)>;

/// Resolves an aggregate call (`sum(a)`, `count(DISTINCT a)`) to its function object.
using AggregateResolver = std::function<arrow::Result<std::shared_ptr<AggregateFunction>>(
    CallSite call, bool distinct)>;

/// Spark's built-in functions by name (case-insensitive). Filled once at start-up by
/// RegisterBuiltinFunctions and read-only afterwards, so lookups are thread-safe.
class FunctionRegistry {
 public:
  /// The registry with every built-in function.
  static const FunctionRegistry& Builtins();

  void RegisterScalar(std::string name, ScalarResolver resolver);
  void RegisterAggregate(std::string name, AggregateResolver resolver);

  /// The resolver for `name`, or nullptr.
  const ScalarResolver* FindScalar(std::string_view name) const;
  const AggregateResolver* FindAggregate(std::string_view name) const;

  /// The names of all functions, sorted; used for suggestions in errors.
  std::vector<std::string> Names() const;

 private:
  std::map<std::string, ScalarResolver, std::less<>> scalars_;
  std::map<std::string, AggregateResolver, std::less<>> aggregates_;
};

/// Adds every built-in function; each area of functions registers itself from its own file.
void RegisterBuiltinFunctions(FunctionRegistry& registry);

}  // namespace sluice::expr
