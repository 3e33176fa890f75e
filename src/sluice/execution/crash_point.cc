#include "sluice/execution/crash_point.h"

#include "sluice/common/kill_point.h"

namespace sluice::execution {

const char* CrashPointName(CrashPoint point) {
  switch (point) {
    case CrashPoint::kBeforeOffsetsWrite:
      return "before the offsets write";
    case CrashPoint::kAfterOffsetsWrite:
      return "after the offsets write";
    case CrashPoint::kBeforeAddBatch:
      return "before the sink's addBatch";
    case CrashPoint::kAfterAddBatch:
      return "after the sink's addBatch";
    case CrashPoint::kAfterCommit:
      return "after the commit";
  }
  return "";
}

std::string_view KillPointName(CrashPoint point) {
  switch (point) {
    case CrashPoint::kBeforeOffsetsWrite:
      return kill_points::kBeforeOffsetsWrite;
    case CrashPoint::kAfterOffsetsWrite:
      return kill_points::kAfterOffsetsWrite;
    case CrashPoint::kBeforeAddBatch:
      return kill_points::kBeforeAddBatch;
    case CrashPoint::kAfterAddBatch:
      return kill_points::kAfterAddBatch;
    case CrashPoint::kAfterCommit:
      return kill_points::kAfterCommit;
  }
  return "";
}

}  // namespace sluice::execution
