// The web UI's JSON API: what /api/v1/queries and /api/v1/queries/<runId> answer.
#pragma once

#include <string>
#include <vector>

#include "sluice/server/query_history.h"

namespace sluice::server {

/// The runs as a JSON array, each {id, runId, name, status, startTimestamp, endTimestamp,
/// exception, errorClass, numBatches, numInputRows, numOutputRows, numRowsDroppedByWatermark,
/// avgInputRowsPerSecond, avgProcessedRowsPerSecond, lastProgress}: totals over the run, rates
/// averaged over the retained reports, and the latest report in Spark's progress JSON (or
/// null).
std::string QueryRunsJson(const std::vector<QueryRun>& runs);

/// One run as above, with `recentProgress`, the retained reports oldest first, in place of
/// `lastProgress`.
std::string QueryRunJson(const QueryRun& run);

}  // namespace sluice::server
