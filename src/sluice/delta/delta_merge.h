// MERGE INTO a Delta table (DeltaTable.merge): the rows of a source matched against the table
// by a condition, then updated, deleted or inserted by the first WHEN clause that applies, as
// Delta's rules say. Copy-on-write: the files holding at least one matched row are rewritten
// (their other rows copied), inserts go to new files, and one commit removes the rewritten
// files and adds the new ones. Joins and expressions are the engine's own.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <arrow/result.h>

#include "sluice/delta/delta_log.h"
#include "sluice/delta/delta_write.h"
#include "sluice/expr/eval_context.h"
#include "sluice/expr/expression.h"
#include "sluice/formats/file_format.h"
#include "sluice/plan/analysis_context.h"
#include "sluice/plan/logical_plan.h"

namespace sluice::delta {

/// One WHEN clause of a MERGE.
struct MergeClause {
  enum class Action { kUpdate, kDelete, kInsert };
  Action action = Action::kUpdate;
  /// The clause's own condition (AND-ed with being matched or not); null for none.
  expr::ExprPtr condition;
  /// kUpdate / kInsert: target column (optionally qualified by the target alias) and its new
  /// value, as given. Columns an update leaves out keep their value; columns an insert leaves
  /// out are null.
  std::vector<std::pair<std::string, expr::ExprPtr>> assignments;
  /// updateAll / insertAll: every target column takes the source column of the same name.
  bool all = false;
};

/// A MERGE statement.
struct MergeSpec {
  /// The name the target's columns are qualified by in expressions ("t"); empty for none.
  std::string target_alias;
  /// The source rows: an analyzed batch plan (its alias, if any, qualifies its columns).
  plan::PlanPtr source;
  /// The merge condition, over target and source columns.
  expr::ExprPtr condition;
  /// WHEN MATCHED clauses (update, delete), in order: the first whose condition holds applies.
  std::vector<MergeClause> matched;
  /// WHEN NOT MATCHED clauses (insert), in order; they may read only source columns.
  std::vector<MergeClause> not_matched;
};

/// Delta's operation metrics of a MERGE (commitInfo.operationMetrics).
struct MergeMetrics {
  int64_t source_rows = 0;
  int64_t target_rows_updated = 0;
  int64_t target_rows_deleted = 0;
  int64_t target_rows_inserted = 0;
  int64_t target_rows_copied = 0;
  int64_t target_files_removed = 0;
  int64_t target_files_added = 0;
  int64_t target_bytes_removed = 0;
  int64_t target_bytes_added = 0;
  /// The files the table had, and those left to read once statistics ruled out the others.
  int64_t target_files_before_skipping = 0;
  int64_t target_files_after_skipping = 0;
  int64_t execution_time_ms = 0;
  int64_t scan_time_ms = 0;
  int64_t rewrite_time_ms = 0;

  /// The metrics under Delta's names (numTargetRowsUpdated, ...), as strings.
  std::map<std::string, std::string> ToOperationMetrics() const;
};

/// What a MERGE did.
struct MergeResult {
  /// The version committed; nullopt when the merge changed nothing (Delta commits nothing
  /// then).
  std::optional<int64_t> version;
  MergeMetrics metrics;
  /// The paths (as in the log) of the files the commit removed, and the files it added.
  std::vector<std::string> removed_files;
  std::vector<AddFile> added_files;
};

/// What a MERGE runs with: the session's analysis and evaluation settings, how the target is
/// read, and how its new files are written (the `parquet` writer, `zone` and `now_ms` of
/// `write`; its other fields are ignored).
struct MergeContext {
  plan::AnalysisContext analysis;
  expr::EvalContext eval;
  formats::FormatContext format;
  WriteOptions write;
};

/// Runs `spec` against the latest version of the table at `log` and commits the result as one
/// version (operation MERGE). The source is read once. Errors, with nothing committed:
/// DELTA_MERGE_UNRESOLVED_EXPRESSION naming an expression (or an assigned column) that does
/// not resolve and the clause it is in; DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE
/// when a target row matches two source rows (unless the only matched clause is an
/// unconditional delete); DELTA_CONCURRENT_DELETE_READ / DELTA_CONCURRENT_DELETE_DELETE /
/// DELTA_CONCURRENT_APPEND / DELTA_METADATA_CHANGED when a concurrent commit removed a file
/// this merge read, or added rows it should have read, or changed the table's schema; the
/// table's protocol and append-only errors.
arrow::Result<MergeResult> Merge(const DeltaLog& log, const MergeSpec& spec,
                                 const MergeContext& context);

}  // namespace sluice::delta
