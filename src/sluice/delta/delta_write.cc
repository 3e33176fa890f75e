#include "sluice/delta/delta_write.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include <arrow/record_batch.h>
#include <arrow/type.h>

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/checkpoint/file_uri.h"
#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"
#include "sluice/common/fault_points.h"
#include "sluice/delta/delta_checkpoint.h"
#include "sluice/delta/delta_protocol.h"
#include "sluice/delta/delta_statistics.h"
#include "sluice/formats/partitioned_writer.h"
#include "sluice/types/json_schema.h"
#include "sluice/types/spark_type_names.h"
#include "sluice/types/tree_string.h"

namespace sluice::delta {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxCommitAttempts = 1000;

std::string ColumnList(const std::vector<std::string>& names) {
  std::string text = "[";
  for (size_t i = 0; i < names.size(); ++i) text += (i ? ", " : "") + QuoteIdentifier(names[i]);
  return text + "]";
}

/// `schema` with every field (at any depth) nullable: Delta creates tables from data that way.
std::shared_ptr<arrow::DataType> AsNullable(const std::shared_ptr<arrow::DataType>& type);

std::shared_ptr<arrow::Field> NullableField(const std::shared_ptr<arrow::Field>& field) {
  return field->WithType(AsNullable(field->type()))->WithNullable(true);
}

std::shared_ptr<arrow::DataType> AsNullable(const std::shared_ptr<arrow::DataType>& type) {
  switch (type->id()) {
    case arrow::Type::STRUCT: {
      arrow::FieldVector fields;
      for (const auto& field : type->fields()) fields.push_back(NullableField(field));
      return arrow::struct_(fields);
    }
    case arrow::Type::LIST:
      return arrow::list(NullableField(type->field(0)));
    case arrow::Type::MAP: {
      const auto& map = static_cast<const arrow::MapType&>(*type);
      return arrow::map(map.key_type(), NullableField(map.item_field()));
    }
    default:
      return type;
  }
}

std::shared_ptr<arrow::Schema> NullableSchema(const arrow::Schema& schema) {
  arrow::FieldVector fields;
  for (const auto& field : schema.fields()) fields.push_back(NullableField(field));
  return arrow::schema(fields);
}

/// Types compared as Delta compares a write against its table: nullability aside.
bool SameType(const arrow::DataType& a, const arrow::DataType& b) {
  return AsNullable(a.GetSharedPtr())->Equals(*AsNullable(b.GetSharedPtr()));
}

int FindColumn(const arrow::Schema& schema, const std::string& name) {
  for (int i = 0; i < schema.num_fields(); ++i) {
    if (AsciiLower(schema.field(i)->name()) == AsciiLower(name)) return i;
  }
  return -1;
}

arrow::Status CheckNoCaseDuplicates(const arrow::Schema& schema) {
  std::set<std::string> seen;
  for (const auto& field : schema.fields()) {
    if (!seen.insert(AsciiLower(field->name())).second) {
      return SparkError("DELTA_DUPLICATE_COLUMNS_FOUND",
                        "Found duplicate column(s) in the data to save: " +
                            AsciiLower(field->name()) + ".");
    }
  }
  return arrow::Status::OK();
}

/// The partition columns a write asks for, spelled as in `schema`; COLUMN_NOT_FOUND-like
/// errors are left to the partitioned writer.
std::vector<std::string> SpelledAsIn(const arrow::Schema& schema,
                                     const std::vector<std::string>& names) {
  std::vector<std::string> spelled;
  for (const auto& name : names) {
    int index = FindColumn(schema, name);
    spelled.push_back(index >= 0 ? schema.field(index)->name() : name);
  }
  return spelled;
}

Metadata NewMetadata(const arrow::Schema& schema, std::vector<std::string> partition_columns,
                     int64_t now_ms) {
  Metadata metadata;
  metadata.id = formats::RandomUuid();
  metadata.schema_string = types::SchemaToJson(schema);
  metadata.partition_columns = std::move(partition_columns);
  metadata.created_time = now_ms;
  return metadata;
}

/// The batches of `input` with their columns renamed to the table's spelling.
class RenamedStream final : public physical::BatchStream {
 public:
  RenamedStream(physical::BatchStream& input, std::shared_ptr<arrow::Schema> schema)
      : input_(input), schema_(std::move(schema)) {}
  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Next() override {
    ARROW_ASSIGN_OR_RAISE(auto batch, input_.Next());
    if (batch == nullptr) return nullptr;
    return arrow::RecordBatch::Make(schema_, batch->num_rows(), batch->columns());
  }

 private:
  physical::BatchStream& input_;
  std::shared_ptr<arrow::Schema> schema_;
};

/// What a conflicting commit did that matters to a retry.
struct WinnerSummary {
  bool protocol = false;
  bool metadata = false;
  bool added = false;
  bool removed = false;
  bool blind_append = false;
  std::set<std::string> removed_paths;
  std::set<std::string> app_ids;
};

WinnerSummary Summarize(const std::vector<Action>& actions) {
  WinnerSummary summary;
  for (const auto& action : actions) {
    if (std::holds_alternative<Protocol>(action)) summary.protocol = true;
    if (std::holds_alternative<Metadata>(action)) summary.metadata = true;
    if (const auto* add = std::get_if<AddFile>(&action)) summary.added |= add->data_change;
    if (const auto* remove = std::get_if<RemoveFile>(&action)) {
      summary.removed |= remove->data_change;
      summary.removed_paths.insert(remove->path);
    }
    if (const auto* txn = std::get_if<Transaction>(&action)) summary.app_ids.insert(txn->app_id);
    if (const auto* info = std::get_if<CommitInfo>(&action)) {
      summary.blind_append = info->is_blind_append.value_or(false);
    }
  }
  return summary;
}

/// The first of `paths` that is in `removed`, if any.
std::optional<std::string> FirstRemoved(const std::set<std::string>& paths,
                                        const std::set<std::string>& removed) {
  for (const auto& path : paths) {
    if (removed.count(path) > 0) return path;
  }
  return std::nullopt;
}

/// Fails when the commit a concurrent writer made at `version` invalidates ours.
arrow::Status CheckConflict(const DeltaLog& log, int64_t version, const ConflictRules& rules) {
  ARROW_ASSIGN_OR_RAISE(auto actions, log.ReadCommit(version));
  WinnerSummary winner = Summarize(actions);
  const std::string where = " (version " + std::to_string(version) + " of " +
                            log.table_path() + ")";
  if (winner.protocol) {
    return SparkError("DELTA_PROTOCOL_CHANGED",
                      "The protocol version of the Delta table has been changed by a concurrent "
                      "update" + where + ". Please try the operation again.");
  }
  if (winner.metadata) {
    return SparkError("DELTA_METADATA_CHANGED",
                      "The metadata of the Delta table has been changed by a concurrent update" +
                          where + ". Please try the operation again.");
  }
  if (rules.app_id && winner.app_ids.count(*rules.app_id) > 0) {
    return SparkError("DELTA_CONCURRENT_TRANSACTION",
                      "This error occurs when multiple streaming queries are using the same "
                      "checkpoint to write into this table" + where +
                          ". Did you run multiple instances of the same streaming query at the "
                          "same time? Transaction appId: " + *rules.app_id);
  }
  if (rules.any_data_change && (winner.added || winner.removed)) {
    return SparkError("DELTA_CONCURRENT_APPEND",
                      "Files were added or removed by a concurrent update" + where +
                          " while this write replaced the table. Please try the operation "
                          "again.");
  }
  if (auto read = FirstRemoved(rules.read_files, winner.removed_paths)) {
    return SparkError("DELTA_CONCURRENT_DELETE_READ",
                      "This transaction attempted to read one or more files that were deleted "
                      "by a concurrent update" + where + ". Please try the operation again. "
                      "File: " + *read);
  }
  if (auto removed = FirstRemoved(rules.removed_files, winner.removed_paths)) {
    return SparkError("DELTA_CONCURRENT_DELETE_DELETE",
                      "This transaction attempted to delete one or more files that were "
                      "deleted by a concurrent update" + where + ". Please try the operation "
                      "again. File: " + *removed);
  }
  if (rules.read_whole_table && winner.added && !winner.blind_append) {
    return SparkError("DELTA_CONCURRENT_APPEND",
                      "Files were added to the table by a concurrent update" + where +
                          " that this transaction should have read. Please try the operation "
                          "again.");
  }
  return arrow::Status::OK();
}

int64_t FileSize(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return 0;
  return static_cast<int64_t>(info.st_size);
}

}  // namespace

arrow::Result<PlannedSchema> PlanSchema(const std::optional<Snapshot>& read,
                                        const arrow::Schema& data_schema,
                                        const WriteOptions& options) {
  ARROW_RETURN_NOT_OK(CheckNoCaseDuplicates(data_schema));
  PlannedSchema plan;
  const bool replace = read && options.mode == WriteMode::kOverwrite && options.overwrite_schema;
  if (!read || replace) {
    plan.table_schema = NullableSchema(data_schema);
    plan.partition_columns = SpelledAsIn(data_schema, options.partition_by);
    Metadata metadata = NewMetadata(*plan.table_schema, plan.partition_columns, options.now_ms);
    if (replace) {
      // The table keeps its identity and settings; only schema and partitioning change.
      metadata.id = read->metadata.id;
      metadata.name = read->metadata.name;
      metadata.description = read->metadata.description;
      metadata.configuration = read->metadata.configuration;
      metadata.created_time = read->metadata.created_time;
    } else {
      plan.protocol = NewTableProtocol();
    }
    plan.metadata = std::move(metadata);
    return plan;
  }
  const arrow::Schema& table = *read->schema;
  plan.partition_columns = read->metadata.partition_columns;
  std::vector<std::string> problems;
  if (!options.partition_by.empty()) {
    std::vector<std::string> given = SpelledAsIn(table, options.partition_by);
    if (given != plan.partition_columns) {
      problems.push_back("Partition columns do not match the partition columns of the table.\n"
                         "Given: " + ColumnList(options.partition_by) +
                         "\nTable: " + ColumnList(plan.partition_columns));
    }
  }
  arrow::FieldVector merged = table.fields();
  std::vector<std::string> missing, mistyped;
  for (const auto& field : data_schema.fields()) {
    int index = FindColumn(table, field->name());
    if (index < 0) {
      missing.push_back(field->name());
      merged.push_back(NullableField(field));
    } else if (!SameType(*table.field(index)->type(), *field->type())) {
      mistyped.push_back(QuoteIdentifier(field->name()) + " (table: " +
                         types::SimpleString(*table.field(index)->type()) + ", data: " +
                         types::SimpleString(*field->type()) + ")");
    }
  }
  if (!mistyped.empty()) {
    std::string text = "Columns whose types differ from the table's:";
    for (const auto& column : mistyped) text += " " + column;
    problems.push_back(text);
  }
  if (!missing.empty() && !options.merge_schema) {
    problems.push_back("Columns not in the table: " + ColumnList(missing) +
                       ". To enable schema migration using DataFrameWriter or "
                       "DataStreamWriter, please set: '.option(\"mergeSchema\", \"true\")'.");
  }
  if (!problems.empty()) {
    std::string message = "A schema mismatch detected when writing to the Delta table (Table ID: " +
                          read->metadata.id + ").";
    for (const auto& problem : problems) message += "\n" + problem;
    message += "\n\nTable schema:\n" + types::TreeString(table) +
               "\nData schema:\n" + types::TreeString(data_schema);
    return SparkError("DELTA_METADATA_MISMATCH", message);
  }
  plan.table_schema = arrow::schema(merged);
  if (!missing.empty()) {
    Metadata metadata = read->metadata;
    metadata.schema_string = types::SchemaToJson(*plan.table_schema);
    plan.metadata = std::move(metadata);
  }
  return plan;
}

arrow::Result<std::unique_ptr<DataFileWriter>> DataFileWriter::Make(
    const DeltaLog& log, std::shared_ptr<arrow::Schema> schema,
    std::vector<std::string> partition_columns, const WriteOptions& options) {
  std::unique_ptr<DataFileWriter> writer(
      new DataFileWriter(log, std::move(schema), std::move(partition_columns), options));
  ARROW_RETURN_NOT_OK(writer->Open());
  return writer;
}

DataFileWriter::~DataFileWriter() {
  if (!finished_) Abandon();
}

arrow::Status DataFileWriter::Open() {
  ARROW_ASSIGN_OR_RAISE(current_, formats::PartitionedWriter::Make(
                                      options_.parquet, table_path_, schema_, partition_columns_,
                                      options_.zone, formats::RandomUuid(),
                                      /*collect_statistics=*/true));
  return arrow::Status::OK();
}

arrow::Status DataFileWriter::Write(const std::shared_ptr<arrow::RecordBatch>& batch) {
  if (current_ == nullptr) ARROW_RETURN_NOT_OK(Open());
  return current_->Write(batch);
}

arrow::Status DataFileWriter::Roll() {
  if (current_ == nullptr) return arrow::Status::OK();
  ARROW_ASSIGN_OR_RAISE(auto written, current_->Finish());
  const auto data_schema = current_->data_schema();
  current_.reset();
  // A table needs no empty files: its schema is in the log.
  std::vector<std::string> empty;
  for (const auto& file : written) {
    written_.push_back(file.relative);
    if (file.rows == 0) empty.push_back(file.relative);
  }
  formats::DeleteUncommittedFiles(table_path_, empty);
  std::erase_if(written, [](const formats::WrittenFile& file) { return file.rows == 0; });
  ARROW_RETURN_NOT_OK(formats::SyncPartFiles(table_path_, formats::RelativePaths(written)));
  for (auto& file : written) {
    AddFile add;
    add.path = checkpoint::EncodeUriPath(file.relative);
    for (size_t p = 0; p < partition_columns_.size(); ++p) {
      add.partition_values.emplace_back(partition_columns_[p], file.partition_values[p]);
    }
    add.size = FileSize((fs::path(table_path_) / file.relative).string());
    add.modification_time = options_.now_ms;
    add.data_change = true;
    add.stats = StatisticsJson(file.rows, *data_schema, file.statistics);
    rows_ += file.rows;
    bytes_ += add.size;
    adds_.push_back(std::move(add));
  }
  return arrow::Status::OK();
}

arrow::Result<std::vector<AddFile>> DataFileWriter::Finish() {
  ARROW_RETURN_NOT_OK(Roll());
  finished_ = true;
  return adds_;
}

void DataFileWriter::Abandon() {
  // The partitioned writer removes the files it never finished.
  current_.reset();
  formats::DeleteUncommittedFiles(table_path_, written_);
  written_.clear();
  adds_.clear();
  finished_ = true;
}

RemoveFile RemoveOf(const AddFile& file, int64_t now_ms) {
  RemoveFile remove;
  remove.path = file.path;
  remove.deletion_timestamp = now_ms;
  remove.data_change = true;
  remove.extended_file_metadata = true;
  remove.partition_values = file.partition_values;
  remove.size = file.size;
  return remove;
}

arrow::Result<int64_t> CommitWithRetries(const DeltaLog& log, const std::optional<Snapshot>& read,
                                         const std::vector<Action>& actions,
                                         const ConflictRules& rules) {
  KillPoint(fault_points::kDeltaFilesWritten);
  int64_t version = read ? read->version + 1 : 0;
  for (int attempt = 1;; ++attempt) {
    auto status = log.WriteCommit(version, actions);
    if (status.ok()) return version;
    if (!checkpoint::IsAlreadyExists(status)) return status;
    if (attempt == kMaxCommitAttempts) {
      return SparkError("DELTA_MAX_COMMIT_RETRIES_EXCEEDED",
                        "This commit has failed as it has been tried " +
                            std::to_string(attempt) +
                            " times but did not succeed: other writers keep committing to " +
                            log.table_path() + ".");
    }
    if (!read) {
      return SparkError("DELTA_PROTOCOL_CHANGED",
                        "The Delta table at " + log.table_path() +
                            " was created by a concurrent writer while this write created it. "
                            "Please try the operation again.");
    }
    ARROW_RETURN_NOT_OK(CheckConflict(log, version, rules));
    ++version;
  }
}

arrow::Result<Snapshot> AfterCommit(const DeltaLog& log, const std::optional<Snapshot>& read,
                                    int64_t version) {
  Snapshot snapshot;
  if (read) {
    ARROW_ASSIGN_OR_RAISE(snapshot, log.Update(*read, version));
  } else {
    ARROW_ASSIGN_OR_RAISE(snapshot, log.Load(version));
  }
  if (version > 0 && version % kDefaultCheckpointInterval == 0) {
    ARROW_RETURN_NOT_OK(WriteCheckpoint(log, snapshot));
  }
  return snapshot;
}

arrow::Result<WriteResult> WriteToTable(const DeltaLog& log, const std::optional<Snapshot>& read,
                                        physical::BatchStream& rows,
                                        const WriteOptions& options) {
  const bool removes = read && options.mode == WriteMode::kOverwrite && !read->files.empty();
  if (read) ARROW_RETURN_NOT_OK(CheckWritable(*read, log.table_path(), removes));
  ARROW_ASSIGN_OR_RAISE(PlannedSchema plan, PlanSchema(read, *rows.schema(), options));

  // The data's columns, spelled as the table spells them.
  arrow::FieldVector fields;
  for (const auto& field : rows.schema()->fields()) {
    int index = FindColumn(*plan.table_schema, field->name());
    fields.push_back(field->WithName(plan.table_schema->field(index)->name()));
  }
  RenamedStream data(rows, arrow::schema(fields));

  ARROW_ASSIGN_OR_RAISE(auto writer, DataFileWriter::Make(log, data.schema(),
                                                          plan.partition_columns, options));
  std::vector<AddFile> adds;
  auto write = [&]() -> arrow::Status {
    while (true) {
      ARROW_ASSIGN_OR_RAISE(auto batch, data.Next());
      if (batch == nullptr) break;
      ARROW_RETURN_NOT_OK(writer->Write(batch));
    }
    ARROW_ASSIGN_OR_RAISE(adds, writer->Finish());
    return arrow::Status::OK();
  };
  auto abandon = [&](arrow::Status status) {
    writer->Abandon();
    return status;
  };
  if (auto status = write(); !status.ok()) return abandon(status);

  WriteResult result;
  std::vector<Action> actions;
  CommitInfo info;
  info.timestamp = options.now_ms;
  info.operation = options.operation;
  info.operation_parameters = options.operation_parameters;
  if (read) info.read_version = read->version;
  info.isolation_level = "Serializable";
  info.is_blind_append = options.mode == WriteMode::kAppend && !plan.metadata;
  info.engine_info = "Sluice";
  info.txn_id = formats::RandomUuid();
  actions.push_back(CommitInfo{});  // filled below, once the metrics are known
  if (plan.protocol) actions.push_back(*plan.protocol);
  if (plan.metadata) actions.push_back(*plan.metadata);
  if (options.transaction) {
    Transaction txn = *options.transaction;
    txn.last_updated = options.now_ms;
    actions.push_back(std::move(txn));
  }
  int64_t removed_files = 0;
  if (removes) {
    for (const auto& file : read->files) {
      actions.push_back(RemoveOf(file, options.now_ms));
      ++removed_files;
    }
  }
  result.rows = writer->rows();
  result.bytes = writer->bytes();
  result.files = static_cast<int64_t>(adds.size());
  for (auto& add : adds) actions.push_back(std::move(add));
  info.operation_metrics = {{"numFiles", std::to_string(result.files)},
                            {"numOutputRows", std::to_string(result.rows)},
                            {"numOutputBytes", std::to_string(result.bytes)}};
  if (options.mode == WriteMode::kOverwrite) {
    info.operation_metrics["numRemovedFiles"] = std::to_string(removed_files);
  }
  actions.front() = std::move(info);

  ConflictRules rules;
  if (options.transaction) rules.app_id = options.transaction->app_id;
  rules.any_data_change = options.mode == WriteMode::kOverwrite;
  auto version = CommitWithRetries(log, read, actions, rules);
  if (!version.ok()) {
    // A commit in place already refers to the data files.
    if (checkpoint::IsInPlace(version.status())) return version.status();
    return abandon(version.status());
  }
  result.version = *version;
  ARROW_ASSIGN_OR_RAISE(result.snapshot, AfterCommit(log, read, result.version));
  return result;
}

}  // namespace sluice::delta
