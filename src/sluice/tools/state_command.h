// `sluice state`: the rows of one state store of a checkpoint at a batch, read through the
// "statestore" batch format (Spark's state data source), shown as a table or written to
// Parquet.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include <arrow/result.h>
#include <arrow/status.h>

#include "sluice/api/session.h"

namespace sluice::tools {

/// Which state to read: the options of read.format("statestore").load(checkpoint).
struct StateSelection {
  std::string checkpoint;
  /// operatorId.
  int64_t operator_id = 0;
  /// storeName; unset reads "default".
  std::optional<std::string> store_name;
  /// joinSide ("left" or "right"): the rows a side of a stream-stream join keeps.
  std::optional<std::string> join_side;
  /// batchId; unset reads the last committed batch (state version batch id + 1).
  std::optional<int64_t> batch_id;
};

/// The state rows as a DataFrame with Spark's columns key (struct), value (struct) and
/// partition_id (int), decoded with the schemas the operator recorded; an error (Spark's
/// STDS_* classes) names the operator, store, batch or file that was wrong.
DataFrame ReadState(const SparkSession& session, const StateSelection& selection);

/// Prints a line naming the operator, store, batch and state version and the number of rows,
/// then the first `limit` rows as show() lays them out, without cutting cells.
arrow::Status PrintState(const SparkSession& session, const StateSelection& selection,
                         int limit, std::ostream& out);

/// Writes every row to the Parquet file `path`, which must not exist yet; the file appears
/// only once complete. Returns the number of rows written.
arrow::Result<int64_t> WriteStateParquet(const SparkSession& session,
                                         const StateSelection& selection,
                                         const std::string& path);

}  // namespace sluice::tools
