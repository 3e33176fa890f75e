#include "sluice/tools/checkpoint_report.h"

#include <algorithm>
#include <filesystem>

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/checkpoint/batch_log.h"
#include "sluice/checkpoint/checkpoint_paths.h"
#include "sluice/common/json_writer.h"
#include "sluice/execution/iso_timestamp.h"
#include "sluice/sources/file/file_source_offset.h"
#include "sluice/sources/file/file_stream_source_log.h"
#include "sluice/sources/kafka/kafka_initial_offsets.h"
#include "sluice/sources/kafka/kafka_offset_json.h"
#include "sluice/state/state_file_format.h"
#include "sluice/state/state_store.h"
#include "sluice/types/ddl_writer.h"

namespace sluice::tools {

namespace fs = std::filesystem;

namespace {

constexpr const char* kProviderKey = "spark.sql.streaming.stateStore.providerClass";

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

std::optional<std::string> PinnedValue(const CheckpointReport& report, const std::string& key) {
  if (!report.latest_offsets) return std::nullopt;
  for (const auto& [pinned_key, value] : report.latest_offsets->metadata.conf) {
    if (pinned_key == key) return value;
  }
  return std::nullopt;
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
    if (auto value = PinnedValue(report, key)) op.state_format.emplace(key, *value);
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

std::string Timestamp(int64_t epoch_ms) {
  return execution::FormatIsoTimestamp(epoch_ms) + " (" + std::to_string(epoch_ms) + ")";
}

/// The last part of a provider's Java class name.
std::string ShortClassName(const std::string& class_name) {
  const auto dot = class_name.rfind('.');
  return dot == std::string::npos ? class_name : class_name.substr(dot + 1);
}

std::string StoresText(const state::StateOperatorInfo& info) {
  std::string text;
  for (const auto& store : info.stores) {
    if (!text.empty()) text += "\n                ";
    text += store.store_name + " (key: " + types::ToDdl(*store.key_schema) +
            "; value: " + types::ToDdl(*store.value_schema) + ")";
  }
  return text;
}

}  // namespace

std::string BatchRanges(const std::vector<int64_t>& batch_ids) {
  if (batch_ids.empty()) return "none";
  std::string text;
  size_t start = 0;
  for (size_t i = 1; i <= batch_ids.size(); ++i) {
    if (i < batch_ids.size() && batch_ids[i] == batch_ids[i - 1] + 1) continue;
    if (!text.empty()) text += ", ";
    text += std::to_string(batch_ids[start]);
    if (i - 1 > start) text += "-" + std::to_string(batch_ids[i - 1]);
    start = i;
  }
  return text;
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

void PrintCheckpointReport(const CheckpointReport& report, std::ostream& out) {
  out << "Checkpoint  " << report.root << "\n";
  out << "Query id    " << report.query_id << "\n";
  out << "Batches     offsets " << BatchRanges(report.offsets_batches) << ", commits "
      << BatchRanges(report.commit_batches) << "\n";
  out << "Restart     ";
  if (report.resume.rerun) {
    out << "re-runs batch " << report.resume.next_batch_id
        << " (it has offsets but no commit) with its logged offsets, timestamp and watermark\n";
  } else {
    out << "no batch to re-run; the next batch is " << report.resume.next_batch_id << "\n";
  }
  if (report.latest_offsets) {
    const auto& metadata = report.latest_offsets->metadata;
    out << "\nLatest batch " << *report.latest_batch << "\n";
    out << "  timestamp        " << Timestamp(metadata.batch_timestamp_ms) << "\n";
    out << "  watermark        " << Timestamp(metadata.batch_watermark_ms) << "\n";
    if (report.latest_commit) {
      out << "  next watermark   " << Timestamp(report.latest_commit->next_batch_watermark_ms)
          << " (committed)\n";
    }
    for (const auto& source : report.sources) {
      out << "  source " << source.index << " offset  " << source.latest_offset.value_or("-")
          << "\n";
    }
    out << "\nPinned settings\n";
    for (const auto& [key, value] : metadata.conf) out << "  " << key << " = " << value << "\n";
  }
  if (!report.sources.empty()) {
    out << "\nSources\n";
    for (const auto& source : report.sources) {
      out << "  " << source.index << "  sources/" << source.index << ": ";
      if (source.metadata_batches.empty()) {
        out << "no entries";
      } else {
        out << "entries " << BatchRanges(source.metadata_batches);
      }
      if (source.files_admitted) {
        out << "; file source log, " << *source.files_admitted << " files admitted";
      }
      if (source.kafka_initial_offsets) {
        out << "; Kafka initial offsets " << *source.kafka_initial_offsets;
      }
      out << "\n";
    }
  }
  out << "\nState operators";
  if (report.operators.empty()) out << "  none";
  out << "\n";
  const auto provider = PinnedValue(report, kProviderKey);
  for (const auto& op : report.operators) {
    out << "  " << op.info.operator_id << "  " << op.info.operator_name << "\n";
    out << "       stores     " << StoresText(op.info) << "\n";
    out << "       partitions " << op.info.num_partitions << "\n";
    if (provider) out << "       provider   " << ShortClassName(*provider) << "\n";
    if (op.state_format) {
      out << "       format     version " << op.state_format->second << " ("
          << op.state_format->first << ")\n";
    }
    out << "       version    ";
    if (op.latest_version) {
      out << *op.latest_version << " (written by batch " << *op.latest_version - 1 << ")\n";
    } else {
      out << "none written\n";
    }
    out << "       on disk    " << op.bytes_on_disk << " bytes\n";
  }
  out << std::flush;
}

std::string CheckpointReportJson(const CheckpointReport& report) {
  JsonWriter json(JsonWriter::Layout::kPretty);
  auto batches = [&](const char* key, const std::vector<int64_t>& ids) {
    json.Key(key);
    json.StartArray();
    for (int64_t id : ids) json.Int(id);
    json.EndArray();
  };
  json.StartObject();
  json.Key("checkpoint");
  json.String(report.root);
  json.Key("queryId");
  json.String(report.query_id);
  batches("offsetsBatches", report.offsets_batches);
  batches("commitBatches", report.commit_batches);
  json.Key("nextBatchId");
  json.Int(report.resume.next_batch_id);
  json.Key("rerun");
  json.Bool(report.resume.rerun);
  if (report.latest_offsets) {
    const auto& metadata = report.latest_offsets->metadata;
    json.Key("latestBatch");
    json.StartObject();
    json.Key("batchId");
    json.Int(*report.latest_batch);
    json.Key("batchTimestampMs");
    json.Int(metadata.batch_timestamp_ms);
    json.Key("batchWatermarkMs");
    json.Int(metadata.batch_watermark_ms);
    if (report.latest_commit) {
      json.Key("nextBatchWatermarkMs");
      json.Int(report.latest_commit->next_batch_watermark_ms);
    }
    json.Key("conf");
    json.StartObject();
    for (const auto& [key, value] : metadata.conf) {
      json.Key(key);
      json.String(value);
    }
    json.EndObject();
    json.EndObject();
  }
  json.Key("sources");
  json.StartArray();
  for (const auto& source : report.sources) {
    json.StartObject();
    json.Key("index");
    json.Int(source.index);
    json.Key("latestOffset");
    source.latest_offset ? json.String(*source.latest_offset) : json.Null();
    batches("metadataBatches", source.metadata_batches);
    if (source.files_admitted) {
      json.Key("filesAdmitted");
      json.Int(*source.files_admitted);
    }
    if (source.kafka_initial_offsets) {
      json.Key("kafkaInitialOffsets");
      json.String(*source.kafka_initial_offsets);
    }
    json.EndObject();
  }
  json.EndArray();
  json.Key("stateOperators");
  json.StartArray();
  for (const auto& op : report.operators) {
    json.StartObject();
    json.Key("operatorId");
    json.Int(op.info.operator_id);
    json.Key("operatorName");
    json.String(op.info.operator_name);
    json.Key("numPartitions");
    json.Int(op.info.num_partitions);
    json.Key("stores");
    json.StartArray();
    for (const auto& store : op.info.stores) {
      json.StartObject();
      json.Key("storeName");
      json.String(store.store_name);
      json.Key("keySchema");
      json.String(types::ToDdl(*store.key_schema));
      json.Key("valueSchema");
      json.String(types::ToDdl(*store.value_schema));
      json.EndObject();
    }
    json.EndArray();
    if (auto provider = PinnedValue(report, kProviderKey)) {
      json.Key("provider");
      json.String(*provider);
    }
    if (op.state_format) {
      json.Key("stateFormatVersion");
      json.String(op.state_format->second);
    }
    json.Key("latestVersion");
    op.latest_version ? json.Int(*op.latest_version) : json.Null();
    json.Key("bytesOnDisk");
    json.Int(op.bytes_on_disk);
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  return std::move(json).TakeText();
}

}  // namespace sluice::tools
