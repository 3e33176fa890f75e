#include "sluice/checkpoint/recovery.h"

#include "sluice/common/errors.h"

namespace sluice::checkpoint {

arrow::Result<ResumePoint> DecideResumePoint(const LogHeads& heads,
                                             const std::string& checkpoint_root) {
  ResumePoint point;
  if (!heads.latest_offsets) {
    if (heads.latest_commit) {
      return SparkError("MALFORMED_LOG_FILE",
                        "The checkpoint " + checkpoint_root + " has commits/" +
                            std::to_string(*heads.latest_commit) +
                            " but no offsets log: it is corrupt. Restore it from a backup or "
                            "remove the checkpoint to start over.");
    }
    return point;
  }
  int64_t latest = *heads.latest_offsets;
  if (heads.latest_commit && *heads.latest_commit > latest) {
    const std::string missing = std::to_string(*heads.latest_commit);
    return SparkError("MALFORMED_LOG_FILE",
                      "The checkpoint " + checkpoint_root + " has commits/" + missing +
                          " but its offsets file " + checkpoint_root + "/offsets/" + missing +
                          " is missing (the newest is offsets/" + std::to_string(latest) +
                          "): it is corrupt. Restore it from a backup or remove the checkpoint "
                          "to start over.");
  }
  if (heads.latest_commit && *heads.latest_commit == latest) {
    point.next_batch_id = latest + 1;
    point.previous_batch_id = latest;
    return point;
  }
  point.next_batch_id = latest;
  point.rerun = true;
  if (latest > 0) point.previous_batch_id = latest - 1;
  return point;
}

}  // namespace sluice::checkpoint
