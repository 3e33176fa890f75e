#pragma once

#include <atomic>
#include <cstdint>

#include "sluice/common/session_config.h"
#include "sluice/expr/function_registry.h"

namespace sluice::plan {

/// Hands out attribute ids unique within a session. Thread-safe.
class AttributeIdGenerator {
 public:
  int64_t Next() { return next_.fetch_add(1, std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> next_{1};
};

/// What the analyzer needs to resolve a plan node: the session's settings and functions, and the
/// source of fresh attribute ids. All pointers outlive the analysis.
struct AnalysisContext {
  const SessionConfig* config = nullptr;
  const expr::FunctionRegistry* registry = nullptr;
  AttributeIdGenerator* ids = nullptr;
};

}  // namespace sluice::plan
