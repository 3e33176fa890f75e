// The "console" streaming sink (Spark's ConsoleTable): prints each batch as Dataset.show does,
// under a "Batch: N" banner, for debugging.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include <arrow/result.h>

#include "sluice/formats/format_options.h"
#include "sluice/sinks/stream_sink.h"

namespace sluice::sinks {

/// A sink that writes each batch to `out` (std::cout in production; not owned, must outlive
/// the sink) exactly as Spark's console sink prints it: a banner of dashes around "Batch: N",
/// then show()'s table of the first numRows rows (option numRows, default 20) with cells cut
/// to 20 characters unless option truncate is false, values rendered as strings in
/// `session_time_zone`. Every row is read; numOutputRows counts them all. Offers no delivery
/// guarantee: a batch re-run after a restart is printed again. Bad options fail here with
/// Spark's messages, naming the option.
arrow::Result<std::unique_ptr<StreamSink>> MakeConsoleSink(const formats::OptionMap& options,
                                                           std::ostream* out,
                                                           std::string session_time_zone);

}  // namespace sluice::sinks
