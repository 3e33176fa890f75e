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
    }
    if (const auto* txn = std::get_if<Transaction>(&action)) summary.app_ids.insert(txn->app_id);
  }
  return summary;
}

/// Fails when the commit a concurrent writer made at `version` invalidates ours.
arrow::Status CheckConflict(const DeltaLog& log, int64_t version, const WriteOptions& options) {
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
  if (options.transaction && winner.app_ids.count(options.transaction->app_id) > 0) {
    return SparkError("DELTA_CONCURRENT_TRANSACTION",
                      "This error occurs when multiple streaming queries are using the same "
                      "checkpoint to write into this table" + where +
                          ". Did you run multiple instances of the same streaming query at the "
                          "same time? Transaction appId: " + options.transaction->app_id);
  }
  if (options.mode == WriteMode::kOverwrite && (winner.added || winner.removed)) {
    return SparkError("DELTA_CONCURRENT_APPEND",
                      "Files were added or removed by a concurrent update" + where +
                          " while this write replaced the table. Please try the operation "
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

  ARROW_ASSIGN_OR_RAISE(auto writer, formats::PartitionedWriter::Make(
                                         options.parquet, log.table_path(), data.schema(),
                                         plan.partition_columns, options.zone,
                                         formats::RandomUuid(), /*collect_statistics=*/true));
  std::vector<formats::WrittenFile> written;
  auto write = [&]() -> arrow::Status {
    while (true) {
      ARROW_ASSIGN_OR_RAISE(auto batch, data.Next());
      if (batch == nullptr) break;
      ARROW_RETURN_NOT_OK(writer->Write(batch));
    }
    ARROW_ASSIGN_OR_RAISE(written, writer->Finish());
    // A table needs no empty files: its schema is in the log.
    std::vector<std::string> empty;
    for (const auto& file : written) {
      if (file.rows == 0) empty.push_back(file.relative);
    }
    formats::DeleteUncommittedFiles(log.table_path(), empty);
    std::erase_if(written, [](const formats::WrittenFile& file) { return file.rows == 0; });
    return formats::SyncPartFiles(log.table_path(), formats::RelativePaths(written));
  };
  auto abandon = [&](arrow::Status status) {
    formats::DeleteUncommittedFiles(log.table_path(), formats::RelativePaths(written));
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
      RemoveFile remove;
      remove.path = file.path;
      remove.deletion_timestamp = options.now_ms;
      remove.data_change = true;
      remove.extended_file_metadata = true;
      remove.partition_values = file.partition_values;
      remove.size = file.size;
      actions.push_back(std::move(remove));
      ++removed_files;
    }
  }
  const auto& data_schema = writer->data_schema();
  for (auto& file : written) {
    AddFile add;
    add.path = checkpoint::EncodeUriPath(file.relative);
    for (size_t p = 0; p < plan.partition_columns.size(); ++p) {
      add.partition_values.emplace_back(plan.partition_columns[p], file.partition_values[p]);
    }
    add.size = FileSize((fs::path(log.table_path()) / file.relative).string());
    add.modification_time = options.now_ms;
    add.data_change = true;
    add.stats = StatisticsJson(file.rows, *data_schema, file.statistics);
    result.rows += file.rows;
    result.bytes += add.size;
    ++result.files;
    actions.push_back(std::move(add));
  }
  info.operation_metrics = {{"numFiles", std::to_string(result.files)},
                            {"numOutputRows", std::to_string(result.rows)},
                            {"numOutputBytes", std::to_string(result.bytes)}};
  if (options.mode == WriteMode::kOverwrite) {
    info.operation_metrics["numRemovedFiles"] = std::to_string(removed_files);
  }
  actions.front() = std::move(info);

  int64_t version = read ? read->version + 1 : 0;
  for (int attempt = 1;; ++attempt) {
    auto status = log.WriteCommit(version, actions);
    if (status.ok()) break;
    if (!checkpoint::IsAlreadyExists(status)) return abandon(status);
    if (attempt == kMaxCommitAttempts) {
      return abandon(SparkError("DELTA_MAX_COMMIT_RETRIES_EXCEEDED",
                                "This commit has failed as it has been tried " +
                                    std::to_string(attempt) +
                                    " times but did not succeed: other writers keep committing "
                                    "to " + log.table_path() + "."));
    }
    if (!read) {
      return abandon(SparkError("DELTA_PROTOCOL_CHANGED",
                                "The Delta table at " + log.table_path() +
                                    " was created by a concurrent writer while this write "
                                    "created it. Please try the operation again."));
    }
    if (auto conflict = CheckConflict(log, version, options);
        !conflict.ok()) {
      return abandon(conflict);
    }
    ++version;
  }
  result.version = version;
  if (read) {
    ARROW_ASSIGN_OR_RAISE(result.snapshot, log.Update(*read, version));
  } else {
    ARROW_ASSIGN_OR_RAISE(result.snapshot, log.Load(version));
  }
  if (version > 0 && version % kDefaultCheckpointInterval == 0) {
    ARROW_RETURN_NOT_OK(WriteCheckpoint(log, result.snapshot));
  }
  return result;
}

}  // namespace sluice::delta
