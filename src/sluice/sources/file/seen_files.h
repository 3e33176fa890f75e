// Which files the file source has taken already: Spark's SeenFilesMap. Files older than the
// newest seen file minus maxFileAge are forgotten (and, being that old, never taken again), so
// the map stays bounded however long the stream runs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace sluice::sources {

/// Seen files keyed by URI, or by file name alone under fileNameOnly. Not thread-safe.
class SeenFilesMap {
 public:
  SeenFilesMap(int64_t max_age_ms, bool file_name_only)
      : max_age_ms_(max_age_ms), file_name_only_(file_name_only) {}

  /// Records the file `uri` (a checkpoint::FileUri) modified at `timestamp` (ms).
  void Add(std::string_view uri, int64_t timestamp);
  /// True when the file is not known and not older than the last purge threshold (so a file
  /// older than maxFileAge that was never purged is still not taken twice).
  bool IsNewFile(std::string_view uri, int64_t timestamp) const;
  /// Forgets files older than the newest timestamp minus maxFileAge; returns how many.
  int Purge();
  size_t size() const { return files_.size(); }

 private:
  std::string KeyOf(std::string_view uri) const;

  int64_t max_age_ms_;
  bool file_name_only_;
  std::unordered_map<std::string, int64_t> files_;
  int64_t latest_timestamp_ = 0;
  int64_t last_purge_timestamp_ = 0;
};

}  // namespace sluice::sources
