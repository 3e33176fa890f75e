// What a MERGE records in the Delta log of its commit: Delta's operation name, its parameters
// (the condition and each clause) and its metrics, as Delta writes them.
#pragma once

#include <cstdint>

#include "sluice/delta/delta_actions.h"
#include "sluice/delta/delta_merge.h"

namespace sluice::delta {

/// The commitInfo of a MERGE of `spec` that read the table at `read_version`, with `metrics`.
CommitInfo MergeCommitInfo(const MergeSpec& spec, const MergeMetrics& metrics,
                           int64_t read_version, int64_t now_ms);

}  // namespace sluice::delta
