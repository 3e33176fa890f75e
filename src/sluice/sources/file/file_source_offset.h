// The file source's offset (Spark's FileStreamSourceOffset): the id of the newest batch of
// its file log that a micro-batch covers, written in the offsets log as {"logOffset":N}.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <arrow/result.h>

namespace sluice::sources {

/// {"logOffset":N}, byte for byte as Spark writes it.
std::string FileSourceOffsetJson(int64_t log_offset);

/// The log offset of {"logOffset":N} (any spacing), or of a bare number as Spark 2.0 wrote
/// it. Fails naming the text otherwise.
arrow::Result<int64_t> ParseFileSourceOffset(std::string_view json);

}  // namespace sluice::sources
