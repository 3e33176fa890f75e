// What a file stream is, fixed when readStream creates it: the path, the format reader and the
// schema. Shared by the provider (the plan leaf) and every source it starts.
#pragma once

#include <memory>
#include <string>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/formats/file_format.h"
#include "sluice/formats/format_options.h"
#include "sluice/sources/file/file_stream_options.h"

namespace sluice::sources {

/// The settled description of a file stream. Immutable.
struct FileStreamSpec {
  std::shared_ptr<const formats::FormatReader> reader;
  /// All the options the user gave (format and stream options).
  formats::OptionMap options;
  /// The path as the user gave it (Spark's FileSource[...] prints it so).
  std::string user_path;
  /// The absolute local path, maybe a glob pattern.
  std::string local_path;
  /// The stream options, parsed when the stream was created; a bad value surfaces when a query
  /// starts, as in Spark.
  arrow::Result<FileStreamOptions> stream_options = FileStreamOptions{};
  /// Columns read from the files.
  std::shared_ptr<arrow::Schema> data_schema;
  /// Columns from key=value folders, appended after the data columns.
  std::shared_ptr<arrow::Schema> partition_schema;
  /// data_schema + partition_schema: the schema of every batch.
  std::shared_ptr<arrow::Schema> schema;
};

}  // namespace sluice::sources
