#include "sluice/delta/merge_commit_info.h"

#include <string>
#include <utility>
#include <vector>

#include "sluice/common/json_writer.h"
#include "sluice/formats/partitioned_writer.h"

namespace sluice::delta {

namespace {

const char* ActionName(MergeClause::Action action) {
  switch (action) {
    case MergeClause::Action::kUpdate:
      return "update";
    case MergeClause::Action::kDelete:
      return "delete";
    case MergeClause::Action::kInsert:
      return "insert";
  }
  return "";
}

std::string ClausesJson(const std::vector<MergeClause>& clauses) {
  JsonWriter json(JsonWriter::Layout::kCompact);
  json.StartArray();
  for (const auto& clause : clauses) {
    json.StartObject();
    if (clause.condition != nullptr) {
      json.Key("predicate");
      json.String(clause.condition->ToString());
    }
    json.Key("actionType");
    json.String(ActionName(clause.action));
    json.EndObject();
  }
  json.EndArray();
  return std::move(json).TakeText();
}

}  // namespace

CommitInfo MergeCommitInfo(const MergeSpec& spec, const MergeMetrics& metrics,
                           int64_t read_version, int64_t now_ms) {
  CommitInfo info;
  info.timestamp = now_ms;
  info.operation = "MERGE";
  JsonWriter predicate(JsonWriter::Layout::kCompact);
  predicate.StartArray();
  predicate.String(spec.condition->ToString());
  predicate.EndArray();
  info.operation_parameters = {{"predicate", std::move(predicate).TakeText()},
                               {"matchedPredicates", ClausesJson(spec.matched)},
                               {"notMatchedPredicates", ClausesJson(spec.not_matched)},
                               {"notMatchedBySourcePredicates", "[]"}};
  info.read_version = read_version;
  info.isolation_level = "WriteSerializable";
  info.is_blind_append = false;
  info.engine_info = "Sluice";
  info.txn_id = formats::RandomUuid();
  info.operation_metrics = metrics.ToOperationMetrics();
  return info;
}

std::map<std::string, std::string> MergeMetrics::ToOperationMetrics() const {
  auto text = [](int64_t value) { return std::to_string(value); };
  return {{"numSourceRows", text(source_rows)},
          {"numTargetRowsInserted", text(target_rows_inserted)},
          {"numTargetRowsUpdated", text(target_rows_updated)},
          {"numTargetRowsMatchedUpdated", text(target_rows_updated)},
          {"numTargetRowsNotMatchedBySourceUpdated", "0"},
          {"numTargetRowsDeleted", text(target_rows_deleted)},
          {"numTargetRowsMatchedDeleted", text(target_rows_deleted)},
          {"numTargetRowsNotMatchedBySourceDeleted", "0"},
          {"numTargetRowsCopied", text(target_rows_copied)},
          {"numOutputRows",
           text(target_rows_inserted + target_rows_updated + target_rows_copied)},
          {"numTargetFilesAdded", text(target_files_added)},
          {"numTargetFilesRemoved", text(target_files_removed)},
          {"numTargetBytesAdded", text(target_bytes_added)},
          {"numTargetBytesRemoved", text(target_bytes_removed)},
          {"numTargetChangeFilesAdded", "0"},
          {"executionTimeMs", text(execution_time_ms)},
          {"scanTimeMs", text(scan_time_ms)},
          {"rewriteTimeMs", text(rewrite_time_ms)}};
}

}  // namespace sluice::delta
