// Finding the data files of a path (a file, a folder read recursively, or a glob) and Spark's
// partition discovery: `key=value` folders become columns appended after the data columns, with
// types inferred as Spark's PartitioningUtils does.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/formats/format_options.h"

namespace sluice::datetime {
class TimeZone;
}

namespace sluice::formats {

/// Spark's name of the folder holding rows whose partition value is null or empty.
inline constexpr std::string_view kDefaultPartitionName = "__HIVE_DEFAULT_PARTITION__";

/// The local path of a user path: "file:" / "file://" removed, made absolute and normal.
std::string LocalPath(std::string_view user_path);
/// The path as Spark prints it in messages: "file:" + the absolute local path.
std::string QualifiedPath(std::string_view local_path);

/// Spark's ExternalCatalogUtils.escapePathName: control characters and "#%'*/:=?\{[]^ and DEL
/// as %XX (upper-case hex).
std::string EscapePathName(std::string_view name);
/// The inverse of EscapePathName (a malformed escape is kept as is).
std::string UnescapePathName(std::string_view name);

/// Hadoop's GlobFilter on one path component (no '/'): * ? [abc] [a-z] [^a] [!a] {x,y}
/// (nested) and \ escapes. The one glob matcher of the engine: path globs, pathGlobFilter,
/// and the file source's cleanSource archive check.
bool GlobMatch(std::string_view pattern, std::string_view name);

/// Spark's rule for names that are not data: starting with '_' (unless it holds '=') or '.'.
bool IsHiddenPathName(std::string_view name);

/// The data files under a path, in a deterministic (sorted) order, with the partition values
/// of each. Immutable once made.
struct FileListing {
  std::vector<std::string> files;
  /// The discovered partition columns (maybe none), with the types inferred across all
  /// files, or the user's types for columns the user schema names.
  std::shared_ptr<arrow::Schema> partition_schema;
  /// Per file, one scalar per partition column (typed as partition_schema).
  std::vector<std::vector<std::shared_ptr<arrow::Scalar>>> partition_values;
};

/// Lists the files of `path`: a file, a folder (recursively, skipping hidden names), or a glob
/// (*, ?, [..], {a,b}) in any component. A folder written by a file sink (a plain path holding
/// _spark_metadata) yields only the files its manifest commits, as Spark reads it; a corrupt
/// manifest is an error naming its log file. Fails with PATH_NOT_FOUND when nothing exists.
/// `user_schema` (may be null) fixes the types of partition columns it names; `time_zone`
/// interprets timestamp partition values.
arrow::Result<FileListing> ListFiles(std::string_view path, const FileSourceOptions& options,
                                     const std::shared_ptr<arrow::Schema>& user_schema,
                                     std::string_view time_zone);

/// A data file and the folder it belongs to: the key=value folders between the two are its
/// partition values.
struct RootedFile {
  std::string root;
  std::string path;
};

/// Partition discovery over files already found (ListFiles' second half; also the streaming
/// file source's batches and a file sink's manifest): columns from the key=value folders of
/// each file below its root (none under recursiveFileLookup), typed by `user_schema` where it
/// names them, else inferred across all files. Files keep their order. Fails with
/// CONFLICTING_DIRECTORY_STRUCTURES when files disagree on the partition columns.
arrow::Result<FileListing> DiscoverPartitions(const std::vector<RootedFile>& files,
                                              const FileSourceOptions& options,
                                              const std::shared_ptr<arrow::Schema>& user_schema,
                                              std::string_view time_zone);

/// The type Spark infers for one partition folder value (already unescaped): int, bigint,
/// decimal(p,0), double, timestamp, date, string; null for __HIVE_DEFAULT_PARTITION__.
std::shared_ptr<arrow::DataType> InferPartitionValueType(std::string_view raw);

/// A partition value's text (unescaped) as a scalar of `type`, as partition discovery reads it
/// (timestamps in `zone`); nullptr when the text does not convert.
std::shared_ptr<arrow::Scalar> ParsePartitionValue(const std::string& text,
                                                   const std::shared_ptr<arrow::DataType>& type,
                                                   const datetime::TimeZone& zone);

}  // namespace sluice::formats
