// The streaming sources by the names readStream.format() takes.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/formats/file_format.h"
#include "sluice/formats/format_options.h"
#include "sluice/plan/data_source.h"
#include "sluice/sources/stream_source.h"

namespace sluice::sources {

/// What readStream gathered for a source.
struct SourceRequest {
  std::string format;
  formats::OptionMap options;
  /// The path given to load(), or empty (then the "path" option, for file sources).
  std::string path;
  /// The user's schema, or null.
  std::shared_ptr<arrow::Schema> schema;
  formats::FormatContext format_context;
  /// spark.sql.streaming.schemaInference.
  bool schema_inference = false;
};

/// The plan leaf of the source named by request.format (case-insensitive): json, csv, parquet,
/// orc, text, rate, rate-micro-batch, socket, kafka. An unknown name fails with
/// DATA_SOURCE_NOT_FOUND; bad options fail naming the option.
arrow::Result<std::shared_ptr<const StreamSourceProvider>> MakeStreamSourceProvider(
    const SourceRequest& request);

/// Whether read.format(`format`) names a batch source that is not a file format (kafka, delta,
/// statestore, state-metadata); case-insensitive. The file formats are read by DataFrameReader itself.
bool IsNonFileBatchSource(std::string_view format);

/// The plan leaf of read.format(request.format).load() for a source IsNonFileBatchSource
/// accepts. Bad options fail naming the option; nothing connects before the scan.
arrow::Result<std::shared_ptr<const plan::DataSource>> MakeBatchSource(
    const SourceRequest& request);

}  // namespace sluice::sources
