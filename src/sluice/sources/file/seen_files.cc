#include "sluice/sources/file/seen_files.h"

#include <limits>

#include "sluice/checkpoint/file_uri.h"

namespace sluice::sources {

std::string SeenFilesMap::KeyOf(std::string_view uri) const {
  if (!file_name_only_) return std::string(uri);
  // Spark compares Path.getName: the last component, decoded.
  std::string_view name = uri.substr(uri.rfind('/') + 1);
  auto decoded = checkpoint::LocalPathOfFileUri("file:/" + std::string(name));
  return decoded.ok() ? decoded->substr(1) : std::string(name);
}

void SeenFilesMap::Add(std::string_view uri, int64_t timestamp) {
  files_[KeyOf(uri)] = timestamp;
  if (timestamp > latest_timestamp_) latest_timestamp_ = timestamp;
}

bool SeenFilesMap::IsNewFile(std::string_view uri, int64_t timestamp) const {
  return timestamp >= last_purge_timestamp_ && files_.count(KeyOf(uri)) == 0;
}

int SeenFilesMap::Purge() {
  // Saturate: latestFirst with a limit sets the age to "forever".
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  last_purge_timestamp_ = latest_timestamp_ < kMin + max_age_ms_
                              ? kMin
                              : latest_timestamp_ - max_age_ms_;
  int purged = 0;
  for (auto it = files_.begin(); it != files_.end();) {
    if (it->second < last_purge_timestamp_) {
      it = files_.erase(it);
      ++purged;
    } else {
      ++it;
    }
  }
  return purged;
}

}  // namespace sluice::sources
