// The places between two steps of the batch loop where a test may kill a query, as a process
// crash would: nothing after that point runs, no cleanup, no terminated event.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

namespace sluice::execution {

enum class CrashPoint {
  /// The sources' latest offsets are known; offsets/N is not written yet.
  kBeforeOffsetsWrite,
  /// offsets/N is written; the sources have not been told that batch N-1 is done.
  kAfterOffsetsWrite,
  /// Sources committed up to N-1; the batch has not run.
  kBeforeAddBatch,
  /// The sink wrote batch N; commits/N is not written yet.
  kAfterAddBatch,
  /// commits/N is written; the progress is not reported yet.
  kAfterCommit,
};

inline constexpr CrashPoint kAllCrashPoints[] = {
    CrashPoint::kBeforeOffsetsWrite, CrashPoint::kAfterOffsetsWrite, CrashPoint::kBeforeAddBatch,
    CrashPoint::kAfterAddBatch, CrashPoint::kAfterCommit};

const char* CrashPointName(CrashPoint point);
/// The point's name among the process kill points (common/fault_points.h).
std::string_view KillPointName(CrashPoint point);

/// Asked at every crash point of every batch; returning true kills the query there.
using CrashHook = std::function<bool(CrashPoint point, int64_t batch_id)>;

}  // namespace sluice::execution
