#include "sluice/checkpoint/compactible_log.h"

#include <algorithm>
#include <filesystem>

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/checkpoint/batch_log.h"

namespace sluice::checkpoint {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kCompactSuffix = ".compact";
constexpr int kVersion = 1;

std::optional<std::pair<int64_t, bool>> ParseName(std::string_view name) {
  bool compact = name.size() > kCompactSuffix.size() &&
                 name.substr(name.size() - kCompactSuffix.size()) == kCompactSuffix;
  if (compact) name.remove_suffix(kCompactSuffix.size());
  std::optional<int64_t> id = BatchIdOfFileName(name);
  if (!id) return std::nullopt;
  return std::make_pair(*id, compact);
}

/// Spark's deriveCompactInterval: the largest divisor of (latest compact id + 1) that is at
/// most the configured interval, so existing compact files stay on compaction batches.
int DeriveInterval(int configured, int64_t latest_compact_id) {
  int64_t batches = latest_compact_id + 1;
  if (configured >= batches) return static_cast<int>(batches);
  for (int interval = configured; interval > 1; --interval) {
    if (batches % interval == 0) return interval;
  }
  return 1;
}

}  // namespace

arrow::Result<std::unique_ptr<CompactibleLog>> CompactibleLog::Open(std::string directory,
                                                                     int default_interval) {
  if (default_interval <= 0) {
    return arrow::Status::Invalid("The compaction interval must be positive, got ",
                                  default_interval);
  }
  std::unique_ptr<CompactibleLog> log(new CompactibleLog(std::move(directory), default_interval));
  ARROW_ASSIGN_OR_RAISE(auto files, log->ListFiles());
  for (auto it = files.rbegin(); it != files.rend(); ++it) {
    if (!it->second) continue;
    if ((it->first + 1) % default_interval != 0) {
      log->compact_interval_ = DeriveInterval(default_interval, it->first);
    }
    break;
  }
  return log;
}

std::string CompactibleLog::PathOf(int64_t batch_id) const {
  std::string name = std::to_string(batch_id);
  if (IsCompactionBatch(batch_id)) name += kCompactSuffix;
  return (fs::path(directory_) / name).string();
}

arrow::Result<std::vector<std::pair<int64_t, bool>>> CompactibleLog::ListFiles() const {
  std::vector<std::pair<int64_t, bool>> files;
  std::error_code error;
  if (!fs::exists(directory_, error)) return files;
  for (const auto& entry : fs::directory_iterator(directory_, error)) {
    if (auto parsed = ParseName(entry.path().filename().string())) files.push_back(*parsed);
  }
  if (error) return arrow::Status::IOError("Cannot list ", directory_, ": ", error.message());
  std::sort(files.begin(), files.end());
  return files;
}

arrow::Result<std::vector<std::string>> CompactibleLog::ReadEntries(
    const std::string& path) const {
  ARROW_ASSIGN_OR_RAISE(auto contents, ReadWholeFile(path));
  ARROW_ASSIGN_OR_RAISE(auto lines, SplitVersionedLog(contents, kVersion, path));
  std::vector<std::string> entries;
  entries.reserve(lines.size());
  for (auto line : lines) {
    if (line.empty()) return MalformedLogFile(path, "it holds an empty line");
    entries.emplace_back(line);
  }
  return entries;
}

arrow::Status CompactibleLog::Add(int64_t batch_id, const std::vector<std::string>& entries,
                                  const std::function<bool(std::string_view)>& keep) const {
  std::vector<std::string> all;
  if (IsCompactionBatch(batch_id) && batch_id > 0) {
    // Everything logged before this batch: the previous compact file plus the deltas after it.
    ARROW_ASSIGN_OR_RAISE(auto files, ListFiles());
    int64_t previous_compact = -1;
    for (const auto& [id, compact] : files) {
      if (compact && id < batch_id) previous_compact = id;
    }
    for (const auto& [id, compact] : files) {
      if (id >= batch_id || id < previous_compact) continue;
      if (id == previous_compact && !compact) continue;
      if (id > previous_compact && compact) continue;
      std::string name = std::to_string(id) + (compact ? std::string(kCompactSuffix) : "");
      ARROW_ASSIGN_OR_RAISE(auto earlier, ReadEntries((fs::path(directory_) / name).string()));
      for (auto& entry : earlier) {
        if (!keep || keep(entry)) all.push_back(std::move(entry));
      }
    }
  }
  for (const auto& entry : entries) all.push_back(entry);
  std::string body;
  for (size_t i = 0; i < all.size(); ++i) {
    if (i > 0) body += '\n';
    body += all[i];
  }
  return WriteBatchLogFile(PathOf(batch_id), batch_id, WithVersionLine(kVersion, body));
}

arrow::Result<std::optional<std::vector<std::string>>> CompactibleLog::Get(
    int64_t batch_id) const {
  ARROW_ASSIGN_OR_RAISE(auto files, ListFiles());
  for (const auto& [id, compact] : files) {
    if (id != batch_id) continue;
    std::string name = std::to_string(id) + (compact ? std::string(kCompactSuffix) : "");
    ARROW_ASSIGN_OR_RAISE(auto entries, ReadEntries((fs::path(directory_) / name).string()));
    return std::optional<std::vector<std::string>>(std::move(entries));
  }
  return std::nullopt;
}

arrow::Result<std::optional<int64_t>> CompactibleLog::LatestBatchId() const {
  ARROW_ASSIGN_OR_RAISE(auto files, ListFiles());
  if (files.empty()) return std::nullopt;
  return std::optional<int64_t>(files.back().first);
}

arrow::Result<std::vector<std::string>> CompactibleLog::AllEntries() const {
  ARROW_ASSIGN_OR_RAISE(auto files, ListFiles());
  int64_t latest_compact = -1;
  for (const auto& [id, compact] : files) {
    if (compact) latest_compact = id;
  }
  std::vector<std::string> all;
  for (const auto& [id, compact] : files) {
    if (id < latest_compact || (id == latest_compact && !compact)) continue;
    if (id > latest_compact && compact) continue;
    std::string name = std::to_string(id) + (compact ? std::string(kCompactSuffix) : "");
    ARROW_ASSIGN_OR_RAISE(auto entries, ReadEntries((fs::path(directory_) / name).string()));
    for (auto& entry : entries) all.push_back(std::move(entry));
  }
  return all;
}

}  // namespace sluice::checkpoint
