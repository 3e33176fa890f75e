#include "sluice/checkpoint/file_sink_log.h"

#include <filesystem>
#include <set>

#include <simdjson.h>

#include "sluice/checkpoint/batch_log.h"
#include "sluice/checkpoint/compactible_log.h"
#include "sluice/checkpoint/file_uri.h"
#include "sluice/common/json_string.h"

namespace sluice::checkpoint {

namespace fs = std::filesystem;

std::string SinkFileStatusToJson(const SinkFileStatus& status) {
  std::string out = "{\"path\":";
  AppendJsonString(status.path, &out);
  out += ",\"size\":" + std::to_string(status.size);
  out += ",\"isDir\":";
  out += status.is_dir ? "true" : "false";
  out += ",\"modificationTime\":" + std::to_string(status.modification_time);
  out += ",\"blockReplication\":" + std::to_string(status.block_replication);
  out += ",\"blockSize\":" + std::to_string(status.block_size);
  out += ",\"action\":";
  AppendJsonString(status.action, &out);
  out += "}";
  return out;
}

arrow::Result<SinkFileStatus> ParseSinkFileStatus(std::string_view json,
                                                  const std::string& log_path) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(json.data(), json.size()).get(root) != simdjson::SUCCESS ||
      !root.is_object()) {
    return MalformedLogFile(log_path, "the line '" + std::string(json) + "' is not JSON");
  }
  SinkFileStatus status;
  std::string_view path, action;
  if (root["path"].get(path) != simdjson::SUCCESS) {
    return MalformedLogFile(log_path, "the line '" + std::string(json) + "' has no \"path\"");
  }
  status.path = std::string(path);
  if (root["action"].get(action) == simdjson::SUCCESS) status.action = std::string(action);
  int64_t number = 0;
  if (root["size"].get(number) == simdjson::SUCCESS) status.size = number;
  if (root["modificationTime"].get(number) == simdjson::SUCCESS) {
    status.modification_time = number;
  }
  if (root["blockReplication"].get(number) == simdjson::SUCCESS) {
    status.block_replication = static_cast<int32_t>(number);
  }
  if (root["blockSize"].get(number) == simdjson::SUCCESS) status.block_size = number;
  bool flag = false;
  if (root["isDir"].get(flag) == simdjson::SUCCESS) status.is_dir = flag;
  return status;
}

bool HasSinkManifest(const std::string& folder) {
  std::error_code error;
  return fs::is_directory(fs::path(folder) / kSinkMetadataFolder, error);
}

arrow::Result<std::optional<std::vector<std::string>>> CommittedSinkFiles(
    const std::string& folder) {
  if (!HasSinkManifest(folder)) return std::nullopt;
  std::string log_folder = (fs::path(folder) / kSinkMetadataFolder).string();
  ARROW_ASSIGN_OR_RAISE(auto log, CompactibleLog::Open(log_folder, kDefaultSinkCompactInterval));
  ARROW_ASSIGN_OR_RAISE(auto entries, log->AllEntries());
  std::vector<SinkFileStatus> statuses;
  std::set<std::string> deleted;
  for (const auto& entry : entries) {
    ARROW_ASSIGN_OR_RAISE(auto status, ParseSinkFileStatus(entry, log_folder));
    if (status.action == "delete") deleted.insert(status.path);
    statuses.push_back(std::move(status));
  }
  std::vector<std::string> files;
  std::set<std::string> seen;
  for (const auto& status : statuses) {
    if (status.action != "add" || deleted.count(status.path) || status.is_dir) continue;
    if (!seen.insert(status.path).second) continue;
    ARROW_ASSIGN_OR_RAISE(auto local, LocalPathOfFileUri(status.path));
    files.push_back(std::move(local));
  }
  return std::optional<std::vector<std::string>>(std::move(files));
}

}  // namespace sluice::checkpoint
