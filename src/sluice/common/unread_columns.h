// Columns nothing reads, in place of their values: a file scan's columns and struct fields
// that the query does not read, an operator's outputs that nothing above reads. They keep a
// batch's layout (the plan's schema) without reading, computing or copying the values.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <arrow/array.h>
#include <arrow/memory_pool.h>
#include <arrow/result.h>

namespace sluice {

/// Nulls for unread columns. One array of nulls is made per type, as long as the longest
/// batch so far, and each batch gets a slice of it: the nulls are allocated and zeroed once
/// per reader or operator instead of once per batch (7.6% of Nexmark q1's instructions went
/// into making them anew). Not thread-safe: one per reader or operator.
class UnreadColumns {
 public:
  explicit UnreadColumns(arrow::MemoryPool* pool = arrow::default_memory_pool()) : pool_(pool) {}

  /// `rows` nulls of `type`.
  arrow::Result<std::shared_ptr<arrow::Array>> Get(const std::shared_ptr<arrow::DataType>& type,
                                                   int64_t rows);

 private:
  arrow::MemoryPool* pool_;
  std::vector<std::shared_ptr<arrow::Array>> made_;
};

}  // namespace sluice
