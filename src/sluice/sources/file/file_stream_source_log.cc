#include "sluice/sources/file/file_stream_source_log.h"

#include <simdjson.h>

#include "sluice/checkpoint/batch_log.h"
#include "sluice/common/errors.h"
#include "sluice/common/json_string.h"
#include "sluice/checkpoint/file_uri.h"

namespace sluice::sources {

std::string FileEntryToJson(const FileEntry& entry) {
  std::string out = "{\"path\":";
  AppendJsonString(entry.path, &out);
  out += ",\"timestamp\":" + std::to_string(entry.timestamp);
  out += ",\"batchId\":" + std::to_string(entry.batch_id);
  out += "}";
  return out;
}

arrow::Result<FileEntry> ParseFileEntry(std::string_view json, const std::string& log_path) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  auto bad = [&](std::string_view problem) {
    return checkpoint::MalformedLogFile(
        log_path, "the line '" + std::string(json) + "' " + std::string(problem));
  };
  if (parser.parse(json.data(), json.size()).get(root) != simdjson::SUCCESS ||
      !root.is_object()) {
    return bad("is not JSON");
  }
  FileEntry entry;
  std::string_view path;
  if (root["path"].get(path) != simdjson::SUCCESS) return bad("has no string \"path\"");
  entry.path = std::string(path);
  auto local = checkpoint::LocalPathOfFileUri(entry.path);
  if (!local.ok()) return bad("does not name a local file: " + local.status().message());
  if (root["timestamp"].get(entry.timestamp) != simdjson::SUCCESS) {
    return bad("has no integer \"timestamp\"");
  }
  if (root["batchId"].get(entry.batch_id) != simdjson::SUCCESS) {
    return bad("has no integer \"batchId\"");
  }
  return entry;
}

arrow::Result<std::unique_ptr<FileStreamSourceLog>> FileStreamSourceLog::Open(
    std::string directory, int compact_interval) {
  if (compact_interval <= 0) {
    return arrow::Status::Invalid(
        "Please set spark.sql.streaming.fileSource.log.compactInterval (was ",
        compact_interval, ") to a positive value.");
  }
  ARROW_ASSIGN_OR_RAISE(auto log,
                        checkpoint::CompactibleLog::Open(std::move(directory), compact_interval));
  return std::unique_ptr<FileStreamSourceLog>(new FileStreamSourceLog(std::move(log)));
}

arrow::Status FileStreamSourceLog::Add(int64_t batch_id,
                                       const std::vector<FileEntry>& entries) const {
  std::vector<std::string> lines;
  lines.reserve(entries.size());
  for (const auto& entry : entries) lines.push_back(FileEntryToJson(entry));
  return log_->Add(batch_id, lines);
}

arrow::Result<std::optional<int64_t>> FileStreamSourceLog::LatestBatchId() const {
  return log_->LatestBatchId();
}

arrow::Result<std::optional<std::vector<FileEntry>>> FileStreamSourceLog::ReadFile(
    int64_t batch_id) const {
  ARROW_ASSIGN_OR_RAISE(auto lines, log_->Get(batch_id));
  if (!lines) return std::nullopt;
  std::string path = log_->PathOf(batch_id);
  std::vector<FileEntry> entries;
  entries.reserve(lines->size());
  for (const auto& line : *lines) {
    ARROW_ASSIGN_OR_RAISE(auto entry, ParseFileEntry(line, path));
    entries.push_back(std::move(entry));
  }
  return std::optional<std::vector<FileEntry>>(std::move(entries));
}

arrow::Result<std::vector<FileEntry>> FileStreamSourceLog::Get(int64_t first,
                                                               int64_t last) const {
  std::vector<FileEntry> result;
  for (int64_t batch_id = first; batch_id <= last; ++batch_id) {
    ARROW_ASSIGN_OR_RAISE(auto entries, ReadFile(batch_id));
    if (!entries) {
      int64_t interval = log_->compact_interval();
      int64_t compact_id = (batch_id / interval + 1) * interval - 1;
      ARROW_ASSIGN_OR_RAISE(entries, ReadFile(compact_id));
    }
    if (!entries) return MissingEntry(batch_id);
    for (auto& entry : *entries) {
      if (entry.batch_id == batch_id) result.push_back(std::move(entry));
    }
  }
  return result;
}

arrow::Status FileStreamSourceLog::MissingEntry(int64_t batch_id) const {
  int64_t interval = log_->compact_interval();
  int64_t compact_id = (batch_id / interval + 1) * interval - 1;
  return arrow::Status::IOError(
      "The file source log has no entries for batch ", batch_id, ": its file ",
      log_->PathOf(batch_id), " is missing",
      compact_id == batch_id ? std::string() : " and no compact file " + log_->PathOf(compact_id) +
                                                   " holds the batch",
      ". Restore it from a backup or remove the checkpoint to start over.");
}

arrow::Result<std::vector<FileEntry>> FileStreamSourceLog::Restore() const {
  ARROW_ASSIGN_OR_RAISE(auto latest, LatestBatchId());
  std::vector<FileEntry> result;
  if (!latest) return result;
  // The newest compaction batch at or before the latest batch holds everything up to it.
  int64_t interval = log_->compact_interval();
  int64_t compact_id = (*latest + 1) / interval * interval - 1;
  int64_t first = 0;
  if (compact_id >= 0) {
    ARROW_ASSIGN_OR_RAISE(auto compacted, ReadFile(compact_id));
    if (!compacted) {
      return arrow::Status::IOError("The file source log ", log_->directory(),
                                    " has no compact file ", log_->PathOf(compact_id),
                                    ". Restore it from a backup or remove the checkpoint to "
                                    "start over.");
    }
    result = std::move(*compacted);
    first = compact_id + 1;
  }
  ARROW_ASSIGN_OR_RAISE(auto rest, Get(first, *latest));
  for (auto& entry : rest) result.push_back(std::move(entry));
  return result;
}

}  // namespace sluice::sources
