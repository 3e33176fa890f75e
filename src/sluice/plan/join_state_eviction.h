// When the rows a stream-stream join keeps for one side can leave its state: Spark's state
// watermark predicates (StreamingSymmetricHashJoinHelper and StreamingJoinHelper).
//
// A row kept for one side can go once no future row of the other side could match it. Two
// cases let the join know that:
//   - by key: a join key reads a watermarked column (the event time, or a window over it), so
//     a key whose time is at or below the watermark can only meet late rows, which are dropped;
//   - by value: the condition bounds this side's event time against the other side's
//     watermarked column, e.g. `rts <= lts + INTERVAL 5 SECONDS` lets left rows go once
//     `lts <= watermark - 5 s`. Each conjunct `a < b` (<=, >, >=) that reads one event time of
//     each side, plus or minus constants, is solved for this side's time with the other side's
//     time replaced by the watermark; the smallest bound of all such conjuncts wins.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "sluice/plan/join.h"

namespace sluice::plan {

enum class JoinSide { kLeft, kRight };

/// How the state of one side of a stream-stream join is evicted.
struct JoinStateEviction {
  enum class Kind { kNever, kByKey, kByValue };
  Kind kind = Kind::kNever;

  /// kByKey: the join key holding the event time, and whether it is a window struct (its end
  /// is the time that counts) rather than a timestamp.
  int key_index = -1;
  bool key_is_window = false;

  /// kByValue: the side's column holding its event time (a timestamp, or a window whose end
  /// counts), and one bound per conjunct that constrains it.
  int value_column = -1;
  bool value_is_window = false;
  struct Bound {
    /// The constants of the solved conjunct, in microseconds, added to the watermark.
    double offset_micros = 0;
    /// Rows at exactly the solved bound can still match (a non-strict comparison), so the
    /// state watermark is one millisecond lower.
    bool inclusive = false;
  };
  std::vector<Bound> bounds;

  /// The time, in milliseconds, at or below which this side's rows or keys are evicted when
  /// the query's eviction watermark is `watermark_ms`; nullopt for kNever.
  std::optional<int64_t> StateWatermarkMs(int64_t watermark_ms) const;
};

/// The eviction of `side`'s state of the stream-stream `join`: by key when one of its join keys
/// reads a watermarked column, else by value when its own input has a watermarked column and
/// the condition bounds it against the other side's watermarked column, else never.
JoinStateEviction StateEvictionOf(const Join& join, JoinSide side);

/// True when a join key of either side is a watermarked column itself (Spark's
/// isWatermarkInJoinKeys, which the outer-join check asks for).
bool WatermarkInJoinKeys(const Join& join);

/// True when the condition bounds `side`'s columns against a watermarked column of the other
/// side (Spark's getStateValueWatermark being defined), whether or not `side` has a watermark
/// of its own.
bool HasTimeRangeCondition(const Join& join, JoinSide side);

}  // namespace sluice::plan
