#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "sluice/common/session_config.h"
#include "sluice/expr/eval_context.h"
#include "sluice/execution/query_manager.h"
#include "sluice/expr/function_registry.h"
#include "sluice/plan/analysis_context.h"
#include "sluice/plan/data_source.h"

namespace sluice {

/// What a session shares with the DataFrames made from it: settings, functions and attribute
/// ids. DataFrames hold it by shared_ptr, so they stay usable after the session object is gone.
/// Settings are not synchronized: set them before running queries from several threads.
struct SessionState {
  SessionConfig config;
  const expr::FunctionRegistry* registry = &expr::FunctionRegistry::Builtins();
  plan::AttributeIdGenerator ids;
  /// The session's streaming queries and listeners (spark.streams).
  std::shared_ptr<execution::StreamingQueryManager> streams =
      std::make_shared<execution::StreamingQueryManager>();

  /// Registers a temporary view (a memory sink's table), replacing one of the same name.
  void RegisterTempView(const std::string& name, std::shared_ptr<const plan::DataSource> view) {
    std::lock_guard<std::mutex> lock(views_mutex);
    temp_views[name] = std::move(view);
  }
  std::shared_ptr<const plan::DataSource> FindTempView(const std::string& name) const {
    std::lock_guard<std::mutex> lock(views_mutex);
    auto it = temp_views.find(name);
    return it == temp_views.end() ? nullptr : it->second;
  }

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

 private:
  mutable std::mutex views_mutex;
  std::map<std::string, std::shared_ptr<const plan::DataSource>> temp_views;
};

}  // namespace sluice
