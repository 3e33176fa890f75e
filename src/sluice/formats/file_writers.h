// The encoders of each file format (FormatWriter implementations), made from string options.
#pragma once

#include <memory>

#include "sluice/formats/file_format.h"

namespace sluice::formats {

/// JSON Lines: one object per row, null fields left out (ignoreNullFields), timestamps as
/// yyyy-MM-dd'T'HH:mm:ss.SSSXXX in the session zone, numbers as Java prints them.
arrow::Result<std::shared_ptr<const FormatWriter>> MakeJsonWriter(const OptionMap& options,
                                                                  const FormatContext& context);
/// CSV with Spark's (univocity's) quoting: values holding the separator, quote or a line break
/// are quoted, quotes and escapes inside escaped with `escape`.
arrow::Result<std::shared_ptr<const FormatWriter>> MakeCsvWriter(const OptionMap& options,
                                                                 const FormatContext& context);
/// Parquet through parquet::arrow, snappy by default, timestamps as INT64 microseconds UTC.
arrow::Result<std::shared_ptr<const FormatWriter>> MakeParquetWriter(
    const OptionMap& options, const FormatContext& context);
/// ORC through arrow::adapters::orc, snappy by default.
arrow::Result<std::shared_ptr<const FormatWriter>> MakeOrcWriter(const OptionMap& options,
                                                                 const FormatContext& context);
/// Text: one line per row of a single string column.
arrow::Result<std::shared_ptr<const FormatWriter>> MakeTextWriter(const OptionMap& options,
                                                                  const FormatContext& context);

}  // namespace sluice::formats
