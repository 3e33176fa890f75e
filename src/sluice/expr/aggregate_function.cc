#include "sluice/expr/aggregate_function.h"

#include <algorithm>

#include <arrow/array/concatenate.h>
#include <arrow/array/util.h>
#include <arrow/builder.h>
#include <arrow/compute/api_vector.h>
#include <arrow/type.h>

#include "sluice/common/errors.h"
#include "sluice/expr/expression.h"
#include "sluice/expr/functions/aggregate_support.h"
#include "sluice/expr/key_grouper.h"

namespace sluice::expr {

namespace {

class BuiltinAggregate final : public AggregateFunction {
 public:
  BuiltinAggregate(std::string name, std::vector<BoundExprPtr> args,
                   std::shared_ptr<arrow::DataType> result_type, bool nullable, bool distinct,
                   std::string sql, arrow::FieldVector state_fields, AccumulatorFactory factory)
      : AggregateFunction(std::move(name), std::move(args), std::move(result_type), nullable,
                          distinct, std::move(sql)),
        state_fields_(std::move(state_fields)),
        factory_(std::move(factory)) {}

  arrow::FieldVector state_fields() const override { return state_fields_; }

  arrow::Result<std::unique_ptr<GroupedAccumulator>> MakeAccumulator(
      arrow::MemoryPool* pool) const override;

 private:
  arrow::FieldVector state_fields_;
  AccumulatorFactory factory_;
};

// Feeds the wrapped accumulator only the first row of each distinct (group, arguments) tuple.
class DistinctAccumulator final : public GroupedAccumulator {
 public:
  DistinctAccumulator(std::unique_ptr<GroupedAccumulator> inner,
                      std::unique_ptr<KeyGrouper> seen, arrow::MemoryPool* pool)
      : inner_(std::move(inner)), seen_(std::move(seen)), pool_(pool) {}

  arrow::Status Resize(int64_t num_groups) override { return inner_->Resize(num_groups); }

  arrow::Status Update(const GroupId* group_ids, int64_t num_rows,
                       const std::vector<arrow::Datum>& args,
                       const EvalContext& context) override {
    if (num_rows == 0) return arrow::Status::OK();
    arrow::UInt32Builder groups(pool_);
    ARROW_RETURN_NOT_OK(groups.AppendValues(group_ids, num_rows));
    ARROW_ASSIGN_OR_RAISE(auto group_array, groups.Finish());
    arrow::ArrayVector keys{group_array};
    for (const auto& arg : args) {
      ARROW_ASSIGN_OR_RAISE(auto array, aggregates::ArgumentArray(arg, num_rows, pool_));
      keys.push_back(std::move(array));
    }
    const int64_t before = seen_->num_groups();
    ARROW_RETURN_NOT_OK(seen_->Consume(keys, num_rows, &ids_));
    // Ids are handed out in row order, so a row is the first of its tuple exactly when it
    // carries the next new id.
    std::vector<int64_t> rows;
    std::vector<GroupId> selected_groups;
    int64_t next = before;
    for (int64_t i = 0; i < num_rows; ++i) {
      if (static_cast<int64_t>(ids_[i]) == next) {
        rows.push_back(i);
        selected_groups.push_back(group_ids[i]);
        ++next;
      }
    }
    if (rows.empty()) return arrow::Status::OK();
    std::vector<arrow::Datum> selected;
    for (size_t k = 1; k < keys.size(); ++k) {
      ARROW_ASSIGN_OR_RAISE(auto taken, aggregates::TakeRows(*keys[k], rows, pool_));
      selected.emplace_back(std::move(taken));
    }
    return inner_->Update(selected_groups.data(), static_cast<int64_t>(rows.size()), selected,
                          context);
  }

  arrow::Status Merge(const GroupId*, int64_t, const arrow::ArrayVector&,
                      const EvalContext&) override {
    return SparkError("UNSUPPORTED_FEATURE",
                      "Distinct aggregates have no mergeable partial state; they are not "
                      "supported in streaming aggregations.");
  }

  arrow::Result<arrow::ArrayVector> State() const override {
    return SparkError("UNSUPPORTED_FEATURE",
                      "Distinct aggregates have no mergeable partial state; they are not "
                      "supported in streaming aggregations.");
  }

  arrow::Result<std::shared_ptr<arrow::Array>> Finalize(const EvalContext& context) override {
    return inner_->Finalize(context);
  }

 private:
  std::unique_ptr<GroupedAccumulator> inner_;
  std::unique_ptr<KeyGrouper> seen_;
  arrow::MemoryPool* pool_;
  std::vector<uint32_t> ids_;
};

arrow::Result<std::unique_ptr<GroupedAccumulator>> BuiltinAggregate::MakeAccumulator(
    arrow::MemoryPool* pool) const {
  ARROW_ASSIGN_OR_RAISE(auto inner, factory_(pool));
  if (!distinct()) return inner;
  std::vector<std::shared_ptr<arrow::DataType>> types{arrow::uint32()};
  for (const auto& arg : args()) types.push_back(arg->type());
  ARROW_ASSIGN_OR_RAISE(auto seen, KeyGrouper::Make(std::move(types), pool));
  return std::make_unique<DistinctAccumulator>(std::move(inner), std::move(seen), pool);
}

}  // namespace

std::shared_ptr<AggregateFunction> MakeAggregateFunction(
    std::string name, std::vector<BoundExprPtr> args, std::shared_ptr<arrow::DataType> result_type,
    bool nullable, bool distinct, arrow::FieldVector state_fields, AccumulatorFactory factory) {
  std::string sql = aggregates::AggregateSql(name, args, distinct);
  return std::make_shared<BuiltinAggregate>(std::move(name), std::move(args),
                                            std::move(result_type), nullable, distinct,
                                            std::move(sql), std::move(state_fields),
                                            std::move(factory));
}

namespace aggregates {

std::string AggregateSql(const std::string& name, const std::vector<BoundExprPtr>& args,
                         bool distinct) {
  std::vector<std::string> names;
  for (const auto& arg : args) names.push_back(arg->sql());
  return FormatCall(name, names, distinct);
}

arrow::Result<std::shared_ptr<arrow::Array>> ArgumentArray(const arrow::Datum& arg,
                                                           int64_t num_rows,
                                                           arrow::MemoryPool* pool) {
  if (arg.is_array()) return arg.make_array();
  return arrow::MakeArrayFromScalar(*arg.scalar(), num_rows, pool);
}

arrow::Result<std::shared_ptr<arrow::Array>> TakeRows(const arrow::Array& array,
                                                      const std::vector<int64_t>& rows,
                                                      arrow::MemoryPool* pool) {
  arrow::Int64Builder builder(pool);
  ARROW_RETURN_NOT_OK(builder.AppendValues(rows));
  ARROW_ASSIGN_OR_RAISE(auto indices, builder.Finish());
  return arrow::compute::Take(array, *indices);
}

arrow::Status GroupValueStore::Set(const arrow::Array& values, const std::vector<int64_t>& rows,
                                   const std::vector<GroupId>& groups, arrow::MemoryPool* pool) {
  if (rows.empty()) return arrow::Status::OK();
  ARROW_ASSIGN_OR_RAISE(auto taken, TakeRows(values, rows, pool));
  for (size_t k = 0; k < rows.size(); ++k) refs_[groups[k]] = stored_ + static_cast<int64_t>(k);
  chunk_starts_.push_back(stored_);
  stored_ += taken->length();
  chunks_.push_back(std::move(taken));
  // Compact when most stored values are no longer referenced.
  if (stored_ > 2 * num_groups() + 65536) {
    ARROW_ASSIGN_OR_RAISE(auto current, Get(pool));
    for (int64_t g = 0; g < num_groups(); ++g) refs_[g] = refs_[g] >= 0 ? g : -1;
    chunks_ = {current};
    chunk_starts_ = {0};
    stored_ = current->length();
  }
  return arrow::Status::OK();
}

std::pair<const arrow::Array*, int64_t> GroupValueStore::Locate(int64_t group) const {
  const int64_t ref = refs_[group];
  const auto chunk = std::upper_bound(chunk_starts_.begin(), chunk_starts_.end(), ref) - 1;
  const size_t index = static_cast<size_t>(chunk - chunk_starts_.begin());
  return {chunks_[index].get(), ref - *chunk};
}

arrow::Result<std::shared_ptr<arrow::Array>> GroupValueStore::Get(arrow::MemoryPool* pool) const {
  std::shared_ptr<arrow::Array> all;
  if (chunks_.empty()) {
    return arrow::MakeArrayOfNull(type_, num_groups(), pool);
  } else if (chunks_.size() == 1) {
    all = chunks_[0];
  } else {
    ARROW_ASSIGN_OR_RAISE(all, arrow::Concatenate(chunks_, pool));
  }
  arrow::Int64Builder builder(pool);
  ARROW_RETURN_NOT_OK(builder.Reserve(num_groups()));
  for (int64_t ref : refs_) {
    if (ref >= 0) {
      builder.UnsafeAppend(ref);
    } else {
      builder.UnsafeAppendNull();
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto indices, builder.Finish());
  return arrow::compute::Take(*all, *indices);
}

}  // namespace aggregates

}  // namespace sluice::expr
