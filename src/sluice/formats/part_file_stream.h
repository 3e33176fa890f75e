// The output stream every format writer writes a part file through: a file whose writes are
// fault points (common/fault_points.h) on its path, so that a crash test can fill the disk in
// the middle of a data file, or kill the process there, as it can for the checkpoint's files.
#pragma once

#include <memory>
#include <string>

#include <arrow/io/interfaces.h>
#include <arrow/result.h>

#include "sluice/formats/format_options.h"

namespace sluice::formats {

/// Creates the part file `path` for writing.
arrow::Result<std::shared_ptr<arrow::io::OutputStream>> OpenPartFile(const std::string& path);

/// Creates the part file `path` of a text format (JSON, CSV, text): its whole content is
/// gzip-compressed when `compression` is kGzip (the writer's suffix then ends in .gz), plain
/// when kNone.
arrow::Result<std::shared_ptr<arrow::io::OutputStream>> OpenTextPartFile(
    const std::string& path, Compression compression);

}  // namespace sluice::formats
