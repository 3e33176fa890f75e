#include "sluice/expr/call_memos.h"

#include <arrow/array.h>
#include <arrow/array/concatenate.h>
#include <arrow/array/util.h>
#include <arrow/buffer.h>
#include <arrow/compute/api_vector.h>

#include "sluice/common/take_strings.h"
#include "sluice/expr/key_grouper.h"

namespace sluice::expr {

namespace cp = arrow::compute;

/// One call's results, indexed as the distinct values of its varying argument in the order
/// they were first seen.
class CallMemo {
 public:
  explicit CallMemo(arrow::MemoryPool* pool) : pool_(pool) {}

  bool off() const { return off_; }
  int64_t lookups() const { return lookups_; }
  int64_t misses() const { return misses_; }

  arrow::Result<arrow::Datum> Evaluate(const Kernel& kernel, std::vector<arrow::Datum> args,
                                       size_t varying, const EvalContext& context,
                                       int64_t num_rows) {
    const int64_t window_left = lookups_ < kTrialWindow ? kTrialWindow - lookups_
                                : lookups_ < 2 * kTrialWindow ? 2 * kTrialWindow - lookups_
                                                              : 0;
    if (window_left == 0 || num_rows <= window_left) {
      return Lookup(kernel, std::move(args), varying, context, num_rows);
    }
    // A batch that goes past a trial window is split at its end, so that the trial judges
    // whole windows and a memo that does not pay is not kept for the rest of a large batch.
    std::vector<arrow::Datum> head = args;
    head[varying] = args[varying].make_array()->Slice(0, window_left);
    ARROW_ASSIGN_OR_RAISE(auto first, Lookup(kernel, std::move(head), varying, context,
                                             window_left));
    args[varying] = args[varying].make_array()->Slice(window_left);
    const int64_t rest_rows = num_rows - window_left;
    ARROW_ASSIGN_OR_RAISE(auto rest, off_ ? kernel(args, context, rest_rows)
                                          : Evaluate(kernel, std::move(args), varying, context,
                                                     rest_rows));
    ARROW_ASSIGN_OR_RAISE(auto first_values, ToArray(first, window_left, context));
    ARROW_ASSIGN_OR_RAISE(auto rest_values, ToArray(rest, rest_rows, context));
    ARROW_ASSIGN_OR_RAISE(auto all, arrow::Concatenate({first_values, rest_values},
                                                       context.pool));
    return arrow::Datum(std::move(all));
  }

 private:
  // A memo is judged on the second window of this many rows it looks up (the first one fills
  // it): one that finds fewer than a quarter of that window's values (a hash and a copy a row
  // for little) is given up.
  static constexpr int64_t kTrialWindow = 8192;
  // The bytes of distinct values kept at most; past them the memo starts again empty.
  static constexpr int64_t kMaxValueBytes = int64_t{16} << 20;

  static arrow::Result<std::shared_ptr<arrow::Array>> ToArray(const arrow::Datum& value,
                                                              int64_t rows,
                                                              const EvalContext& context) {
    if (value.is_scalar()) return arrow::MakeArrayFromScalar(*value.scalar(), rows, context.pool);
    return value.make_array();
  }

  // The results of `num_rows` rows, the kernel run on the values not seen before. A failure
  // (the kernel's error, or memory) may leave values numbered without their results: the
  // memo is not used again.
  arrow::Result<arrow::Datum> Lookup(const Kernel& kernel, std::vector<arrow::Datum> args,
                                     size_t varying, const EvalContext& context,
                                     int64_t num_rows) {
    auto result = LookupOrFail(kernel, std::move(args), varying, context, num_rows);
    if (!result.ok()) Stop();
    return result;
  }

  arrow::Result<arrow::Datum> LookupOrFail(const Kernel& kernel, std::vector<arrow::Datum> args,
                                           size_t varying, const EvalContext& context,
                                           int64_t num_rows) {
    if (values_ == nullptr) {
      ARROW_ASSIGN_OR_RAISE(values_, KeyGrouper::Make({args[varying].type()}, pool_));
    }
    const auto input = args[varying].make_array();
    const int64_t known = values_->num_groups();
    ARROW_RETURN_NOT_OK(values_->Consume({input}, num_rows, &ids_));
    // The first row of each value not seen before: ids are given in order of first rows.
    std::vector<int64_t> first_rows;
    const auto& binary = static_cast<const arrow::BinaryArray&>(*input);
    int64_t next_id = known;
    for (int64_t row = 0; row < num_rows; ++row) {
      if (ids_[static_cast<size_t>(row)] != next_id) continue;
      first_rows.push_back(row);
      if (binary.IsValid(row)) value_bytes_ += binary.value_length(row);
      ++next_id;
    }
    lookups_ += num_rows;
    misses_ += static_cast<int64_t>(first_rows.size());
    cp::ExecContext exec(context.pool);
    if (!first_rows.empty()) {
      const auto count = static_cast<int64_t>(first_rows.size());
      const arrow::Int64Array rows(count, arrow::Buffer::FromVector(std::move(first_rows)));
      ARROW_ASSIGN_OR_RAISE(args[varying], cp::Take(args[varying], rows,
                                                    cp::TakeOptions::NoBoundsCheck(), &exec));
      ARROW_ASSIGN_OR_RAISE(auto fresh, kernel(args, context, count));
      ARROW_ASSIGN_OR_RAISE(auto computed, ToArray(fresh, count, context));
      if (results_ == nullptr) {
        results_ = std::move(computed);
      } else {
        ARROW_ASSIGN_OR_RAISE(results_, arrow::Concatenate({results_, computed}, context.pool));
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto out, TakeResults(num_rows, exec));
    if (lookups_ == kTrialWindow) first_window_misses_ = misses_;
    if (lookups_ == 2 * kTrialWindow && (misses_ - first_window_misses_) * 4 > kTrialWindow * 3) {
      Stop();
    } else if (value_bytes_ > kMaxValueBytes) {
      Clear();
    }
    return arrow::Datum(std::move(out));
  }

  // The results of the rows ids_ numbers.
  arrow::Result<std::shared_ptr<arrow::Array>> TakeResults(int64_t num_rows,
                                                           cp::ExecContext& exec) const {
    const auto type = results_->type_id();
    if (type == arrow::Type::STRING || type == arrow::Type::BINARY) {
      ARROW_ASSIGN_OR_RAISE(auto taken, TakeStrings(*results_->data(), ids_.data(), num_rows,
                                                    exec.memory_pool()));
      return arrow::MakeArray(std::move(taken));
    }
    const arrow::UInt32Array indices(
        num_rows, arrow::Buffer::Wrap(ids_.data(), static_cast<int64_t>(ids_.size())));
    ARROW_ASSIGN_OR_RAISE(auto taken,
                          cp::Take(results_, indices, cp::TakeOptions::NoBoundsCheck(), &exec));
    return taken.make_array();
  }

  void Clear() {
    values_ = nullptr;
    results_ = nullptr;
    value_bytes_ = 0;
  }

  void Stop() {
    off_ = true;
    Clear();
  }

  arrow::MemoryPool* pool_;
  // The distinct values of the varying argument, numbered in order of first appearance.
  std::unique_ptr<KeyGrouper> values_;
  // results_[i] is the result for value i.
  std::shared_ptr<arrow::Array> results_;
  std::vector<uint32_t> ids_;
  int64_t value_bytes_ = 0;
  int64_t lookups_ = 0;
  int64_t misses_ = 0;
  int64_t first_window_misses_ = 0;
  bool off_ = false;
};

CallMemos::CallMemos() = default;
CallMemos::~CallMemos() = default;

bool CallMemos::Applies(const std::vector<arrow::Datum>& args, size_t varying) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (i != varying && !args[i].is_scalar()) return false;
  }
  if (!args[varying].is_array() || args[varying].length() == 0) return false;
  const auto id = args[varying].type()->id();
  return id == arrow::Type::STRING || id == arrow::Type::BINARY;
}

int64_t CallMemos::lookups() const {
  int64_t total = 0;
  for (const auto& [call, memo] : memos_) total += memo->lookups();
  return total;
}

int64_t CallMemos::misses() const {
  int64_t total = 0;
  for (const auto& [call, memo] : memos_) total += memo->misses();
  return total;
}

arrow::Result<arrow::Datum> CallMemos::Evaluate(const BoundCall& call,
                                                std::vector<arrow::Datum> args, size_t varying,
                                                const EvalContext& context, int64_t num_rows) {
  auto& memo = memos_[&call];
  if (memo == nullptr) memo = std::make_unique<CallMemo>(context.pool);
  if (memo->off()) return call.kernel()(args, context, num_rows);
  return memo->Evaluate(call.kernel(), std::move(args), varying, context, num_rows);
}

}  // namespace sluice::expr
