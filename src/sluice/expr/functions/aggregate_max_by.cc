// max_by(x, y) / min_by(x, y): the value of x in the row with the largest (smallest) y of each
// group. Rows whose y is null are skipped; between rows with equal y the first one seen wins.
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/type.h>
#include <arrow/util/decimal.h>

#include "sluice/expr/call_checks.h"
#include "sluice/expr/functions/aggregate_support.h"

namespace sluice::expr::aggregates {

namespace {

// How the ordering argument's values are read, kept and written back, per Arrow type.
template <typename T>
struct OrderKey {
  using Key = typename T::c_type;
  static Key Read(const arrow::Array& array, int64_t i) {
    return static_cast<const arrow::NumericArray<T>&>(array).Value(i);
  }
  static arrow::Status Append(arrow::ArrayBuilder& builder, const Key& key) {
    return static_cast<arrow::NumericBuilder<T>&>(builder).Append(key);
  }
};
template <>
struct OrderKey<arrow::Decimal128Type> {
  using Key = arrow::Decimal128;
  static Key Read(const arrow::Array& array, int64_t i) {
    return arrow::Decimal128(static_cast<const arrow::Decimal128Array&>(array).GetValue(i));
  }
  static arrow::Status Append(arrow::ArrayBuilder& builder, const Key& key) {
    return static_cast<arrow::Decimal128Builder&>(builder).Append(key);
  }
};
template <>
struct OrderKey<arrow::BinaryType> {
  using Key = std::string;
  static Key Read(const arrow::Array& array, int64_t i) {
    return std::string(static_cast<const arrow::BinaryArray&>(array).GetView(i));
  }
  static arrow::Status Append(arrow::ArrayBuilder& builder, const Key& key) {
    return static_cast<arrow::BinaryBuilder&>(builder).Append(key);
  }
};
// Strings are read through the binary view: StringArray derives from BinaryArray.
template <>
struct OrderKey<arrow::StringType> : OrderKey<arrow::BinaryType> {};

// Spark's order: NaN is larger than every other floating point value.
template <typename K>
bool Less(const K& a, const K& b) {
  if constexpr (std::is_floating_point_v<K>) {
    if (std::isnan(a) || std::isnan(b)) return !std::isnan(a) && std::isnan(b);
  }
  return a < b;
}

template <typename T>
class MaxByAccumulator final : public GroupedAccumulator {
  using Key = typename OrderKey<T>::Key;

 public:
  MaxByAccumulator(bool is_max, std::shared_ptr<arrow::DataType> value_type,
                   std::shared_ptr<arrow::DataType> order_type, arrow::MemoryPool* pool)
      : is_max_(is_max), store_(std::move(value_type)), order_type_(std::move(order_type)),
        pool_(pool) {}

  arrow::Status Resize(int64_t num_groups) override {
    store_.Resize(num_groups);
    best_.resize(num_groups);
    set_.resize(num_groups, 0);
    return arrow::Status::OK();
  }

  arrow::Status Update(const GroupId* group_ids, int64_t num_rows,
                       const std::vector<arrow::Datum>& args, const EvalContext&) override {
    ARROW_ASSIGN_OR_RAISE(auto values, ArgumentArray(args[0], num_rows, pool_));
    ARROW_ASSIGN_OR_RAISE(auto orders, ArgumentArray(args[1], num_rows, pool_));
    return Fold(group_ids, num_rows, *values, *orders, nullptr);
  }

  arrow::Status Merge(const GroupId* group_ids, int64_t num_rows,
                      const arrow::ArrayVector& states, const EvalContext&) override {
    return Fold(group_ids, num_rows, *states[0], *states[1],
                &static_cast<const arrow::BooleanArray&>(*states[2]));
  }

  arrow::Result<arrow::ArrayVector> State() const override {
    ARROW_ASSIGN_OR_RAISE(auto values, store_.Get(pool_));
    std::unique_ptr<arrow::ArrayBuilder> orders;
    ARROW_RETURN_NOT_OK(arrow::MakeBuilder(pool_, order_type_, &orders));
    arrow::BooleanBuilder set(pool_);
    for (size_t g = 0; g < set_.size(); ++g) {
      if (set_[g]) {
        ARROW_RETURN_NOT_OK(OrderKey<T>::Append(*orders, best_[g]));
      } else {
        ARROW_RETURN_NOT_OK(orders->AppendNull());
      }
      ARROW_RETURN_NOT_OK(set.Append(set_[g] != 0));
    }
    ARROW_ASSIGN_OR_RAISE(auto order_array, orders->Finish());
    ARROW_ASSIGN_OR_RAISE(auto set_array, set.Finish());
    return arrow::ArrayVector{values, order_array, set_array};
  }

  arrow::Result<std::shared_ptr<arrow::Array>> Finalize(const EvalContext&) override {
    return store_.Get(pool_);
  }

 private:
  // Folds rows of (values, orders); when merging, `present` says which rows carry a value.
  arrow::Status Fold(const GroupId* group_ids, int64_t num_rows, const arrow::Array& values,
                     const arrow::Array& orders, const arrow::BooleanArray* present) {
    // The winning row of each group in this batch, so the store copies one value per group.
    winner_.assign(set_.size(), -1);
    touched_.clear();
    for (int64_t i = 0; i < num_rows; ++i) {
      if ((present && !present->Value(i)) || orders.IsNull(i)) continue;
      const GroupId g = group_ids[i];
      Key key = OrderKey<T>::Read(orders, i);
      const bool better =
          !set_[g] || (is_max_ ? Less(best_[g], key) : Less(key, best_[g]));
      if (!better) continue;
      best_[g] = std::move(key);
      set_[g] = 1;
      if (winner_[g] < 0) touched_.push_back(g);
      winner_[g] = i;
    }
    if (touched_.empty()) return arrow::Status::OK();
    std::vector<int64_t> rows;
    rows.reserve(touched_.size());
    for (GroupId g : touched_) rows.push_back(winner_[g]);
    return store_.Set(values, rows, touched_, pool_);
  }

  bool is_max_;
  GroupValueStore store_;
  std::shared_ptr<arrow::DataType> order_type_;
  arrow::MemoryPool* pool_;
  std::vector<Key> best_;
  std::vector<uint8_t> set_;
  std::vector<int64_t> winner_;
  std::vector<GroupId> touched_;
};

template <typename T>
AccumulatorFactory MaxByFactory(bool is_max, std::shared_ptr<arrow::DataType> value_type,
                                std::shared_ptr<arrow::DataType> order_type) {
  return [=](arrow::MemoryPool* pool) -> arrow::Result<std::unique_ptr<GroupedAccumulator>> {
    return std::make_unique<MaxByAccumulator<T>>(is_max, value_type, order_type, pool);
  };
}

arrow::Result<std::shared_ptr<AggregateFunction>> ResolveMaxBy(CallSite call, bool distinct,
                                                               bool is_max) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 2, 2, "2"));
  const auto value_type = call.args[0]->type();
  const auto order_type = call.args[1]->type();
  AccumulatorFactory factory;
  auto make = [&](auto type_tag) {
    using T = decltype(type_tag);
    factory = MaxByFactory<T>(is_max, value_type, order_type);
  };
  switch (order_type->id()) {
    case arrow::Type::INT8: make(arrow::Int8Type()); break;
    case arrow::Type::INT16: make(arrow::Int16Type()); break;
    case arrow::Type::INT32: make(arrow::Int32Type()); break;
    case arrow::Type::INT64: make(arrow::Int64Type()); break;
    case arrow::Type::FLOAT: make(arrow::FloatType()); break;
    case arrow::Type::DOUBLE: make(arrow::DoubleType()); break;
    case arrow::Type::DATE32: make(arrow::Date32Type()); break;
    case arrow::Type::TIMESTAMP: make(arrow::TimestampType()); break;
    case arrow::Type::DECIMAL128: make(arrow::Decimal128Type(38, 0)); break;
    case arrow::Type::STRING: make(arrow::StringType()); break;
    case arrow::Type::BINARY: make(arrow::BinaryType()); break;
    default:
      return DataTypeMismatch(call, "INVALID_ORDERING_TYPE",
                              "The `" + call.name + "` does not support ordering on type \"" +
                                  SqlTypeName(*order_type) + "\".");
  }
  return MakeAggregateFunction(call.name, call.args, value_type, true, distinct,
                               {arrow::field("value", value_type),
                                arrow::field("ordering", order_type),
                                arrow::field("set", arrow::boolean(), false)},
                               std::move(factory));
}

}  // namespace

void RegisterMaxByFunctions(FunctionRegistry& registry) {
  registry.RegisterAggregate("max_by", [](CallSite call, bool distinct) {
    return ResolveMaxBy(std::move(call), distinct, true);
  });
  registry.RegisterAggregate("min_by", [](CallSite call, bool distinct) {
    return ResolveMaxBy(std::move(call), distinct, false);
  });
}

}  // namespace sluice::expr::aggregates
