// Writing rows into a Delta table: the schema check against the table (and its evolution with
// mergeSchema / overwriteSchema), the Parquet data files with their statistics, and the
// commit, retried past concurrent writers whose commits do not conflict.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/delta/delta_actions.h"
#include "sluice/delta/delta_log.h"
#include "sluice/formats/file_format.h"
#include "sluice/formats/partitioned_writer.h"
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

/// Writes the data files of one commit: Parquet files with statistics under the table folder,
/// split by the partition columns, invisible to readers until a commit adds them. Not
/// thread-safe. Files of a writer that is destroyed without Finish() are deleted.
class DataFileWriter {
 public:
  /// `schema`: the columns of the rows to write, spelled as the table spells them.
  static arrow::Result<std::unique_ptr<DataFileWriter>> Make(
      const DeltaLog& log, std::shared_ptr<arrow::Schema> schema,
      std::vector<std::string> partition_columns, const WriteOptions& options);
  ~DataFileWriter();

  arrow::Status Write(const std::shared_ptr<arrow::RecordBatch>& batch);
  /// Completes the files being written; later rows go to new files (one writer can so keep
  /// rows apart that a layout wants apart, e.g. each rewritten file's rows).
  arrow::Status Roll();
  /// Completes every file, makes them durable and returns their add actions (no empty
  /// files). The files stay until a commit adds them or Abandon() deletes them.
  arrow::Result<std::vector<AddFile>> Finish();
  /// Deletes every file written (a failed or conflicting commit).
  void Abandon();

  int64_t rows() const { return rows_; }
  int64_t bytes() const { return bytes_; }

 private:
  DataFileWriter(const DeltaLog& log, std::shared_ptr<arrow::Schema> schema,
                 std::vector<std::string> partition_columns, const WriteOptions& options)
      : table_path_(log.table_path()),
        schema_(std::move(schema)),
        partition_columns_(std::move(partition_columns)),
        options_(options) {}
  arrow::Status Open();

  std::string table_path_;
  std::shared_ptr<arrow::Schema> schema_;
  std::vector<std::string> partition_columns_;
  WriteOptions options_;
  std::unique_ptr<formats::PartitionedWriter> current_;
  /// Relative paths of every file written (completed or not), for Abandon().
  std::vector<std::string> written_;
  std::vector<AddFile> adds_;
  bool finished_ = false;
  int64_t rows_ = 0;
  int64_t bytes_ = 0;
};

/// What makes a concurrent commit conflict with a commit being retried past it, beyond a
/// changed protocol or metadata (always a conflict).
struct ConflictRules {
  /// The application transaction this commit records: another commit of the same appId is
  /// DELTA_CONCURRENT_TRANSACTION.
  std::optional<std::string> app_id;
  /// Any file added or removed by the other commit is DELTA_CONCURRENT_APPEND (overwrite).
  bool any_data_change = false;
  /// Files (add paths) this commit's rows were read from: one removed by the other commit is
  /// DELTA_CONCURRENT_DELETE_READ.
  std::set<std::string> read_files;
  /// Files this commit removes: one also removed by the other commit is
  /// DELTA_CONCURRENT_DELETE_DELETE (checked after read_files).
  std::set<std::string> removed_files;
  /// Files added by a commit that is not a blind append could hold rows this commit should
  /// have read (WriteSerializable): DELTA_CONCURRENT_APPEND.
  bool read_whole_table = false;
};

/// Commits `actions` as the version after `read` (version 0 when nullopt: the table is
/// created), retried on top of each commit another writer made first unless that commit
/// conflicts under `rules`. Returns the version committed. Writes nothing on failure, except
/// when the commit was renamed into place before the failure (checkpoint::IsInPlace): the
/// commit's data files must then be kept. DELTA_MAX_COMMIT_RETRIES_EXCEEDED after many lost
/// races.
arrow::Result<int64_t> CommitWithRetries(const DeltaLog& log, const std::optional<Snapshot>& read,
                                         const std::vector<Action>& actions,
                                         const ConflictRules& rules);

/// The table after `version`, committed on top of `read`, with a log checkpoint written when
/// `version` is a multiple of kDefaultCheckpointInterval.
arrow::Result<Snapshot> AfterCommit(const DeltaLog& log, const std::optional<Snapshot>& read,
                                    int64_t version);

/// A remove action for `file`, deleted at `now_ms`.
RemoveFile RemoveOf(const AddFile& file, int64_t now_ms);

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
