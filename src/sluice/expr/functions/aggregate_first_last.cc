// first / last (and first_value / last_value, any_value): the value of the first or last row of
// each group in input order, optionally skipping nulls.
#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/scalar.h>
#include <arrow/type.h>

#include "sluice/expr/call_checks.h"
#include "sluice/expr/functions/aggregate_support.h"

namespace sluice::expr::aggregates {

namespace {

class FirstLastAccumulator final : public GroupedAccumulator {
 public:
  FirstLastAccumulator(bool last, bool ignore_nulls, std::shared_ptr<arrow::DataType> type,
                       arrow::MemoryPool* pool)
      : last_(last), ignore_nulls_(ignore_nulls), store_(std::move(type)), pool_(pool) {}

  arrow::Status Resize(int64_t num_groups) override {
    store_.Resize(num_groups);
    set_.resize(num_groups, 0);
    return arrow::Status::OK();
  }

  arrow::Status Update(const GroupId* group_ids, int64_t num_rows,
                       const std::vector<arrow::Datum>& args, const EvalContext&) override {
    ARROW_ASSIGN_OR_RAISE(auto array, ArgumentArray(args[0], num_rows, pool_));
    return Fold(group_ids, num_rows, *array, nullptr);
  }

  arrow::Status Merge(const GroupId* group_ids, int64_t num_rows,
                      const arrow::ArrayVector& states, const EvalContext&) override {
    return Fold(group_ids, num_rows, *states[0],
                &static_cast<const arrow::BooleanArray&>(*states[1]));
  }

  arrow::Result<arrow::ArrayVector> State() const override {
    ARROW_ASSIGN_OR_RAISE(auto values, store_.Get(pool_));
    arrow::BooleanBuilder set(pool_);
    for (uint8_t flag : set_) ARROW_RETURN_NOT_OK(set.Append(flag != 0));
    ARROW_ASSIGN_OR_RAISE(auto set_array, set.Finish());
    return arrow::ArrayVector{values, set_array};
  }

  arrow::Result<std::shared_ptr<arrow::Array>> Finalize(const EvalContext&) override {
    return store_.Get(pool_);
  }

 private:
  // Folds rows of `values`; when merging, `present` says which rows carry a value at all.
  arrow::Status Fold(const GroupId* group_ids, int64_t num_rows, const arrow::Array& values,
                     const arrow::BooleanArray* present) {
    rows_.clear();
    groups_.clear();
    const bool check_nulls = ignore_nulls_ && values.null_count() != 0;
    for (int64_t i = 0; i < num_rows; ++i) {
      if (present && !present->Value(i)) continue;
      if (check_nulls && values.IsNull(i)) continue;
      const GroupId g = group_ids[i];
      if (!last_) {
        if (set_[g]) continue;
        set_[g] = 1;
        rows_.push_back(i);
        groups_.push_back(g);
      } else {
        set_[g] = 1;
        rows_.push_back(i);
        groups_.push_back(g);
      }
    }
    if (last_ && rows_.size() > 1) {
      // Keep only the last row of each group, so the store copies one value per group.
      std::vector<int64_t> keep_rows;
      std::vector<GroupId> keep_groups;
      latest_.resize(store_.num_groups(), -1);
      for (size_t k = 0; k < rows_.size(); ++k) latest_[groups_[k]] = static_cast<int64_t>(k);
      for (size_t k = 0; k < rows_.size(); ++k) {
        if (latest_[groups_[k]] == static_cast<int64_t>(k)) {
          keep_rows.push_back(rows_[k]);
          keep_groups.push_back(groups_[k]);
          latest_[groups_[k]] = -1;
        }
      }
      rows_ = std::move(keep_rows);
      groups_ = std::move(keep_groups);
    }
    return store_.Set(values, rows_, groups_, pool_);
  }

  bool last_;
  bool ignore_nulls_;
  GroupValueStore store_;
  arrow::MemoryPool* pool_;
  std::vector<uint8_t> set_;
  std::vector<int64_t> rows_;
  std::vector<GroupId> groups_;
  std::vector<int64_t> latest_;
};

arrow::Result<std::shared_ptr<AggregateFunction>> ResolveFirstLast(CallSite call, bool distinct,
                                                                   bool last,
                                                                   const std::string& name) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 2, "[1, 2]"));
  bool ignore_nulls = false;
  if (call.args.size() == 2) {
    const arrow::Scalar* flag = ConstantArgument(call, 1);
    if (flag == nullptr || flag->type->id() != arrow::Type::BOOL || !flag->is_valid) {
      return UnexpectedInputType(call, 1, "\"BOOLEAN\"");
    }
    ignore_nulls = static_cast<const arrow::BooleanScalar&>(*flag).value;
  }
  const auto type = call.args[0]->type();
  AccumulatorFactory factory = [=](arrow::MemoryPool* pool)
      -> arrow::Result<std::unique_ptr<GroupedAccumulator>> {
    return std::make_unique<FirstLastAccumulator>(last, ignore_nulls, type, pool);
  };
  return MakeAggregateFunction(name, {call.args[0]}, type, true, distinct,
                               {arrow::field("value", type),
                                arrow::field("set", arrow::boolean(), false)},
                               std::move(factory));
}

}  // namespace

void RegisterFirstLastFunctions(FunctionRegistry& registry) {
  for (const char* name : {"first", "first_value", "any_value"}) {
    registry.RegisterAggregate(name, [name = std::string(name)](CallSite call, bool distinct) {
      return ResolveFirstLast(std::move(call), distinct, false, name);
    });
  }
  for (const char* name : {"last", "last_value"}) {
    registry.RegisterAggregate(name, [name = std::string(name)](CallSite call, bool distinct) {
      return ResolveFirstLast(std::move(call), distinct, true, name);
    });
  }
}

}  // namespace sluice::expr::aggregates
