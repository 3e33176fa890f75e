// VACUUM of a Delta table: deleting the data files that no version within the retention period
// references any more, so that time travel within it keeps working.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <arrow/result.h>

#include "sluice/delta/delta_log.h"

namespace sluice::delta {

/// Delta's default retention (delta.deletedFileRetentionDuration): 7 days.
inline constexpr double kDefaultRetentionHours = 168;

/// Deletes the files under the table folder (outside _delta_log and hidden `_`/`.` entries)
/// that the latest version does not reference, that no remove action newer than
/// `now_ms - retention_ms` removed (versions within the retention still reference those), and
/// that are older than that themselves (a write in progress is never deleted), then the
/// folders left empty. Returns the deleted files' paths relative to the table, sorted.
/// Takes no commit. Refuses tables this engine cannot write.
arrow::Result<std::vector<std::string>> Vacuum(const DeltaLog& log, int64_t retention_ms,
                                               int64_t now_ms);

}  // namespace sluice::delta
