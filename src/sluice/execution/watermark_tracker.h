// Spark's WatermarkTracker: the global event-time watermark of a query, advanced after each
// batch from what its withWatermark operators saw (the spec, section 5).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "sluice/physical/batch_stream.h"

namespace sluice::execution {

/// Not thread-safe; owned by the batch loop.
class WatermarkTracker {
 public:
  /// `use_max`: spark.sql.streaming.multipleWatermarkPolicy=max (min by default).
  WatermarkTracker(bool use_max, int64_t watermark_ms)
      : use_max_(use_max), watermark_ms_(watermark_ms) {}

  /// The watermark batches run with; it never decreases.
  int64_t watermark_ms() const { return watermark_ms_; }

  /// After a batch: each operator that saw rows moves to max(its previous value, max event
  /// time - its delay); the global watermark becomes the min (or max) over the operators that
  /// ever saw rows, if that is later than now. `stats[i]` belongs to the operator with
  /// `delays_ms[i]`, in plan order.
  void Update(const std::vector<int64_t>& delays_ms,
              const std::vector<const physical::EventTimeStats*>& stats);

 private:
  bool use_max_;
  int64_t watermark_ms_;
  std::map<size_t, int64_t> operator_watermarks_;
};

}  // namespace sluice::execution
