// Spark's MemoryStream: a replayable in-memory source for tests and examples. Data added with
// AddData becomes one numbered block; offsets are block numbers, so any range can be read
// again after a restart.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/sources/stream_source.h"

namespace sluice::sources {

/// A source whose data the test adds. Thread-safe: AddData may be called while a query reads.
/// Offsets are JSON numbers (Spark's LongOffset): the number of the last block, -1 before any.
class MemoryStream final : public StreamSourceProvider,
                           public std::enable_shared_from_this<MemoryStream> {
 public:
  /// `schema` uses Spark's Arrow types (see types/).
  static std::shared_ptr<MemoryStream> Make(std::shared_ptr<arrow::Schema> schema);

  /// Appends `table` as one block; returns its offset. Fails when its schema differs.
  arrow::Result<int64_t> AddData(const std::shared_ptr<arrow::Table>& table);
  /// The offset of the last block added (-1 before any).
  int64_t latest_offset() const;

  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }
  std::string Describe() const override;
  arrow::Result<std::unique_ptr<StreamSource>> CreateSource(
      const SourceContext& context) const override;

  /// The blocks after `start` up to `end` (block numbers), concatenated.
  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> Read(int64_t start,
                                                                int64_t end) const;

  explicit MemoryStream(std::shared_ptr<arrow::Schema> schema, int id)
      : schema_(std::move(schema)), id_(id) {}

 private:
  std::shared_ptr<arrow::Schema> schema_;
  int id_;
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<arrow::Table>> blocks_;
};

}  // namespace sluice::sources
