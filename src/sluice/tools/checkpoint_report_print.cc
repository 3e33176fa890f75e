// The checkpoint report as text for a reader and as JSON for scripts.
#include "sluice/tools/checkpoint_report.h"

#include <ostream>

#include "sluice/common/json_writer.h"
#include "sluice/execution/iso_timestamp.h"
#include "sluice/types/ddl_writer.h"

namespace sluice::tools {

namespace {

constexpr const char* kProviderKey = "spark.sql.streaming.stateStore.providerClass";

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
  const auto provider = report.PinnedSetting(kProviderKey);
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
    if (auto provider = report.PinnedSetting(kProviderKey)) {
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
