// The sources whose latest offset is simply what has arrived by now (rate: the seconds elapsed;
// socket: the lines received). They have no backlog to limit, so every ReadLimitMode reads up
// to now, and they cannot bound a batch themselves: Trigger.AvailableNow fixes their end at
// the offset of the moment it starts, as Spark's AvailableNowDataStreamWrapper does for them.
#pragma once

#include <optional>
#include <string>

#include <arrow/result.h>
#include <arrow/status.h>

#include "sluice/sources/stream_source.h"

namespace sluice::sources {

/// A StreamSource whose subclass says only what has arrived; this class answers LatestOffset,
/// AvailableNow and the progress report's latestOffset from it. Same threading as
/// StreamSource.
class ArrivalSource : public StreamSource {
 public:
  /// The offset arrived by now, or, once PrepareForAvailableNow ran, the one of that moment.
  arrow::Result<std::optional<std::string>> LatestOffset(const std::optional<std::string>& start,
                                                         ReadLimitMode mode) final;
  arrow::Status PrepareForAvailableNow() final;
  /// The offset the last LatestOffset returned; nullopt before the first.
  std::optional<std::string> ReportLatestOffset() const final { return latest_; }

 protected:
  /// The offset of what has arrived by now. `start` is the last processed offset (nullopt for
  /// none, and at PrepareForAvailableNow).
  virtual arrow::Result<std::string> ArrivedOffset(const std::optional<std::string>& start) = 0;

 private:
  std::optional<std::string> latest_;
  bool available_now_ = false;
};

}  // namespace sluice::sources
