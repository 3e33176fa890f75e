#include "sluice/sources/state/state_store_source.h"

#include <cstring>
#include <filesystem>
#include <optional>
#include <unordered_map>

#include <simdjson.h>

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

/// How a store's entries become rows. A transformWithState variable's store holds the grouping
/// key (and a map's user key) and the value with its expiry when it has a time to live, or,
/// for a list, the elements one after another, each a u32 length and the element.
enum class StoreShape { kRows, kValueVariable, kListVariable, kMapVariable, kTimers };

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
  /// What the store holds: plain rows, or a transformWithState variable or its timers.
  StoreShape shape = StoreShape::kRows;
  /// flattenCollectionTypes: a list's elements and a map's entries one per row, or each key's
  /// collection in one row.
  bool flatten = true;
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
    if (read_.change_feed) {
      fields.push_back(arrow::field("batch_id", arrow::int64(), false));
      fields.push_back(arrow::field("change_type", arrow::utf8(), false));
    }
    const auto& key_schema = *read_.store.key_schema;
    const auto& value_schema = *read_.store.value_schema;
    const int drop = read_.join_side ? 1 : 0;
    // A variable's value: the user's row, or, with a time to live, the row and its expiry.
    const auto variable_value = value_schema.num_fields() == 1
                                    ? value_schema.field(0)->type()
                                    : StructOf(value_schema, 0);
    switch (read_.shape) {
      case StoreShape::kRows:
        fields.push_back(arrow::field("key", StructOf(key_schema, drop)));
        fields.push_back(arrow::field("value", StructOf(value_schema, drop)));
        break;
      case StoreShape::kTimers:
        fields.push_back(arrow::field("key", StructOf(key_schema, 1)));
        fields.push_back(arrow::field("expiration_timestamp_ms", arrow::int64()));
        break;
      case StoreShape::kValueVariable:
        fields.push_back(arrow::field("key", StructOf(key_schema, 0)));
        fields.push_back(arrow::field("value", variable_value));
        break;
      case StoreShape::kListVariable:
        fields.push_back(arrow::field("key", StructOf(key_schema, 0)));
        fields.push_back(read_.flatten ? arrow::field("list_element", variable_value)
                                       : arrow::field("list_value", arrow::list(variable_value)));
        break;
      case StoreShape::kMapVariable: {
        const auto user_key = key_schema.field(key_schema.num_fields() - 1)->type();
        fields.push_back(arrow::field("key", StructOf(key_schema, 1)));
        if (read_.flatten) {
          fields.push_back(arrow::field("user_map_key", user_key));
          fields.push_back(arrow::field("user_map_value", variable_value));
        } else {
          fields.push_back(arrow::field("map_value", arrow::map(user_key, variable_value)));
        }
        break;
      }
    }
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
    /// A list variable not flattened: where each key's elements end among the values.
    std::vector<int64_t> list_ends;
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
        if (read_.shape != StoreShape::kListVariable) {
          status = rows.keys->Append(key);
          if (status.ok()) status = rows.values->Append(value);
          rows.partitions.push_back(p);
          ++key_rows;
          return;
        }
        auto elements = ListElements(value);
        if (!elements.ok()) {
          status = elements.status().WithMessage("The state of list variable ",
                                                 read_.store.store_name, " in partition ", p,
                                                 " is damaged: ", elements.status().message());
          return;
        }
        // Flattened, a key's row per element; else one row per key and its elements.
        const size_t key_copies = read_.flatten ? elements->size() : 1;
        for (size_t i = 0; i < key_copies && status.ok(); ++i) {
          status = rows.keys->Append(key);
          rows.partitions.push_back(p);
          ++key_rows;
        }
        for (std::string_view element : *elements) {
          if (status.ok()) status = rows.values->Append(element);
        }
        rows.list_ends.push_back(rows.values->num_rows());
      });
      store->Abort();
      ARROW_RETURN_NOT_OK(status);
    }
    ARROW_ASSIGN_OR_RAISE(auto keys, Struct(*rows.keys, *read_.store.key_schema));
    ARROW_ASSIGN_OR_RAISE(auto values, Struct(*rows.values, *read_.store.value_schema));
    ARROW_ASSIGN_OR_RAISE(auto partitions, Partitions(rows.partitions));
    ARROW_ASSIGN_OR_RAISE(auto columns, Shaped(keys, values, rows.list_ends));
    columns.push_back(partitions);
    return arrow::Table::Make(schema_, columns, key_rows);
  }

  /// The elements of a list variable's entry.
  static arrow::Result<std::vector<std::string_view>> ListElements(std::string_view list) {
    std::vector<std::string_view> elements;
    while (!list.empty()) {
      uint32_t length = 0;
      if (list.size() < sizeof(length)) return arrow::Status::Invalid("a truncated length");
      std::memcpy(&length, list.data(), sizeof(length));
      list.remove_prefix(sizeof(length));
      if (list.size() < length) return arrow::Status::Invalid("a truncated element");
      elements.push_back(list.substr(0, length));
      list.remove_prefix(length);
    }
    return elements;
  }

  /// The output columns (but partition_id) of decoded keys and values in the store's shape.
  /// `list_ends`: for a list not flattened, where each key's elements end among the values.
  arrow::Result<arrow::ArrayVector> Shaped(const std::shared_ptr<arrow::Array>& keys,
                                           const std::shared_ptr<arrow::Array>& values,
                                           const std::vector<int64_t>& list_ends) const {
    const auto& key_struct = static_cast<const arrow::StructArray&>(*keys);
    const auto& value_struct = static_cast<const arrow::StructArray&>(*values);
    // Null where the value is (a delete of the change feed).
    std::shared_ptr<arrow::Array> variable_value = values;
    if (value_struct.num_fields() == 1) {
      ARROW_ASSIGN_OR_RAISE(variable_value, value_struct.GetFlattenedField(0));
    }
    const int last_key = key_struct.num_fields() - 1;
    switch (read_.shape) {
      case StoreShape::kRows:
        return arrow::ArrayVector{keys, values};
      case StoreShape::kValueVariable:
        return arrow::ArrayVector{keys, variable_value};
      case StoreShape::kTimers: {
        ARROW_ASSIGN_OR_RAISE(auto grouping, KeyPrefix(key_struct));
        return arrow::ArrayVector{grouping, key_struct.field(last_key)};
      }
      case StoreShape::kListVariable: {
        if (read_.flatten) return arrow::ArrayVector{keys, variable_value};
        arrow::Int32Builder offsets;
        ARROW_RETURN_NOT_OK(offsets.Append(0));
        for (int64_t end : list_ends) ARROW_RETURN_NOT_OK(offsets.Append(static_cast<int32_t>(end)));
        ARROW_ASSIGN_OR_RAISE(auto offset_array, offsets.Finish());
        ARROW_ASSIGN_OR_RAISE(auto lists,
                              arrow::ListArray::FromArrays(*offset_array, *variable_value));
        return arrow::ArrayVector{keys, lists};
      }
      case StoreShape::kMapVariable: {
        ARROW_ASSIGN_OR_RAISE(auto grouping, KeyPrefix(key_struct));
        auto user_keys = key_struct.field(last_key);
        if (read_.flatten) return arrow::ArrayVector{grouping, user_keys, variable_value};
        return MapsByKey(grouping, user_keys, variable_value);
      }
    }
    return arrow::Status::Invalid("unknown store shape");
  }

  /// The struct of every key column but the last (the grouping key of a map entry or timer).
  static arrow::Result<std::shared_ptr<arrow::Array>> KeyPrefix(const arrow::StructArray& keys) {
    arrow::ArrayVector columns;
    arrow::FieldVector fields;
    for (int i = 0; i + 1 < keys.num_fields(); ++i) {
      columns.push_back(keys.field(i));
      fields.push_back(keys.type()->field(i));
    }
    if (columns.empty()) {
      return std::make_shared<arrow::StructArray>(arrow::struct_(fields), keys.length(),
                                                  columns);
    }
    return arrow::StructArray::Make(columns, fields);
  }

  /// One row per grouping key with its entries as a map (a map variable not flattened).
  static arrow::Result<arrow::ArrayVector> MapsByKey(
      const std::shared_ptr<arrow::Array>& grouping,
      const std::shared_ptr<arrow::Array>& user_keys,
      const std::shared_ptr<arrow::Array>& values) {
    const auto& grouping_struct = static_cast<const arrow::StructArray&>(*grouping);
    std::vector<std::shared_ptr<arrow::DataType>> types;
    for (const auto& field : grouping_struct.type()->fields()) types.push_back(field->type());
    ARROW_ASSIGN_OR_RAISE(auto encoder, types::RowEncoder::Make(types, /*for_keys=*/true));
    // Entries of one key, keys in order of first sight.
    std::vector<std::vector<int64_t>> entries_of;
    std::vector<int64_t> first_row;
    std::unordered_map<std::string, size_t> key_ids;
    for (int64_t row = 0; row < grouping->length(); ++row) {
      std::string encoded;
      encoder->EncodeRow(grouping_struct.fields(), row, &encoded);
      auto [it, inserted] = key_ids.emplace(std::move(encoded), entries_of.size());
      if (inserted) {
        entries_of.emplace_back();
        first_row.push_back(row);
      }
      entries_of[it->second].push_back(row);
    }
    arrow::Int64Builder order, firsts;
    arrow::Int32Builder offsets;
    ARROW_RETURN_NOT_OK(offsets.Append(0));
    int32_t end = 0;
    for (size_t k = 0; k < entries_of.size(); ++k) {
      ARROW_RETURN_NOT_OK(firsts.Append(first_row[k]));
      ARROW_RETURN_NOT_OK(order.AppendValues(entries_of[k]));
      end += static_cast<int32_t>(entries_of[k].size());
      ARROW_RETURN_NOT_OK(offsets.Append(end));
    }
    ARROW_ASSIGN_OR_RAISE(auto order_array, order.Finish());
    ARROW_ASSIGN_OR_RAISE(auto first_array, firsts.Finish());
    ARROW_ASSIGN_OR_RAISE(auto offset_array, offsets.Finish());
    ARROW_ASSIGN_OR_RAISE(auto map_keys, arrow::compute::Take(*user_keys, *order_array));
    ARROW_ASSIGN_OR_RAISE(auto map_items, arrow::compute::Take(*values, *order_array));
    ARROW_ASSIGN_OR_RAISE(auto maps,
                          arrow::MapArray::FromArrays(offset_array, map_keys, map_items));
    ARROW_ASSIGN_OR_RAISE(auto keys, arrow::compute::Take(*grouping, *first_array));
    return arrow::ArrayVector{keys, maps};
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
    ARROW_ASSIGN_OR_RAISE(auto shaped, Shaped(keys, values, {}));
    arrow::ArrayVector columns{ids, types};
    columns.insert(columns.end(), shaped.begin(), shaped.end());
    columns.push_back(partitions);
    return arrow::Table::Make(schema_, columns, length);
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

/// The kind ("ValueState", "ListState", "MapState") of transformWithState variable `name` in
/// the operator's properties, or nullopt.
arrow::Result<std::optional<std::string>> VariableKind(const std::string& properties,
                                                       const std::string& name) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  simdjson::dom::array variables;
  if (parser.parse(properties).get(root) || root["stateVariables"].get(variables)) {
    return SparkError("STDS_FAILED_TO_READ_OPERATOR_METADATA",
                      "Failed to read the operator metadata: its operatorPropertiesJson has no "
                      "stateVariables.");
  }
  for (auto variable : variables) {
    std::string_view state_name, type;
    if (variable["stateName"].get(state_name) || variable["stateVariableType"].get(type)) {
      continue;
    }
    if (state_name == name && type != "TimerState") return std::string(type);
  }
  return std::nullopt;
}

/// Settles which transformWithState store (a variable's or the timers') `read` reads, from
/// the options stateVarName, readRegisteredTimers and flattenCollectionTypes; `wanted` gets
/// its store. Other operators have no variables.
arrow::Status ChooseVariable(const formats::OptionMap& options, int64_t operator_id,
                             StateRead* read, std::string* wanted) {
  const auto variable = OptionOf(options, "stateVarName");
  ARROW_ASSIGN_OR_RAISE(const bool timers, BooleanOption(options, "readRegisteredTimers", false));
  ARROW_ASSIGN_OR_RAISE(read->flatten, BooleanOption(options, "flattenCollectionTypes", true));
  if (variable && timers) return Conflict("readRegisteredTimers", "stateVarName");
  const bool transform_with_state = read->info.operator_name == "transformWithStateExec";
  if (!transform_with_state) {
    if (!variable && !timers) return arrow::Status::OK();
    return InvalidOption(variable ? "stateVarName" : "readRegisteredTimers",
                         "only a transformWithState operator has state variables and timers; "
                         "operator " + std::to_string(operator_id) + " is " +
                             read->info.operator_name + ".");
  }
  if (timers) {
    read->shape = StoreShape::kTimers;
    *wanted = "$timers";
    return arrow::Status::OK();
  }
  if (!variable) {
    return SparkError("STDS_REQUIRED_OPTION_UNSPECIFIED", "'stateVarName' must be specified.");
  }
  ARROW_ASSIGN_OR_RAISE(auto kind, VariableKind(read->info.properties_json, *variable));
  if (!kind) {
    return InvalidOption("stateVarName", "State variable " + *variable +
                                             " is not defined for the transformWithState "
                                             "operator " + std::to_string(operator_id) + ".");
  }
  read->shape = *kind == "ValueState"  ? StoreShape::kValueVariable
                : *kind == "ListState" ? StoreShape::kListVariable
                                       : StoreShape::kMapVariable;
  if (read->change_feed && read->shape == StoreShape::kListVariable) {
    return InvalidOption("readChangeFeed", "the change feed of list state variable " +
                                               *variable + " cannot be read: a list's entry "
                                               "changes as a whole.");
  }
  // A change feed lists entries as they changed, one per row.
  if (read->change_feed) read->flatten = true;
  *wanted = *variable;
  return arrow::Status::OK();
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
  ARROW_RETURN_NOT_OK(ChooseVariable(options, operator_id, &read, &wanted));
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
    // An operator with properties (transformWithState) is one store to Spark, "default", whose
    // variables the properties list.
    std::vector<std::string> store_names;
    if (info.properties_json.empty()) {
      for (const auto& store : info.stores) store_names.push_back(store.store_name);
    } else {
      store_names.push_back(state::StateStoreId::kDefaultStoreName);
    }
    for (const auto& store_name : store_names) {
      ARROW_RETURN_NOT_OK(ids.Append(id));
      ARROW_RETURN_NOT_OK(names.Append(info.operator_name));
      ARROW_RETURN_NOT_OK(stores.Append(store_name));
      ARROW_RETURN_NOT_OK(partitions.Append(info.num_partitions));
      // The batches whose state can still be read: those the commit log retains.
      if (committed.empty()) {
        ARROW_RETURN_NOT_OK(min_batches.AppendNull());
        ARROW_RETURN_NOT_OK(max_batches.AppendNull());
      } else {
        ARROW_RETURN_NOT_OK(min_batches.Append(committed.front()));
        ARROW_RETURN_NOT_OK(max_batches.Append(committed.back()));
      }
      ARROW_RETURN_NOT_OK(info.properties_json.empty() ? properties.AppendNull()
                                                       : properties.Append(info.properties_json));
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
