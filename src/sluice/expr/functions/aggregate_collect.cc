// collect_list / array_agg and collect_set: the non-null values of each group as an array, in
// input order (collect_set keeps the first occurrence of each value).
#include <arrow/array.h>
#include <arrow/array/concatenate.h>
#include <arrow/array/util.h>
#include <arrow/builder.h>
#include <arrow/compute/api_vector.h>
#include <arrow/type.h>

#include "sluice/expr/call_checks.h"
#include "sluice/expr/functions/aggregate_support.h"
#include "sluice/expr/key_grouper.h"
#include "sluice/types/spark_types.h"

namespace sluice::expr::aggregates {

namespace {

class CollectAccumulator final : public GroupedAccumulator {
 public:
  CollectAccumulator(bool distinct_values, std::shared_ptr<arrow::DataType> element_type,
                     std::shared_ptr<arrow::DataType> result_type, arrow::MemoryPool* pool)
      : distinct_values_(distinct_values),
        element_type_(std::move(element_type)),
        result_type_(std::move(result_type)),
        pool_(pool) {}

  arrow::Status Resize(int64_t num_groups) override {
    num_groups_ = std::max(num_groups_, num_groups);
    return arrow::Status::OK();
  }

  arrow::Status Update(const GroupId* group_ids, int64_t num_rows,
                       const std::vector<arrow::Datum>& args, const EvalContext&) override {
    ARROW_ASSIGN_OR_RAISE(auto array, ArgumentArray(args[0], num_rows, pool_));
    std::vector<int64_t> rows;
    std::vector<GroupId> groups;
    for (int64_t i = 0; i < num_rows; ++i) {
      if (array->IsNull(i)) continue;
      rows.push_back(i);
      groups.push_back(group_ids[i]);
    }
    return Append(*array, rows, std::move(groups));
  }

  arrow::Status Merge(const GroupId* group_ids, int64_t num_rows,
                      const arrow::ArrayVector& states, const EvalContext&) override {
    const auto& lists = static_cast<const arrow::ListArray&>(*states[0]);
    std::vector<int64_t> rows;
    std::vector<GroupId> groups;
    for (int64_t i = 0; i < num_rows; ++i) {
      if (lists.IsNull(i)) continue;
      for (int64_t k = lists.value_offset(i); k < lists.value_offset(i + 1); ++k) {
        if (lists.values()->IsNull(k)) continue;
        rows.push_back(k);
        groups.push_back(group_ids[i]);
      }
    }
    return Append(*lists.values(), rows, std::move(groups));
  }

  arrow::Result<arrow::ArrayVector> State() const override {
    ARROW_ASSIGN_OR_RAISE(auto lists, Build());
    return arrow::ArrayVector{lists};
  }

  arrow::Result<std::shared_ptr<arrow::Array>> Finalize(const EvalContext&) override {
    return Build();
  }

 private:
  arrow::Status Append(const arrow::Array& values, const std::vector<int64_t>& rows,
                       std::vector<GroupId> groups) {
    if (rows.empty()) return arrow::Status::OK();
    ARROW_ASSIGN_OR_RAISE(auto taken, TakeRows(values, rows, pool_));
    if (distinct_values_) {
      if (seen_ == nullptr) {
        ARROW_ASSIGN_OR_RAISE(seen_, KeyGrouper::Make({arrow::uint32(), element_type_}, pool_));
      }
      arrow::UInt32Builder group_builder(pool_);
      ARROW_RETURN_NOT_OK(group_builder.AppendValues(groups));
      ARROW_ASSIGN_OR_RAISE(auto group_array, group_builder.Finish());
      const int64_t before = seen_->num_groups();
      ARROW_RETURN_NOT_OK(seen_->Consume({group_array, taken}, taken->length(), &ids_));
      std::vector<int64_t> fresh;
      std::vector<GroupId> fresh_groups;
      int64_t next = before;
      for (int64_t i = 0; i < taken->length(); ++i) {
        if (static_cast<int64_t>(ids_[i]) == next) {
          fresh.push_back(i);
          fresh_groups.push_back(groups[i]);
          ++next;
        }
      }
      if (fresh.empty()) return arrow::Status::OK();
      ARROW_ASSIGN_OR_RAISE(taken, TakeRows(*taken, fresh, pool_));
      groups = std::move(fresh_groups);
    }
    owners_.insert(owners_.end(), groups.begin(), groups.end());
    chunks_.push_back(std::move(taken));
    return arrow::Status::OK();
  }

  arrow::Result<std::shared_ptr<arrow::Array>> Build() const {
    // Counting sort of the stored values by group, keeping input order within a group.
    std::vector<int32_t> offsets(num_groups_ + 1, 0);
    for (GroupId g : owners_) ++offsets[g + 1];
    for (int64_t g = 0; g < num_groups_; ++g) offsets[g + 1] += offsets[g];
    std::vector<int64_t> order(owners_.size());
    std::vector<int32_t> cursor(offsets.begin(), offsets.end() - 1);
    for (size_t k = 0; k < owners_.size(); ++k) order[cursor[owners_[k]]++] = static_cast<int64_t>(k);
    std::shared_ptr<arrow::Array> values;
    if (chunks_.empty()) {
      ARROW_ASSIGN_OR_RAISE(values, arrow::MakeEmptyArray(element_type_, pool_));
    } else {
      ARROW_ASSIGN_OR_RAISE(auto all, chunks_.size() == 1 ? arrow::Result<std::shared_ptr<arrow::Array>>(chunks_[0])
                                                          : arrow::Concatenate(chunks_, pool_));
      ARROW_ASSIGN_OR_RAISE(values, TakeRows(*all, order, pool_));
    }
    arrow::Int32Builder offset_builder(pool_);
    ARROW_RETURN_NOT_OK(offset_builder.AppendValues(offsets));
    ARROW_ASSIGN_OR_RAISE(auto offset_array, offset_builder.Finish());
    return arrow::ListArray::FromArrays(result_type_, *offset_array, *values, pool_);
  }

  bool distinct_values_;
  std::shared_ptr<arrow::DataType> element_type_;
  std::shared_ptr<arrow::DataType> result_type_;
  arrow::MemoryPool* pool_;
  int64_t num_groups_ = 0;
  arrow::ArrayVector chunks_;
  std::vector<GroupId> owners_;
  std::unique_ptr<KeyGrouper> seen_;
  std::vector<uint32_t> ids_;
};

arrow::Result<std::shared_ptr<AggregateFunction>> ResolveCollect(CallSite call, bool distinct,
                                                                 bool set,
                                                                 const std::string& name) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  const auto element = call.args[0]->type();
  if (set && !IsGroupableType(*element)) {
    return DataTypeMismatch(call, "UNSUPPORTED_INPUT_TYPE",
                            "The input of `collect_set` can't be \"" + SqlTypeName(*element) +
                                "\" type data.");
  }
  auto result_type = types::MakeArrayType(element, false);
  AccumulatorFactory factory = [=](arrow::MemoryPool* pool)
      -> arrow::Result<std::unique_ptr<GroupedAccumulator>> {
    return std::make_unique<CollectAccumulator>(set, element, result_type, pool);
  };
  return MakeAggregateFunction(name, call.args, result_type, false, distinct,
                               {arrow::field("values", result_type, false)}, std::move(factory));
}

}  // namespace

void RegisterCollectFunctions(FunctionRegistry& registry) {
  for (const char* name : {"collect_list", "array_agg"}) {
    registry.RegisterAggregate(name, [name = std::string(name)](CallSite call, bool distinct) {
      return ResolveCollect(std::move(call), distinct, false, name);
    });
  }
  registry.RegisterAggregate("collect_set", [](CallSite call, bool distinct) {
    return ResolveCollect(std::move(call), distinct, true, "collect_set");
  });
}

}  // namespace sluice::expr::aggregates
