#include "sluice/sources/socket/socket_options.h"

#include "sluice/common/errors.h"
#include "sluice/sources/typed_options.h"

namespace sluice::sources {

arrow::Result<SocketOptions> ParseSocketOptions(const formats::OptionMap& options) {
  SocketOptions parsed;
  auto host = options.find("host");
  if (host == options.end()) {
    return SparkError("_LEGACY_ERROR_TEMP_1295",
                      "Set a host to read from with option(\"host\", ...).");
  }
  if (options.find("port") == options.end()) {
    return SparkError("_LEGACY_ERROR_TEMP_1296",
                      "Set a port to read from with option(\"port\", ...).");
  }
  auto include_timestamp = BooleanOption(options, "includeTimestamp", false);
  if (!include_timestamp.ok()) {
    return SparkError("_LEGACY_ERROR_TEMP_1297",
                      "IncludeTimestamp must be set to either \"true\" or \"false\".");
  }
  parsed.host = host->second;
  parsed.include_timestamp = *include_timestamp;
  ARROW_ASSIGN_OR_RAISE(parsed.port, IntOption(options, "port", -1));
  ARROW_ASSIGN_OR_RAISE(parsed.num_partitions, IntOption(options, "numPartitions", 1));
  // Spark takes any number here and fails on the first lines it deals out; refuse it upfront.
  if (parsed.num_partitions <= 0) {
    return arrow::Status::Invalid("Invalid value '", parsed.num_partitions,
                                  "'. The option 'numPartitions' must be positive");
  }
  return parsed;
}

}  // namespace sluice::sources
