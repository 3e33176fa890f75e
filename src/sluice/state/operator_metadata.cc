#include "sluice/state/operator_metadata.h"

#include <algorithm>
#include <filesystem>

#include <simdjson.h>

#include <arrow/type.h>

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/common/errors.h"
#include "sluice/common/json_writer.h"
#include "sluice/types/json_schema.h"

namespace sluice::state {

namespace {

constexpr size_t kMaxUtfChunk = 65535;

void WriteUtf(std::string_view text, std::string* out) {
  out->push_back(static_cast<char>((text.size() >> 8) & 0xFF));
  out->push_back(static_cast<char>(text.size() & 0xFF));
  out->append(text);
}

void WriteChunkedSchema(const std::string& json, std::string* out) {
  uint32_t chunks = static_cast<uint32_t>((json.size() + kMaxUtfChunk - 1) / kMaxUtfChunk);
  if (chunks == 0) chunks = 1;
  for (int shift = 24; shift >= 0; shift -= 8) {
    out->push_back(static_cast<char>((chunks >> shift) & 0xFF));
  }
  for (uint32_t i = 0; i < chunks; ++i) {
    WriteUtf(std::string_view(json).substr(i * kMaxUtfChunk, kMaxUtfChunk), out);
  }
}

/// Reads what WriteChunkedSchema wrote at `*position`.
arrow::Result<std::string> ReadChunkedSchema(std::string_view bytes, size_t* position,
                                             const std::string& path) {
  auto corrupt = [&](const std::string& what) {
    return SparkError("STDS_FAILED_TO_READ_STATE_SCHEMA",
                      "Failed to read the state schema. Either the file does not exist, or the "
                      "file is corrupted: " + path + " (" + what + ").");
  };
  if (bytes.size() < *position + 4) return corrupt("truncated chunk count");
  uint32_t chunks = 0;
  for (int i = 0; i < 4; ++i) {
    chunks = (chunks << 8) | static_cast<uint8_t>(bytes[*position + i]);
  }
  *position += 4;
  std::string json;
  for (uint32_t i = 0; i < chunks; ++i) {
    if (bytes.size() < *position + 2) return corrupt("truncated chunk length");
    size_t length = (static_cast<uint8_t>(bytes[*position]) << 8) |
                    static_cast<uint8_t>(bytes[*position + 1]);
    *position += 2;
    if (bytes.size() < *position + length) return corrupt("truncated chunk");
    json.append(bytes.substr(*position, length));
    *position += length;
  }
  return json;
}

/// Same number of columns of the same types; column names and nullability aside.
bool Compatible(const arrow::Schema& stored, const arrow::Schema& current) {
  if (stored.num_fields() != current.num_fields()) return false;
  for (int i = 0; i < stored.num_fields(); ++i) {
    if (!stored.field(i)->type()->Equals(*current.field(i)->type(), /*check_metadata=*/false)) {
      return false;
    }
  }
  return true;
}

std::string OperatorMetadataJson(const StateOperatorInfo& info) {
  JsonWriter writer(JsonWriter::Layout::kCompact);
  writer.StartObject();
  writer.Key("operatorInfo");
  writer.StartObject();
  writer.Key("operatorId");
  writer.Int(info.operator_id);
  writer.Key("operatorName");
  writer.String(info.operator_name);
  writer.EndObject();
  writer.Key("stateStoreInfo");
  writer.StartArray();
  for (const auto& store : info.stores) {
    writer.StartObject();
    writer.Key("storeName");
    writer.String(store.store_name);
    writer.Key("numColsPrefixKey");
    writer.Int(0);
    writer.Key("numPartitions");
    writer.Int(info.num_partitions);
    writer.EndObject();
  }
  writer.EndArray();
  if (!info.properties_json.empty()) {
    writer.Key("operatorPropertiesJson");
    writer.String(info.properties_json);
  }
  writer.EndObject();
  return std::move(writer).TakeText();
}

}  // namespace

std::string EncodeStateSchemaFile(const arrow::Schema& key_schema,
                                  const arrow::Schema& value_schema) {
  std::string bytes;
  WriteUtf("v2", &bytes);
  WriteChunkedSchema(types::SchemaToJson(key_schema), &bytes);
  WriteChunkedSchema(types::SchemaToJson(value_schema), &bytes);
  return bytes;
}

namespace {

/// The schema file of `store` in partition 0 of the operator's `folder`.
std::string SchemaPath(const std::string& folder, const StateStoreSchema& store) {
  const std::string store_folder =
      store.store_name == "default" ? folder + "/0" : folder + "/0/" + store.store_name;
  return store_folder + "/_metadata/schema";
}

/// The key and value schemas of the schema file at `schema_path`, with their JSON texts.
struct StoredSchemas {
  std::string key_json;
  std::string value_json;
  std::shared_ptr<arrow::Schema> key;
  std::shared_ptr<arrow::Schema> value;
};

arrow::Result<StoredSchemas> ReadSchemaFile(const std::string& schema_path) {
  auto bytes = checkpoint::ReadWholeFile(schema_path);
  if (!bytes.ok()) {
    return SparkError("STDS_FAILED_TO_READ_STATE_SCHEMA",
                      "Failed to read the state schema. Either the file does not exist, or the "
                      "file is corrupted: " + schema_path + " (" + bytes.status().message() +
                          ").");
  }
  if (bytes->size() < 4 || bytes->substr(0, 4) != std::string("\0\2v2", 4)) {
    return SparkError("STDS_FAILED_TO_READ_STATE_SCHEMA",
                      "Failed to read the state schema. Either the file does not exist, or the "
                      "file is corrupted: " + schema_path + " (not a version 2 schema file).");
  }
  size_t position = 4;
  StoredSchemas schemas;
  ARROW_ASSIGN_OR_RAISE(schemas.key_json, ReadChunkedSchema(*bytes, &position, schema_path));
  ARROW_ASSIGN_OR_RAISE(schemas.value_json, ReadChunkedSchema(*bytes, &position, schema_path));
  ARROW_ASSIGN_OR_RAISE(schemas.key, types::SchemaFromJson(schemas.key_json));
  ARROW_ASSIGN_OR_RAISE(schemas.value, types::SchemaFromJson(schemas.value_json));
  return schemas;
}

/// Fails unless the schema file at `schema_path` holds schemas compatible with `store`'s.
arrow::Status CheckSchemaFile(const std::string& schema_path, const std::string& folder,
                              const StateOperatorInfo& info, const StateStoreSchema& store) {
  ARROW_ASSIGN_OR_RAISE(auto stored, ReadSchemaFile(schema_path));
  const std::string& key_json = stored.key_json;
  const std::string& value_json = stored.value_json;
  const auto& stored_key = stored.key;
  const auto& stored_value = stored.value;
  const std::string where = " (operator " + std::to_string(info.operator_id) + ", " +
                            info.operator_name + ", store " + store.store_name + ", in " +
                            folder + ")";
  if (!Compatible(*stored_key, *store.key_schema)) {
    return SparkError("STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE",
                      "Provided key schema does not match existing state key schema. Please "
                      "check number and type of fields. Existing key_schema=" +
                          key_json + " and new key_schema=" +
                          types::SchemaToJson(*store.key_schema) + where +
                          ". The state cannot be reused: restore the query's grouping keys or "
                          "use a new checkpoint location.");
  }
  if (!Compatible(*stored_value, *store.value_schema)) {
    return SparkError("STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE",
                      "Provided value schema does not match existing state value schema. "
                      "Please check number and type of fields. Existing value_schema=" +
                          value_json + " and new value_schema=" +
                          types::SchemaToJson(*store.value_schema) + where +
                          ". The state cannot be reused: restore the query's aggregates or use "
                          "a new checkpoint location.");
  }
  return arrow::Status::OK();
}

}  // namespace

arrow::Status WriteOrCheckOperatorMetadata(const checkpoint::CheckpointPaths& paths,
                                           const StateOperatorInfo& info) {
  namespace fs = std::filesystem;
  const std::string folder = paths.state() + "/" + std::to_string(info.operator_id);
  std::error_code error;
  const std::string metadata_path = folder + "/_metadata/metadata";
  for (const auto& store : info.stores) {
    const std::string schema_path = SchemaPath(folder, store);
    if (fs::exists(schema_path, error)) {
      ARROW_RETURN_NOT_OK(CheckSchemaFile(schema_path, folder, info, store));
      continue;
    }
    // The operator's first run (or a crash before all its files were written).
    fs::create_directories(folder + "/_metadata", error);
    fs::create_directories(fs::path(schema_path).parent_path(), error);
    if (error) {
      return arrow::Status::IOError("Cannot create the state folder ", folder, ": ",
                                    error.message());
    }
    if (!fs::exists(metadata_path, error)) {
      ARROW_RETURN_NOT_OK(checkpoint::WriteFileAtomically(
          metadata_path, "v1\n" + OperatorMetadataJson(info), /*overwrite=*/true));
    }
    ARROW_RETURN_NOT_OK(checkpoint::WriteFileAtomically(
        schema_path, EncodeStateSchemaFile(*store.key_schema, *store.value_schema),
        /*overwrite=*/true));
  }
  if (!info.properties_json.empty()) {
    // transformWithState learns its variables when its processor declares them: the metadata
    // follows them (all schemas above are written or checked by now).
    const std::string metadata = "v1\n" + OperatorMetadataJson(info);
    auto written = checkpoint::ReadWholeFile(metadata_path);
    if (!written.ok() || *written != metadata) {
      fs::create_directories(folder + "/_metadata", error);
      ARROW_RETURN_NOT_OK(
          checkpoint::WriteFileAtomically(metadata_path, metadata, /*overwrite=*/true));
    }
  }
  return arrow::Status::OK();
}

arrow::Result<StateOperatorInfo> ReadOperatorMetadata(const checkpoint::CheckpointPaths& paths,
                                                      int64_t operator_id) {
  const std::string folder = paths.state() + "/" + std::to_string(operator_id);
  const std::string metadata_path = folder + "/_metadata/metadata";
  auto bytes = checkpoint::ReadWholeFile(metadata_path);
  if (!bytes.ok()) {
    return SparkError("STDS_FAILED_TO_READ_OPERATOR_METADATA",
                      "Failed to read the operator metadata for checkpointLocation=" +
                          paths.root() + " and batchId: the file " + metadata_path +
                          " cannot be read (" + bytes.status().message() +
                          "): is operator " + std::to_string(operator_id) + " stateful?");
  }
  auto corrupt = [&](const std::string& what) {
    return SparkError("STDS_FAILED_TO_READ_OPERATOR_METADATA",
                      "Failed to read the operator metadata: " + metadata_path + " " + what +
                          ".");
  };
  std::string_view text = *bytes;
  if (text.substr(0, 3) != "v1\n") return corrupt("does not start with v1");
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(text.substr(3)).get(root)) return corrupt("is not JSON");
  StateOperatorInfo info;
  info.operator_id = operator_id;
  std::string_view name;
  if (root["operatorInfo"]["operatorName"].get(name)) return corrupt("has no operatorName");
  info.operator_name = std::string(name);
  simdjson::dom::array stores;
  if (root["stateStoreInfo"].get(stores)) return corrupt("has no stateStoreInfo");
  for (auto entry : stores) {
    StateStoreSchema store;
    std::string_view store_name;
    int64_t partitions = 0;
    if (entry["storeName"].get(store_name) || entry["numPartitions"].get(partitions)) {
      return corrupt("has a malformed stateStoreInfo entry");
    }
    store.store_name = std::string(store_name);
    info.num_partitions = static_cast<int32_t>(partitions);
    ARROW_ASSIGN_OR_RAISE(auto schemas, ReadSchemaFile(SchemaPath(folder, store)));
    store.key_schema = schemas.key;
    store.value_schema = schemas.value;
    info.stores.push_back(std::move(store));
  }
  std::string_view properties;
  if (!root["operatorPropertiesJson"].get(properties)) info.properties_json = properties;
  return info;
}

arrow::Result<std::vector<int64_t>> ListStateOperators(const checkpoint::CheckpointPaths& paths) {
  namespace fs = std::filesystem;
  std::vector<int64_t> ids;
  std::error_code error;
  if (!fs::exists(paths.state(), error)) return ids;
  for (const auto& entry : fs::directory_iterator(paths.state(), error)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || !std::all_of(name.begin(), name.end(), ::isdigit)) continue;
    if (fs::exists(entry.path() / "_metadata" / "metadata", error)) ids.push_back(std::stoll(name));
  }
  if (error) {
    return arrow::Status::IOError("Cannot list the state folder ", paths.state(), ": ",
                                  error.message());
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace sluice::state
