#include "sluice/expr/function_registry.h"

#include <algorithm>
#include <cctype>

namespace sluice::expr {

namespace {
std::string Lower(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return lower;
}
}  // namespace

const FunctionRegistry& FunctionRegistry::Builtins() {
  // Built once, thread-safely, on first use; immutable afterwards.
  static const FunctionRegistry* registry = [] {
    auto* built = new FunctionRegistry();
    RegisterBuiltinFunctions(*built);
    return built;
  }();
  return *registry;
}

void FunctionRegistry::RegisterScalar(std::string name, ScalarResolver resolver) {
  scalars_[Lower(name)] = std::move(resolver);
}

void FunctionRegistry::RegisterAggregate(std::string name, AggregateResolver resolver) {
  aggregates_[Lower(name)] = std::move(resolver);
}

const ScalarResolver* FunctionRegistry::FindScalar(std::string_view name) const {
  auto it = scalars_.find(Lower(name));
  return it == scalars_.end() ? nullptr : &it->second;
}

const AggregateResolver* FunctionRegistry::FindAggregate(std::string_view name) const {
  auto it = aggregates_.find(Lower(name));
  return it == aggregates_.end() ? nullptr : &it->second;
}

std::vector<std::string> FunctionRegistry::Names() const {
  std::vector<std::string> names;
  for (const auto& [name, resolver] : scalars_) names.push_back(name);
  for (const auto& [name, resolver] : aggregates_) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace sluice::expr
