// The Delta streaming source (readStream.format("delta")): a table's data files in the order
// they were committed. A query that starts without startingVersion/startingTimestamp first
// reads the whole table as of its latest version, then every later commit's added files; with
// one of them it reads the added files of every commit from that version on.
//
// Options (Delta's): maxFilesPerTrigger (default 1000) and maxBytesPerTrigger (a soft limit:
// a batch takes at least one file) bound each batch; startingVersion (a number or "latest"),
// startingTimestamp; commits that remove data fail the stream unless skipChangeCommits (skip
// such commits), ignoreDeletes (skip commits that only remove) or ignoreChanges (read the files
// such commits add, which may repeat rows) says otherwise. Files added without a data change
// (compaction) are never read. A schema change of the table fails the stream.
#pragma once

#include <memory>
#include <string>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/formats/file_format.h"
#include "sluice/formats/format_options.h"
#include "sluice/sources/stream_source.h"

namespace sluice::sources {

/// The plan leaf of readStream.format("delta").load(path): the table's schema is its latest
/// version's. DELTA_TABLE_NOT_FOUND when `path` holds no table; a user schema is refused
/// (DELTA_UNSUPPORTED_SCHEMA_DURING_READ); bad options fail naming the option.
arrow::Result<std::shared_ptr<const StreamSourceProvider>> MakeDeltaStreamSourceProvider(
    const std::string& path, const formats::OptionMap& options,
    const std::shared_ptr<arrow::Schema>& user_schema, const formats::FormatContext& context);

}  // namespace sluice::sources
