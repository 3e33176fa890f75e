// Writing rows into a Delta table: the schema check against the table (and its evolution with
// mergeSchema / overwriteSchema), the Parquet data files with their statistics, and the
// commit, retried past concurrent writers whose commits do not conflict.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/delta/delta_actions.h"
#include "sluice/delta/delta_log.h"
#include "sluice/formats/file_format.h"
#include "sluice/physical/batch_stream.h"

namespace sluice::delta {

/// What a write does to the rows already in the table.
enum class WriteMode {
  /// Adds files (streaming append, batch append).
  kAppend,
  /// Removes every file and adds the new ones in the same commit (batch overwrite, streaming
  /// complete mode).
  kOverwrite,
};

/// The options of a write that shape its commit.
struct WriteOptions {
  WriteMode mode = WriteMode::kAppend;
  /// partitionBy; must match the table's partitioning when the table exists (unless the
  /// schema is overwritten).
  std::vector<std::string> partition_by;
  /// mergeSchema: new columns of the data are added to the table schema.
  bool merge_schema = false;
  /// overwriteSchema (with kOverwrite only): the data's schema and partitioning replace the
  /// table's.
  bool overwrite_schema = false;
  /// An application transaction to record (appId, version), making the write idempotent.
  std::optional<Transaction> transaction;
  /// commitInfo.operation and operationParameters ("WRITE", "STREAMING UPDATE", ...).
  std::string operation = "WRITE";
  std::map<std::string, std::string> operation_parameters;
  /// The Parquet writer (its options: compression) and the zone partition values are
  /// written in.
  std::shared_ptr<const formats::FormatWriter> parquet;
  std::shared_ptr<const datetime::TimeZone> zone;
  /// Milliseconds since the epoch, for createdTime, modificationTime and the commit's timestamp.
  int64_t now_ms = 0;
};

/// What a commit did.
struct WriteResult {
  /// The version committed.
  int64_t version = -1;
  int64_t rows = 0;
  int64_t files = 0;
  int64_t bytes = 0;
  /// The table after the commit.
  Snapshot snapshot;
};

/// The schema and partitioning a write commits with: the table's (checked against the data),
/// or the data's for a new table or an overwritten schema. `metadata` is set when the commit
/// must carry a metaData action (new table, merged or overwritten schema).
struct PlannedSchema {
  std::shared_ptr<arrow::Schema> table_schema;
  std::vector<std::string> partition_columns;
  std::optional<Metadata> metadata;
  std::optional<Protocol> protocol;
};

/// Checks `data_schema` against the table `read` (nullopt: no table yet) and returns the
/// schema to commit with. Errors name the columns: DELTA_METADATA_MISMATCH for columns the
/// table lacks (without mergeSchema), types that differ, or a partitioning that differs;
/// DELTA_DUPLICATE_COLUMNS_FOUND for columns that differ only in case.
arrow::Result<PlannedSchema> PlanSchema(const std::optional<Snapshot>& read,
                                        const arrow::Schema& data_schema,
                                        const WriteOptions& options);

/// Writes `rows` into new data files of the table and commits them as one new version, based
/// on the snapshot `read` (nullopt when the table does not exist yet). The data columns take
/// the table's names and order; a column of the table the data lacks is null in the new
/// files. When another writer committed first, the commit is retried on top of it unless that
/// commit conflicts (changed the metadata or protocol, or, for an overwrite, changed the
/// files): DELTA_METADATA_CHANGED, DELTA_PROTOCOL_CHANGED, DELTA_CONCURRENT_APPEND.
/// DELTA_CONCURRENT_TRANSACTION when another writer recorded the same transaction appId. The
/// data files of a failed write are removed. Every kDefaultCheckpointInterval versions a
/// checkpoint of the log is written after the commit.
arrow::Result<WriteResult> WriteToTable(const DeltaLog& log, const std::optional<Snapshot>& read,
                                        physical::BatchStream& rows,
                                        const WriteOptions& options);

}  // namespace sluice::delta
