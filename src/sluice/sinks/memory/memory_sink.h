// Spark's memory sink: the rows of a query kept in memory as a table named by queryName, for
// tests and interactive use.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/plan/data_source.h"
#include "sluice/sinks/stream_sink.h"

namespace sluice::sinks {

/// The rows a memory sink received, readable as a batch table at any time (each Open() sees
/// the rows of the batches committed so far). Thread-safe.
class MemoryTable final : public plan::DataSource {
 public:
  MemoryTable(std::string name, std::shared_ptr<arrow::Schema> schema)
      : name_(std::move(name)), schema_(std::move(schema)) {}

  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }
  std::string Describe() const override { return "MemorySink[" + name_ + "]"; }
  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> Open() const override;

  /// Adds batch `batch_id`'s rows unless that batch was added already (a replay after a
  /// restart); with `replace`, the rows replace everything (complete mode). False if skipped.
  bool AddBatch(int64_t batch_id, std::vector<std::shared_ptr<arrow::RecordBatch>> rows,
                bool replace);
  /// All rows, in batch order.
  arrow::Result<std::shared_ptr<arrow::Table>> ToTable() const;
  /// The rows of the last batch added.
  arrow::Result<std::shared_ptr<arrow::Table>> LastBatch() const;
  int64_t latest_batch_id() const;

 private:
  std::string name_;
  std::shared_ptr<arrow::Schema> schema_;
  mutable std::mutex mutex_;
  int64_t latest_batch_id_ = -1;
  std::vector<std::shared_ptr<arrow::RecordBatch>> rows_;
  std::vector<std::shared_ptr<arrow::RecordBatch>> last_batch_;
};

/// The sink writing into a MemoryTable. Counts its output rows.
std::unique_ptr<StreamSink> MakeMemorySink(std::shared_ptr<MemoryTable> table);

}  // namespace sluice::sinks
