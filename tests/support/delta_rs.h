// The independent Delta implementation the Delta tests check against: delta-rs (the
// `deltalake` Python package of the project's virtual environment), run through
// tests/delta/delta_rs_tool.py.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <arrow/result.h>

namespace sluice::testing {

/// A table as delta-rs reads it.
struct DeltaRsTable {
  int64_t version = -1;
  std::vector<std::string> columns;
  /// One compact JSON array per row ("[1,\"a\",null]"), sorted as strings.
  std::vector<std::string> rows;
};

/// delta-rs's read of the table at `path` (at `version`, or the latest).
arrow::Result<DeltaRsTable> DeltaRsRead(const std::string& path,
                                        std::optional<int64_t> version = std::nullopt);

/// delta-rs's transaction version of `app_id` in the table at `path`, nullopt when none.
arrow::Result<std::optional<int64_t>> DeltaRsTransactionVersion(const std::string& path,
                                                                const std::string& app_id);

/// Writes the fixture table of delta_rs_tool.py at `path` with delta-rs (four versions and a
/// checkpoint at version 2).
arrow::Status DeltaRsWriteFixture(const std::string& path);

}  // namespace sluice::testing
