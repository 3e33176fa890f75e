#pragma once

#include <functional>
#include <map>
#include <memory>

#include <arrow/record_batch.h>
#include <arrow/result.h>

#include "sluice/expr/eval_context.h"

namespace sluice::plan {
class DataSource;
}  // namespace sluice::plan

namespace sluice::physical {

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

/// Opens the rows of one streaming source for the micro-batch being run.
using StreamInputOpener =
    std::function<arrow::Result<std::shared_ptr<arrow::RecordBatchReader>>()>;
/// The micro-batch's data of every streaming source, keyed by the plan's source object. A
/// source read twice by a plan (a self-union) is opened twice and yields the same rows.
using StreamInputs = std::map<const plan::DataSource*, StreamInputOpener>;

/// What operators read while running: the evaluation context of expressions and, in a
/// micro-batch, the data of the streaming sources. Outlives the streams built with it.
struct ExecContext {
  expr::EvalContext eval;
  /// Null for batch queries, whose sources are read whole.
  const StreamInputs* stream_inputs = nullptr;
};

/// Reads a stream to its end.
arrow::Result<std::shared_ptr<arrow::Table>> CollectTable(BatchStream& stream);

}  // namespace sluice::physical
