// Delta log checkpoints: the whole state of a table at a version in one Parquet file
// (`_delta_log/<version>.checkpoint.parquet`, one action per row, a column per action kind),
// pointed to by `_delta_log/_last_checkpoint`, so that readers replay at most the commits since
// it instead of the whole log.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <arrow/result.h>

#include "sluice/delta/delta_actions.h"
#include "sluice/delta/delta_log.h"

namespace sluice::delta {

/// Delta's default checkpoint interval (the table property delta.checkpointInterval).
inline constexpr int64_t kDefaultCheckpointInterval = 10;

/// The newest complete checkpoint at or before `version` (single-file or multi-part), found
/// through _last_checkpoint when it points at or before `version`, otherwise by listing the
/// log folder. nullopt when there is none.
arrow::Result<std::optional<int64_t>> FindCheckpoint(const DeltaLog& log, int64_t version);

/// The actions of the checkpoint at `version` (protocol, metaData, txn, add; remove tombstones
/// are left out). DELTA_LOG_FILE_CORRUPT naming the file when it cannot be read.
arrow::Result<std::vector<Action>> ReadCheckpoint(const DeltaLog& log, int64_t version);

/// Writes the checkpoint of `snapshot` (written durably under a temporary name, then renamed)
/// and then points _last_checkpoint at it. Safe to repeat: an existing checkpoint of the same
/// version is replaced by an identical one.
arrow::Status WriteCheckpoint(const DeltaLog& log, const Snapshot& snapshot);

}  // namespace sluice::delta
