#include "sluice/sources/state/state_store_source.h"

#include <filesystem>

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/compute/api_vector.h>
#include <arrow/table.h>

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/checkpoint/batch_log.h"
#include "sluice/checkpoint/checkpoint_paths.h"
#include "sluice/checkpoint/offset_seq.h"
#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"
#include "sluice/state/operator_metadata.h"
#include "sluice/state/rocksdb_changelog.h"
#include "sluice/state/state_file_format.h"
#include "sluice/state/state_store_provider_factory.h"
#include "sluice/sources/typed_options.h"
#include "sluice/types/row_codec.h"

namespace sluice::sources {

namespace {

arrow::Status InvalidOption(const std::string& option, const std::string& message) {
  return SparkError("STDS_INVALID_OPTION_VALUE.WITH_MESSAGE",
                    "Invalid value for source option '" + option + "': " + message);
}

arrow::Status Conflict(const std::string& a, const std::string& b) {
  return SparkError("STDS_CONFLICT_OPTIONS", "The options ['" + a + "', '" + b +
                                                 "'] cannot be specified together. Please "
                                                 "specify the one.");
}

/// The last committed batch of the checkpoint.
arrow::Result<int64_t> LastCommittedBatch(const checkpoint::CheckpointPaths& paths) {
  ARROW_ASSIGN_OR_RAISE(auto latest, checkpoint::BatchLog(paths.commits()).LatestBatchId());
  if (!latest) {
    return SparkError("STDS_COMMITTED_BATCH_UNAVAILABLE",
                      "No committed batch found, checkpoint location: " + paths.root() +
                          ". Ensure that the query has run and committed any microbatch "
                          "before stopping.");
  }
  return *latest;
}

/// The state store settings the query ran `batch_id` with: its pinned provider.
arrow::Result<state::StateStoreConf> StoreConfOf(const checkpoint::CheckpointPaths& paths,
                                                 int64_t batch_id) {
  state::StateStoreConf conf;
  checkpoint::BatchLog offsets(paths.offsets());
  ARROW_ASSIGN_OR_RAISE(auto contents, offsets.Get(batch_id));
  if (!contents) {
    return SparkError("STDS_OFFSET_LOG_UNAVAILABLE",
                      "The offset log for " + std::to_string(batch_id) +
                          " does not exist, checkpoint location: " + paths.root() + ".");
  }
  ARROW_ASSIGN_OR_RAISE(auto seq, checkpoint::ParseOffsetSeq(*contents,
                                                             offsets.PathOf(batch_id)));
  for (const auto& [key, value] : seq.metadata.conf) {
    if (key == "spark.sql.streaming.stateStore.providerClass") conf.provider_class = value;
  }
  return conf;
}

/// What a scan of the "statestore" source reads, settled when it is made.
struct StateRead {
  checkpoint::CheckpointPaths paths{""};
  state::StateOperatorInfo info;
  state::StateStoreSchema store;
  state::StateStoreConf conf;
  /// The rows of this batch (the store's version batch_id + 1).
  int64_t batch_id = 0;
  /// A side of a join: the key's trailing index and the value's trailing matched flag are
  /// left out.
  bool join_side = false;
  /// The change feed from start to end batch, instead of the rows at batch_id.
  bool change_feed = false;
  int64_t change_start = 0;
  int64_t change_end = 0;
};

std::shared_ptr<arrow::StructType> StructOf(const arrow::Schema& schema, int drop_last) {
  arrow::FieldVector fields(schema.fields().begin(), schema.fields().end() - drop_last);
  return std::make_shared<arrow::StructType>(fields);
}

std::vector<std::shared_ptr<arrow::DataType>> TypesOf(const arrow::Schema& schema) {
  std::vector<std::shared_ptr<arrow::DataType>> types;
  for (const auto& field : schema.fields()) types.push_back(field->type());
  return types;
}

class StateStoreSource final : public plan::DataSource {
 public:
  explicit StateStoreSource(StateRead read) : read_(std::move(read)) {
    arrow::FieldVector fields;
    const int drop = read_.join_side ? 1 : 0;
    if (read_.change_feed) {
      fields.push_back(arrow::field("batch_id", arrow::int64(), false));
      fields.push_back(arrow::field("change_type", arrow::utf8(), false));
    }
    fields.push_back(arrow::field("key", StructOf(*read_.store.key_schema, drop)));
    fields.push_back(arrow::field("value", StructOf(*read_.store.value_schema, drop)));
    fields.push_back(arrow::field("partition_id", arrow::int32(), false));
    schema_ = arrow::schema(fields);
  }

  std::shared_ptr<arrow::Schema> schema() const override { return schema_; }

  std::string Describe() const override {
    return "statestore [checkpointLocation=" + read_.paths.root() +
           ", operatorId=" + std::to_string(read_.info.operator_id) +
           ", storeName=" + read_.store.store_name + "]";
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> Open() const override {
    ARROW_ASSIGN_OR_RAISE(auto table, read_.change_feed ? ReadChanges() : ReadRows());
    ARROW_ASSIGN_OR_RAISE(auto batch, table->CombineChunksToBatch());
    return arrow::RecordBatchReader::Make({batch}, schema_);
  }

 private:
  /// Decoded keys and values and the columns built from them.
  struct Rows {
    std::unique_ptr<types::RowDecoder> keys;
    std::unique_ptr<types::RowDecoder> values;
    std::vector<int32_t> partitions;
  };

  arrow::Result<Rows> NewRows() const {
    Rows rows;
    ARROW_ASSIGN_OR_RAISE(rows.keys, types::RowDecoder::Make(TypesOf(*read_.store.key_schema)));
    ARROW_ASSIGN_OR_RAISE(rows.values,
                          types::RowDecoder::Make(TypesOf(*read_.store.value_schema)));
    return rows;
  }

  arrow::Result<std::shared_ptr<arrow::Array>> Struct(types::RowDecoder& decoder,
                                                      const arrow::Schema& schema) const {
    ARROW_ASSIGN_OR_RAISE(auto columns, decoder.Finish());
    const int drop = read_.join_side ? 1 : 0;
    auto type = StructOf(schema, drop);
    columns.resize(columns.size() - drop);
    const int64_t length = decoder.num_rows();
    if (columns.empty()) {
      return std::make_shared<arrow::StructArray>(type, length, columns);
    }
    return arrow::StructArray::Make(columns, type->fields());
  }

  arrow::Result<std::shared_ptr<arrow::Array>> Partitions(const std::vector<int32_t>& ids) const {
    arrow::Int32Builder builder;
    ARROW_RETURN_NOT_OK(builder.AppendValues(ids));
    return builder.Finish();
  }

  /// Every entry of the store at the batch, partition by partition.
  arrow::Result<std::shared_ptr<arrow::Table>> ReadRows() const {
    ARROW_ASSIGN_OR_RAISE(auto factory, state::StateStoreProviderFactory::Make(read_.conf));
    ARROW_ASSIGN_OR_RAISE(Rows rows, NewRows());
    int64_t key_rows = 0;
    for (int32_t p = 0; p < read_.info.num_partitions; ++p) {
      state::StateStoreId id;
      id.operator_id = read_.info.operator_id;
      id.partition_id = p;
      id.store_name = read_.store.store_name;
      ARROW_ASSIGN_OR_RAISE(auto provider,
                            factory->MakeProvider(state::StateStoreFolder(read_.paths, id), id));
      ARROW_ASSIGN_OR_RAISE(auto store, provider->GetStore(read_.batch_id + 1));
      arrow::Status status;
      store->ForEach([&](std::string_view key, std::string_view value) {
        if (!status.ok()) return;
        status = rows.keys->Append(key);
        if (status.ok()) status = rows.values->Append(value);
        rows.partitions.push_back(p);
        ++key_rows;
      });
      store->Abort();
      ARROW_RETURN_NOT_OK(status);
    }
    ARROW_ASSIGN_OR_RAISE(auto keys, Struct(*rows.keys, *read_.store.key_schema));
    ARROW_ASSIGN_OR_RAISE(auto values, Struct(*rows.values, *read_.store.value_schema));
    ARROW_ASSIGN_OR_RAISE(auto partitions, Partitions(rows.partitions));
    return arrow::Table::Make(schema_, {keys, values, partitions}, key_rows);
  }

  /// The changes of each batch from the change files (deltas, or RocksDB changelogs).
  arrow::Result<std::shared_ptr<arrow::Table>> ReadChanges() const {
    ARROW_ASSIGN_OR_RAISE(Rows rows, NewRows());
    arrow::Int64Builder batch_ids;
    arrow::StringBuilder change_types;
    arrow::Int64Builder value_of_row;  // the decoded value of each row, null for a delete
    int64_t updates = 0;
    for (int64_t batch = read_.change_start; batch <= read_.change_end; ++batch) {
      const int64_t version = batch + 1;
      for (int32_t p = 0; p < read_.info.num_partitions; ++p) {
        state::StateStoreId id;
        id.operator_id = read_.info.operator_id;
        id.partition_id = p;
        id.store_name = read_.store.store_name;
        const std::string folder = state::StateStoreFolder(read_.paths, id);
        arrow::Status status;
        auto visit = [&](std::string_view key, std::optional<std::string_view> value) {
          if (!status.ok()) return;
          status = rows.keys->Append(key);
          if (status.ok() && value) status = rows.values->Append(*value);
          if (!status.ok()) return;
          rows.partitions.push_back(p);
          status = batch_ids.Append(batch);
          if (status.ok()) status = change_types.Append(value ? "update" : "delete");
          if (status.ok()) {
            status = value ? value_of_row.Append(updates++) : value_of_row.AppendNull();
          }
        };
        const std::string delta =
            folder + "/" + state::StateFileName(version, state::StateFileKind::kDelta);
        const std::string changelog =
            folder + "/" + state::StateFileName(version, state::StateFileKind::kChangelog);
        std::error_code error;
        if (std::filesystem::exists(delta, error)) {
          ARROW_ASSIGN_OR_RAISE(auto contents, checkpoint::ReadWholeFile(delta));
          ARROW_RETURN_NOT_OK(state::ReadStateFile(contents, delta, id.ToString(),
                                                   state::StateFileKind::kDelta, version,
                                                   visit));
        } else if (std::filesystem::exists(changelog, error)) {
          ARROW_RETURN_NOT_OK(state::ReadChangelog(
              changelog, id.ToString(), version,
              [&](std::string_view key, std::optional<std::string_view> value) {
                visit(key, value);
                return status;
              }));
        } else {
          return SparkError("CANNOT_LOAD_STATE_STORE.CANNOT_READ_STREAMING_STATE_FILE",
                            "The change feed of batch " + std::to_string(batch) +
                                " needs " + delta + " or " + changelog +
                                ", which do not exist: the version is no longer retained, or "
                                "the RocksDB provider ran without changelog checkpointing.");
        }
        ARROW_RETURN_NOT_OK(status);
      }
    }
    const int64_t length = static_cast<int64_t>(rows.partitions.size());
    ARROW_ASSIGN_OR_RAISE(auto keys, Struct(*rows.keys, *read_.store.key_schema));
    ARROW_ASSIGN_OR_RAISE(auto decoded, Struct(*rows.values, *read_.store.value_schema));
    ARROW_ASSIGN_OR_RAISE(auto indices, value_of_row.Finish());
    ARROW_ASSIGN_OR_RAISE(auto values, arrow::compute::Take(*decoded, *indices));
    ARROW_ASSIGN_OR_RAISE(auto ids, batch_ids.Finish());
    ARROW_ASSIGN_OR_RAISE(auto types, change_types.Finish());
    ARROW_ASSIGN_OR_RAISE(auto partitions, Partitions(rows.partitions));
    return arrow::Table::Make(schema_, {ids, types, keys, values, partitions}, length);
  }

  StateRead read_;
  std::shared_ptr<arrow::Schema> schema_;
};

class StateMetadataSource final : public plan::DataSource {
 public:
  explicit StateMetadataSource(std::shared_ptr<arrow::Table> table) : table_(std::move(table)) {}

  std::shared_ptr<arrow::Schema> schema() const override { return table_->schema(); }
  std::string Describe() const override { return "state-metadata"; }
  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> Open() const override {
    return std::make_shared<arrow::TableBatchReader>(table_);
  }

 private:
  std::shared_ptr<arrow::Table> table_;
};

std::optional<std::string> OptionOf(const formats::OptionMap& options, const std::string& key) {
  auto found = options.find(key);
  if (found == options.end()) return std::nullopt;
  return found->second;
}

arrow::Result<int64_t> NonNegative(const formats::OptionMap& options, const std::string& key,
                                   int64_t default_value) {
  ARROW_ASSIGN_OR_RAISE(int64_t value, LongOption(options, key, default_value));
  if (value < 0) {
    return SparkError("STDS_INVALID_OPTION_VALUE.IS_NEGATIVE",
                      "Invalid value for source option '" + key + "': cannot be negative.");
  }
  return value;
}

}  // namespace

arrow::Result<std::shared_ptr<const plan::DataSource>> MakeStateStoreSource(
    const std::string& checkpoint, const formats::OptionMap& options) {
  if (checkpoint.empty()) {
    return SparkError("STDS_REQUIRED_OPTION_UNSPECIFIED", "'path' must be specified.");
  }
  StateRead read;
  read.paths = checkpoint::CheckpointPaths(checkpoint);
  ARROW_ASSIGN_OR_RAISE(const int64_t last, LastCommittedBatch(read.paths));
  ARROW_ASSIGN_OR_RAISE(read.change_feed, BooleanOption(options, "readChangeFeed", false));
  const auto join_side = OptionOf(options, "joinSide");
  const auto store_name = OptionOf(options, "storeName");
  const auto batch_id = OptionOf(options, "batchId");
  if (read.change_feed) {
    if (batch_id) return Conflict("batchId", "readChangeFeed");
    if (join_side) return Conflict("joinSide", "readChangeFeed");
    if (!OptionOf(options, "changeStartBatchId")) {
      return SparkError("STDS_REQUIRED_OPTION_UNSPECIFIED",
                        "'changeStartBatchId' must be specified.");
    }
    ARROW_ASSIGN_OR_RAISE(read.change_start, NonNegative(options, "changeStartBatchId", 0));
    ARROW_ASSIGN_OR_RAISE(read.change_end, NonNegative(options, "changeEndBatchId", last));
    if (read.change_end < read.change_start) {
      return InvalidOption("changeEndBatchId",
                           "cannot be smaller than changeStartBatchId. Please check the input "
                           "to changeEndBatchId.");
    }
    if (read.change_end > last) {
      return InvalidOption("changeEndBatchId",
                           "batch " + std::to_string(read.change_end) +
                               " is after the last committed batch " + std::to_string(last) +
                               ".");
    }
    read.batch_id = read.change_end;
  } else {
    ARROW_ASSIGN_OR_RAISE(read.batch_id, NonNegative(options, "batchId", last));
    if (read.batch_id > last) {
      return InvalidOption("batchId", "batch " + std::to_string(read.batch_id) +
                                          " is after the last committed batch " +
                                          std::to_string(last) + ".");
    }
  }
  ARROW_ASSIGN_OR_RAISE(const int64_t operator_id, NonNegative(options, "operatorId", 0));
  ARROW_ASSIGN_OR_RAISE(read.info, state::ReadOperatorMetadata(read.paths, operator_id));

  std::string wanted = store_name.value_or(state::StateStoreId::kDefaultStoreName);
  if (join_side) {
    const std::string side = AsciiLower(*join_side);
    if (side != "left" && side != "right" && side != "none") {
      return InvalidOption("joinSide", "Valid values are left,right,none");
    }
    if (side != "none") {
      if (store_name) return Conflict("joinSide", "storeName");
      if (read.info.operator_name != "symmetricHashJoin") {
        return InvalidOption("joinSide", "operator " + std::to_string(operator_id) + " is " +
                                             read.info.operator_name +
                                             ", not a stream-stream join.");
      }
      wanted = side + "-keyWithIndexToValue";
      read.join_side = true;
    }
  }
  std::string known;
  for (const auto& store : read.info.stores) {
    if (store.store_name == wanted) read.store = store;
    known += (known.empty() ? "" : ", ") + store.store_name;
  }
  if (read.store.key_schema == nullptr) {
    const bool join = read.info.operator_name == "symmetricHashJoin";
    return SparkError("STDS_FAILED_TO_READ_STATE_SCHEMA",
                      "Failed to read the state schema: operator " +
                          std::to_string(operator_id) + " (" + read.info.operator_name +
                          ") has no store named " + wanted + "; its stores are " + known +
                          (join ? ". Set joinSide to left or right to read a side's rows." : "."));
  }
  ARROW_ASSIGN_OR_RAISE(read.conf, StoreConfOf(read.paths, read.batch_id));
  return std::make_shared<StateStoreSource>(std::move(read));
}

arrow::Result<std::shared_ptr<const plan::DataSource>> MakeStateMetadataSource(
    const std::string& checkpoint) {
  if (checkpoint.empty()) {
    return SparkError("STDS_REQUIRED_OPTION_UNSPECIFIED", "'path' must be specified.");
  }
  checkpoint::CheckpointPaths paths(checkpoint);
  ARROW_ASSIGN_OR_RAISE(auto operators, state::ListStateOperators(paths));
  ARROW_ASSIGN_OR_RAISE(auto committed, checkpoint::BatchLog(paths.commits()).BatchIds());
  arrow::Int64Builder ids, min_batches, max_batches;
  arrow::StringBuilder names, stores, properties;
  arrow::Int32Builder partitions;
  for (int64_t id : operators) {
    ARROW_ASSIGN_OR_RAISE(auto info, state::ReadOperatorMetadata(paths, id));
    for (const auto& store : info.stores) {
      ARROW_RETURN_NOT_OK(ids.Append(id));
      ARROW_RETURN_NOT_OK(names.Append(info.operator_name));
      ARROW_RETURN_NOT_OK(stores.Append(store.store_name));
      ARROW_RETURN_NOT_OK(partitions.Append(info.num_partitions));
      // The batches whose state can still be read: those the commit log retains.
      if (committed.empty()) {
        ARROW_RETURN_NOT_OK(min_batches.AppendNull());
        ARROW_RETURN_NOT_OK(max_batches.AppendNull());
      } else {
        ARROW_RETURN_NOT_OK(min_batches.Append(committed.front()));
        ARROW_RETURN_NOT_OK(max_batches.Append(committed.back()));
      }
      ARROW_RETURN_NOT_OK(properties.AppendNull());
    }
  }
  auto schema = arrow::schema({arrow::field("operatorId", arrow::int64(), false),
                               arrow::field("operatorName", arrow::utf8(), false),
                               arrow::field("stateStoreName", arrow::utf8(), false),
                               arrow::field("numPartitions", arrow::int32(), false),
                               arrow::field("minBatchId", arrow::int64()),
                               arrow::field("maxBatchId", arrow::int64()),
                               arrow::field("operatorProperties", arrow::utf8())});
  arrow::ArrayVector columns(7);
  ARROW_RETURN_NOT_OK(ids.Finish(&columns[0]));
  ARROW_RETURN_NOT_OK(names.Finish(&columns[1]));
  ARROW_RETURN_NOT_OK(stores.Finish(&columns[2]));
  ARROW_RETURN_NOT_OK(partitions.Finish(&columns[3]));
  ARROW_RETURN_NOT_OK(min_batches.Finish(&columns[4]));
  ARROW_RETURN_NOT_OK(max_batches.Finish(&columns[5]));
  ARROW_RETURN_NOT_OK(properties.Finish(&columns[6]));
  return std::make_shared<StateMetadataSource>(arrow::Table::Make(schema, columns));
}

}  // namespace sluice::sources
