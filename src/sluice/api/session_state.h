#pragma once

#include <cstdint>

#include "sluice/common/session_config.h"
#include "sluice/expr/eval_context.h"
#include "sluice/expr/function_registry.h"
#include "sluice/plan/analysis_context.h"

namespace sluice {

/// What a session shares with the DataFrames made from it: settings, functions and attribute
/// ids. DataFrames hold it by shared_ptr, so they stay usable after the session object is gone.
/// Settings are not synchronized: set them before running queries from several threads.
struct SessionState {
  SessionConfig config;
  const expr::FunctionRegistry* registry = &expr::FunctionRegistry::Builtins();
  plan::AttributeIdGenerator ids;

  plan::AnalysisContext analysis_context() {
    return plan::AnalysisContext{&config, registry, &ids};
  }
  /// The evaluation context of a batch query started now: current_timestamp() is this instant.
  expr::EvalContext eval_context(int64_t batch_timestamp_us) const {
    expr::EvalContext context;
    context.config = &config;
    context.batch_timestamp_us = batch_timestamp_us;
    return context;
  }
};

}  // namespace sluice
