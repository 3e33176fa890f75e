// Plain text files: one row per line in a string column `value` (or one row per file with
// wholetext), as Spark's text source.
#pragma once

#include <memory>

#include "sluice/formats/file_format.h"

namespace sluice::formats {

arrow::Result<std::shared_ptr<const FormatReader>> MakeTextReader(const OptionMap& options,
                                                                  const FormatContext& context);

}  // namespace sluice::formats
