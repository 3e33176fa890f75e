#pragma once

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <vector>

#include <arrow/record_batch.h>
#include <arrow/result.h>

#include "sluice/expr/eval_context.h"

namespace sluice::plan {
class DataSource;
class LogicalPlan;
}  // namespace sluice::plan

namespace sluice::physical {

struct StatefulContext;

/// A running operator: yields the record batches of its output one at a time. Not thread-safe;
/// one consumer pulls. Batches are immutable once returned.
class BatchStream {
 public:
  virtual ~BatchStream() = default;

  /// The schema of every batch returned by Next().
  virtual const std::shared_ptr<arrow::Schema>& schema() const = 0;
  /// The next batch, or nullptr when the stream is exhausted.
  virtual arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() = 0;
};

using BatchStreamPtr = std::unique_ptr<BatchStream>;

/// Opens the rows of one streaming source for the micro-batch being run, for a scan that
/// reads the parts `read` of the source's schema (plan::ReadSchema; a source may return the
/// rest as nulls).
using StreamInputOpener = std::function<arrow::Result<std::shared_ptr<arrow::RecordBatchReader>>(
    const arrow::Schema& read)>;
/// The micro-batch's data of every streaming source, keyed by the plan's source object. A
/// source read twice by a plan (a self-union) is opened twice and yields the same rows.
using StreamInputs = std::map<const plan::DataSource*, StreamInputOpener>;

/// Spark's EventTimeStats: what one withWatermark operator saw of its event times in a
/// micro-batch, in milliseconds (the microseconds divided by 1000, truncated, as Spark does).
struct EventTimeStats {
  int64_t max = std::numeric_limits<int64_t>::min();
  int64_t min = std::numeric_limits<int64_t>::max();
  double avg = 0;
  int64_t count = 0;

  /// Adds the statistics of another part of the batch as Spark merges those of its
  /// partitions: the mean of the part folded in by its weight.
  void Merge(const EventTimeStats& part) {
    if (part.count == 0) return;
    if (count == 0) {
      *this = part;
      return;
    }
    max = std::max(max, part.max);
    min = std::min(min, part.min);
    count += part.count;
    avg += (part.avg - avg) * static_cast<double>(part.count) / static_cast<double>(count);
  }
};

/// The event-time statistics of a micro-batch, per withWatermark plan node.
using EventTimeObservations = std::map<const plan::LogicalPlan*, EventTimeStats>;

/// What operators read while running: the evaluation context of expressions and, in a
/// micro-batch, the data of the streaming sources. Outlives the streams built with it.
struct ExecContext {
  expr::EvalContext eval;
  /// Null for batch queries, whose sources are read whole.
  const StreamInputs* stream_inputs = nullptr;
  /// Where withWatermark operators record their batch's event times; null in batch queries,
  /// where withWatermark does nothing.
  EventTimeObservations* event_times = nullptr;
  /// In a micro-batch: run the filters Spark's optimizer would push down the plan where it
  /// would run them (plan/pushed_filters.h), so rows reach watermarks and state as in Spark.
  bool push_down_filters = false;
  /// The batch's stateful operators' context; null in batch queries, where aggregations and
  /// deduplication run over their whole input.
  const StatefulContext* stateful = nullptr;
};

/// Reads a stream to its end.
arrow::Result<std::shared_ptr<arrow::Table>> CollectTable(BatchStream& stream);

/// Reads a stream's rows in order, in slices of at most `max_rows` rows: its batches cut
/// where larger and put together (copied into `pool`) where smaller, so that an operator
/// working a slice at a time gets few slices from many small batches. A slice is read when
/// asked for, not before: the stream produces the next one (a file scan reading ahead) while
/// the operator works on this one.
class SliceReader {
 public:
  /// `stream` must outlive the reader; `max_rows` is at least 1.
  SliceReader(BatchStream& stream, int64_t max_rows, arrow::MemoryPool* pool);

  /// The next slice, or nullptr at the end, or the stream's error.
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next();

 private:
  /// The next piece of at most max_rows_ rows of the stream's batches, or nullptr at the end.
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> NextPiece();

  BatchStream& stream_;
  const int64_t max_rows_;
  arrow::MemoryPool* pool_;
  std::shared_ptr<arrow::RecordBatch> batch_;  // the batch pieces are cut from
  int64_t cut_ = 0;                            // and the rows already cut from it
  std::shared_ptr<arrow::RecordBatch> piece_;  // a piece read that the last slice had no room for
  bool ended_ = false;
};

}  // namespace sluice::physical
