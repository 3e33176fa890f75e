#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "sluice/common/session_config.h"
#include "sluice/expr/eval_context.h"
#include "sluice/execution/query_manager.h"
#include "sluice/expr/function_registry.h"
#include "sluice/plan/analysis_context.h"
#include "sluice/plan/logical_plan.h"

namespace sluice {

namespace server {
class WebUi;
}  // namespace server

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

  /// Registers the temporary view `name` (case-insensitive, as Spark's session catalog keeps
  /// names), replacing one of the same name. A view is a resolved plan, read anew by every
  /// query that names it (a memory sink's table is a Relation over it).
  void RegisterTempView(const std::string& name, plan::PlanPtr view) {
    std::lock_guard<std::mutex> lock(views_mutex);
    temp_views[ViewKey(name)] = std::move(view);
  }
  /// The view `name`, or null.
  plan::PlanPtr FindTempView(const std::string& name) const {
    std::lock_guard<std::mutex> lock(views_mutex);
    auto it = temp_views.find(ViewKey(name));
    return it == temp_views.end() ? nullptr : it->second;
  }
  /// Removes the view `name`; false when there was none.
  bool DropTempView(const std::string& name) {
    std::lock_guard<std::mutex> lock(views_mutex);
    return temp_views.erase(ViewKey(name)) > 0;
  }
  /// The names of the temporary views, sorted.
  std::vector<std::string> TempViewNames() const {
    std::lock_guard<std::mutex> lock(views_mutex);
    std::vector<std::string> names;
    for (const auto& [name, view] : temp_views) names.push_back(name);
    return names;
  }

  /// Tables made with CREATE TABLE ... LOCATION: their folders, by TableIdentifier::Key().
  /// Kept for the session, as Spark's in-memory catalog keeps them; dropping one leaves its
  /// files where they are.
  void RegisterTableLocation(const std::string& key, std::string path) {
    std::lock_guard<std::mutex> lock(views_mutex);
    table_locations[key] = std::move(path);
  }
  std::optional<std::string> TableLocation(const std::string& key) const {
    std::lock_guard<std::mutex> lock(views_mutex);
    auto it = table_locations.find(key);
    if (it == table_locations.end()) return std::nullopt;
    return it->second;
  }
  bool DropTableLocation(const std::string& key) {
    std::lock_guard<std::mutex> lock(views_mutex);
    return table_locations.erase(key) > 0;
  }
  /// The keys of the tables with a location.
  std::vector<std::string> TableLocationKeys() const {
    std::lock_guard<std::mutex> lock(views_mutex);
    std::vector<std::string> keys;
    for (const auto& [key, path] : table_locations) keys.push_back(key);
    return keys;
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
  static std::string ViewKey(const std::string& name) {
    std::string key = name;
    for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return key;
  }

  mutable std::mutex views_mutex;  // guards the views and the table locations
  std::map<std::string, plan::PlanPtr> temp_views;
  std::map<std::string, std::string> table_locations;

 public:
  /// The web UI, when spark.ui.enabled started one with the session. Declared last so that it
  /// stops, and leaves the query manager, before the rest of the state goes.
  std::shared_ptr<server::WebUi> web_ui;
};

}  // namespace sluice
