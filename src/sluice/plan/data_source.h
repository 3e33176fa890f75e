#pragma once

#include <memory>
#include <string>

#include <arrow/record_batch.h>
#include <arrow/result.h>
#include <arrow/type_fwd.h>

namespace sluice::plan {

/// A table a plan reads from: in-memory data, files in a folder, and later streaming sources.
/// Implementations are immutable after construction and may be scanned many times, from any
/// thread; each Open() starts an independent scan.
class DataSource {
 public:
  virtual ~DataSource() = default;

  /// The schema of every batch the source yields (Spark's Arrow types, see types/).
  virtual std::shared_ptr<arrow::Schema> schema() const = 0;
  /// A short description for explain(), e.g. "json [path=/data/in]".
  virtual std::string Describe() const = 0;
  /// True for sources that only make sense incrementally (readStream).
  virtual bool is_streaming() const { return false; }
  /// Starts a scan of the whole table as a stream of record batches.
  virtual arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> Open() const = 0;
};

/// A DataSource over an Arrow table held in memory (createDataFrame).
class InMemorySource final : public DataSource {
 public:
  explicit InMemorySource(std::shared_ptr<arrow::Table> table) : table_(std::move(table)) {}

  std::shared_ptr<arrow::Schema> schema() const override;
  std::string Describe() const override;
  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> Open() const override;

 private:
  std::shared_ptr<arrow::Table> table_;
};

}  // namespace sluice::plan
