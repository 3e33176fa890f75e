// The options of the "socket" source, parsed once with Spark's checks and messages.
#pragma once

#include <cstdint>
#include <string>

#include <arrow/result.h>

#include "sluice/formats/format_options.h"

namespace sluice::sources {

/// Options of the "socket" source (Spark's TextSocketSourceProvider).
struct SocketOptions {
  /// host: the server to connect to; required.
  std::string host;
  /// port: its TCP port; required.
  int32_t port = -1;
  /// includeTimestamp: adds a timestamp column holding when each line arrived. Default false.
  bool include_timestamp = false;
  /// numPartitions: Spark deals the lines of a batch round-robin into this many partitions and
  /// yields them partition after partition; Sluice keeps that order. Default 1.
  int32_t num_partitions = 1;
};

/// Reads and checks the options: a missing host or port fails with Spark's
/// _LEGACY_ERROR_TEMP_1295 / _LEGACY_ERROR_TEMP_1296, a non-boolean includeTimestamp with
/// _LEGACY_ERROR_TEMP_1297, a non-integer port with Java's number format message, a
/// numPartitions below 1 as the rate sources do.
arrow::Result<SocketOptions> ParseSocketOptions(const formats::OptionMap& options);

}  // namespace sluice::sources
