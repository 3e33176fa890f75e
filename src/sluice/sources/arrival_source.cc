#include "sluice/sources/arrival_source.h"

namespace sluice::sources {

arrow::Result<std::optional<std::string>> ArrivalSource::LatestOffset(
    const std::optional<std::string>& start, ReadLimitMode /*mode*/) {
  if (!available_now_) {
    ARROW_ASSIGN_OR_RAISE(latest_, ArrivedOffset(start));
  }
  return latest_;
}

arrow::Status ArrivalSource::PrepareForAvailableNow() {
  ARROW_ASSIGN_OR_RAISE(latest_, ArrivedOffset(std::nullopt));
  available_now_ = true;
  return arrow::Status::OK();
}

}  // namespace sluice::sources
