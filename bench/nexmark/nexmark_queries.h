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
};

/// Every query the engine runs.
const std::vector<Query>& Queries();

/// Registers the views person, auction and bid over `events` for the SQL texts.
arrow::Status RegisterViews(const DataFrame& events);

}  // namespace sluice::bench::nexmark
