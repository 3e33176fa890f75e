#pragma once

#include <memory>

#include <arrow/record_batch.h>
#include <arrow/result.h>

#include "sluice/expr/eval_context.h"

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

/// What operators read while running: the evaluation context of expressions. Outlives the
/// streams built with it.
struct ExecContext {
  expr::EvalContext eval;
};

/// Reads a stream to its end.
arrow::Result<std::shared_ptr<arrow::Table>> CollectTable(BatchStream& stream);

}  // namespace sluice::physical
