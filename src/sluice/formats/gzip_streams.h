// Gzip streams over files, as Hadoop's GzipCodec reads and writes the .gz files of Spark's
// text, CSV and JSON sources and sinks.
#pragma once

#include <memory>
#include <string>

#include <arrow/io/interfaces.h>
#include <arrow/result.h>

namespace sluice::formats {

/// Whether `path` names a gzip file: its name ends in .gz, the extension Hadoop's codec
/// factory goes by.
bool IsGzipPath(const std::string& path);

/// The decompressed bytes of `raw`, a gzip stream of one or more members.
arrow::Result<std::shared_ptr<arrow::io::InputStream>> Gunzipped(
    std::shared_ptr<arrow::io::InputStream> raw);

/// A stream that gzips what is written to it into `raw`; Close finishes the gzip member and
/// closes `raw`.
arrow::Result<std::shared_ptr<arrow::io::OutputStream>> Gzipping(
    std::shared_ptr<arrow::io::OutputStream> raw);

}  // namespace sluice::formats
