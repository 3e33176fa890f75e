// The actions of the Delta transaction log (the Delta protocol's "Actions"): what a commit file
// `_delta_log/<version>.json` holds, one JSON object per line, and what a checkpoint holds as
// Parquet rows. Fields are those Delta Spark writes, in its order, so that Spark, delta-rs and
// the other readers read our tables.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <arrow/result.h>

namespace sluice::delta {

/// The partition values of a file, in the table's partition column order: the values as
/// strings (Delta's partition value serialization), nullopt for null.
using PartitionValues = std::vector<std::pair<std::string, std::optional<std::string>>>;

/// `protocol`: the reader and writer versions (and, from versions 3 and 7, the named features)
/// a client must support to read or write the table.
struct Protocol {
  int32_t min_reader_version = 1;
  int32_t min_writer_version = 2;
  /// Present only for reader version 3 and writer version 7.
  std::optional<std::vector<std::string>> reader_features;
  std::optional<std::vector<std::string>> writer_features;

  bool operator==(const Protocol&) const = default;
};

/// `metaData`: the table's identity, schema, partitioning and configuration.
struct Metadata {
  std::string id;
  std::optional<std::string> name;
  std::optional<std::string> description;
  std::string format_provider = "parquet";
  std::map<std::string, std::string> format_options;
  /// Spark's JSON form of the table schema (types/json_schema.h).
  std::string schema_string;
  std::vector<std::string> partition_columns;
  std::map<std::string, std::string> configuration;
  std::optional<int64_t> created_time;

  bool operator==(const Metadata&) const = default;
};

/// `add`: a data file that becomes part of the table.
struct AddFile {
  /// Relative to the table folder and URI-encoded (or an absolute URI).
  std::string path;
  PartitionValues partition_values;
  int64_t size = 0;
  int64_t modification_time = 0;
  bool data_change = true;
  /// The statistics JSON text (numRecords, minValues, maxValues, nullCount), when known.
  std::optional<std::string> stats;
  std::map<std::string, std::string> tags;

  bool operator==(const AddFile&) const = default;
};

/// `remove`: a data file that stops being part of the table (its bytes stay until vacuum).
struct RemoveFile {
  std::string path;
  std::optional<int64_t> deletion_timestamp;
  bool data_change = true;
  bool extended_file_metadata = false;
  PartitionValues partition_values;
  std::optional<int64_t> size;

  bool operator==(const RemoveFile&) const = default;
};

/// `txn`: the last version an application committed (streaming sinks: appId = query id,
/// version = batch id), which makes re-runs of a write idempotent.
struct Transaction {
  std::string app_id;
  int64_t version = 0;
  std::optional<int64_t> last_updated;

  bool operator==(const Transaction&) const = default;
};

/// `commitInfo`: provenance of a commit, shown by history(). Maps hold values as the strings
/// Delta writes them as (operationParameters values are JSON texts in strings).
struct CommitInfo {
  std::optional<int64_t> timestamp;
  std::string operation;
  std::map<std::string, std::string> operation_parameters;
  std::optional<int64_t> read_version;
  std::optional<std::string> isolation_level;
  std::optional<bool> is_blind_append;
  std::map<std::string, std::string> operation_metrics;
  std::optional<std::string> engine_info;
  std::optional<std::string> txn_id;

  bool operator==(const CommitInfo&) const = default;
};

using Action = std::variant<Protocol, Metadata, AddFile, RemoveFile, Transaction, CommitInfo>;

/// One commit line: {"add":{...}} etc., compact, fields in Delta Spark's order; absent optional
/// fields are left out.
std::string ActionToJson(const Action& action);

/// A whole commit file's text: one action per line, each line ended by '\n'.
std::string CommitToJson(const std::vector<Action>& actions);

/// The actions of one commit file's text, in order. Lines holding actions this engine has no
/// use for (cdc, domainMetadata, ...) are skipped: the protocol check refuses tables whose
/// features would make them matter. A line that is not an action object, or an action missing
/// a required field, fails with DELTA_LOG_FILE_CORRUPT naming `path` and the line number.
arrow::Result<std::vector<Action>> ParseCommit(std::string_view text, const std::string& path);

}  // namespace sluice::delta
