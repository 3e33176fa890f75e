// Variance and standard deviation with Spark's streaming update of (n, mean, m2), so results
// match Spark's to the last bit: var_samp/stddev_samp are null for fewer than two rows.
#include <cmath>

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/type.h>
#include <arrow/util/bit_util.h>

#include "sluice/expr/call_checks.h"
#include "sluice/expr/cast.h"
#include "sluice/expr/functions/aggregate_support.h"

namespace sluice::expr::aggregates {

namespace {

enum class Moment { kVarSamp, kVarPop, kStddevSamp, kStddevPop };

class MomentAccumulator final : public GroupedAccumulator {
 public:
  MomentAccumulator(Moment moment, arrow::MemoryPool* pool) : moment_(moment), pool_(pool) {}

  arrow::Status Resize(int64_t num_groups) override {
    n_.resize(num_groups, 0.0);
    avg_.resize(num_groups, 0.0);
    m2_.resize(num_groups, 0.0);
    return arrow::Status::OK();
  }

  arrow::Status Update(const GroupId* group_ids, int64_t num_rows,
                       const std::vector<arrow::Datum>& args, const EvalContext&) override {
    ARROW_ASSIGN_OR_RAISE(auto array, ArgumentArray(args[0], num_rows, pool_));
    if (array->type_id() == arrow::Type::NA) return arrow::Status::OK();
    const auto& values = static_cast<const arrow::DoubleArray&>(*array);
    const bool has_nulls = values.null_count() != 0;
    for (int64_t i = 0; i < num_rows; ++i) {
      if (has_nulls && values.IsNull(i)) continue;
      const GroupId g = group_ids[i];
      const double n = n_[g] + 1.0;
      const double delta = values.Value(i) - avg_[g];
      const double delta_n = delta / n;
      avg_[g] = avg_[g] + delta_n;
      m2_[g] = m2_[g] + delta * (delta - delta_n);
      n_[g] = n;
    }
    return arrow::Status::OK();
  }

  arrow::Status Merge(const GroupId* group_ids, int64_t num_rows,
                      const arrow::ArrayVector& states, const EvalContext&) override {
    const auto& n2 = static_cast<const arrow::DoubleArray&>(*states[0]);
    const auto& avg2 = static_cast<const arrow::DoubleArray&>(*states[1]);
    const auto& m2_2 = static_cast<const arrow::DoubleArray&>(*states[2]);
    for (int64_t i = 0; i < num_rows; ++i) {
      const GroupId g = group_ids[i];
      MergeInto(g, n2.Value(i), avg2.Value(i), m2_2.Value(i));
    }
    return arrow::Status::OK();
  }

  arrow::Result<arrow::ArrayVector> State() const override {
    arrow::ArrayVector out;
    for (const auto* column : {&n_, &avg_, &m2_}) {
      arrow::DoubleBuilder builder(pool_);
      ARROW_RETURN_NOT_OK(builder.AppendValues(*column));
      ARROW_ASSIGN_OR_RAISE(auto array, builder.Finish());
      out.push_back(std::move(array));
    }
    return out;
  }

  arrow::Result<std::shared_ptr<arrow::Array>> Finalize(const EvalContext&) override {
    arrow::DoubleBuilder builder(pool_);
    ARROW_RETURN_NOT_OK(builder.Reserve(static_cast<int64_t>(n_.size())));
    for (size_t g = 0; g < n_.size(); ++g) {
      // Spark merges the partial buffer into an empty one before evaluating.
      double n = 0.0, avg = 0.0, m2 = 0.0;
      Combine(n, avg, m2, n_[g], avg_[g], m2_[g]);
      const bool sample = moment_ == Moment::kVarSamp || moment_ == Moment::kStddevSamp;
      if (n == 0.0 || (sample && n == 1.0)) {
        builder.UnsafeAppendNull();
        continue;
      }
      double value = sample ? m2 / (n - 1.0) : m2 / n;
      if (moment_ == Moment::kStddevSamp || moment_ == Moment::kStddevPop) {
        value = std::sqrt(value);
      }
      builder.UnsafeAppend(value);
    }
    return builder.Finish();
  }

 private:
  static void Combine(double& n1, double& avg1, double& m2_1, double n2, double avg2,
                      double m2_2) {
    const double n = n1 + n2;
    const double delta = avg2 - avg1;
    const double delta_n = n == 0.0 ? 0.0 : delta / n;
    const double avg = avg1 + delta_n * n2;
    const double m2 = m2_1 + m2_2 + delta * delta_n * n1 * n2;
    n1 = n;
    avg1 = avg;
    m2_1 = m2;
  }

  void MergeInto(GroupId g, double n2, double avg2, double m2_2) {
    Combine(n_[g], avg_[g], m2_[g], n2, avg2, m2_2);
  }

  Moment moment_;
  arrow::MemoryPool* pool_;
  std::vector<double> n_, avg_, m2_;
};

arrow::Result<std::shared_ptr<AggregateFunction>> ResolveMoment(CallSite call, bool distinct,
                                                                Moment moment,
                                                                const std::string& name) {
  ARROW_RETURN_NOT_OK(CheckArgCount(call, 1, 1, "1"));
  const auto id = call.args[0]->type()->id();
  const bool numeric = arrow::is_integer(id) || arrow::is_floating(id) ||
                       id == arrow::Type::DECIMAL128 || id == arrow::Type::STRING ||
                       id == arrow::Type::NA;
  if (!numeric) return UnexpectedInputType(call, 0, "\"DOUBLE\"");
  ARROW_ASSIGN_OR_RAISE(auto arg, MakeCast(call.args[0], arrow::float64(), CastKind::kImplicit,
                                           *call.config));
  AccumulatorFactory factory = [=](arrow::MemoryPool* pool)
      -> arrow::Result<std::unique_ptr<GroupedAccumulator>> {
    return std::make_unique<MomentAccumulator>(moment, pool);
  };
  return MakeAggregateFunction(name, {arg}, arrow::float64(), true, distinct,
                               {arrow::field("n", arrow::float64(), false),
                                arrow::field("avg", arrow::float64(), false),
                                arrow::field("m2", arrow::float64(), false)},
                               std::move(factory));
}

}  // namespace

void RegisterMomentFunctions(FunctionRegistry& registry) {
  const std::pair<const char*, Moment> functions[] = {
      {"variance", Moment::kVarSamp},      {"var_samp", Moment::kVarSamp},
      {"var_pop", Moment::kVarPop},        {"stddev", Moment::kStddevSamp},
      {"std", Moment::kStddevSamp},        {"stddev_samp", Moment::kStddevSamp},
      {"stddev_pop", Moment::kStddevPop},
  };
  for (const auto& [name, moment] : functions) {
    registry.RegisterAggregate(
        name, [name = std::string(name), moment = moment](CallSite call, bool distinct) {
          return ResolveMoment(std::move(call), distinct, moment, name);
        });
  }
}

}  // namespace sluice::expr::aggregates
