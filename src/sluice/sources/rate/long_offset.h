// Spark's LongOffset: an offset that is one long, written in the offsets log as a plain JSON
// number ("5"). The rate and socket sources use it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <arrow/result.h>

namespace sluice::sources {

/// The JSON text of a LongOffset.
std::string LongOffsetJson(int64_t offset);

/// Reads a LongOffset's JSON text (surrounding blanks allowed); anything else fails naming the
/// text and `source_description`.
arrow::Result<int64_t> ParseLongOffset(std::string_view json, std::string_view source_description);

}  // namespace sluice::sources
