// The streaming file sink (Spark's FileStreamSink): each batch is written as part files of one
// format into an output folder (partitionBy -> col=value/ folders), and committed by its
// manifest entry in <out>/_spark_metadata/, which is what Spark, our batch reader and our file
// source read to know which files hold the output.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/formats/file_format.h"
#include "sluice/formats/format_options.h"
#include "sluice/sinks/stream_sink.h"

namespace sluice::sinks {

/// A file sink writing `format` files into `path` (a local path or "file:" URI; created with
/// its manifest folder now, so a path that cannot be written fails here, naming it).
///
/// `options` are the writer's: the format's write options (a bad value fails here, naming the
/// option) and the sink's own (FileSinkOptions: "retention"). `partition_by` names columns of
/// `schema`, the rows' schema, matched case-insensitively; unknown columns, or a schema the
/// format cannot write, fail here (at the first batch when `schema` is null).
/// `compact_interval` is spark.sql.streaming.fileSink.log.compactInterval (Spark's default:
/// 10): every that many batches the manifest is compacted into "<id>.compact" (an older
/// manifest compacted with another interval keeps its own, as in Spark).
///
/// The sink accepts only the Append output mode. AddBatch is idempotent per batch id: a batch
/// id at or below the manifest's latest is a replay of a committed batch and is skipped
/// without reading its data; otherwise the batch's files get fresh names, so files left by an
/// attempt that crashed before its manifest entry stay invisible and are never overwritten.
/// It reports -1 output rows, as Spark does for this sink.
arrow::Result<std::unique_ptr<StreamSink>> MakeFileStreamSink(
    formats::FileFormat format, const formats::OptionMap& options, const std::string& path,
    const std::vector<std::string>& partition_by, std::shared_ptr<arrow::Schema> schema,
    const formats::FormatContext& context, int compact_interval);

}  // namespace sluice::sinks
