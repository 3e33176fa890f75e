#include "sluice/sources/file/file_admission.h"

#include <algorithm>
#include <iterator>

namespace sluice::sources {

namespace {

/// Spark's takeFilesUntilMax: the first file always, then files while the running total
/// stays within `max_bytes`; after the first file that does not fit, all others are left.
void SplitByBytes(std::vector<SourceFile> files, int64_t max_bytes,
                  std::vector<SourceFile>* taken, std::vector<SourceFile>* left,
                  double* left_bytes) {
  // Sums in double: Spark sums in BigInt, and only compares them.
  double taken_bytes = 0;
  *left_bytes = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    double total = taken_bytes + static_cast<double>(files[i].size);
    if (i == 0 || (left->empty() && total <= static_cast<double>(max_bytes))) {
      taken_bytes = total;
      taken->push_back(std::move(files[i]));
    } else {
      *left_bytes += static_cast<double>(files[i].size);
      left->push_back(std::move(files[i]));
    }
  }
}

/// limit * ratio computed as Spark does, in single precision (the ratio is a Float there).
double Threshold(const FileReadLimit& limit, double discard_ratio) {
  return static_cast<double>(static_cast<float>(limit.value) * static_cast<float>(discard_ratio));
}

}  // namespace

FileAdmission AdmitFiles(std::vector<SourceFile> candidates, const FileReadLimit& limit,
                         bool may_cache, double discard_ratio) {
  FileAdmission admission;
  switch (limit.kind) {
    case FileReadLimit::Kind::kAll:
      admission.batch = std::move(candidates);
      break;
    case FileReadLimit::Kind::kMaxFiles: {
      size_t take = std::min(candidates.size(), static_cast<size_t>(limit.value));
      std::vector<SourceFile> rest(std::make_move_iterator(candidates.begin() + take),
                                   std::make_move_iterator(candidates.end()));
      candidates.resize(take);
      admission.batch = std::move(candidates);
      if (may_cache && static_cast<double>(rest.size()) >= Threshold(limit, discard_ratio)) {
        admission.rest = std::move(rest);
      }
      break;
    }
    case FileReadLimit::Kind::kMaxBytes: {
      std::vector<SourceFile> rest;
      double rest_bytes = 0;
      SplitByBytes(std::move(candidates), limit.value, &admission.batch, &rest, &rest_bytes);
      if (may_cache && rest_bytes >= Threshold(limit, discard_ratio)) {
        admission.rest = std::move(rest);
      }
      break;
    }
  }
  return admission;
}

}  // namespace sluice::sources
