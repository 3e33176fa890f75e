#include "sluice/physical/buffered_stream.h"
#include "sluice/physical/transform_with_state_operator.h"

#include <algorithm>
#include <cstring>
#include <map>

#include <arrow/array.h>
#include <arrow/array/util.h>
#include <arrow/builder.h>
#include <arrow/compute/api_vector.h>
#include <arrow/table.h>
#include <arrow/util/parallel.h>

#include "sluice/common/errors.h"
#include "sluice/physical/keyed_rows.h"
#include "sluice/physical/state_row_bytes.h"
#include "sluice/physical/stateful_context.h"
#include "sluice/physical/transform_with_state_metadata.h"
#include "sluice/state/operator_metadata.h"
#include "sluice/types/row_codec.h"

namespace sluice::physical {

namespace {

using plan::StateRow;
using plan::TimeMode;

constexpr const char* kTtlField = "ttlExpirationMs";

/// The state of a batch query: a store that lives for the query only.
class TransientStore final : public state::StateStore {
 public:
  int64_t version() const override { return 0; }
  std::optional<std::string_view> Get(std::string_view key) const override {
    auto found = entries_.find(std::string(key));
    if (found == entries_.end()) return std::nullopt;
    return std::string_view(found->second);
  }
  arrow::Status Put(std::string_view key, std::string_view value) override {
    entries_[std::string(key)] = std::string(value);
    return arrow::Status::OK();
  }
  arrow::Status Remove(std::string_view key) override {
    entries_.erase(std::string(key));
    return arrow::Status::OK();
  }
  void ForEach(const std::function<void(std::string_view, std::string_view)>& visit)
      const override {
    for (const auto& [key, value] : entries_) visit(key, value);
  }
  arrow::Result<int64_t> Commit() override { return 1; }
  void Abort() override {}
  bool committed() const override { return false; }
  state::StateStoreMetrics metrics() const override {
    state::StateStoreMetrics metrics;
    metrics.num_keys = static_cast<int64_t>(entries_.size());
    return metrics;
  }

 private:
  std::map<std::string, std::string> entries_;
};

/// What the variables and the handle of a batch share: the stores, the key of the call being
/// made, and the batch's times.
struct CallScope {
  /// The stores of each declared variable and of the timers, by name, one per partition.
  std::map<std::string, std::vector<std::unique_ptr<state::StateStore>>> stores;
  std::function<arrow::Result<std::vector<std::unique_ptr<state::StateStore>>>(
      const std::string& name)>
      open;
  int partition = 0;
  std::string key;  // the encoded grouping key of the current call
  int64_t now_ms = 0;
  int64_t updated = 0;
  int64_t removed = 0;

  state::StateStore& Store(const std::string& name) { return *stores.at(name)[partition]; }
};

/// Encodes and decodes the rows of one variable, with their expiry when it has a time to live.
class RowCodec {
 public:
  static arrow::Result<RowCodec> Make(std::shared_ptr<arrow::Schema> schema,
                                      std::optional<int64_t> ttl_ms) {
    RowCodec codec;
    codec.schema_ = std::move(schema);
    codec.ttl_ms_ = ttl_ms;
    codec.type_ = std::make_shared<arrow::StructType>(codec.schema_->fields());
    std::vector<std::shared_ptr<arrow::DataType>> types{codec.type_};
    if (ttl_ms) types.push_back(arrow::int64());
    codec.types_ = types;
    ARROW_ASSIGN_OR_RAISE(codec.encoder_, types::RowEncoder::Make(types, /*for_keys=*/false));
    return codec;
  }

  const std::shared_ptr<arrow::StructType>& type() const { return type_; }
  std::optional<int64_t> ttl_ms() const { return ttl_ms_; }

  arrow::Result<std::string> Encode(const StateRow& row, int64_t now_ms) const {
    if (row == nullptr || !row->type->Equals(*type_)) {
      return SparkError("ILLEGAL_ARGUMENT",
                        "A state value must be a row of " + type_->ToString() + ", not " +
                            (row == nullptr ? std::string("null") : row->type->ToString()));
    }
    ARROW_ASSIGN_OR_RAISE(auto column, arrow::MakeArrayFromScalar(*row, 1));
    arrow::ArrayVector columns{column};
    if (ttl_ms_) {
      arrow::Int64Builder expiry;
      ARROW_RETURN_NOT_OK(expiry.Append(now_ms + *ttl_ms_));
      ARROW_ASSIGN_OR_RAISE(auto array, expiry.Finish());
      columns.push_back(array);
    }
    std::string out;
    encoder_->EncodeRow(columns, 0, &out);
    return out;
  }

  /// The row, or null when it expired.
  arrow::Result<StateRow> Decode(std::string_view bytes, int64_t now_ms) const {
    ARROW_ASSIGN_OR_RAISE(auto decoder, types::RowDecoder::Make(types_));
    ARROW_RETURN_NOT_OK(decoder->Append(bytes));
    ARROW_ASSIGN_OR_RAISE(auto columns, decoder->Finish());
    if (ttl_ms_ && static_cast<const arrow::Int64Array&>(*columns[1]).Value(0) <= now_ms) {
      return nullptr;
    }
    ARROW_ASSIGN_OR_RAISE(auto row, columns[0]->GetScalar(0));
    return std::static_pointer_cast<arrow::StructScalar>(row);
  }

  /// Whether the row encoded in `bytes` expired.
  bool Expired(std::string_view bytes, int64_t now_ms) const {
    return ttl_ms_ && ReadLong(bytes.substr(bytes.size() - kLongBytes)) <= now_ms;
  }

 private:
  std::shared_ptr<arrow::Schema> schema_;
  std::optional<int64_t> ttl_ms_;
  std::shared_ptr<arrow::StructType> type_;
  std::vector<std::shared_ptr<arrow::DataType>> types_;
  std::shared_ptr<const types::RowEncoder> encoder_;
};

class ValueStateImpl final : public plan::ValueState {
 public:
  ValueStateImpl(CallScope* scope, std::string name, RowCodec codec)
      : scope_(scope), name_(std::move(name)), codec_(std::move(codec)) {}

  arrow::Result<bool> exists() override {
    ARROW_ASSIGN_OR_RAISE(auto value, get());
    return value != nullptr;
  }
  arrow::Result<StateRow> get() override {
    auto bytes = scope_->Store(name_).Get(scope_->key);
    if (!bytes) return nullptr;
    return codec_.Decode(*bytes, scope_->now_ms);
  }
  arrow::Status update(const StateRow& value) override {
    ARROW_ASSIGN_OR_RAISE(auto bytes, codec_.Encode(value, scope_->now_ms));
    ++scope_->updated;
    return scope_->Store(name_).Put(scope_->key, bytes);
  }
  arrow::Status clear() override {
    if (scope_->Store(name_).Get(scope_->key)) ++scope_->removed;
    return scope_->Store(name_).Remove(scope_->key);
  }

 private:
  CallScope* scope_;
  std::string name_;
  RowCodec codec_;
};

/// A list is one entry per grouping key: the values one after another, each a u32 length and
/// the value's encoding.
class ListStateImpl final : public plan::ListState {
 public:
  ListStateImpl(CallScope* scope, std::string name, RowCodec codec)
      : scope_(scope), name_(std::move(name)), codec_(std::move(codec)) {}

  arrow::Result<bool> exists() override {
    ARROW_ASSIGN_OR_RAISE(auto values, get());
    return !values.empty();
  }
  arrow::Result<std::vector<StateRow>> get() override {
    std::vector<StateRow> values;
    for (std::string_view element : Elements()) {
      ARROW_ASSIGN_OR_RAISE(auto value, codec_.Decode(element, scope_->now_ms));
      if (value != nullptr) values.push_back(std::move(value));
    }
    return values;
  }
  // Spark counts a list's elements as its state rows.
  arrow::Status put(const std::vector<StateRow>& values) override {
    std::string list;
    ARROW_RETURN_NOT_OK(Append(values, &list));
    return Store(list);
  }
  arrow::Status appendValue(const StateRow& value) override { return appendList({value}); }
  arrow::Status appendList(const std::vector<StateRow>& values) override {
    auto current = scope_->Store(name_).Get(scope_->key);
    std::string list = current ? std::string(*current) : std::string();
    ARROW_RETURN_NOT_OK(Append(values, &list));
    return Store(list);
  }
  arrow::Status clear() override {
    scope_->removed += static_cast<int64_t>(Elements().size());
    return scope_->Store(name_).Remove(scope_->key);
  }

 private:
  std::vector<std::string_view> Elements() const {
    std::vector<std::string_view> elements;
    auto list = scope_->Store(name_).Get(scope_->key);
    if (!list) return elements;
    std::string_view rest = *list;
    while (rest.size() >= sizeof(uint32_t)) {
      uint32_t length;
      std::memcpy(&length, rest.data(), sizeof(length));
      rest.remove_prefix(sizeof(length));
      if (rest.size() < length) break;
      elements.push_back(rest.substr(0, length));
      rest.remove_prefix(length);
    }
    return elements;
  }

  arrow::Status Append(const std::vector<StateRow>& values, std::string* list) const {
    scope_->updated += static_cast<int64_t>(values.size());
    for (const auto& value : values) {
      ARROW_ASSIGN_OR_RAISE(auto bytes, codec_.Encode(value, scope_->now_ms));
      const auto length = static_cast<uint32_t>(bytes.size());
      list->append(reinterpret_cast<const char*>(&length), sizeof(length));
      list->append(bytes);
    }
    return arrow::Status::OK();
  }

  arrow::Status Store(const std::string& list) {
    if (list.empty()) return scope_->Store(name_).Remove(scope_->key);
    return scope_->Store(name_).Put(scope_->key, list);
  }

  CallScope* scope_;
  std::string name_;
  RowCodec codec_;
};

/// A map is one entry per grouping key and user key: the grouping key's encoding followed by
/// the user key's (the row codec is prefix-free, so a grouping key's entries share its bytes
/// as a prefix).
class MapStateImpl final : public plan::MapState {
 public:
  MapStateImpl(CallScope* scope, std::string name, std::shared_ptr<arrow::StructType> key_type,
               std::shared_ptr<const types::RowEncoder> key_encoder, RowCodec codec)
      : scope_(scope),
        name_(std::move(name)),
        key_type_(std::move(key_type)),
        key_encoder_(std::move(key_encoder)),
        codec_(std::move(codec)) {}

  arrow::Result<bool> exists() override {
    ARROW_ASSIGN_OR_RAISE(auto entries, iterator());
    return !entries.empty();
  }
  arrow::Result<StateRow> getValue(const StateRow& key) override {
    ARROW_ASSIGN_OR_RAISE(auto entry, EntryKey(key));
    auto bytes = scope_->Store(name_).Get(entry);
    if (!bytes) return nullptr;
    return codec_.Decode(*bytes, scope_->now_ms);
  }
  arrow::Result<bool> containsKey(const StateRow& key) override {
    ARROW_ASSIGN_OR_RAISE(auto value, getValue(key));
    return value != nullptr;
  }
  arrow::Status updateValue(const StateRow& key, const StateRow& value) override {
    ARROW_ASSIGN_OR_RAISE(auto entry, EntryKey(key));
    ARROW_ASSIGN_OR_RAISE(auto bytes, codec_.Encode(value, scope_->now_ms));
    ++scope_->updated;
    return scope_->Store(name_).Put(entry, bytes);
  }
  arrow::Status removeKey(const StateRow& key) override {
    ARROW_ASSIGN_OR_RAISE(auto entry, EntryKey(key));
    if (scope_->Store(name_).Get(entry)) ++scope_->removed;
    return scope_->Store(name_).Remove(entry);
  }
  arrow::Result<std::vector<std::pair<StateRow, StateRow>>> iterator() override {
    std::vector<std::pair<std::string, std::string>> found;
    const std::string& prefix = scope_->key;
    scope_->Store(name_).ForEach([&](std::string_view key, std::string_view value) {
      if (key.size() > prefix.size() && key.substr(0, prefix.size()) == prefix) {
        found.emplace_back(std::string(key.substr(prefix.size())), std::string(value));
      }
    });
    std::vector<std::pair<StateRow, StateRow>> entries;
    for (const auto& [user_key, bytes] : found) {
      ARROW_ASSIGN_OR_RAISE(auto value, codec_.Decode(bytes, scope_->now_ms));
      if (value == nullptr) continue;
      ARROW_ASSIGN_OR_RAISE(auto decoder, types::RowDecoder::Make({key_type_}));
      ARROW_RETURN_NOT_OK(decoder->Append(user_key));
      ARROW_ASSIGN_OR_RAISE(auto columns, decoder->Finish());
      ARROW_ASSIGN_OR_RAISE(auto row, columns[0]->GetScalar(0));
      entries.emplace_back(std::static_pointer_cast<arrow::StructScalar>(row), value);
    }
    return entries;
  }
  arrow::Status clear() override {
    std::vector<std::string> keys;
    const std::string& prefix = scope_->key;
    scope_->Store(name_).ForEach([&](std::string_view key, std::string_view) {
      if (key.size() > prefix.size() && key.substr(0, prefix.size()) == prefix) {
        keys.emplace_back(key);
      }
    });
    for (const auto& key : keys) ARROW_RETURN_NOT_OK(scope_->Store(name_).Remove(key));
    scope_->removed += static_cast<int64_t>(keys.size());
    return arrow::Status::OK();
  }

 private:
  arrow::Result<std::string> EntryKey(const StateRow& key) const {
    if (key == nullptr || !key->type->Equals(*key_type_)) {
      return SparkError("ILLEGAL_ARGUMENT",
                        "A map state key must be a row of " + key_type_->ToString());
    }
    ARROW_ASSIGN_OR_RAISE(auto column, arrow::MakeArrayFromScalar(*key, 1));
    std::string entry = scope_->key;
    key_encoder_->EncodeRow({column}, 0, &entry);
    return entry;
  }

  CallScope* scope_;
  std::string name_;
  std::shared_ptr<arrow::StructType> key_type_;
  std::shared_ptr<const types::RowEncoder> key_encoder_;
  RowCodec codec_;
};

/// The handle of one batch: declares variables (opening their stores and recording their
/// schemas) and keeps the timers of the current key.
class HandleImpl final : public plan::StatefulProcessorHandle {
 public:
  HandleImpl(CallScope* scope, arrow::FieldVector key_fields, TimeMode time_mode)
      : scope_(scope), key_fields_(std::move(key_fields)), time_mode_(time_mode) {}

  arrow::Result<std::shared_ptr<plan::ValueState>> getValueState(
      const std::string& name, std::shared_ptr<arrow::Schema> schema,
      std::optional<int64_t> ttl_ms) override {
    ARROW_ASSIGN_OR_RAISE(auto codec, Declare(name, "value", schema, nullptr, ttl_ms));
    return std::make_shared<ValueStateImpl>(scope_, name, std::move(codec));
  }

  arrow::Result<std::shared_ptr<plan::ListState>> getListState(
      const std::string& name, std::shared_ptr<arrow::Schema> schema,
      std::optional<int64_t> ttl_ms) override {
    ARROW_ASSIGN_OR_RAISE(auto codec, Declare(name, "list", schema, nullptr, ttl_ms));
    return std::make_shared<ListStateImpl>(scope_, name, std::move(codec));
  }

  arrow::Result<std::shared_ptr<plan::MapState>> getMapState(
      const std::string& name, std::shared_ptr<arrow::Schema> key_schema,
      std::shared_ptr<arrow::Schema> value_schema, std::optional<int64_t> ttl_ms) override {
    ARROW_ASSIGN_OR_RAISE(auto codec, Declare(name, "map", value_schema, key_schema, ttl_ms));
    auto key_type = std::make_shared<arrow::StructType>(key_schema->fields());
    ARROW_ASSIGN_OR_RAISE(auto encoder, types::RowEncoder::Make({key_type}, /*for_keys=*/true));
    return std::make_shared<MapStateImpl>(scope_, name, key_type, std::move(encoder),
                                          std::move(codec));
  }

  arrow::Status registerTimer(int64_t expiry_time_ms) override {
    // Timers are not state rows: Spark counts only the variables' updates.
    return scope_->Store(kTimersStore).Put(TimerKey(expiry_time_ms), std::string_view("\0", 1));
  }

  arrow::Status deleteTimer(int64_t expiry_time_ms) override {
    return scope_->Store(kTimersStore).Remove(TimerKey(expiry_time_ms));
  }

  arrow::Result<std::vector<int64_t>> listTimers() override {
    std::vector<int64_t> timers;
    const std::string& prefix = scope_->key;
    scope_->Store(kTimersStore).ForEach([&](std::string_view key, std::string_view) {
      if (key.size() == prefix.size() + kLongBytes && key.substr(0, prefix.size()) == prefix) {
        timers.push_back(ReadLong(key));
      }
    });
    std::sort(timers.begin(), timers.end());
    return timers;
  }

  /// The variables declared with a time to live, for the removal of expired values.
  const std::map<std::string, RowCodec>& ttl_variables() const { return ttl_variables_; }
  const std::map<std::string, std::string>& kinds() const { return kinds_; }
  /// The variables in the order init() declared them.
  const std::vector<DeclaredVariable>& declared() const { return declared_; }

 private:
  std::string TimerKey(int64_t expiry_time_ms) const {
    std::string key = scope_->key;
    AppendLong(expiry_time_ms, &key);
    return key;
  }

  arrow::Result<RowCodec> Declare(const std::string& name, const std::string& kind,
                                  const std::shared_ptr<arrow::Schema>& schema,
                                  const std::shared_ptr<arrow::Schema>& key_schema,
                                  std::optional<int64_t> ttl_ms) {
    if (schema == nullptr || name.empty() || name[0] == '$') {
      return SparkError("ILLEGAL_ARGUMENT",
                        "A state variable needs a schema and a name not starting with '$'.");
    }
    if (ttl_ms && time_mode_ != TimeMode::kProcessingTime) {
      return SparkError("STATEFUL_PROCESSOR_INCORRECT_TIME_MODE_TO_ASSIGN_TTL",
                        "Cannot use TTL for state=" + name + " in timeMode=" +
                            std::string(TimeModeName(time_mode_)) +
                            ", use TimeMode.ProcessingTime() instead.");
    }
    if (ttl_ms && *ttl_ms <= 0) {
      return SparkError("STATEFUL_PROCESSOR_TTL_DURATION_MUST_BE_POSITIVE",
                        "TTL duration must be greater than zero for State store operation=" +
                            kind + " on state=" + name + ".");
    }
    if (kinds_.count(name)) {
      return SparkError("STATEFUL_PROCESSOR_VARIABLE_ALREADY_DEFINED",
                        "The state variable " + name + " is defined twice in init().");
    }
    kinds_[name] = kind;
    ARROW_ASSIGN_OR_RAISE(auto codec, RowCodec::Make(schema, ttl_ms));
    if (ttl_ms) ttl_variables_.emplace(name, codec);
    ARROW_ASSIGN_OR_RAISE(scope_->stores[name], scope_->open(name));
    // The layout the state reader decodes: the grouping key (and a map's user key), then
    // the value (and its expiry).
    arrow::FieldVector keys = key_fields_;
    if (key_schema) {
      keys.push_back(
          arrow::field("userKey", std::make_shared<arrow::StructType>(key_schema->fields())));
    }
    // (A list's entry is its elements one after another, each in this layout.)
    arrow::FieldVector values{arrow::field("value", codec.type())};
    if (ttl_ms) values.push_back(arrow::field(kTtlField, arrow::int64(), false));
    declared_.push_back(
        {name, kind, ttl_ms.has_value(), {name, arrow::schema(keys), arrow::schema(values)}});
    return codec;
  }

  CallScope* scope_;
  arrow::FieldVector key_fields_;
  TimeMode time_mode_;
  std::map<std::string, std::string> kinds_;
  std::vector<DeclaredVariable> declared_;
  std::map<std::string, RowCodec> ttl_variables_;
};

class TransformWithStateStream final : public BufferedStream {
 public:
  TransformWithStateStream(const plan::TransformWithState& node, BatchStreamPtr input,
                           BatchStreamPtr initial_state, const ExecContext& context)
      : node_(node),
        input_(std::move(input)),
        initial_state_(std::move(initial_state)),
        context_(context),
        stateful_(context.stateful),
        schema_(expr::ToSchema(node.output())) {}

  const std::shared_ptr<arrow::Schema>& schema() const override { return schema_; }

 private:
  arrow::Status Run() override {
    std::vector<std::shared_ptr<arrow::DataType>> key_types;
    for (const auto& key : node_.grouping()) key_types.push_back(key.expr->type());
    ARROW_ASSIGN_OR_RAISE(key_encoder_, types::RowEncoder::Make(key_types, /*for_keys=*/true));
    num_partitions_ = stateful_ != nullptr ? stateful_->num_partitions : 1;
    if (stateful_ != nullptr) {
      operator_id_ = stateful_->operator_ids->at(&node_);
      partitioner_.emplace(key_types, num_partitions_, stateful_->partitioning);
    }
    scope_.now_ms = stateful_ != nullptr ? stateful_->batch_timestamp_ms
                                         : context_.eval.batch_timestamp_us / 1000;
    scope_.open = [this](const std::string& name) { return OpenStores(name); };
    ARROW_ASSIGN_OR_RAISE(scope_.stores[kTimersStore], OpenStores(kTimersStore));
    HandleImpl handle(&scope_, node_.key_type()->fields(), node_.time_mode());
    ARROW_RETURN_NOT_OK(node_.processor()->init(handle, node_.time_mode()));
    ARROW_RETURN_NOT_OK(Record(handle.declared()));
    if (initial_state_ != nullptr && (stateful_ == nullptr || stateful_->batch_id == 0)) {
      ARROW_RETURN_NOT_OK(HandleInitialState());
    }

    ARROW_ASSIGN_OR_RAISE(auto table, CollectTable(*input_));
    ARROW_ASSIGN_OR_RAISE(auto rows, table->CombineChunksToBatch(context_.eval.pool));
    if (stateful_ != nullptr && node_.time_mode() == TimeMode::kEventTime) {
      ARROW_ASSIGN_OR_RAISE(rows, DropLateRows(rows, node_.children()[0]->output(),
                                               stateful_->late_events_watermark_ms,
                                               &dropped_late_));
    }
    const int64_t start = SteadyMillis();
    ARROW_RETURN_NOT_OK(HandleRows(rows));
    if (stateful_ != nullptr) ARROW_RETURN_NOT_OK(HandleTimers());
    update_ms_ = SteadyMillis() - start;
    ARROW_RETURN_NOT_OK(RemoveExpired(handle));
    node_.processor()->close();
    return CommitAndReport();
  }

  arrow::Result<std::vector<std::unique_ptr<state::StateStore>>> OpenStores(
      const std::string& name) {
    std::vector<std::unique_ptr<state::StateStore>> stores(num_partitions_);
    for (int p = 0; p < num_partitions_; ++p) {
      if (stateful_ == nullptr) {
        stores[p] = std::make_unique<TransientStore>();
        continue;
      }
      state::StateStoreId id;
      id.operator_id = operator_id_;
      id.partition_id = p;
      id.store_name = name;
      ARROW_ASSIGN_OR_RAISE(auto* provider, stateful_->providers->Get(id));
      ARROW_ASSIGN_OR_RAISE(stores[p], provider->GetStore(stateful_->batch_id));
    }
    return stores;
  }

  /// Writes (first run) or checks (later runs) the variables' schemas in the checkpoint, and
  /// records them in the operator's metadata, as Spark's operator properties.
  arrow::Status Record(const std::vector<DeclaredVariable>& variables) {
    if (stateful_ == nullptr) return arrow::Status::OK();
    state::StateOperatorInfo info = TransformWithStateInfo(node_, operator_id_, num_partitions_);
    for (const auto& variable : variables) info.stores.push_back(variable.schema);
    info.properties_json = OperatorProperties(node_, variables);
    return stateful_->providers->RecordOperatorMetadata(info);
  }

  plan::TimerValues Times() const {
    plan::TimerValues values;
    values.current_processing_time_ms = scope_.now_ms;
    if (stateful_ != nullptr && stateful_->has_watermark) {
      values.current_watermark_ms = stateful_->eviction_watermark_ms;
    }
    return values;
  }

  arrow::Status HandleRows(const std::shared_ptr<arrow::RecordBatch>& rows) {
    if (rows->num_rows() == 0) return arrow::Status::OK();
    ARROW_ASSIGN_OR_RAISE(auto keyed, GroupRowsByKey(node_.grouping(), node_.key_type(),
                                                     *key_encoder_, *rows,
                                                     partitioner_ ? &*partitioner_ : nullptr,
                                                     context_.eval));
    return ForEachKey(keyed, rows,
                      [&](int p, std::string_view key,
                          const std::shared_ptr<arrow::StructScalar>& key_row,
                          const std::shared_ptr<arrow::RecordBatch>& key_rows) -> arrow::Status {
                        scope_.partition = p;
                        scope_.key = std::string(key);
                        ARROW_ASSIGN_OR_RAISE(auto emitted, node_.processor()->handleInputRows(
                                                                key_row, key_rows, Times()));
                        return Emit(emitted);
                      });
  }

  arrow::Status HandleInitialState() {
    ARROW_ASSIGN_OR_RAISE(auto table, CollectTable(*initial_state_));
    ARROW_ASSIGN_OR_RAISE(auto rows, table->CombineChunksToBatch(context_.eval.pool));
    if (rows->num_rows() == 0) return arrow::Status::OK();
    ARROW_ASSIGN_OR_RAISE(auto keyed,
                          GroupRowsByKey(node_.initial_grouping(), node_.key_type(),
                                         *key_encoder_, *rows,
                                         partitioner_ ? &*partitioner_ : nullptr,
                                         context_.eval));
    return ForEachKey(keyed, rows,
                      [&](int p, std::string_view key,
                          const std::shared_ptr<arrow::StructScalar>& key_row,
                          const std::shared_ptr<arrow::RecordBatch>& key_rows) {
                        scope_.partition = p;
                        scope_.key = std::string(key);
                        return node_.processor()->handleInitialState(key_row, key_rows, Times());
                      });
  }

  /// Calls each timer due, earliest first, and removes it.
  arrow::Status HandleTimers() {
    if (node_.time_mode() == TimeMode::kNone) return arrow::Status::OK();
    if (node_.time_mode() == TimeMode::kEventTime && !stateful_->has_watermark) {
      return arrow::Status::OK();
    }
    const int64_t threshold = node_.time_mode() == TimeMode::kProcessingTime
                                  ? scope_.now_ms
                                  : stateful_->eviction_watermark_ms;
    std::vector<std::shared_ptr<arrow::DataType>> key_types;
    for (const auto& key : node_.grouping()) key_types.push_back(key.expr->type());
    for (int p = 0; p < num_partitions_; ++p) {
      struct Due {
        int64_t time;
        std::string key;
      };
      std::vector<Due> due;
      scope_.stores.at(kTimersStore)[p]->ForEach([&](std::string_view key, std::string_view) {
        if (key.size() < kLongBytes) return;
        const int64_t time = ReadLong(key);
        if (time <= threshold) {
          due.push_back({time, std::string(key.substr(0, key.size() - kLongBytes))});
        }
      });
      std::sort(due.begin(), due.end(), [](const Due& a, const Due& b) {
        return a.time != b.time ? a.time < b.time : a.key < b.key;
      });
      for (const Due& timer : due) {
        scope_.partition = p;
        scope_.key = timer.key;
        ARROW_ASSIGN_OR_RAISE(auto decoder, types::RowDecoder::Make(key_types));
        ARROW_RETURN_NOT_OK(decoder->Append(timer.key));
        ARROW_ASSIGN_OR_RAISE(auto columns, decoder->Finish());
        auto keys = std::make_shared<arrow::StructArray>(node_.key_type(), 1, columns);
        ARROW_ASSIGN_OR_RAISE(auto key, keys->GetScalar(0));
        std::string timer_key = timer.key;
        AppendLong(timer.time, &timer_key);
        ARROW_RETURN_NOT_OK(scope_.Store(kTimersStore).Remove(timer_key));
        plan::ExpiredTimerInfo info{timer.time};
        ARROW_ASSIGN_OR_RAISE(auto emitted,
                              node_.processor()->handleExpiredTimer(
                                  std::static_pointer_cast<arrow::StructScalar>(key), Times(),
                                  info));
        ARROW_RETURN_NOT_OK(Emit(emitted));
      }
    }
    return arrow::Status::OK();
  }

  /// Removes the values whose time to live passed (lists keep their live elements).
  arrow::Status RemoveExpired(const HandleImpl& handle) {
    for (const auto& [name, codec] : handle.ttl_variables()) {
      const bool list = handle.kinds().at(name) == "list";
      for (int p = 0; p < num_partitions_; ++p) {
        state::StateStore& store = *scope_.stores.at(name)[p];
        std::vector<std::pair<std::string, std::string>> rewrites;
        std::vector<std::string> gone;
        store.ForEach([&](std::string_view key, std::string_view value) {
          if (!list) {
            if (codec.Expired(value, scope_.now_ms)) gone.emplace_back(key);
            return;
          }
          std::string kept;
          std::string_view rest = value;
          bool changed = false;
          while (rest.size() >= sizeof(uint32_t)) {
            uint32_t length;
            std::memcpy(&length, rest.data(), sizeof(length));
            std::string_view element = rest.substr(sizeof(length), length);
            rest.remove_prefix(sizeof(length) + length);
            if (codec.Expired(element, scope_.now_ms)) {
              changed = true;
              continue;
            }
            kept.append(reinterpret_cast<const char*>(&length), sizeof(length));
            kept.append(element);
          }
          if (!changed) return;
          if (kept.empty()) {
            gone.emplace_back(key);
          } else {
            rewrites.emplace_back(std::string(key), std::move(kept));
          }
        });
        for (const auto& [key, value] : rewrites) ARROW_RETURN_NOT_OK(store.Put(key, value));
        for (const auto& key : gone) ARROW_RETURN_NOT_OK(store.Remove(key));
        scope_.removed += static_cast<int64_t>(gone.size());
      }
    }
    return arrow::Status::OK();
  }

  arrow::Status Emit(const std::shared_ptr<arrow::RecordBatch>& rows) {
    ARROW_ASSIGN_OR_RAISE(auto checked, CheckedOutput(rows, *node_.output_schema(), schema_,
                                                      "transformWithState"));
    if (checked != nullptr) Output(std::move(checked));
    return arrow::Status::OK();
  }

  arrow::Status CommitAndReport() {
    if (stateful_ == nullptr) return arrow::Status::OK();
    for (auto& [name, stores] : scope_.stores) {
      ARROW_RETURN_NOT_OK(arrow::internal::ParallelFor(
          num_partitions_, [&](int p) { return stores[p]->Commit().status(); }));
    }
    StateOperatorProgress progress;
    progress.operator_name = "transformWithStateExec";
    progress.num_rows_dropped_by_watermark = dropped_late_;
    progress.num_shuffle_partitions = stateful_->num_partitions;
    progress.num_rows_updated = scope_.updated;
    progress.num_rows_removed = scope_.removed;
    progress.all_updates_time_ms = update_ms_;
    for (auto& [name, stores] : scope_.stores) {
      progress.num_state_store_instances += num_partitions_;
      for (int p = 0; p < num_partitions_; ++p) {
        auto metrics = stores[p]->metrics();
        if (name != kTimersStore) progress.num_rows_total += metrics.num_keys;
        progress.memory_used_bytes += metrics.memory_used_bytes;
        progress.commit_time_ms += metrics.commit_time_ms;
      }
    }
    stateful_->Report(operator_id_, std::move(progress));
    return arrow::Status::OK();
  }

  const plan::TransformWithState& node_;
  BatchStreamPtr input_;
  BatchStreamPtr initial_state_;
  const ExecContext& context_;
  const StatefulContext* stateful_;
  std::shared_ptr<arrow::Schema> schema_;

  int64_t operator_id_ = 0;
  int num_partitions_ = 1;
  std::optional<StatePartitioner> partitioner_;  // none in a batch query
  std::shared_ptr<const types::RowEncoder> key_encoder_;
  CallScope scope_;

  int64_t dropped_late_ = 0;
  int64_t update_ms_ = 0;
};

}  // namespace

BatchStreamPtr MakeTransformWithState(const plan::TransformWithState& node, BatchStreamPtr input,
                                      BatchStreamPtr initial_state, const ExecContext& context) {
  return std::make_unique<TransformWithStateStream>(node, std::move(input),
                                                    std::move(initial_state), context);
}

}  // namespace sluice::physical
