#include "sluice/sources/delta/delta_stream_source.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

#include <arrow/type.h>

#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"
#include "sluice/delta/delta_log.h"
#include "sluice/delta/delta_protocol.h"
#include "sluice/delta/delta_scan.h"
#include "sluice/formats/partition_discovery.h"
#include "sluice/sources/delta/delta_source_offset.h"
#include "sluice/sources/delta/delta_timestamp_option.h"
#include "sluice/sources/typed_options.h"
#include "sluice/types/tree_string.h"

namespace sluice::sources {

namespace {

constexpr int64_t kDefaultMaxFilesPerTrigger = 1000;
constexpr int64_t kUnlimited = std::numeric_limits<int64_t>::max();

/// The typed options of the stream.
struct DeltaStreamOptions {
  int64_t max_files = kDefaultMaxFilesPerTrigger;
  int64_t max_bytes = kUnlimited;
  /// startingVersion as a number.
  std::optional<int64_t> starting_version;
  /// startingVersion = "latest": only commits after the latest version at the start.
  bool starting_latest = false;
  /// startingTimestamp, in milliseconds, and as written.
  std::optional<int64_t> starting_timestamp_ms;
  std::string starting_timestamp_text;
  bool ignore_deletes = false;
  bool ignore_changes = false;
  bool skip_change_commits = false;
};

arrow::Result<DeltaStreamOptions> ParseOptions(const formats::OptionMap& options,
                                               const formats::FormatContext& context) {
  DeltaStreamOptions parsed;
  auto positive = [&](const char* key, int64_t value) -> arrow::Status {
    if (value <= 0) {
      return SparkError("DELTA_ILLEGAL_OPTION",
                        std::string("Invalid value '") + options.find(key)->second +
                            "' for option '" + key + "', must be a positive integer.");
    }
    return arrow::Status::OK();
  };
  if (options.count("maxFilesPerTrigger") > 0) {
    ARROW_ASSIGN_OR_RAISE(parsed.max_files, LongOption(options, "maxFilesPerTrigger", 0));
    ARROW_RETURN_NOT_OK(positive("maxFilesPerTrigger", parsed.max_files));
  }
  if (options.count("maxBytesPerTrigger") > 0) {
    ARROW_ASSIGN_OR_RAISE(parsed.max_bytes, ByteStringOption(options, "maxBytesPerTrigger", 0));
    ARROW_RETURN_NOT_OK(positive("maxBytesPerTrigger", parsed.max_bytes));
    // With only a byte limit, the file count is not limited.
    if (options.count("maxFilesPerTrigger") == 0) parsed.max_files = kUnlimited;
  }
  auto version = options.find("startingVersion");
  auto timestamp = options.find("startingTimestamp");
  if (version != options.end() && timestamp != options.end()) {
    return SparkError("DELTA_STARTING_VERSION_AND_TIMESTAMP_BOTH_SET",
                      "Please either provide 'startingVersion' or 'startingTimestamp'.");
  }
  if (version != options.end()) {
    if (AsciiLower(version->second) == "latest") {
      parsed.starting_latest = true;
    } else {
      auto number = ParseJavaLong(version->second);
      if (!number || *number < 0) {
        return SparkError("DELTA_ILLEGAL_OPTION",
                          "Invalid value '" + version->second +
                              "' for option 'startingVersion', must be greater than or equal "
                              "to zero, or 'latest' for the latest version.");
      }
      parsed.starting_version = *number;
    }
  }
  ARROW_ASSIGN_OR_RAISE(parsed.starting_timestamp_ms,
                        DeltaTimestampOption(options, "startingTimestamp", context));
  if (timestamp != options.end()) parsed.starting_timestamp_text = timestamp->second;
  ARROW_ASSIGN_OR_RAISE(parsed.ignore_deletes, BooleanOption(options, "ignoreDeletes", false));
  ARROW_ASSIGN_OR_RAISE(parsed.ignore_changes, BooleanOption(options, "ignoreChanges", false));
  ARROW_ASSIGN_OR_RAISE(parsed.skip_change_commits,
                        BooleanOption(options, "skipChangeCommits", false));
  return parsed;
}

/// What a stream is made from when a query starts, fixed when readStream planned it.
struct DeltaStreamSpec {
  std::string table_path;
  /// The table as the query saw it when it was planned: its schema is the stream's.
  delta::Snapshot table;
  DeltaStreamOptions options;
  std::shared_ptr<const formats::FormatReader> parquet;
  formats::FormatContext context;
};

/// A data file at its place in the stream.
struct IndexedFile {
  int64_t version;
  int64_t index;
  bool is_starting;
  delta::AddFile add;
};

/// A position in the stream: after (version, index).
struct Position {
  int64_t version;
  int64_t index;
  bool is_starting;
};

bool AtOrBefore(const IndexedFile& file, const Position& through) {
  return file.version < through.version ||
         (file.version == through.version && file.index <= through.index);
}

class DeltaStreamSource final : public StreamSource {
 public:
  explicit DeltaStreamSource(std::shared_ptr<const DeltaStreamSpec> spec)
      : spec_(std::move(spec)),
        log_(spec_->table_path),
        table_(spec_->table),
        options_(spec_->options) {}

  std::shared_ptr<arrow::Schema> schema() const override { return table_.schema; }
  std::string Describe() const override {
    return "DeltaSource[" + formats::QualifiedPath(log_.table_path()) + "]";
  }

  arrow::Result<std::optional<std::string>> LatestOffset(const std::optional<std::string>& start,
                                                         ReadLimitMode mode) override {
    ARROW_ASSIGN_OR_RAISE(Position after, After(start));
    const bool limited = mode == ReadLimitMode::kRespectLimits;
    ARROW_ASSIGN_OR_RAISE(auto files, Files(after, std::nullopt, limited));
    if (files.empty()) return start;
    const IndexedFile& last = files.back();
    return DeltaSourceOffsetToJson(
        {table_.metadata.id, last.version, last.index, last.is_starting});
  }

  arrow::Status PrepareForAvailableNow() override {
    ARROW_ASSIGN_OR_RAISE(auto latest, log_.LatestVersion());
    available_now_version_ = latest.value_or(-1);
    return arrow::Status::OK();
  }

  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> GetBatch(
      const std::optional<std::string>& start, const std::string& end) override {
    ARROW_ASSIGN_OR_RAISE(auto end_offset, Parse(end));
    Position after;
    if (start) {
      ARROW_ASSIGN_OR_RAISE(after, After(start));
    } else if (end_offset.is_starting_version) {
      after = {end_offset.reservoir_version, -1, true};
    } else {
      ARROW_ASSIGN_OR_RAISE(after, After(std::nullopt));
    }
    Position through{end_offset.reservoir_version, end_offset.index,
                     end_offset.is_starting_version};
    ARROW_ASSIGN_OR_RAISE(auto files, Files(after, through, /*limited=*/false));
    std::vector<delta::AddFile> adds;
    adds.reserve(files.size());
    for (auto& file : files) adds.push_back(std::move(file.add));
    return delta::ReadDeltaFiles(log_.table_path(), table_, adds, spec_->parquet, spec_->context);
  }

  arrow::Status Commit(const std::string& end) override {
    ARROW_ASSIGN_OR_RAISE(auto offset, Parse(end));
    // Versions before the committed one are never read again.
    changes_.erase(changes_.begin(), changes_.lower_bound(offset.reservoir_version));
    if (!offset.is_starting_version) starting_files_.reset();
    return arrow::Status::OK();
  }

 private:
  arrow::Result<DeltaSourceOffset> Parse(const std::string& json) const {
    ARROW_ASSIGN_OR_RAISE(auto offset, ParseDeltaSourceOffset(json, Describe()));
    if (offset.reservoir_id != table_.metadata.id) {
      return SparkError("DELTA_DIFFERENT_DELTA_TABLE_READ_BY_STREAMING_SOURCE",
                        "The streaming query was reading from an unexpected Delta table (id = '" +
                            table_.metadata.id + "'). It used to read from another Delta table "
                            "(id = '" + offset.reservoir_id + "') according to its checkpoint. "
                            "This may happen when the table was replaced at " +
                            log_.table_path() + ". Restart the query with a new checkpoint.");
    }
    return offset;
  }

  /// Where the stream goes on after `start`: the offset's position, or, for a query that has
  /// processed nothing, where its options make it begin (fixed on first use, so that a batch's
  /// start stays the same).
  arrow::Result<Position> After(const std::optional<std::string>& start) {
    if (start) {
      ARROW_ASSIGN_OR_RAISE(auto offset, Parse(*start));
      return Position{offset.reservoir_version, offset.index, offset.is_starting_version};
    }
    if (initial_) return *initial_;
    if (options_.starting_version) {
      initial_ = Position{*options_.starting_version, -1, false};
    } else if (options_.starting_timestamp_ms) {
      ARROW_ASSIGN_OR_RAISE(int64_t version,
                            log_.VersionAtOrAfter(*options_.starting_timestamp_ms,
                                                  options_.starting_timestamp_text));
      initial_ = Position{version, -1, false};
    } else {
      ARROW_ASSIGN_OR_RAISE(int64_t latest, Latest());
      initial_ = options_.starting_latest ? Position{latest + 1, -1, false}
                                          : Position{latest, -1, true};
    }
    return *initial_;
  }

  arrow::Result<int64_t> Latest() const {
    ARROW_ASSIGN_OR_RAISE(auto latest, log_.LatestVersion());
    int64_t version = latest.value_or(-1);
    if (available_now_version_) version = std::min(version, *available_now_version_);
    return version;
  }

  /// The files after `after`, in stream order, up to `through` and, when `limited`, within
  /// the batch limits.
  arrow::Result<std::vector<IndexedFile>> Files(const Position& after,
                                                const std::optional<Position>& through,
                                                bool limited) {
    std::vector<IndexedFile> files;
    int64_t bytes = 0;
    // True when the file ends the batch (it is not taken).
    auto full = [&](const IndexedFile& file) {
      if (through && !AtOrBefore(file, *through)) return true;
      if (!limited || files.empty()) return false;
      return static_cast<int64_t>(files.size()) >= options_.max_files ||
             bytes + file.add.size > options_.max_bytes;
    };
    auto take = [&](const IndexedFile& file) {
      if (full(file)) return false;
      bytes += file.add.size;
      files.push_back(file);
      return true;
    };
    int64_t next_version = after.version;
    if (after.is_starting) {
      ARROW_ASSIGN_OR_RAISE(const auto* snapshot_files, StartingFiles(after.version));
      for (const auto& file : *snapshot_files) {
        if (file.index <= after.index) continue;
        if (!take(file)) return files;
      }
      next_version = after.version + 1;
    }
    ARROW_ASSIGN_OR_RAISE(int64_t latest, Latest());
    for (int64_t version = next_version; version <= latest; ++version) {
      ARROW_ASSIGN_OR_RAISE(const auto* changes, ChangesOf(version));
      for (const auto& file : *changes) {
        if (version == after.version && !after.is_starting && file.index <= after.index) {
          continue;
        }
        if (!take(file)) return files;
      }
    }
    return files;
  }

  /// The table's files at `version`, ordered as Delta orders a starting snapshot (by
  /// modification time, then path).
  arrow::Result<const std::vector<IndexedFile>*> StartingFiles(int64_t version) {
    if (starting_files_ && starting_version_ == version) return &*starting_files_;
    ARROW_ASSIGN_OR_RAISE(auto snapshot, log_.Load(version));
    ARROW_RETURN_NOT_OK(CheckSchema(snapshot.metadata, version));
    std::vector<delta::AddFile> adds = std::move(snapshot.files);
    std::stable_sort(adds.begin(), adds.end(), [](const auto& a, const auto& b) {
      return std::tie(a.modification_time, a.path) < std::tie(b.modification_time, b.path);
    });
    std::vector<IndexedFile> files;
    files.reserve(adds.size());
    for (size_t i = 0; i < adds.size(); ++i) {
      files.push_back({version, static_cast<int64_t>(i), true, std::move(adds[i])});
    }
    starting_files_ = std::move(files);
    starting_version_ = version;
    return &*starting_files_;
  }

  /// The files commit `version` adds to the stream, after the change-commit rules.
  arrow::Result<const std::vector<IndexedFile>*> ChangesOf(int64_t version) {
    auto cached = changes_.find(version);
    if (cached != changes_.end()) return &cached->second;
    ARROW_ASSIGN_OR_RAISE(auto actions, log_.ReadCommit(version));
    std::vector<IndexedFile> adds;
    std::optional<std::string> removed;
    for (size_t i = 0; i < actions.size(); ++i) {
      if (auto* add = std::get_if<delta::AddFile>(&actions[i])) {
        if (add->data_change) {
          adds.push_back({version, static_cast<int64_t>(i), false, std::move(*add)});
        }
      } else if (const auto* remove = std::get_if<delta::RemoveFile>(&actions[i])) {
        if (remove->data_change && !removed) removed = remove->path;
      } else if (const auto* metadata = std::get_if<delta::Metadata>(&actions[i])) {
        ARROW_RETURN_NOT_OK(CheckSchema(*metadata, version));
      } else if (const auto* protocol = std::get_if<delta::Protocol>(&actions[i])) {
        ARROW_RETURN_NOT_OK(delta::CheckReadable(*protocol, log_.table_path()));
      }
    }
    if (removed) {
      if (options_.skip_change_commits) {
        adds.clear();
      } else if (options_.ignore_changes) {
        // The files the commit added are read again, rewritten rows included.
      } else if (adds.empty() && options_.ignore_deletes) {
        // Only deletes: nothing to read.
      } else if (adds.empty()) {
        return SparkError("DELTA_SOURCE_IGNORE_DELETE",
                          "Detected deleted data (for example " + *removed +
                              ") from streaming source at version " + std::to_string(version) +
                              ". This is currently not supported. If you'd like to ignore "
                              "deletes, set the option 'ignoreDeletes' to 'true'. The source "
                              "table can be found at path " + log_.table_path() + ".");
      } else {
        return SparkError("DELTA_SOURCE_TABLE_IGNORE_CHANGES",
                          "Detected a data update (for example " + *removed +
                              ") in the source table at version " + std::to_string(version) +
                              ". This is currently not supported. If this is going to happen "
                              "regularly and you are okay to skip changes, set the option "
                              "'skipChangeCommits' to 'true'. If you would like the data "
                              "update to be reflected, please restart this query with a fresh "
                              "checkpoint directory. The source table can be found at path " +
                              log_.table_path() + ".");
      }
    }
    return &changes_.emplace(version, std::move(adds)).first->second;
  }

  /// A version whose schema is not the stream's fails the stream, as Delta's does.
  arrow::Status CheckSchema(const delta::Metadata& metadata, int64_t version) const {
    if (metadata.schema_string == table_.metadata.schema_string &&
        metadata.partition_columns == table_.metadata.partition_columns) {
      return arrow::Status::OK();
    }
    std::string data_schema = metadata.schema_string;
    return SparkError("DELTA_SCHEMA_CHANGED_WITH_VERSION",
                      "Detected schema change in version " + std::to_string(version) +
                          ":\nstreaming source schema: " + types::TreeString(*table_.schema) +
                          "\ndata file schema: " + data_schema +
                          "\nPlease try restarting the query. If this issue repeats across "
                          "query restarts without making progress, you have made an "
                          "incompatible schema change and need to start your query from "
                          "scratch using a new checkpoint directory.");
  }

  std::shared_ptr<const DeltaStreamSpec> spec_;
  delta::DeltaLog log_;
  const delta::Snapshot& table_;
  const DeltaStreamOptions& options_;
  std::optional<Position> initial_;
  std::optional<int64_t> available_now_version_;
  /// The starting snapshot's files, kept while batches read from it.
  std::optional<std::vector<IndexedFile>> starting_files_;
  int64_t starting_version_ = -1;
  /// Each commit's files, kept from the last committed version on.
  std::map<int64_t, std::vector<IndexedFile>> changes_;
};

class DeltaStreamSourceProvider final : public StreamSourceProvider {
 public:
  explicit DeltaStreamSourceProvider(std::shared_ptr<const DeltaStreamSpec> spec)
      : spec_(std::move(spec)) {}

  std::shared_ptr<arrow::Schema> schema() const override { return spec_->table.schema; }
  std::string Describe() const override {
    return "DeltaSource[" + formats::QualifiedPath(spec_->table_path) + "]";
  }
  arrow::Result<std::unique_ptr<StreamSource>> CreateSource(
      const SourceContext& context) const override {
    return std::make_unique<DeltaStreamSource>(spec_);
  }

 private:
  std::shared_ptr<const DeltaStreamSpec> spec_;
};

}  // namespace

arrow::Result<std::shared_ptr<const StreamSourceProvider>> MakeDeltaStreamSourceProvider(
    const std::string& path, const formats::OptionMap& options,
    const std::shared_ptr<arrow::Schema>& user_schema, const formats::FormatContext& context) {
  if (user_schema != nullptr) {
    return SparkError("DELTA_UNSUPPORTED_SCHEMA_DURING_READ",
                      "Delta does not support specifying the schema at read time: the table's "
                      "log fixes it. Remove .schema(...) from the read of " + path + ".");
  }
  auto spec = std::make_shared<DeltaStreamSpec>();
  ARROW_ASSIGN_OR_RAISE(spec->options, ParseOptions(options, context));
  spec->table_path = formats::LocalPath(path);
  ARROW_ASSIGN_OR_RAISE(spec->table, delta::DeltaLog(spec->table_path).Load());
  ARROW_RETURN_NOT_OK(delta::CheckReadable(spec->table.protocol, spec->table_path));
  // The stream needs the table's identity and schema, not its files.
  spec->table.files.clear();
  ARROW_ASSIGN_OR_RAISE(spec->parquet, formats::MakeFormatReader(formats::FileFormat::kParquet,
                                                                 formats::OptionMap{}, context));
  spec->context = context;
  return std::make_shared<DeltaStreamSourceProvider>(std::move(spec));
}

}  // namespace sluice::sources
