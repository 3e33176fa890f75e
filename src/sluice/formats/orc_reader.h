// ORC files through arrow::adapters::orc, with the file's types mapped to Spark's.
#pragma once

#include <memory>

#include "sluice/formats/file_format.h"

namespace sluice::formats {

/// A reader of ORC files: the schema of the first file, stripes read one batch at a time.
/// ORC timestamps (instants stored in UTC) read as Spark's timestamp.
arrow::Result<std::shared_ptr<const FormatReader>> MakeOrcReader(const OptionMap& options,
                                                                 const FormatContext& context);

}  // namespace sluice::formats
