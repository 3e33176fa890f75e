// min / max of any orderable type; NaN is larger than every other double, as in Spark. Structs
// and arrays compare as Spark orders them (value_ordering.h).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <unordered_map>

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/type.h>
#include <arrow/type_traits.h>
#include <arrow/util/bit_util.h>
#include <arrow/util/decimal.h>

#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/functions/aggregate_support.h"
#include "sluice/expr/value_ordering.h"

namespace sluice::expr::aggregates {

namespace {

// a < b with Spark's ordering: NaN above everything, -0.0 equal to 0.0.
template <typename C>
bool Less(const C& a, const C& b) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}

template <typename ArrowType>
struct ValueOf {
  using Type = typename arrow::TypeTraits<ArrowType>::CType;
};
template <>
struct ValueOf<arrow::BooleanType> {
  using Type = uint8_t;
};
template <>
struct ValueOf<arrow::Decimal128Type> {
  using Type = arrow::Decimal128;
};

// Values of a fixed-width type: kept in a typed vector per group.
template <typename ArrowType>
class PrimitiveMinMax final : public GroupedAccumulator {
 public:
  using C = typename ValueOf<ArrowType>::Type;

  PrimitiveMinMax(bool is_max, std::shared_ptr<arrow::DataType> type, arrow::MemoryPool* pool)
      : is_max_(is_max), type_(std::move(type)), pool_(pool) {}

  arrow::Status Resize(int64_t num_groups) override {
    C start{};
    if constexpr (kFolded) {
      start = is_max_ ? std::numeric_limits<C>::lowest() : std::numeric_limits<C>::max();
    }
    values_.resize(num_groups, start);
    set_.resize(num_groups, 0);
    return arrow::Status::OK();
  }

  arrow::Status Update(const GroupId* group_ids, int64_t num_rows,
                       const std::vector<arrow::Datum>& args, const EvalContext&) override {
    ARROW_ASSIGN_OR_RAISE(auto array, ArgumentArray(args[0], num_rows, pool_));
    if (array->type_id() == arrow::Type::NA) return arrow::Status::OK();
    const auto& typed = static_cast<const typename arrow::TypeTraits<ArrowType>::ArrayType&>(*array);
    const bool has_nulls = typed.null_count() != 0;
    if constexpr (kFolded) {
      if (!has_nulls) {
        if (is_max_) {
          Fold<true>(group_ids, typed.raw_values(), num_rows);
        } else {
          Fold<false>(group_ids, typed.raw_values(), num_rows);
        }
        return arrow::Status::OK();
      }
    }
    for (int64_t i = 0; i < num_rows; ++i) {
      if (has_nulls && typed.IsNull(i)) continue;
      const GroupId g = group_ids[i];
      C v;
      if constexpr (std::is_same_v<ArrowType, arrow::Decimal128Type>) {
        v = arrow::Decimal128(typed.GetValue(i));
      } else {
        v = typed.Value(i);
      }
      if (!set_[g]) {
        values_[g] = v;
        set_[g] = 1;
      } else if (is_max_ ? Less(values_[g], v) : Less(v, values_[g])) {
        values_[g] = v;
      }
    }
    return arrow::Status::OK();
  }

  arrow::Status Merge(const GroupId* group_ids, int64_t num_rows,
                      const arrow::ArrayVector& states, const EvalContext& context) override {
    return Update(group_ids, num_rows, {arrow::Datum(states[0])}, context);
  }

  arrow::Result<arrow::ArrayVector> State() const override {
    ARROW_ASSIGN_OR_RAISE(auto values, Build());
    return arrow::ArrayVector{values};
  }

  arrow::Result<std::shared_ptr<arrow::Array>> Finalize(const EvalContext&) override {
    return Build();
  }

 private:
  /// Integers (and dates and timestamps) start each group at the identity of min or max, so
  /// a value is folded in without a branch on whether its group has one yet (the branch on
  /// the comparison mispredicted on prices in random order).
  static constexpr bool kFolded =
      std::is_integral_v<C> && !std::is_same_v<ArrowType, arrow::BooleanType>;

  template <bool kMax>
  void Fold(const GroupId* group_ids, const C* in, int64_t num_rows) {
    C* values = values_.data();
    uint8_t* set = set_.data();
    for (int64_t i = 0; i < num_rows; ++i) {
      const GroupId g = group_ids[i];
      values[g] = kMax ? std::max(values[g], in[i]) : std::min(values[g], in[i]);
      set[g] = 1;
    }
  }

  arrow::Result<std::shared_ptr<arrow::Array>> Build() const {
    typename arrow::TypeTraits<ArrowType>::BuilderType builder(type_, pool_);
    ARROW_RETURN_NOT_OK(builder.Reserve(static_cast<int64_t>(values_.size())));
    for (size_t g = 0; g < values_.size(); ++g) {
      if (set_[g]) {
        builder.UnsafeAppend(values_[g]);
      } else {
        builder.UnsafeAppendNull();
      }
    }
    return builder.Finish();
  }

  bool is_max_;
  std::shared_ptr<arrow::DataType> type_;
  arrow::MemoryPool* pool_;
  std::vector<C> values_;
  std::vector<uint8_t> set_;
};

// Strings and binaries compare by their bytes (UTF-8 byte order is code point order).
class BinaryMinMax final : public GroupedAccumulator {
 public:
  BinaryMinMax(bool is_max, std::shared_ptr<arrow::DataType> type, arrow::MemoryPool* pool)
      : is_max_(is_max), type_(std::move(type)), pool_(pool) {}

  arrow::Status Resize(int64_t num_groups) override {
    values_.resize(num_groups);
    set_.resize(num_groups, 0);
    return arrow::Status::OK();
  }

  arrow::Status Update(const GroupId* group_ids, int64_t num_rows,
                       const std::vector<arrow::Datum>& args, const EvalContext&) override {
    ARROW_ASSIGN_OR_RAISE(auto array, ArgumentArray(args[0], num_rows, pool_));
    if (array->type_id() == arrow::Type::NA) return arrow::Status::OK();
    const auto& typed = static_cast<const arrow::BinaryArray&>(*array);
    for (int64_t i = 0; i < num_rows; ++i) {
      if (typed.IsNull(i)) continue;
      const GroupId g = group_ids[i];
      const std::string_view v = typed.GetView(i);
      if (!set_[g] || (is_max_ ? std::string_view(values_[g]) < v
                               : v < std::string_view(values_[g]))) {
        values_[g].assign(v);
        set_[g] = 1;
      }
    }
    return arrow::Status::OK();
  }

  arrow::Status Merge(const GroupId* group_ids, int64_t num_rows,
                      const arrow::ArrayVector& states, const EvalContext& context) override {
    return Update(group_ids, num_rows, {arrow::Datum(states[0])}, context);
  }

  arrow::Result<arrow::ArrayVector> State() const override {
    ARROW_ASSIGN_OR_RAISE(auto values, Build());
    return arrow::ArrayVector{values};
  }

  arrow::Result<std::shared_ptr<arrow::Array>> Finalize(const EvalContext&) override {
    return Build();
  }

 private:
  arrow::Result<std::shared_ptr<arrow::Array>> Build() const {
    std::unique_ptr<arrow::ArrayBuilder> base;
    ARROW_RETURN_NOT_OK(arrow::MakeBuilder(pool_, type_, &base));
    // StringBuilder derives from BinaryBuilder: one loop serves strings and binaries.
    auto& builder = static_cast<arrow::BinaryBuilder&>(*base);
    for (size_t g = 0; g < values_.size(); ++g) {
      if (set_[g]) {
        ARROW_RETURN_NOT_OK(builder.Append(values_[g]));
      } else {
        ARROW_RETURN_NOT_OK(builder.AppendNull());
      }
    }
    return builder.Finish();
  }

  bool is_max_;
  std::shared_ptr<arrow::DataType> type_;
  arrow::MemoryPool* pool_;
  std::vector<std::string> values_;
  std::vector<uint8_t> set_;
};

// Structs and arrays: each group's value is kept in a GroupValueStore; a batch's rows are first
// reduced to the best row per group, then compared with the stored value once per group.
class NestedMinMax final : public GroupedAccumulator {
 public:
  NestedMinMax(bool is_max, std::shared_ptr<arrow::DataType> type, arrow::MemoryPool* pool)
      : is_max_(is_max), store_(std::move(type)), pool_(pool) {}

  arrow::Status Resize(int64_t num_groups) override {
    store_.Resize(num_groups);
    best_row_.resize(num_groups, -1);
    return arrow::Status::OK();
  }

  arrow::Status Update(const GroupId* group_ids, int64_t num_rows,
                       const std::vector<arrow::Datum>& args, const EvalContext&) override {
    ARROW_ASSIGN_OR_RAISE(auto array, ArgumentArray(args[0], num_rows, pool_));
    if (array->type_id() == arrow::Type::NA) return arrow::Status::OK();
    std::vector<GroupId> touched;
    const ValueOrdering within_batch(*array, *array);
    for (int64_t i = 0; i < num_rows; ++i) {
      if (array->IsNull(i)) continue;
      int64_t& best = best_row_[group_ids[i]];
      if (best < 0) {
        touched.push_back(group_ids[i]);
        best = i;
      } else if (Better(within_batch, i, best)) {
        best = i;
      }
    }
    std::vector<int64_t> rows;
    std::vector<GroupId> groups;
    // The orderings against the store's chunks, each made once: a chunk holds many groups.
    std::unordered_map<const arrow::Array*, ValueOrdering> against_stored;
    for (GroupId g : touched) {
      const int64_t row = best_row_[g];
      best_row_[g] = -1;
      if (store_.has_value(g)) {
        const auto [stored, index] = store_.Locate(g);
        const ValueOrdering& ordering =
            against_stored.try_emplace(stored, *array, *stored).first->second;
        if (!Better(ordering, row, index)) continue;
      }
      rows.push_back(row);
      groups.push_back(g);
    }
    return store_.Set(*array, rows, groups, pool_);
  }

  arrow::Status Merge(const GroupId* group_ids, int64_t num_rows,
                      const arrow::ArrayVector& states, const EvalContext& context) override {
    return Update(group_ids, num_rows, {arrow::Datum(states[0])}, context);
  }

  arrow::Result<arrow::ArrayVector> State() const override {
    ARROW_ASSIGN_OR_RAISE(auto values, store_.Get(pool_));
    return arrow::ArrayVector{values};
  }

  arrow::Result<std::shared_ptr<arrow::Array>> Finalize(const EvalContext&) override {
    return store_.Get(pool_);
  }

 private:
  // Whether a[i] replaces b[j] as the group's value, `ordering` ordering a and b.
  bool Better(const ValueOrdering& ordering, int64_t i, int64_t j) const {
    const int order = ordering.Compare(i, j);
    return is_max_ ? order > 0 : order < 0;
  }

  bool is_max_;
  GroupValueStore store_;
  arrow::MemoryPool* pool_;
  std::vector<int64_t> best_row_;  // per group, its best row of the batch being folded
};

template <typename T>
AccumulatorFactory Primitive(bool is_max, std::shared_ptr<arrow::DataType> type) {
  return [=](arrow::MemoryPool* pool) -> arrow::Result<std::unique_ptr<GroupedAccumulator>> {
    return std::make_unique<PrimitiveMinMax<T>>(is_max, type, pool);
  };
}

arrow::Result<std::shared_ptr<AggregateFunction>> ResolveMinMax(CallSite call, bool distinct,
                                                                bool is_max,
                                                                const std::string& name) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  const auto type = call.args[0]->type();
  AccumulatorFactory factory;
  switch (type->id()) {
    case arrow::Type::INT8: factory = Primitive<arrow::Int8Type>(is_max, type); break;
    case arrow::Type::INT16: factory = Primitive<arrow::Int16Type>(is_max, type); break;
    case arrow::Type::INT32: factory = Primitive<arrow::Int32Type>(is_max, type); break;
    case arrow::Type::INT64: factory = Primitive<arrow::Int64Type>(is_max, type); break;
    case arrow::Type::FLOAT: factory = Primitive<arrow::FloatType>(is_max, type); break;
    case arrow::Type::DOUBLE: factory = Primitive<arrow::DoubleType>(is_max, type); break;
    case arrow::Type::DATE32: factory = Primitive<arrow::Date32Type>(is_max, type); break;
    case arrow::Type::TIMESTAMP: factory = Primitive<arrow::TimestampType>(is_max, type); break;
    case arrow::Type::DURATION: factory = Primitive<arrow::DurationType>(is_max, type); break;
    case arrow::Type::INTERVAL_MONTHS:
      factory = Primitive<arrow::MonthIntervalType>(is_max, type);
      break;
    case arrow::Type::BOOL: factory = Primitive<arrow::BooleanType>(is_max, type); break;
    case arrow::Type::DECIMAL128:
      factory = Primitive<arrow::Decimal128Type>(is_max, type);
      break;
    case arrow::Type::STRING:
    case arrow::Type::BINARY:
      factory = [=](arrow::MemoryPool* pool)
          -> arrow::Result<std::unique_ptr<GroupedAccumulator>> {
        return std::make_unique<BinaryMinMax>(is_max, type, pool);
      };
      break;
    case arrow::Type::STRUCT:
    case arrow::Type::LIST:
    case arrow::Type::LARGE_LIST:
      if (IsOrderable(*type)) {
        factory = [=](arrow::MemoryPool* pool)
            -> arrow::Result<std::unique_ptr<GroupedAccumulator>> {
          return std::make_unique<NestedMinMax>(is_max, type, pool);
        };
        break;
      }
      [[fallthrough]];
    default:
      return DataTypeMismatch(call, "INVALID_ORDERING_TYPE",
                              "The `" + std::string(is_max ? "max" : "min") +
                                  "` does not support ordering on type \"" +
                                  SqlTypeName(*type) + "\".");
  }
  const auto& result_type = type;
  return MakeAggregateFunction(name, call.args, result_type, true, distinct,
                               {arrow::field("value", result_type)}, std::move(factory));
}

// bool_and/every (false when any value is false) and bool_or/some/any (true when any is true)
// are Spark's min and max of booleans, named as called.
arrow::Result<std::shared_ptr<AggregateFunction>> ResolveBooleanAggregate(CallSite call,
                                                                          bool distinct,
                                                                          bool is_or) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  const auto id = call.args[0]->type()->id();
  if (id == arrow::Type::NA) {
    ARROW_ASSIGN_OR_RAISE(call.args[0], MakeCast(call.args[0], arrow::boolean(),
                                                 CastKind::kImplicit, *call.config));
  } else if (id != arrow::Type::BOOL) {
    return UnexpectedInputType(call, 0, "\"BOOLEAN\"");
  }
  const std::string name = call.name;
  return ResolveMinMax(std::move(call), distinct, is_or, name);
}

}  // namespace

void RegisterMinMaxFunctions(FunctionRegistry& registry) {
  registry.RegisterAggregate("min", [](CallSite call, bool distinct) {
    return ResolveMinMax(std::move(call), distinct, false, "min");
  });
  registry.RegisterAggregate("max", [](CallSite call, bool distinct) {
    return ResolveMinMax(std::move(call), distinct, true, "max");
  });
  for (const char* name : {"bool_and", "every"}) {
    registry.RegisterAggregate(name, [](CallSite call, bool distinct) {
      return ResolveBooleanAggregate(std::move(call), distinct, false);
    });
  }
  for (const char* name : {"bool_or", "some", "any"}) {
    registry.RegisterAggregate(name, [](CallSite call, bool distinct) {
      return ResolveBooleanAggregate(std::move(call), distinct, true);
    });
  }
}

}  // namespace sluice::expr::aggregates
