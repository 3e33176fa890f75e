// Parquet files through parquet::arrow, with the file's types mapped to Spark's.
#pragma once

#include <memory>

#include "sluice/formats/file_format.h"

namespace sluice::formats {

/// A reader of Parquet files: the schema of the first file (Spark does not merge schemas by
/// default), row groups read one batch at a time, only the columns the schema asks for.
arrow::Result<std::shared_ptr<const FormatReader>> MakeParquetReader(const OptionMap& options,
                                                                     const FormatContext& context);

}  // namespace sluice::formats
