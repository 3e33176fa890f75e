// A Delta table's history (DeltaTable.history()): the commitInfo of each version, newest first,
// as the columns Delta shows that this engine's commitInfo holds.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/delta/delta_actions.h"
#include "sluice/delta/delta_log.h"

namespace sluice::delta {

/// One version in the history.
struct HistoryEntry {
  int64_t version = 0;
  /// When the version was committed (milliseconds since the epoch): its commit file's
  /// modification time, made increasing over versions as Delta makes it.
  int64_t timestamp_ms = 0;
  /// The commit's commitInfo (empty fields when it has none).
  CommitInfo info;
};

/// The newest `limit` versions of the table (all when nullopt), newest first. Versions whose
/// commit files were cleaned up (older than a checkpoint) are not listed.
/// DELTA_TABLE_NOT_FOUND when there is no table.
arrow::Result<std::vector<HistoryEntry>> ReadHistory(const DeltaLog& log,
                                                     std::optional<int64_t> limit);

/// `entries` as a table with Delta's history columns: version bigint, timestamp timestamp,
/// operation string, operationParameters map<string,string>, readVersion bigint,
/// isolationLevel string, isBlindAppend boolean, operationMetrics map<string,string>,
/// engineInfo string.
arrow::Result<std::shared_ptr<arrow::Table>> HistoryTable(
    const std::vector<HistoryEntry>& entries);

}  // namespace sluice::delta
