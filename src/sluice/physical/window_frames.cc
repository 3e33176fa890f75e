#include "sluice/physical/window_frames.h"

#include <algorithm>
#include <cmath>

#include <arrow/array/concatenate.h>
#include <arrow/builder.h>
#include <arrow/compute/api.h>

#include "sluice/expr/aggregate_function.h"
#include "sluice/expr/bound_expression.h"

namespace sluice::physical {

namespace {

namespace cp = arrow::compute;
using Kind = plan::WindowFunctionKind;
using BoundKind = expr::WindowFrameBound::Kind;
using FrameType = expr::WindowFrame::Type;
using expr::GroupId;

// Each row's frame: rows [begin, end) of the sorted input, within the row's partition.
struct Frames {
  std::vector<int64_t> begin;
  std::vector<int64_t> end;
};

// Compares the sorted rows' single order key with a row's key shifted by a RANGE offset, in
// the sort order, as Spark's RangeBoundOrdering does (the offset is subtracted for a descending
// key, so `1 PRECEDING` always means one unit towards the start of the partition).
class RangeBounds {
 public:
  static arrow::Result<RangeBounds> Make(const WindowLayout& layout) {
    RangeBounds bounds;
    bounds.ascending_ = layout.order_ascending;
    bounds.nulls_first_ = layout.order_nulls_first;
    const auto& values = layout.order_values;
    if (values == nullptr) return arrow::Status::Invalid("a RANGE offset needs an order key");
    bounds.integral_ = arrow::is_integer(values->type_id()) ||
                       values->type_id() == arrow::Type::TIMESTAMP ||
                       values->type_id() == arrow::Type::DATE32;
    // Timestamps compare as their microseconds, dates as their days.
    std::shared_ptr<arrow::Array> storage = values;
    if (values->type_id() == arrow::Type::TIMESTAMP) {
      ARROW_ASSIGN_OR_RAISE(storage, values->View(arrow::int64()));
    } else if (values->type_id() == arrow::Type::DATE32) {
      ARROW_ASSIGN_OR_RAISE(storage, values->View(arrow::int32()));
    }
    ARROW_ASSIGN_OR_RAISE(
        auto converted,
        cp::Cast(storage, bounds.integral_ ? arrow::int64() : arrow::float64()));
    bounds.values_ = converted.make_array();
    return bounds;
  }

  // The first row of [begin, end) not before row i's key shifted by `bound` (upper: the first
  // row after it).
  int64_t Find(int64_t i, const plan::ResolvedFrameBound& bound, int64_t begin, int64_t end,
               bool upper) const {
    int64_t low = begin;
    int64_t high = end;
    while (low < high) {
      const int64_t middle = low + (high - low) / 2;
      const int c = Compare(middle, i, bound);
      if (c < 0 || (upper && c == 0)) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    return low;
  }

 private:
  // <0 when row r comes before row i's shifted key in the sort order, 0 when equal.
  int Compare(int64_t r, int64_t i, const plan::ResolvedFrameBound& bound) const {
    const bool r_null = values_->IsNull(r);
    const bool i_null = values_->IsNull(i);
    if (r_null || i_null) {
      if (r_null && i_null) return 0;
      // A null sorts before every value when nulls come first.
      return r_null == nulls_first_ ? -1 : 1;
    }
    int c;
    if (integral_) {
      const auto* ints = static_cast<const arrow::Int64Array&>(*values_).raw_values();
      const __int128 shifted = static_cast<__int128>(ints[i]) +
                               (ascending_ ? bound.offset : -static_cast<__int128>(bound.offset));
      const __int128 key = ints[r];
      c = key < shifted ? -1 : key > shifted ? 1 : 0;
    } else {
      const auto* reals = static_cast<const arrow::DoubleArray&>(*values_).raw_values();
      const double shifted = reals[i] + (ascending_ ? bound.real_offset : -bound.real_offset);
      const double key = reals[r];
      // NaN is above every number and equal to itself, as Spark orders doubles.
      if (std::isnan(key) || std::isnan(shifted)) {
        c = std::isnan(key) == std::isnan(shifted) ? 0 : std::isnan(key) ? 1 : -1;
      } else {
        c = key < shifted ? -1 : key > shifted ? 1 : 0;
      }
    }
    return ascending_ ? c : -c;
  }

  std::shared_ptr<arrow::Array> values_;
  bool integral_ = true;
  bool ascending_ = true;
  bool nulls_first_ = true;
};

int64_t Clamp(__int128 row, int64_t low, int64_t high) {
  return static_cast<int64_t>(std::clamp<__int128>(row, low, high));
}

arrow::Result<Frames> ComputeFrames(const plan::ResolvedFrame& frame, const WindowLayout& layout) {
  const int64_t n = layout.num_rows;
  const bool rows = frame.type == FrameType::kRows;
  const bool needs_range =
      !rows && (frame.lower.kind == BoundKind::kOffset || frame.upper.kind == BoundKind::kOffset);
  RangeBounds range;
  if (needs_range) {
    ARROW_ASSIGN_OR_RAISE(range, RangeBounds::Make(layout));
  }
  Frames frames;
  frames.begin.resize(n);
  frames.end.resize(n);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t first = layout.partition_begin[i];
    const int64_t last = layout.partition_end[i];
    auto position = [&](const plan::ResolvedFrameBound& bound, bool upper) -> int64_t {
      switch (bound.kind) {
        case BoundKind::kUnboundedPreceding:
          return first;
        case BoundKind::kUnboundedFollowing:
          return last;
        case BoundKind::kCurrentRow:
          if (rows) return upper ? i + 1 : i;
          return upper ? layout.peer_end[i] : layout.peer_begin[i];
        case BoundKind::kOffset:
          break;
      }
      if (rows) {
        return Clamp(static_cast<__int128>(i) + bound.offset + (upper ? 1 : 0), first, last);
      }
      return range.Find(i, bound, first, last, upper);
    };
    frames.begin[i] = position(frame.lower, false);
    frames.end[i] = std::max(frames.begin[i], position(frame.upper, true));
  }
  return frames;
}

arrow::Result<std::vector<arrow::Datum>> EvaluateArguments(
    const std::vector<expr::BoundExprPtr>& args, const arrow::RecordBatch& sorted,
    const expr::EvalContext& context) {
  std::vector<arrow::Datum> values;
  for (const auto& arg : args) {
    ARROW_ASSIGN_OR_RAISE(auto value, arg->Evaluate(sorted, context));
    values.push_back(std::move(value));
  }
  return values;
}

// Every frame is its whole partition: one group per partition, folded once.
arrow::Result<std::shared_ptr<arrow::Array>> AggregatePartitions(
    const expr::AggregateFunction& aggregate, const std::vector<arrow::Datum>& args,
    const WindowLayout& layout, const expr::EvalContext& context) {
  const int64_t n = layout.num_rows;
  std::vector<GroupId> groups(n);
  arrow::Int64Builder ordinals(context.pool);
  ARROW_RETURN_NOT_OK(ordinals.Reserve(n));
  GroupId group = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (i > 0 && layout.partition_begin[i] != layout.partition_begin[i - 1]) ++group;
    groups[i] = group;
    ordinals.UnsafeAppend(group);
  }
  ARROW_ASSIGN_OR_RAISE(auto accumulator, aggregate.MakeAccumulator(context.pool));
  ARROW_RETURN_NOT_OK(accumulator->Resize(static_cast<int64_t>(group) + 1));
  ARROW_RETURN_NOT_OK(accumulator->Update(groups.data(), n, args, context));
  ARROW_ASSIGN_OR_RAISE(auto per_partition, accumulator->Finalize(context));
  ARROW_ASSIGN_OR_RAISE(auto indices, ordinals.Finish());
  ARROW_ASSIGN_OR_RAISE(auto values, cp::Take(per_partition, indices));
  return values.make_array();
}

std::vector<arrow::Datum> SliceArguments(const std::vector<arrow::Datum>& args, int64_t offset,
                                         int64_t length) {
  std::vector<arrow::Datum> sliced;
  for (const auto& arg : args) {
    sliced.push_back(arg.is_array() ? arrow::Datum(arg.make_array()->Slice(offset, length)) : arg);
  }
  return sliced;
}

// Every frame starts at its partition's first row and ends no earlier than the previous row's
// (a running aggregate). Rows are taken in chunks whose frame ends lie within kSpan rows of the
// chunk's first end: the partition's rows up to that end are folded once into a running state,
// merged into one group per row of the chunk, and each group then folds the few rows between
// that end and its own. Vectorized calls throughout, instead of a result per row.
arrow::Result<std::shared_ptr<arrow::Array>> AggregateRunning(
    const expr::AggregateFunction& aggregate, const std::vector<arrow::Datum>& args,
    const WindowLayout& layout, const Frames& frames, const expr::EvalContext& context) {
  constexpr int64_t kSpan = 64;
  constexpr int64_t kMaxChunk = 4096;
  const int64_t n = layout.num_rows;
  const std::vector<GroupId> zeros(n, 0);
  std::vector<GroupId> ordinals(kMaxChunk);
  for (int64_t g = 0; g < kMaxChunk; ++g) ordinals[g] = static_cast<GroupId>(g);
  arrow::ArrayVector chunks;
  int64_t i = 0;
  while (i < n) {
    const int64_t last = layout.partition_end[i];
    ARROW_ASSIGN_OR_RAISE(auto running, aggregate.MakeAccumulator(context.pool));
    ARROW_RETURN_NOT_OK(running->Resize(1));
    int64_t folded = layout.partition_begin[i];
    while (i < last) {
      const int64_t base = frames.end[i];
      int64_t chunk_end = i;
      while (chunk_end < last && chunk_end - i < kMaxChunk &&
             frames.end[chunk_end] - base <= kSpan) {
        ++chunk_end;
      }
      const int64_t rows = chunk_end - i;
      if (base > folded) {
        ARROW_RETURN_NOT_OK(running->Update(zeros.data(), base - folded,
                                            SliceArguments(args, folded, base - folded),
                                            context));
        folded = base;
      }
      // Each group of the chunk starts from the running state...
      ARROW_ASSIGN_OR_RAISE(auto prefix, running->State());
      arrow::Int64Builder repeat(context.pool);
      ARROW_RETURN_NOT_OK(repeat.AppendEmptyValues(rows));
      ARROW_ASSIGN_OR_RAISE(auto repeat_indices, repeat.Finish());
      arrow::ArrayVector states;
      for (const auto& column : prefix) {
        ARROW_ASSIGN_OR_RAISE(auto repeated, cp::Take(column, repeat_indices));
        states.push_back(repeated.make_array());
      }
      ARROW_ASSIGN_OR_RAISE(auto chunk, aggregate.MakeAccumulator(context.pool));
      ARROW_RETURN_NOT_OK(chunk->Resize(rows));
      ARROW_RETURN_NOT_OK(chunk->Merge(ordinals.data(), rows, states, context));
      // ...and folds the rows from the chunk's first end to its own.
      std::vector<GroupId> groups;
      arrow::Int64Builder positions(context.pool);
      for (int64_t r = i; r < chunk_end; ++r) {
        for (int64_t j = base; j < frames.end[r]; ++j) {
          groups.push_back(static_cast<GroupId>(r - i));
          ARROW_RETURN_NOT_OK(positions.Append(j));
        }
      }
      if (!groups.empty()) {
        ARROW_ASSIGN_OR_RAISE(auto row_indices, positions.Finish());
        std::vector<arrow::Datum> taken;
        for (const auto& arg : args) {
          if (!arg.is_array()) {
            taken.push_back(arg);
            continue;
          }
          ARROW_ASSIGN_OR_RAISE(auto values, cp::Take(arg, row_indices));
          taken.push_back(std::move(values));
        }
        ARROW_RETURN_NOT_OK(chunk->Update(groups.data(), static_cast<int64_t>(groups.size()),
                                          taken, context));
      }
      ARROW_ASSIGN_OR_RAISE(auto values, chunk->Finalize(context));
      chunks.push_back(std::move(values));
      i = chunk_end;
    }
  }
  return arrow::Concatenate(chunks, context.pool);
}

// Any other frames: each row is a group that folds the rows of its frame, in chunks of rows
// whose frames hold at most kMaxPairs rows in all.
arrow::Result<std::shared_ptr<arrow::Array>> AggregateFrames(
    const expr::AggregateFunction& aggregate, const std::vector<arrow::Datum>& args,
    const WindowLayout& layout, const Frames& frames, const expr::EvalContext& context) {
  constexpr int64_t kMaxPairs = int64_t{1} << 20;
  const int64_t n = layout.num_rows;
  arrow::ArrayVector chunks;
  int64_t i = 0;
  while (i < n) {
    const int64_t chunk_begin = i;
    int64_t pairs = 0;
    while (i < n && (i == chunk_begin || pairs + (frames.end[i] - frames.begin[i]) <= kMaxPairs)) {
      pairs += frames.end[i] - frames.begin[i];
      ++i;
    }
    std::vector<GroupId> groups;
    groups.reserve(pairs);
    arrow::Int64Builder rows(context.pool);
    ARROW_RETURN_NOT_OK(rows.Reserve(pairs));
    for (int64_t r = chunk_begin; r < i; ++r) {
      for (int64_t j = frames.begin[r]; j < frames.end[r]; ++j) {
        groups.push_back(static_cast<GroupId>(r - chunk_begin));
        rows.UnsafeAppend(j);
      }
    }
    ARROW_ASSIGN_OR_RAISE(auto row_indices, rows.Finish());
    std::vector<arrow::Datum> taken;
    for (const auto& arg : args) {
      if (!arg.is_array()) {
        taken.push_back(arg);
        continue;
      }
      ARROW_ASSIGN_OR_RAISE(auto values, cp::Take(arg, row_indices));
      taken.push_back(std::move(values));
    }
    ARROW_ASSIGN_OR_RAISE(auto accumulator, aggregate.MakeAccumulator(context.pool));
    ARROW_RETURN_NOT_OK(accumulator->Resize(i - chunk_begin));
    if (pairs > 0) {
      ARROW_RETURN_NOT_OK(accumulator->Update(groups.data(), pairs, taken, context));
    }
    ARROW_ASSIGN_OR_RAISE(auto chunk, accumulator->Finalize(context));
    chunks.push_back(std::move(chunk));
  }
  return arrow::Concatenate(chunks, context.pool);
}

arrow::Result<std::shared_ptr<arrow::Array>> EvaluateAggregate(
    const plan::WindowFunction& function, const arrow::RecordBatch& sorted,
    const WindowLayout& layout, const expr::EvalContext& context) {
  const auto& aggregate = *function.aggregate;
  ARROW_ASSIGN_OR_RAISE(auto args, EvaluateArguments(aggregate.args(), sorted, context));
  ARROW_ASSIGN_OR_RAISE(auto frames, ComputeFrames(function.frame, layout));
  bool whole = true;
  bool running = true;
  for (int64_t i = 0; i < layout.num_rows; ++i) {
    const bool starts_partition = frames.begin[i] == layout.partition_begin[i];
    whole = whole && starts_partition && frames.end[i] == layout.partition_end[i];
    running = running && starts_partition &&
              (i == 0 || layout.partition_begin[i] != layout.partition_begin[i - 1] ||
               frames.end[i] >= frames.end[i - 1]);
  }
  if (whole) return AggregatePartitions(aggregate, args, layout, context);
  if (running) return AggregateRunning(aggregate, args, layout, frames, context);
  return AggregateFrames(aggregate, args, layout, frames, context);
}

// row_number, rank, dense_rank, ntile: integers from the row's place in its partition.
arrow::Result<std::shared_ptr<arrow::Array>> EvaluateRanking(Kind kind, int64_t buckets,
                                                             const WindowLayout& layout,
                                                             arrow::MemoryPool* pool) {
  arrow::Int32Builder builder(pool);
  ARROW_RETURN_NOT_OK(builder.Reserve(layout.num_rows));
  int32_t dense = 0;
  for (int64_t i = 0; i < layout.num_rows; ++i) {
    const int64_t first = layout.partition_begin[i];
    const int64_t position = i - first;
    if (i == first) dense = 0;
    if (i == layout.peer_begin[i]) ++dense;
    int64_t value = 0;
    switch (kind) {
      case Kind::kRowNumber:
        value = position + 1;
        break;
      case Kind::kRank:
        value = layout.peer_begin[i] - first + 1;
        break;
      case Kind::kDenseRank:
        value = dense;
        break;
      default: {  // kNtile: the first (size % buckets) buckets hold one row more
        const int64_t size = layout.partition_end[i] - first;
        const int64_t base = size / buckets;
        const int64_t larger = size % buckets;
        const int64_t boundary = larger * (base + 1);
        value = position < boundary ? position / (base + 1) + 1
                                    : larger + (position - boundary) / base + 1;
        break;
      }
    }
    builder.UnsafeAppend(static_cast<int32_t>(value));
  }
  return builder.Finish();
}

// percent_rank and cume_dist: fractions of the partition.
arrow::Result<std::shared_ptr<arrow::Array>> EvaluateDistribution(Kind kind,
                                                                  const WindowLayout& layout,
                                                                  arrow::MemoryPool* pool) {
  arrow::DoubleBuilder builder(pool);
  ARROW_RETURN_NOT_OK(builder.Reserve(layout.num_rows));
  for (int64_t i = 0; i < layout.num_rows; ++i) {
    const int64_t first = layout.partition_begin[i];
    const double size = static_cast<double>(layout.partition_end[i] - first);
    if (kind == Kind::kCumeDist) {
      builder.UnsafeAppend(static_cast<double>(layout.peer_end[i] - first) / size);
    } else {
      builder.UnsafeAppend(size <= 1 ? 0.0
                                     : static_cast<double>(layout.peer_begin[i] - first) /
                                           (size - 1));
    }
  }
  return builder.Finish();
}

// lag and lead: the value `offset` rows away within the partition (counting only non-null
// values with IGNORE NULLS), else the default evaluated at the current row.
arrow::Result<std::shared_ptr<arrow::Array>> EvaluateOffset(const plan::WindowFunction& function,
                                                            const arrow::RecordBatch& sorted,
                                                            const WindowLayout& layout,
                                                            const expr::EvalContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto input, expr::EvaluateToArray(*function.args[0], sorted, context));
  ARROW_ASSIGN_OR_RAISE(auto fallback,
                        expr::EvaluateToArray(*function.args[1], sorted, context));
  const int64_t n = layout.num_rows;
  arrow::Int64Builder indices(context.pool);
  arrow::BooleanBuilder found(context.pool);
  ARROW_RETURN_NOT_OK(indices.Reserve(n));
  ARROW_RETURN_NOT_OK(found.Reserve(n));
  const int64_t offset = function.offset;
  std::vector<int64_t> non_null;  // positions of the partition's non-null values
  for (int64_t i = 0; i < n; ++i) {
    const int64_t first = layout.partition_begin[i];
    const int64_t last = layout.partition_end[i];
    int64_t target = -1;
    if (!function.ignore_nulls || offset == 0) {
      const int64_t j = i + offset;
      if (j >= first && j < last) target = j;
    } else {
      if (i == first) {
        non_null.clear();
        for (int64_t j = first; j < last; ++j) {
          if (input->IsValid(j)) non_null.push_back(j);
        }
      }
      if (offset < 0) {
        const auto before = std::lower_bound(non_null.begin(), non_null.end(), i);
        const int64_t k = (before - non_null.begin()) + offset;
        if (k >= 0) target = non_null[k];
      } else {
        const auto after = std::upper_bound(non_null.begin(), non_null.end(), i);
        const int64_t k = (after - non_null.begin()) + offset - 1;
        if (k < static_cast<int64_t>(non_null.size())) target = non_null[k];
      }
    }
    indices.UnsafeAppend(target < 0 ? 0 : target);
    found.UnsafeAppend(target >= 0);
  }
  ARROW_ASSIGN_OR_RAISE(auto index_array, indices.Finish());
  ARROW_ASSIGN_OR_RAISE(auto mask, found.Finish());
  ARROW_ASSIGN_OR_RAISE(auto taken, cp::Take(input, index_array));
  ARROW_ASSIGN_OR_RAISE(auto values, cp::IfElse(mask, taken, fallback));
  return values.make_array();
}

// nth_value: the n-th row of the frame (the n-th non-null value with IGNORE NULLS), or null.
arrow::Result<std::shared_ptr<arrow::Array>> EvaluateNthValue(const plan::WindowFunction& function,
                                                              const arrow::RecordBatch& sorted,
                                                              const WindowLayout& layout,
                                                              const expr::EvalContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto input, expr::EvaluateToArray(*function.args[0], sorted, context));
  ARROW_ASSIGN_OR_RAISE(auto frames, ComputeFrames(function.frame, layout));
  arrow::Int64Builder indices(context.pool);
  ARROW_RETURN_NOT_OK(indices.Reserve(layout.num_rows));
  for (int64_t i = 0; i < layout.num_rows; ++i) {
    int64_t target = -1;
    if (!function.ignore_nulls) {
      if (frames.begin[i] + function.offset - 1 < frames.end[i]) {
        target = frames.begin[i] + function.offset - 1;
      }
    } else {
      int64_t seen = 0;
      for (int64_t j = frames.begin[i]; j < frames.end[i]; ++j) {
        if (input->IsValid(j) && ++seen == function.offset) {
          target = j;
          break;
        }
      }
    }
    if (target < 0) {
      indices.UnsafeAppendNull();
    } else {
      indices.UnsafeAppend(target);
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto index_array, indices.Finish());
  ARROW_ASSIGN_OR_RAISE(auto values, cp::Take(input, index_array));
  return values.make_array();
}

}  // namespace

arrow::Result<std::shared_ptr<arrow::Array>> EvaluateWindowFunction(
    const plan::WindowFunction& function, const arrow::RecordBatch& sorted,
    const WindowLayout& layout, const expr::EvalContext& context) {
  switch (function.kind) {
    case Kind::kRowNumber:
    case Kind::kRank:
    case Kind::kDenseRank:
    case Kind::kNtile:
      return EvaluateRanking(function.kind, function.offset, layout, context.pool);
    case Kind::kPercentRank:
    case Kind::kCumeDist:
      return EvaluateDistribution(function.kind, layout, context.pool);
    case Kind::kLag:
      return EvaluateOffset(function, sorted, layout, context);
    case Kind::kNthValue:
      return EvaluateNthValue(function, sorted, layout, context);
    case Kind::kAggregate:
      return EvaluateAggregate(function, sorted, layout, context);
  }
  return arrow::Status::Invalid("unknown window function");
}

}  // namespace sluice::physical
