#include "sluice/execution/crash_point.h"

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

}  // namespace sluice::execution
