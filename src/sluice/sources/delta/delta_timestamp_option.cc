#include "sluice/sources/delta/delta_timestamp_option.h"

#include "sluice/common/errors.h"
#include "sluice/datetime/calendar.h"
#include "sluice/datetime/parse.h"

namespace sluice::sources {

arrow::Result<std::optional<int64_t>> DeltaTimestampOption(const formats::OptionMap& options,
                                                           std::string_view key,
                                                           const formats::FormatContext& context) {
  auto option = options.find(key);
  if (option == options.end()) return std::nullopt;
  ARROW_ASSIGN_OR_RAISE(auto zone, formats::FindZone(context.session_time_zone));
  auto micros = datetime::ParseTimestamp(option->second, *zone, std::nullopt);
  if (!micros) {
    return SparkError("DELTA_TIMESTAMP_INVALID",
                      "The provided timestamp (" + option->second +
                          ") cannot be converted to a valid timestamp (option '" +
                          std::string(key) + "').");
  }
  return datetime::FloorDiv(*micros, 1000);
}

}  // namespace sluice::sources
