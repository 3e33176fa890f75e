// Conversions between RocksDB's slices and statuses and the engine's, shared by the RocksDB
// provider's files.
#pragma once

#include <string>
#include <string_view>

#include <arrow/status.h>
#include <rocksdb/slice.h>
#include <rocksdb/status.h>

namespace sluice::state {

inline rocksdb::Slice ToSlice(std::string_view bytes) { return {bytes.data(), bytes.size()}; }
inline std::string_view ToView(const rocksdb::Slice& bytes) {
  return {bytes.data(), bytes.size()};
}

/// OK, or an IOError of `what` followed by RocksDB's message.
inline arrow::Status FromRocksDb(const rocksdb::Status& status, const std::string& what) {
  if (status.ok()) return arrow::Status::OK();
  return arrow::Status::IOError(what, ": ", status.ToString());
}

}  // namespace sluice::state
