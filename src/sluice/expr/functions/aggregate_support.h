#pragma once

// Pieces shared by the files of built-in aggregate functions (aggregate_*.cc).

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <arrow/array.h>
#include <arrow/datum.h>
#include <arrow/result.h>

#include "sluice/expr/aggregate_function.h"
#include "sluice/expr/function_registry.h"

namespace sluice::expr::aggregates {

void RegisterCountFunctions(FunctionRegistry& registry);
void RegisterSumFunctions(FunctionRegistry& registry);
void RegisterMinMaxFunctions(FunctionRegistry& registry);
void RegisterFirstLastFunctions(FunctionRegistry& registry);
void RegisterCollectFunctions(FunctionRegistry& registry);
void RegisterMomentFunctions(FunctionRegistry& registry);
void RegisterApproxCountDistinct(FunctionRegistry& registry);
void RegisterMaxByFunctions(FunctionRegistry& registry);

/// Spark's name of an aggregate call over the given (bound) arguments.
std::string AggregateSql(const std::string& name, const std::vector<BoundExprPtr>& args,
                         bool distinct);

/// An argument as an array of `num_rows` values (a scalar is broadcast).
arrow::Result<std::shared_ptr<arrow::Array>> ArgumentArray(const arrow::Datum& arg,
                                                           int64_t num_rows,
                                                           arrow::MemoryPool* pool);

/// The values of `array` at `rows`, as a new array.
arrow::Result<std::shared_ptr<arrow::Array>> TakeRows(const arrow::Array& array,
                                                      const std::vector<int64_t>& rows,
                                                      arrow::MemoryPool* pool);

/// A per-group reference to one value of arbitrary type: values are copied out of the input
/// batches into chunks (only the rows that became some group's value) and compacted when stale
/// values pile up. Used by first/last and by min/max of types without a typed path.
class GroupValueStore {
 public:
  explicit GroupValueStore(std::shared_ptr<arrow::DataType> type) : type_(std::move(type)) {}

  void Resize(int64_t num_groups) { refs_.resize(num_groups, -1); }
  int64_t num_groups() const { return static_cast<int64_t>(refs_.size()); }
  bool has_value(int64_t group) const { return refs_[group] >= 0; }

  /// Sets group `groups[k]` to `values[rows[k]]` for every k (later entries win).
  arrow::Status Set(const arrow::Array& values, const std::vector<int64_t>& rows,
                    const std::vector<GroupId>& groups, arrow::MemoryPool* pool);

  /// Where group `group`'s value is: a stored chunk and the row in it. The group has a value.
  std::pair<const arrow::Array*, int64_t> Locate(int64_t group) const;

  /// One value per group (null where a group has none).
  arrow::Result<std::shared_ptr<arrow::Array>> Get(arrow::MemoryPool* pool) const;

 private:
  std::shared_ptr<arrow::DataType> type_;
  std::vector<int64_t> refs_;
  arrow::ArrayVector chunks_;
  std::vector<int64_t> chunk_starts_;  // the reference of each chunk's first row
  int64_t stored_ = 0;
};

}  // namespace sluice::expr::aggregates
