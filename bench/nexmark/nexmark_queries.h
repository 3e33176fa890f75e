// The Nexmark queries the engine runs, each in the DataFrame API and in SQL, over the "nexmark"
// source. Their texts follow the Flink suite's (nexmark/nexmark), written as Spark writes them:
// the views person, auction and bid select an event type's fields and the event's dateTime,
// which carries a watermark of 4 seconds, as the suite's table does.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <arrow/result.h>

#include "sluice/api/dataframe.h"
#include "sluice/api/session.h"

namespace sluice::bench::nexmark {

struct Query {
  std::string name;         // "q0"
  std::string description;  // what it computes
  /// The query over the source's events, in the DataFrame API.
  DataFrame (*dataframe)(const DataFrame& events);
  /// The same in SQL, over the temporary views person, auction and bid.
  std::string sql;
  /// Whether it keeps state (then it runs with each state store provider).
  bool stateful = false;
  /// The output mode it runs in.
  std::string output_mode = "append";
};

/// Every query the engine runs. The suite's others, and why they are not here:
///   q4, q6, q9, q18, q19  an aggregation over an aggregation's updated results (q4) or a
///                         ROW_NUMBER / OVER window (top-N, "keep the last row"): Spark's
///                         streaming queries have neither, and Sluice refuses them as Spark does
///   q15, q16              COUNT(DISTINCT ...) in a streaming aggregation, which Spark refuses
const std::vector<Query>& Queries();

/// Registers the views person, auction and bid over `events` for the SQL texts.
arrow::Status RegisterViews(const DataFrame& events);

}  // namespace sluice::bench::nexmark
