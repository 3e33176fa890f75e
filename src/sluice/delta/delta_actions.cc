#include "sluice/delta/delta_actions.h"

#include <simdjson.h>

#include "sluice/common/errors.h"
#include "sluice/common/json_writer.h"

namespace sluice::delta {

namespace {

void WriteStringMap(JsonWriter& json, const std::map<std::string, std::string>& map) {
  json.StartObject();
  for (const auto& [key, value] : map) {
    json.Key(key);
    json.String(value);
  }
  json.EndObject();
}

void WritePartitionValues(JsonWriter& json, const PartitionValues& values) {
  json.StartObject();
  for (const auto& [column, value] : values) {
    json.Key(column);
    if (value) {
      json.String(*value);
    } else {
      json.Null();
    }
  }
  json.EndObject();
}

void WriteStrings(JsonWriter& json, const std::vector<std::string>& strings) {
  json.StartArray();
  for (const auto& text : strings) json.String(text);
  json.EndArray();
}

void Write(JsonWriter& json, const Protocol& protocol) {
  json.Key("protocol");
  json.StartObject();
  json.Key("minReaderVersion");
  json.Int(protocol.min_reader_version);
  json.Key("minWriterVersion");
  json.Int(protocol.min_writer_version);
  if (protocol.reader_features) {
    json.Key("readerFeatures");
    WriteStrings(json, *protocol.reader_features);
  }
  if (protocol.writer_features) {
    json.Key("writerFeatures");
    WriteStrings(json, *protocol.writer_features);
  }
  json.EndObject();
}

void Write(JsonWriter& json, const Metadata& metadata) {
  json.Key("metaData");
  json.StartObject();
  json.Key("id");
  json.String(metadata.id);
  if (metadata.name) {
    json.Key("name");
    json.String(*metadata.name);
  }
  if (metadata.description) {
    json.Key("description");
    json.String(*metadata.description);
  }
  json.Key("format");
  json.StartObject();
  json.Key("provider");
  json.String(metadata.format_provider);
  json.Key("options");
  WriteStringMap(json, metadata.format_options);
  json.EndObject();
  json.Key("schemaString");
  json.String(metadata.schema_string);
  json.Key("partitionColumns");
  WriteStrings(json, metadata.partition_columns);
  json.Key("configuration");
  WriteStringMap(json, metadata.configuration);
  if (metadata.created_time) {
    json.Key("createdTime");
    json.Int(*metadata.created_time);
  }
  json.EndObject();
}

void Write(JsonWriter& json, const AddFile& add) {
  json.Key("add");
  json.StartObject();
  json.Key("path");
  json.String(add.path);
  json.Key("partitionValues");
  WritePartitionValues(json, add.partition_values);
  json.Key("size");
  json.Int(add.size);
  json.Key("modificationTime");
  json.Int(add.modification_time);
  json.Key("dataChange");
  json.Bool(add.data_change);
  if (add.stats) {
    json.Key("stats");
    json.String(*add.stats);
  }
  if (!add.tags.empty()) {
    json.Key("tags");
    WriteStringMap(json, add.tags);
  }
  json.EndObject();
}

void Write(JsonWriter& json, const RemoveFile& remove) {
  json.Key("remove");
  json.StartObject();
  json.Key("path");
  json.String(remove.path);
  if (remove.deletion_timestamp) {
    json.Key("deletionTimestamp");
    json.Int(*remove.deletion_timestamp);
  }
  json.Key("dataChange");
  json.Bool(remove.data_change);
  if (remove.extended_file_metadata) {
    json.Key("extendedFileMetadata");
    json.Bool(true);
    json.Key("partitionValues");
    WritePartitionValues(json, remove.partition_values);
    if (remove.size) {
      json.Key("size");
      json.Int(*remove.size);
    }
  }
  json.EndObject();
}

void Write(JsonWriter& json, const Transaction& txn) {
  json.Key("txn");
  json.StartObject();
  json.Key("appId");
  json.String(txn.app_id);
  json.Key("version");
  json.Int(txn.version);
  if (txn.last_updated) {
    json.Key("lastUpdated");
    json.Int(*txn.last_updated);
  }
  json.EndObject();
}

void Write(JsonWriter& json, const CommitInfo& info) {
  json.Key("commitInfo");
  json.StartObject();
  if (info.timestamp) {
    json.Key("timestamp");
    json.Int(*info.timestamp);
  }
  json.Key("operation");
  json.String(info.operation);
  json.Key("operationParameters");
  WriteStringMap(json, info.operation_parameters);
  if (info.read_version) {
    json.Key("readVersion");
    json.Int(*info.read_version);
  }
  if (info.isolation_level) {
    json.Key("isolationLevel");
    json.String(*info.isolation_level);
  }
  if (info.is_blind_append) {
    json.Key("isBlindAppend");
    json.Bool(*info.is_blind_append);
  }
  if (!info.operation_metrics.empty()) {
    json.Key("operationMetrics");
    WriteStringMap(json, info.operation_metrics);
  }
  if (info.engine_info) {
    json.Key("engineInfo");
    json.String(*info.engine_info);
  }
  if (info.txn_id) {
    json.Key("txnId");
    json.String(*info.txn_id);
  }
  json.EndObject();
}

// ---- Parsing ---------------------------------------------------------------------------------

/// Reads the fields of one action object; a failure says what is wrong, and ParseCommit adds
/// the file and line.
class ActionReader {
 public:
  explicit ActionReader(simdjson::dom::object object) : object_(object) {}

  arrow::Result<std::string> RequiredString(const char* key) const {
    std::string_view value;
    if (object_[key].get(value) != simdjson::SUCCESS) return Missing(key, "a string");
    return std::string(value);
  }
  arrow::Result<std::optional<std::string>> OptionalString(const char* key) const {
    simdjson::dom::element element;
    if (object_[key].get(element) != simdjson::SUCCESS || element.is_null()) return std::nullopt;
    std::string_view value;
    if (element.get(value) != simdjson::SUCCESS) return Missing(key, "a string");
    return std::string(value);
  }
  arrow::Result<int64_t> RequiredInt(const char* key) const {
    ARROW_ASSIGN_OR_RAISE(auto value, OptionalInt(key));
    if (!value) return Missing(key, "a number");
    return *value;
  }
  arrow::Result<std::optional<int64_t>> OptionalInt(const char* key) const {
    simdjson::dom::element element;
    if (object_[key].get(element) != simdjson::SUCCESS || element.is_null()) return std::nullopt;
    int64_t value = 0;
    if (element.get(value) == simdjson::SUCCESS) return value;
    uint64_t unsigned_value = 0;
    if (element.get(unsigned_value) == simdjson::SUCCESS &&
        unsigned_value <= static_cast<uint64_t>(INT64_MAX)) {
      return static_cast<int64_t>(unsigned_value);
    }
    return Missing(key, "an integer");
  }
  arrow::Result<std::optional<bool>> OptionalBool(const char* key) const {
    simdjson::dom::element element;
    if (object_[key].get(element) != simdjson::SUCCESS || element.is_null()) return std::nullopt;
    bool value = false;
    if (element.get(value) != simdjson::SUCCESS) return Missing(key, "true or false");
    return value;
  }
  /// An object of strings; non-string values (commitInfo's operationParameters may hold
  /// numbers) are kept as their JSON text.
  arrow::Result<std::map<std::string, std::string>> StringMap(const char* key) const {
    std::map<std::string, std::string> map;
    simdjson::dom::element element;
    if (object_[key].get(element) != simdjson::SUCCESS || element.is_null()) return map;
    simdjson::dom::object object;
    if (element.get(object) != simdjson::SUCCESS) return Missing(key, "an object");
    for (auto member : object) {
      std::string_view text;
      if (member.value.get(text) == simdjson::SUCCESS) {
        map.emplace(std::string(member.key), std::string(text));
      } else {
        map.emplace(std::string(member.key), simdjson::minify(member.value));
      }
    }
    return map;
  }
  arrow::Result<PartitionValues> Partitions(const char* key) const {
    PartitionValues values;
    simdjson::dom::element element;
    if (object_[key].get(element) != simdjson::SUCCESS || element.is_null()) return values;
    simdjson::dom::object object;
    if (element.get(object) != simdjson::SUCCESS) return Missing(key, "an object");
    for (auto member : object) {
      if (member.value.is_null()) {
        values.emplace_back(std::string(member.key), std::nullopt);
        continue;
      }
      std::string_view text;
      if (member.value.get(text) != simdjson::SUCCESS) return Missing(key, "strings or nulls");
      values.emplace_back(std::string(member.key), std::string(text));
    }
    return values;
  }
  arrow::Result<std::optional<std::vector<std::string>>> Strings(const char* key) const {
    simdjson::dom::element element;
    if (object_[key].get(element) != simdjson::SUCCESS || element.is_null()) return std::nullopt;
    simdjson::dom::array array;
    if (element.get(array) != simdjson::SUCCESS) return Missing(key, "an array of strings");
    std::vector<std::string> strings;
    for (auto item : array) {
      std::string_view text;
      if (item.get(text) != simdjson::SUCCESS) return Missing(key, "an array of strings");
      strings.emplace_back(text);
    }
    return strings;
  }
  simdjson::dom::object object() const { return object_; }

 private:
  static arrow::Status Missing(const char* key, const char* what) {
    return arrow::Status::Invalid("its \"", key, "\" is not ", what);
  }

  simdjson::dom::object object_;
};

arrow::Result<Protocol> ReadProtocol(const ActionReader& in) {
  Protocol protocol;
  ARROW_ASSIGN_OR_RAISE(auto reader, in.RequiredInt("minReaderVersion"));
  ARROW_ASSIGN_OR_RAISE(auto writer, in.RequiredInt("minWriterVersion"));
  protocol.min_reader_version = static_cast<int32_t>(reader);
  protocol.min_writer_version = static_cast<int32_t>(writer);
  ARROW_ASSIGN_OR_RAISE(protocol.reader_features, in.Strings("readerFeatures"));
  ARROW_ASSIGN_OR_RAISE(protocol.writer_features, in.Strings("writerFeatures"));
  return protocol;
}

arrow::Result<Metadata> ReadMetadata(const ActionReader& in) {
  Metadata metadata;
  ARROW_ASSIGN_OR_RAISE(metadata.id, in.RequiredString("id"));
  ARROW_ASSIGN_OR_RAISE(metadata.name, in.OptionalString("name"));
  ARROW_ASSIGN_OR_RAISE(metadata.description, in.OptionalString("description"));
  simdjson::dom::object format;
  if (in.object()["format"].get(format) == simdjson::SUCCESS) {
    ActionReader format_reader(format);
    ARROW_ASSIGN_OR_RAISE(metadata.format_provider, format_reader.RequiredString("provider"));
    ARROW_ASSIGN_OR_RAISE(metadata.format_options, format_reader.StringMap("options"));
  }
  ARROW_ASSIGN_OR_RAISE(metadata.schema_string, in.RequiredString("schemaString"));
  ARROW_ASSIGN_OR_RAISE(auto partition_columns, in.Strings("partitionColumns"));
  if (partition_columns) metadata.partition_columns = std::move(*partition_columns);
  ARROW_ASSIGN_OR_RAISE(metadata.configuration, in.StringMap("configuration"));
  ARROW_ASSIGN_OR_RAISE(metadata.created_time, in.OptionalInt("createdTime"));
  return metadata;
}

arrow::Result<AddFile> ReadAdd(const ActionReader& in) {
  AddFile add;
  ARROW_ASSIGN_OR_RAISE(add.path, in.RequiredString("path"));
  ARROW_ASSIGN_OR_RAISE(add.partition_values, in.Partitions("partitionValues"));
  ARROW_ASSIGN_OR_RAISE(add.size, in.RequiredInt("size"));
  ARROW_ASSIGN_OR_RAISE(auto modified, in.OptionalInt("modificationTime"));
  add.modification_time = modified.value_or(0);
  ARROW_ASSIGN_OR_RAISE(auto data_change, in.OptionalBool("dataChange"));
  add.data_change = data_change.value_or(true);
  ARROW_ASSIGN_OR_RAISE(add.stats, in.OptionalString("stats"));
  ARROW_ASSIGN_OR_RAISE(add.tags, in.StringMap("tags"));
  return add;
}

arrow::Result<RemoveFile> ReadRemove(const ActionReader& in) {
  RemoveFile remove;
  ARROW_ASSIGN_OR_RAISE(remove.path, in.RequiredString("path"));
  ARROW_ASSIGN_OR_RAISE(remove.deletion_timestamp, in.OptionalInt("deletionTimestamp"));
  ARROW_ASSIGN_OR_RAISE(auto data_change, in.OptionalBool("dataChange"));
  remove.data_change = data_change.value_or(true);
  ARROW_ASSIGN_OR_RAISE(auto extended, in.OptionalBool("extendedFileMetadata"));
  remove.extended_file_metadata = extended.value_or(false);
  ARROW_ASSIGN_OR_RAISE(remove.partition_values, in.Partitions("partitionValues"));
  ARROW_ASSIGN_OR_RAISE(remove.size, in.OptionalInt("size"));
  return remove;
}

arrow::Result<Transaction> ReadTransaction(const ActionReader& in) {
  Transaction txn;
  ARROW_ASSIGN_OR_RAISE(txn.app_id, in.RequiredString("appId"));
  ARROW_ASSIGN_OR_RAISE(txn.version, in.RequiredInt("version"));
  ARROW_ASSIGN_OR_RAISE(txn.last_updated, in.OptionalInt("lastUpdated"));
  return txn;
}

arrow::Result<CommitInfo> ReadCommitInfo(const ActionReader& in) {
  CommitInfo info;
  ARROW_ASSIGN_OR_RAISE(info.timestamp, in.OptionalInt("timestamp"));
  ARROW_ASSIGN_OR_RAISE(auto operation, in.OptionalString("operation"));
  info.operation = operation.value_or("");
  ARROW_ASSIGN_OR_RAISE(info.operation_parameters, in.StringMap("operationParameters"));
  ARROW_ASSIGN_OR_RAISE(info.read_version, in.OptionalInt("readVersion"));
  ARROW_ASSIGN_OR_RAISE(info.isolation_level, in.OptionalString("isolationLevel"));
  ARROW_ASSIGN_OR_RAISE(info.is_blind_append, in.OptionalBool("isBlindAppend"));
  ARROW_ASSIGN_OR_RAISE(info.operation_metrics, in.StringMap("operationMetrics"));
  ARROW_ASSIGN_OR_RAISE(info.engine_info, in.OptionalString("engineInfo"));
  ARROW_ASSIGN_OR_RAISE(info.txn_id, in.OptionalString("txnId"));
  return info;
}

/// The action of one line; nullopt for an action kind this engine ignores.
arrow::Result<std::optional<Action>> ReadAction(simdjson::dom::object line) {
  for (auto member : line) {
    simdjson::dom::object body;
    if (member.value.is_null()) continue;
    const std::string_view kind = member.key;
    const bool known = kind == "protocol" || kind == "metaData" || kind == "add" ||
                       kind == "remove" || kind == "txn" || kind == "commitInfo";
    if (!known) continue;
    if (member.value.get(body) != simdjson::SUCCESS) {
      return arrow::Status::Invalid("its \"", kind, "\" is not an object");
    }
    ActionReader in(body);
    if (kind == "protocol") return ReadProtocol(in);
    if (kind == "metaData") return ReadMetadata(in);
    if (kind == "add") return ReadAdd(in);
    if (kind == "remove") return ReadRemove(in);
    if (kind == "txn") return ReadTransaction(in);
    return ReadCommitInfo(in);
  }
  return std::nullopt;
}

}  // namespace

std::string ActionToJson(const Action& action) {
  JsonWriter json(JsonWriter::Layout::kCompact);
  json.StartObject();
  std::visit([&](const auto& body) { Write(json, body); }, action);
  json.EndObject();
  return std::move(json).TakeText();
}

std::string CommitToJson(const std::vector<Action>& actions) {
  std::string text;
  for (const auto& action : actions) {
    text += ActionToJson(action);
    text += '\n';
  }
  return text;
}

arrow::Result<std::vector<Action>> ParseCommit(std::string_view text, const std::string& path) {
  std::vector<Action> actions;
  simdjson::dom::parser parser;
  size_t line_number = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    auto corrupt = [&](const std::string& problem) {
      return SparkError("DELTA_LOG_FILE_CORRUPT",
                        "The Delta log file " + path + " is corrupt at line " +
                            std::to_string(line_number) + ": " + problem +
                            ". Restore the file from a backup; the table cannot be read without "
                            "it.");
    };
    simdjson::dom::object object;
    // simdjson needs padding after the text: parse a padded copy of the line.
    simdjson::padded_string padded(line);
    if (parser.parse(padded).get(object) != simdjson::SUCCESS) {
      return corrupt("it is not a JSON object");
    }
    auto action = ReadAction(object);
    if (!action.ok()) return corrupt(action.status().message());
    if (*action) actions.push_back(std::move(**action));
  }
  return actions;
}

}  // namespace sluice::delta
