#include "sluice/execution/crash_point.h"

#include "sluice/common/fault_points.h"

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
      return fault_points::kBeforeOffsetsWrite;
    case CrashPoint::kAfterOffsetsWrite:
      return fault_points::kAfterOffsetsWrite;
    case CrashPoint::kBeforeAddBatch:
      return fault_points::kBeforeAddBatch;
    case CrashPoint::kAfterAddBatch:
      return fault_points::kAfterAddBatch;
    case CrashPoint::kAfterCommit:
      return fault_points::kAfterCommit;
  }
  return "";
}

}  // namespace sluice::execution
