#include "sluice/tools/checkpoint_report.h"

#include <algorithm>
#include <filesystem>

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/checkpoint/batch_log.h"
#include "sluice/checkpoint/checkpoint_paths.h"
#include "sluice/sources/file/file_source_offset.h"
#include "sluice/sources/file/file_stream_source_log.h"
#include "sluice/sources/kafka/kafka_initial_offsets.h"
#include "sluice/sources/kafka/kafka_offset_json.h"
#include "sluice/state/state_file_format.h"
#include "sluice/state/state_store.h"

namespace sluice::tools {

namespace fs = std::filesystem;

namespace {

/// The pinned setting that fixes the state format of an operator Spark names `operator_name`,
/// or nullptr when its format is not a setting.
const char* StateFormatKey(const std::string& operator_name) {
  if (operator_name == "stateStoreSave") {
    return "spark.sql.streaming.aggregation.stateFormatVersion";
  }
  if (operator_name == "symmetricHashJoin") return "spark.sql.streaming.join.stateFormatVersion";
  if (operator_name == "flatMapGroupsWithState") {
    return "spark.sql.streaming.flatMapGroupsWithState.stateFormatVersion";
  }
  return nullptr;
}

/// Every entry of a log parsed, so that a damaged one is reported naming its file; returns
/// the entry of `wanted`.
template <typename Entry, typename Parse>
arrow::Result<std::optional<Entry>> ParseEntries(const checkpoint::BatchLog& log,
                                                 const std::vector<int64_t>& batch_ids,
                                                 std::optional<int64_t> wanted, Parse parse) {
  std::optional<Entry> found;
  for (int64_t batch_id : batch_ids) {
    ARROW_ASSIGN_OR_RAISE(auto contents, log.Get(batch_id));
    if (!contents) {
      return checkpoint::MalformedLogFile(log.PathOf(batch_id),
                                          "it disappeared while it was read");
    }
    ARROW_ASSIGN_OR_RAISE(Entry entry, parse(*contents, log.PathOf(batch_id)));
    if (wanted && batch_id == *wanted) found = std::move(entry);
  }
  return found;
}

/// What the folder of source `index` holds, read by that source's own log reader once its
/// offsets say which source it is.
arrow::Result<SourceReport> ReadSource(const checkpoint::CheckpointPaths& paths, int index,
                                       std::optional<std::string> latest_offset) {
  SourceReport source;
  source.index = index;
  source.latest_offset = std::move(latest_offset);
  const std::string folder = paths.source(index);
  ARROW_ASSIGN_OR_RAISE(source.metadata_batches, checkpoint::BatchLog(folder).BatchIds());
  if (!source.latest_offset) return source;
  const std::string& offset = *source.latest_offset;
  // A file source's offset is {"logOffset":N}; a bare number is another source's.
  if (offset.starts_with("{") && sources::ParseFileSourceOffset(offset).ok()) {
    ARROW_ASSIGN_OR_RAISE(auto log, sources::FileStreamSourceLog::Open(
                                        folder, sources::kDefaultSourceLogCompactInterval));
    ARROW_ASSIGN_OR_RAISE(auto entries, log->Restore());
    source.files_admitted = static_cast<int64_t>(entries.size());
  } else if (sources::kafka::ParsePartitionOffsets(offset).ok()) {
    checkpoint::BatchLog log(folder);
    ARROW_ASSIGN_OR_RAISE(auto contents, log.Get(0));
    if (contents) {
      ARROW_ASSIGN_OR_RAISE(auto initial,
                            sources::kafka::ParseInitialOffsetsFile(*contents, log.PathOf(0)));
      source.kafka_initial_offsets = sources::kafka::PartitionOffsetsJson(initial);
    }
  }
  return source;
}

/// The ids of the folders state/<N>: every operator that wrote state, whether or not its
/// metadata is intact.
arrow::Result<std::vector<int64_t>> StateOperatorFolders(const checkpoint::CheckpointPaths& paths) {
  std::vector<int64_t> ids;
  std::error_code error;
  if (!fs::exists(paths.state(), error)) return ids;
  for (const auto& entry : fs::directory_iterator(paths.state(), error)) {
    if (!entry.is_directory(error)) continue;
    if (auto id = checkpoint::BatchIdOfFileName(entry.path().filename().string())) {
      ids.push_back(*id);
    }
  }
  if (error) {
    return arrow::Status::IOError("Cannot list the state folder ", paths.state(), ": ",
                                  error.message());
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

arrow::Result<int64_t> BytesUnder(const std::string& folder) {
  int64_t bytes = 0;
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(folder, error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (it->is_regular_file(error)) bytes += static_cast<int64_t>(it->file_size(error));
  }
  if (error) {
    return arrow::Status::IOError("Cannot measure the state folder ", folder, ": ",
                                  error.message());
  }
  return bytes;
}

arrow::Result<StateOperatorReport> ReadStateOperator(const checkpoint::CheckpointPaths& paths,
                                                     int64_t operator_id,
                                                     const CheckpointReport& report) {
  StateOperatorReport op;
  ARROW_ASSIGN_OR_RAISE(op.info, state::ReadOperatorMetadata(paths, operator_id));
  if (const char* key = StateFormatKey(op.info.operator_name)) {
    if (auto value = report.PinnedSetting(key)) op.state_format.emplace(key, *value);
  }
  for (int32_t partition = 0; partition < op.info.num_partitions; ++partition) {
    for (const auto& store : op.info.stores) {
      state::StateStoreId id;
      id.operator_id = operator_id;
      id.partition_id = partition;
      id.store_name = store.store_name;
      ARROW_ASSIGN_OR_RAISE(auto listing,
                            state::ListStateFolder(state::StateStoreFolder(paths, id)));
      for (const auto* versions : {&listing.deltas, &listing.snapshots, &listing.changelogs}) {
        if (versions->empty()) continue;
        op.latest_version = std::max(op.latest_version.value_or(0), *versions->rbegin());
      }
    }
  }
  ARROW_ASSIGN_OR_RAISE(op.bytes_on_disk,
                        BytesUnder(paths.state() + "/" + std::to_string(operator_id)));
  return op;
}

}  // namespace

std::optional<std::string> CheckpointReport::PinnedSetting(const std::string& key) const {
  if (!latest_offsets) return std::nullopt;
  for (const auto& [pinned_key, value] : latest_offsets->metadata.conf) {
    if (pinned_key == key) return value;
  }
  return std::nullopt;
}

arrow::Result<CheckpointReport> ReadCheckpointReport(const std::string& root) {
  CheckpointReport report;
  report.root = root;
  checkpoint::CheckpointPaths paths(root);
  std::error_code error;
  if (!fs::is_directory(root, error)) {
    return arrow::Status::IOError("The checkpoint folder ", root, " does not exist.");
  }
  if (!fs::exists(paths.metadata(), error)) {
    return arrow::Status::IOError("The checkpoint metadata file ", paths.metadata(),
                                  " does not exist: ", root,
                                  " is not a streaming checkpoint, or its query never started.");
  }
  ARROW_ASSIGN_OR_RAISE(auto metadata, checkpoint::ReadWholeFile(paths.metadata()));
  ARROW_ASSIGN_OR_RAISE(report.query_id,
                        checkpoint::ParseQueryMetadata(metadata, paths.metadata()));

  checkpoint::BatchLog offsets(paths.offsets());
  checkpoint::BatchLog commits(paths.commits());
  ARROW_ASSIGN_OR_RAISE(report.offsets_batches, offsets.BatchIds());
  ARROW_ASSIGN_OR_RAISE(report.commit_batches, commits.BatchIds());
  checkpoint::LogHeads heads;
  if (!report.offsets_batches.empty()) heads.latest_offsets = report.offsets_batches.back();
  if (!report.commit_batches.empty()) heads.latest_commit = report.commit_batches.back();
  ARROW_ASSIGN_OR_RAISE(report.resume, checkpoint::DecideResumePoint(heads, root));
  report.latest_batch = heads.latest_offsets;
  ARROW_ASSIGN_OR_RAISE(report.latest_offsets,
                        ParseEntries<checkpoint::OffsetSeq>(offsets, report.offsets_batches,
                                                            report.latest_batch,
                                                            checkpoint::ParseOffsetSeq));
  ARROW_ASSIGN_OR_RAISE(report.latest_commit,
                        ParseEntries<checkpoint::CommitMetadata>(
                            commits, report.commit_batches, report.latest_batch,
                            checkpoint::ParseCommitMetadata));

  if (report.latest_offsets) {
    const auto& latest = report.latest_offsets->offsets;
    for (size_t i = 0; i < latest.size(); ++i) {
      ARROW_ASSIGN_OR_RAISE(auto source, ReadSource(paths, static_cast<int>(i), latest[i]));
      report.sources.push_back(std::move(source));
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto operator_ids, StateOperatorFolders(paths));
  for (int64_t id : operator_ids) {
    ARROW_ASSIGN_OR_RAISE(auto op, ReadStateOperator(paths, id, report));
    report.operators.push_back(std::move(op));
  }
  return report;
}

}  // namespace sluice::tools
