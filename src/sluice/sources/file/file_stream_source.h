// The streaming file source (Spark's FileStreamSource): each micro-batch takes the files that
// appeared in a folder (or glob) since the last one, oldest first, under the rate limits, and
// records them in its own log so that a restarted query reads exactly the same files again.
#pragma once

#include <memory>
#include <string>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/formats/file_format.h"
#include "sluice/formats/format_options.h"
#include "sluice/sources/file/file_stream_spec.h"
#include "sluice/sources/stream_source.h"

namespace sluice::sources {

/// The plan leaf of readStream.format(<file format>).load(path). Settles the schema now, as
/// Spark's DataSource.sourceSchema does: the user's schema, or (schema inference on, or the
/// text format) one inferred from the files there now; the partition columns of key=value
/// folders are appended in both cases. Errors: PATH_NOT_FOUND for a plain path that does not
/// exist (a comma-separated list of paths is one path to Spark, so it fails this way too, with
/// a hint), _LEGACY_ERROR_TEMP_2048 when a schema is needed, UNABLE_TO_INFER_SCHEMA when there
/// is nothing to infer it from, and bad format options. The file stream options
/// (maxFilesPerTrigger, cleanSource, ...) are checked when a query starts, as Spark does.
/// Describe() is "FileSource[<path as given>]".
arrow::Result<std::shared_ptr<const StreamSourceProvider>> MakeFileStreamSourceProvider(
    formats::FileFormat format, const formats::OptionMap& options, const std::string& path,
    std::shared_ptr<arrow::Schema> user_schema, const formats::FormatContext& context,
    bool schema_inference_enabled);

/// Starts a file source for one query run over `spec`, with its file log in
/// context.metadata_path: the seen files are restored from the log, so batches already logged
/// are read again exactly. Fails with the stream option errors, an archive folder the source
/// pattern could match, or a corrupt log (naming the file). Describe() is
/// "FileStreamSource[file:<absolute path>]". Offsets are {"logOffset":N}.
arrow::Result<std::unique_ptr<StreamSource>> MakeFileStreamSource(
    std::shared_ptr<const FileStreamSpec> spec, const SourceContext& context);

}  // namespace sluice::sources
