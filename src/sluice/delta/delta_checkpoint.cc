#include "sluice/delta/delta_checkpoint.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>

#include <arrow/array.h>
#include <arrow/builder.h>
#include <arrow/io/file.h>
#include <arrow/io/memory.h>
#include <arrow/table.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/writer.h>
#include <simdjson.h>

#include "sluice/checkpoint/atomic_file.h"
#include "sluice/common/errors.h"
#include "sluice/common/json_writer.h"

namespace sluice::delta {

namespace fs = std::filesystem;

namespace {

// ---- The checkpoint schema -------------------------------------------------------------------

std::shared_ptr<arrow::DataType> StringMap() { return arrow::map(arrow::utf8(), arrow::utf8()); }

std::shared_ptr<arrow::Schema> CheckpointSchema() {
  auto txn = arrow::struct_({arrow::field("appId", arrow::utf8()),
                             arrow::field("version", arrow::int64()),
                             arrow::field("lastUpdated", arrow::int64())});
  auto add = arrow::struct_({arrow::field("path", arrow::utf8()),
                             arrow::field("partitionValues", StringMap()),
                             arrow::field("size", arrow::int64()),
                             arrow::field("modificationTime", arrow::int64()),
                             arrow::field("dataChange", arrow::boolean()),
                             arrow::field("stats", arrow::utf8()),
                             arrow::field("tags", StringMap())});
  auto remove = arrow::struct_({arrow::field("path", arrow::utf8()),
                                arrow::field("deletionTimestamp", arrow::int64()),
                                arrow::field("dataChange", arrow::boolean()),
                                arrow::field("extendedFileMetadata", arrow::boolean()),
                                arrow::field("partitionValues", StringMap()),
                                arrow::field("size", arrow::int64())});
  auto format = arrow::struct_(
      {arrow::field("provider", arrow::utf8()), arrow::field("options", StringMap())});
  auto metadata = arrow::struct_({arrow::field("id", arrow::utf8()),
                                  arrow::field("name", arrow::utf8()),
                                  arrow::field("description", arrow::utf8()),
                                  arrow::field("format", format),
                                  arrow::field("schemaString", arrow::utf8()),
                                  arrow::field("partitionColumns", arrow::list(arrow::utf8())),
                                  arrow::field("configuration", StringMap()),
                                  arrow::field("createdTime", arrow::int64())});
  auto protocol =
      arrow::struct_({arrow::field("minReaderVersion", arrow::int32()),
                      arrow::field("minWriterVersion", arrow::int32()),
                      arrow::field("readerFeatures", arrow::list(arrow::utf8())),
                      arrow::field("writerFeatures", arrow::list(arrow::utf8()))});
  return arrow::schema({arrow::field("txn", txn), arrow::field("add", add),
                        arrow::field("remove", remove), arrow::field("metaData", metadata),
                        arrow::field("protocol", protocol)});
}

// ---- Writing ---------------------------------------------------------------------------------

/// Appends values to the children of nested builders, by the child's position.
class Row {
 public:
  explicit Row(arrow::ArrayBuilder* builder) : builder_(builder) {}

  arrow::Status String(int child, const std::optional<std::string>& value) {
    auto* out = static_cast<arrow::StringBuilder*>(builder_->child(child));
    return value ? out->Append(*value) : out->AppendNull();
  }
  arrow::Status Int64(int child, std::optional<int64_t> value) {
    auto* out = static_cast<arrow::Int64Builder*>(builder_->child(child));
    return value ? out->Append(*value) : out->AppendNull();
  }
  arrow::Status Int32(int child, int32_t value) {
    return static_cast<arrow::Int32Builder*>(builder_->child(child))->Append(value);
  }
  arrow::Status Bool(int child, bool value) {
    return static_cast<arrow::BooleanBuilder*>(builder_->child(child))->Append(value);
  }
  template <typename Entries>
  arrow::Status Map(int child, const Entries& entries) {
    auto* out = static_cast<arrow::MapBuilder*>(builder_->child(child));
    ARROW_RETURN_NOT_OK(out->Append());
    auto* keys = static_cast<arrow::StringBuilder*>(out->key_builder());
    auto* items = static_cast<arrow::StringBuilder*>(out->item_builder());
    for (const auto& [key, value] : entries) {
      ARROW_RETURN_NOT_OK(keys->Append(key));
      if constexpr (std::is_same_v<std::decay_t<decltype(value)>, std::string>) {
        ARROW_RETURN_NOT_OK(items->Append(value));
      } else {
        ARROW_RETURN_NOT_OK(value ? items->Append(*value) : items->AppendNull());
      }
    }
    return arrow::Status::OK();
  }
  arrow::Status Strings(int child, const std::optional<std::vector<std::string>>& values) {
    auto* out = static_cast<arrow::ListBuilder*>(builder_->child(child));
    if (!values) return out->AppendNull();
    ARROW_RETURN_NOT_OK(out->Append());
    auto* items = static_cast<arrow::StringBuilder*>(out->value_builder());
    for (const auto& value : *values) ARROW_RETURN_NOT_OK(items->Append(value));
    return arrow::Status::OK();
  }
  Row Struct(int child) { return Row(builder_->child(child)); }

 private:
  arrow::ArrayBuilder* builder_;
};

/// Builds the checkpoint rows: each row fills one action column and leaves the others null.
class CheckpointBuilder {
 public:
  static arrow::Result<CheckpointBuilder> Make() {
    CheckpointBuilder out;
    out.schema_ = CheckpointSchema();
    for (const auto& field : out.schema_->fields()) {
      ARROW_ASSIGN_OR_RAISE(auto builder, arrow::MakeBuilder(field->type()));
      out.columns_.push_back(std::move(builder));
    }
    return out;
  }

  arrow::Status Append(const Transaction& txn) {
    ARROW_ASSIGN_OR_RAISE(Row row, Start(kTxn));
    ARROW_RETURN_NOT_OK(row.String(0, txn.app_id));
    ARROW_RETURN_NOT_OK(row.Int64(1, txn.version));
    return row.Int64(2, txn.last_updated);
  }
  arrow::Status Append(const AddFile& add) {
    ARROW_ASSIGN_OR_RAISE(Row row, Start(kAdd));
    ARROW_RETURN_NOT_OK(row.String(0, add.path));
    ARROW_RETURN_NOT_OK(row.Map(1, add.partition_values));
    ARROW_RETURN_NOT_OK(row.Int64(2, add.size));
    ARROW_RETURN_NOT_OK(row.Int64(3, add.modification_time));
    // A checkpoint's adds are the table's state, not a change.
    ARROW_RETURN_NOT_OK(row.Bool(4, false));
    ARROW_RETURN_NOT_OK(row.String(5, add.stats));
    return row.Map(6, add.tags);
  }
  arrow::Status Append(const Metadata& metadata) {
    ARROW_ASSIGN_OR_RAISE(Row row, Start(kMetadata));
    ARROW_RETURN_NOT_OK(row.String(0, metadata.id));
    ARROW_RETURN_NOT_OK(row.String(1, metadata.name));
    ARROW_RETURN_NOT_OK(row.String(2, metadata.description));
    ARROW_RETURN_NOT_OK(static_cast<arrow::StructBuilder*>(columns_[kMetadata]->child(3))
                            ->Append());
    Row format = row.Struct(3);
    ARROW_RETURN_NOT_OK(format.String(0, metadata.format_provider));
    ARROW_RETURN_NOT_OK(format.Map(1, metadata.format_options));
    ARROW_RETURN_NOT_OK(row.String(4, metadata.schema_string));
    ARROW_RETURN_NOT_OK(row.Strings(5, metadata.partition_columns));
    ARROW_RETURN_NOT_OK(row.Map(6, metadata.configuration));
    return row.Int64(7, metadata.created_time);
  }
  arrow::Status Append(const Protocol& protocol) {
    ARROW_ASSIGN_OR_RAISE(Row row, Start(kProtocol));
    ARROW_RETURN_NOT_OK(row.Int32(0, protocol.min_reader_version));
    ARROW_RETURN_NOT_OK(row.Int32(1, protocol.min_writer_version));
    ARROW_RETURN_NOT_OK(row.Strings(2, protocol.reader_features));
    return row.Strings(3, protocol.writer_features);
  }

  arrow::Result<std::shared_ptr<arrow::Table>> Finish() {
    arrow::ArrayVector arrays;
    for (auto& column : columns_) {
      ARROW_ASSIGN_OR_RAISE(auto array, column->Finish());
      arrays.push_back(std::move(array));
    }
    return arrow::Table::Make(schema_, arrays);
  }

 private:
  enum Column { kTxn = 0, kAdd = 1, kRemove = 2, kMetadata = 3, kProtocol = 4 };

  /// Starts a row whose action goes into `column`: the other columns get a null.
  arrow::Result<Row> Start(int column) {
    for (int i = 0; i < static_cast<int>(columns_.size()); ++i) {
      if (i != column) ARROW_RETURN_NOT_OK(columns_[i]->AppendNull());
    }
    ARROW_RETURN_NOT_OK(static_cast<arrow::StructBuilder*>(columns_[column].get())->Append());
    return Row(columns_[column].get());
  }

  std::shared_ptr<arrow::Schema> schema_;
  std::vector<std::unique_ptr<arrow::ArrayBuilder>> columns_;
};

// ---- Reading ---------------------------------------------------------------------------------

/// Reads the fields of one struct column of the checkpoint by name.
class StructColumn {
 public:
  explicit StructColumn(std::shared_ptr<arrow::StructArray> array) : array_(std::move(array)) {}

  bool IsValid(int64_t row) const { return array_ != nullptr && array_->IsValid(row); }

  std::optional<std::string> String(const char* name, int64_t row) const {
    auto child = Child(name);
    if (child == nullptr || child->IsNull(row)) return std::nullopt;
    if (child->type_id() == arrow::Type::LARGE_STRING) {
      return static_cast<const arrow::LargeStringArray&>(*child).GetString(row);
    }
    if (child->type_id() != arrow::Type::STRING) return std::nullopt;
    return static_cast<const arrow::StringArray&>(*child).GetString(row);
  }
  std::optional<int64_t> Int(const char* name, int64_t row) const {
    auto child = Child(name);
    if (child == nullptr || child->IsNull(row)) return std::nullopt;
    switch (child->type_id()) {
      case arrow::Type::INT64:
        return static_cast<const arrow::Int64Array&>(*child).Value(row);
      case arrow::Type::INT32:
        return static_cast<const arrow::Int32Array&>(*child).Value(row);
      default:
        return std::nullopt;
    }
  }
  std::optional<bool> Bool(const char* name, int64_t row) const {
    auto child = Child(name);
    if (child == nullptr || child->IsNull(row) || child->type_id() != arrow::Type::BOOL) {
      return std::nullopt;
    }
    return static_cast<const arrow::BooleanArray&>(*child).Value(row);
  }
  /// A map<string, string>'s entries in order; null values stay null.
  std::vector<std::pair<std::string, std::optional<std::string>>> Map(const char* name,
                                                                      int64_t row) const {
    std::vector<std::pair<std::string, std::optional<std::string>>> entries;
    auto child = Child(name);
    if (child == nullptr || child->IsNull(row) || child->type_id() != arrow::Type::MAP) {
      return entries;
    }
    const auto& map = static_cast<const arrow::MapArray&>(*child);
    StringsOf keys(map.keys()), items(map.items());
    for (int64_t i = map.value_offset(row); i < map.value_offset(row) + map.value_length(row);
         ++i) {
      entries.emplace_back(keys.At(i).value_or(""), items.At(i));
    }
    return entries;
  }
  std::optional<std::vector<std::string>> Strings(const char* name, int64_t row) const {
    auto child = Child(name);
    if (child == nullptr || child->IsNull(row) || child->type_id() != arrow::Type::LIST) {
      return std::nullopt;
    }
    const auto& list = static_cast<const arrow::ListArray&>(*child);
    StringsOf values(list.values());
    std::vector<std::string> out;
    for (int64_t i = list.value_offset(row); i < list.value_offset(row) + list.value_length(row);
         ++i) {
      out.push_back(values.At(i).value_or(""));
    }
    return out;
  }
  StructColumn Struct(const char* name) const {
    auto child = Child(name);
    if (child == nullptr || child->type_id() != arrow::Type::STRUCT) return StructColumn(nullptr);
    return StructColumn(std::static_pointer_cast<arrow::StructArray>(child));
  }

 private:
  /// String values of a string or large string array.
  class StringsOf {
   public:
    explicit StringsOf(std::shared_ptr<arrow::Array> array) : array_(std::move(array)) {}
    std::optional<std::string> At(int64_t i) const {
      if (array_->IsNull(i)) return std::nullopt;
      if (array_->type_id() == arrow::Type::LARGE_STRING) {
        return static_cast<const arrow::LargeStringArray&>(*array_).GetString(i);
      }
      return static_cast<const arrow::StringArray&>(*array_).GetString(i);
    }

   private:
    std::shared_ptr<arrow::Array> array_;
  };

  std::shared_ptr<arrow::Array> Child(const char* name) const {
    if (array_ == nullptr) return nullptr;
    return array_->GetFieldByName(name);
  }

  std::shared_ptr<arrow::StructArray> array_;
};

arrow::Status ReadCheckpointFile(const std::string& path, std::vector<Action>* actions) {
  auto corrupt = [&](const std::string& problem) {
    return SparkError("DELTA_LOG_FILE_CORRUPT",
                      "The Delta checkpoint " + path + " cannot be read: " + problem +
                          ". Restore the file from a backup, or remove it together with the "
                          "_last_checkpoint file when every commit it covers is still in the "
                          "log.");
  };
  auto input = arrow::io::ReadableFile::Open(path);
  if (!input.ok()) return corrupt(input.status().message());
  auto reader = parquet::arrow::OpenFile(*input, arrow::default_memory_pool());
  if (!reader.ok()) return corrupt(reader.status().message());
  auto table = (*reader)->ReadTable();
  if (!table.ok()) return corrupt(table.status().message());
  auto combined = (*table)->CombineChunksToBatch();
  if (!combined.ok()) return corrupt(combined.status().message());
  const auto& batch = **combined;
  auto column = [&](const char* name) {
    auto array = batch.GetColumnByName(name);
    if (array == nullptr || array->type_id() != arrow::Type::STRUCT) return StructColumn(nullptr);
    return StructColumn(std::static_pointer_cast<arrow::StructArray>(array));
  };
  StructColumn txn = column("txn"), add = column("add"), metadata = column("metaData"),
               protocol = column("protocol");
  for (int64_t row = 0; row < batch.num_rows(); ++row) {
    if (add.IsValid(row)) {
      AddFile file;
      auto path_value = add.String("path", row);
      auto size = add.Int("size", row);
      if (!path_value || !size) return corrupt("an add action has no path or size");
      file.path = std::move(*path_value);
      file.partition_values = add.Map("partitionValues", row);
      file.size = *size;
      file.modification_time = add.Int("modificationTime", row).value_or(0);
      file.data_change = add.Bool("dataChange", row).value_or(false);
      file.stats = add.String("stats", row);
      for (auto& [key, value] : add.Map("tags", row)) {
        file.tags.emplace(key, value.value_or(""));
      }
      actions->push_back(std::move(file));
    } else if (txn.IsValid(row)) {
      Transaction action;
      auto app_id = txn.String("appId", row);
      auto version = txn.Int("version", row);
      if (!app_id || !version) return corrupt("a txn action has no appId or version");
      action.app_id = std::move(*app_id);
      action.version = *version;
      action.last_updated = txn.Int("lastUpdated", row);
      actions->push_back(std::move(action));
    } else if (metadata.IsValid(row)) {
      Metadata action;
      auto id = metadata.String("id", row);
      auto schema = metadata.String("schemaString", row);
      if (!id || !schema) return corrupt("the metaData action has no id or schemaString");
      action.id = std::move(*id);
      action.name = metadata.String("name", row);
      action.description = metadata.String("description", row);
      StructColumn format = metadata.Struct("format");
      if (format.IsValid(row)) {
        action.format_provider = format.String("provider", row).value_or("parquet");
        for (auto& [key, value] : format.Map("options", row)) {
          action.format_options.emplace(key, value.value_or(""));
        }
      }
      action.schema_string = std::move(*schema);
      action.partition_columns =
          metadata.Strings("partitionColumns", row).value_or(std::vector<std::string>{});
      for (auto& [key, value] : metadata.Map("configuration", row)) {
        action.configuration.emplace(key, value.value_or(""));
      }
      action.created_time = metadata.Int("createdTime", row);
      actions->push_back(std::move(action));
    } else if (protocol.IsValid(row)) {
      Protocol action;
      auto reader_version = protocol.Int("minReaderVersion", row);
      auto writer_version = protocol.Int("minWriterVersion", row);
      if (!reader_version || !writer_version) return corrupt("the protocol action is incomplete");
      action.min_reader_version = static_cast<int32_t>(*reader_version);
      action.min_writer_version = static_cast<int32_t>(*writer_version);
      action.reader_features = protocol.Strings("readerFeatures", row);
      action.writer_features = protocol.Strings("writerFeatures", row);
      actions->push_back(std::move(action));
    }
  }
  return arrow::Status::OK();
}

// ---- Finding checkpoints ----------------------------------------------------------------------

std::string LastCheckpointPath(const DeltaLog& log) {
  return (fs::path(log.LogFolder()) / "_last_checkpoint").string();
}

/// The files of the checkpoint at `version`: one, or every part of a multi-part checkpoint
/// (<version>.checkpoint.<part>.<parts>.parquet); empty when it is absent or incomplete.
std::vector<std::string> CheckpointFiles(const DeltaLog& log, int64_t version) {
  std::error_code error;
  const std::string single = log.CheckpointPath(version);
  if (fs::exists(single, error)) return {single};
  // Multi-part: <prefix>.checkpoint.0000000001.0000000003.parquet ...
  const std::string prefix = fs::path(single).stem().string();  // <version>.checkpoint
  std::map<int, std::string> parts;
  int expected = -1;
  for (const auto& entry : fs::directory_iterator(log.LogFolder(), error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix + ".", 0) != 0 || name.size() != prefix.size() + 30) continue;
    int part = 0, count = 0;
    if (std::sscanf(name.c_str() + prefix.size(), ".%10d.%10d.parquet", &part, &count) != 2) {
      continue;
    }
    expected = count;
    parts[part] = entry.path().string();
  }
  if (expected <= 0 || static_cast<int>(parts.size()) != expected) return {};
  std::vector<std::string> files;
  for (auto& [part, path] : parts) files.push_back(path);
  return files;
}

}  // namespace

arrow::Result<std::optional<int64_t>> FindCheckpoint(const DeltaLog& log, int64_t version) {
  std::error_code error;
  const std::string last = LastCheckpointPath(log);
  if (fs::exists(last, error)) {
    ARROW_ASSIGN_OR_RAISE(auto text, checkpoint::ReadWholeFile(last));
    simdjson::dom::parser parser;
    simdjson::padded_string padded(text);
    simdjson::dom::element root;
    int64_t pointed = -1;
    // A garbled pointer is only a hint lost: fall back to listing the folder.
    if (parser.parse(padded).get(root) == simdjson::SUCCESS &&
        root["version"].get(pointed) == simdjson::SUCCESS && pointed <= version &&
        !CheckpointFiles(log, pointed).empty()) {
      // A newer checkpoint than the pointer may exist if a writer died between the two writes;
      // the pointer's is still a correct starting point.
      return pointed;
    }
  }
  std::optional<int64_t> best;
  if (!fs::is_directory(log.LogFolder(), error)) return best;
  for (const auto& entry : fs::directory_iterator(log.LogFolder(), error)) {
    const std::string name = entry.path().filename().string();
    const size_t dot = name.find(".checkpoint.");
    if (dot != 20) continue;
    int64_t candidate = std::strtoll(name.substr(0, 20).c_str(), nullptr, 10);
    if (candidate > version || (best && candidate <= *best)) continue;
    if (!CheckpointFiles(log, candidate).empty()) best = candidate;
  }
  return best;
}

arrow::Result<std::vector<Action>> ReadCheckpoint(const DeltaLog& log, int64_t version) {
  std::vector<Action> actions;
  for (const auto& file : CheckpointFiles(log, version)) {
    ARROW_RETURN_NOT_OK(ReadCheckpointFile(file, &actions));
  }
  return actions;
}

arrow::Status WriteCheckpoint(const DeltaLog& log, const Snapshot& snapshot) {
  ARROW_ASSIGN_OR_RAISE(auto rows, CheckpointBuilder::Make());
  ARROW_RETURN_NOT_OK(rows.Append(snapshot.protocol));
  ARROW_RETURN_NOT_OK(rows.Append(snapshot.metadata));
  for (const auto& [app_id, version] : snapshot.app_versions) {
    ARROW_RETURN_NOT_OK(rows.Append(Transaction{app_id, version, std::nullopt}));
  }
  for (const auto& file : snapshot.files) ARROW_RETURN_NOT_OK(rows.Append(file));
  ARROW_ASSIGN_OR_RAISE(auto table, rows.Finish());

  ARROW_ASSIGN_OR_RAISE(auto sink, arrow::io::BufferOutputStream::Create());
  auto properties =
      parquet::WriterProperties::Builder().compression(arrow::Compression::SNAPPY)->build();
  ARROW_RETURN_NOT_OK(parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), sink,
                                                 /*chunk_size=*/1 << 20, properties));
  ARROW_ASSIGN_OR_RAISE(auto bytes, sink->Finish());
  ARROW_RETURN_NOT_OK(checkpoint::WriteFileAtomically(log.CheckpointPath(snapshot.version),
                                                      bytes->ToString(), /*overwrite=*/true));

  JsonWriter pointer(JsonWriter::Layout::kCompact);
  pointer.StartObject();
  pointer.Key("version");
  pointer.Int(snapshot.version);
  pointer.Key("size");
  pointer.Int(table->num_rows());
  pointer.Key("sizeInBytes");
  pointer.Int(bytes->size());
  pointer.Key("numOfAddFiles");
  pointer.Int(static_cast<int64_t>(snapshot.files.size()));
  pointer.EndObject();
  return checkpoint::WriteFileAtomically(LastCheckpointPath(log), pointer.text(),
                                         /*overwrite=*/true);
}

}  // namespace sluice::delta
