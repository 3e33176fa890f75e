// The /metrics endpoint: the session's streaming queries in Prometheus' text exposition format
// (version 0.0.4), one series per query run labelled by id, run_id and name.
#pragma once

#include <string>
#include <vector>

#include "sluice/server/query_history.h"

namespace sluice::server {

/// The content type the text format is served with.
inline constexpr const char* kPrometheusContentType = "text/plain; version=0.0.4; charset=utf-8";

/// The metrics of `runs`: counters totalled over each run (batches, input rows, output rows,
/// rows dropped by watermark), gauges from its latest progress report (rates, batch duration,
/// input rows of the batch, the watermark's gap behind the batch time, per-operator state rows
/// and memory) and whether it is active. Families are printed even with no run, so a scraper
/// sees what exists.
std::string PrometheusMetricsText(const std::vector<QueryRun>& runs);

}  // namespace sluice::server
