#include "sluice/checkpoint/batch_log.h"

#include <algorithm>
#include <charconv>
#include <filesystem>

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/common/errors.h"

namespace sluice::checkpoint {

namespace fs = std::filesystem;

arrow::Status WriteBatchLogFile(const std::string& path, int64_t batch_id,
                                std::string_view contents) {
  auto status = WriteFileAtomically(path, contents);
  if (IsAlreadyExists(status)) {
    return SparkError("CONCURRENT_STREAM_LOG_UPDATE",
                      "Concurrent update to the log. Multiple streaming jobs detected for " +
                          std::to_string(batch_id) +
                          ". Please make sure only one streaming job runs on a specific "
                          "checkpoint location at a time. File: " +
                          path);
  }
  return status;
}

std::optional<int64_t> BatchIdOfFileName(std::string_view name) {
  // 18 digits at most: a longer name is not a batch id, and would overflow.
  if (name.empty() || name.size() > 18) return std::nullopt;
  int64_t id = 0;
  auto [end, error] = std::from_chars(name.data(), name.data() + name.size(), id);
  if (error != std::errc() || end != name.data() + name.size() || id < 0) return std::nullopt;
  return id;
}

std::string BatchLog::PathOf(int64_t batch_id) const {
  return (fs::path(directory_) / std::to_string(batch_id)).string();
}

arrow::Status BatchLog::Add(int64_t batch_id, std::string_view contents) const {
  return WriteBatchLogFile(PathOf(batch_id), batch_id, contents);
}

arrow::Result<std::optional<std::string>> BatchLog::Get(int64_t batch_id) const {
  std::string path = PathOf(batch_id);
  std::error_code error;
  if (!fs::exists(path, error)) return std::nullopt;
  ARROW_ASSIGN_OR_RAISE(auto contents, ReadWholeFile(path));
  return std::optional<std::string>(std::move(contents));
}

arrow::Result<std::vector<int64_t>> BatchLog::BatchIds() const {
  std::vector<int64_t> ids;
  std::error_code error;
  if (!fs::exists(directory_, error)) return ids;
  for (const auto& entry : fs::directory_iterator(directory_, error)) {
    if (auto id = BatchIdOfFileName(entry.path().filename().string())) ids.push_back(*id);
  }
  if (error) {
    return arrow::Status::IOError("Cannot list ", directory_, ": ", error.message());
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

arrow::Result<std::optional<int64_t>> BatchLog::LatestBatchId() const {
  ARROW_ASSIGN_OR_RAISE(auto ids, BatchIds());
  if (ids.empty()) return std::nullopt;
  return std::optional<int64_t>(ids.back());
}

arrow::Status BatchLog::PurgeBefore(int64_t threshold) const {
  ARROW_ASSIGN_OR_RAISE(auto ids, BatchIds());
  for (int64_t id : ids) {
    if (id >= threshold) break;
    std::error_code error;
    fs::remove(PathOf(id), error);
    if (error) {
      return arrow::Status::IOError("Cannot delete ", PathOf(id), ": ", error.message());
    }
  }
  return arrow::Status::OK();
}

std::string WithVersionLine(int version, std::string_view body) {
  // An empty log entry is the version line alone, without a newline, as Spark writes it.
  std::string out = "v";
  out += std::to_string(version);
  if (!body.empty()) out += '\n';
  out.append(body);
  return out;
}

arrow::Status MalformedLogFile(const std::string& path, std::string_view problem) {
  return SparkError("MALFORMED_LOG_FILE",
                    "The log file " + path + " is corrupt: " + std::string(problem) +
                        ". Restore it from a backup or remove the checkpoint to start over.");
}

arrow::Result<std::vector<std::string_view>> SplitVersionedLog(std::string_view contents,
                                                               int max_version,
                                                               const std::string& path) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= contents.size()) {
    size_t end = contents.find('\n', start);
    if (end == std::string_view::npos) end = contents.size();
    lines.push_back(contents.substr(start, end - start));
    start = end + 1;
  }
  if (lines.empty() || lines[0].size() < 2 || lines[0][0] != 'v') {
    return MalformedLogFile(path, "failed to read the log version from its first line");
  }
  int version = 0;
  std::string_view digits = lines[0].substr(1);
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), version);
  if (error != std::errc() || end != digits.data() + digits.size() || version <= 0) {
    return MalformedLogFile(path, "the version line '" + std::string(lines[0]) +
                                      "' is not v<number>");
  }
  if (version > max_version) {
    return SparkError("INVALID_LOG_VERSION.MAX_SUPPORTED_VERSION",
                      "The log file " + path + " was written by a newer version: the maximum "
                      "supported log version is v" + std::to_string(max_version) +
                      ", but encountered v" + std::to_string(version) +
                      ". Upgrade to read it.");
  }
  lines.erase(lines.begin());
  // A trailing newline leaves one empty line at the end; it is not an entry.
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

}  // namespace sluice::checkpoint
