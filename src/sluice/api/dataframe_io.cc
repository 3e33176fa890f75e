// DataFrameReader and DataFrameWriter: the API edge of the file formats.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <system_error>

#include <arrow/type.h>

#include "sluice/api/data_stream_writer.h"
#include "sluice/api/dataframe_reader.h"
#include "sluice/api/session.h"
#include "sluice/api/session_state.h"
#include "sluice/api/table_identifier.h"
#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"
#include "sluice/delta/delta_write.h"
#include "sluice/formats/file_format.h"
#include "sluice/formats/partition_discovery.h"
#include "sluice/formats/partitioned_writer.h"
#include "sluice/physical/planner.h"
#include "sluice/plan/file_source.h"
#include "sluice/plan/relation.h"
#include "sluice/sinks/kafka/kafka_batch_write.h"
#include "sluice/sources/source_registry.h"
#include "sluice/sources/typed_options.h"

namespace sluice {

namespace fs = std::filesystem;

namespace {

enum class SaveMode { kErrorIfExists, kOverwrite, kAppend, kIgnore };

arrow::Result<SaveMode> ParseSaveMode(const std::string& text) {
  const std::string mode = AsciiLower(text);
  if (mode == "errorifexists" || mode == "error" || mode == "default") {
    return SaveMode::kErrorIfExists;
  }
  if (mode == "overwrite") return SaveMode::kOverwrite;
  if (mode == "append") return SaveMode::kAppend;
  if (mode == "ignore") return SaveMode::kIgnore;
  return SparkError("INVALID_SAVE_MODE",
                    "The specified save mode \"" + text +
                        "\" is invalid. Valid save modes include \"append\", \"overwrite\", "
                        "\"ignore\", \"error\", \"errorifexists\", and \"default\".");
}

int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

arrow::Status IoError(const std::string& what, const fs::path& path, const std::error_code& e) {
  return arrow::Status::IOError(what, " ", formats::QualifiedPath(path.string()), ": ",
                                e.message());
}

/// Moves the files a job staged into the output folder (each rename is atomic), replacing the
/// previous contents first for overwrite, then marks success.
arrow::Status Commit(const fs::path& output, const fs::path& staging,
                     const std::vector<std::string>& files, bool overwrite) {
  std::error_code error;
  if (overwrite) {
    for (const auto& entry : fs::directory_iterator(output, error)) {
      if (entry.path().filename() == "_temporary") continue;
      fs::remove_all(entry.path(), error);
      if (error) return IoError("Cannot delete", entry.path(), error);
    }
    if (error) return IoError("Cannot list", output, error);
  }
  for (const auto& relative : files) {
    fs::path target = output / relative;
    fs::create_directories(target.parent_path(), error);
    if (error) return IoError("Cannot create", target.parent_path(), error);
    fs::rename(staging / relative, target, error);
    if (error) return IoError("Cannot move a file to", target, error);
  }
  fs::remove_all(staging, error);
  fs::remove(output / "_temporary", error);  // only if no other job uses it
  std::ofstream success(output / "_SUCCESS", std::ios::trunc);
  if (!success) return arrow::Status::IOError("Cannot write ", (output / "_SUCCESS").string());
  return arrow::Status::OK();
}

}  // namespace

// ---- DataFrameReader ---------------------------------------------------------------------

DataFrameReader::DataFrameReader(std::shared_ptr<SessionState> state) : state_(std::move(state)) {}

DataFrame DataFrameReader::load() const {
  if (sources::IsNonFileBatchSource(format_)) return load(std::string());
  auto path = options_.find("path");
  if (path == options_.end()) {
    return DataFrame(state_, SparkError("_LEGACY_ERROR_TEMP_1029",
                                        "'path' is not specified: give load() a path or set the "
                                        "\"path\" option."));
  }
  return load(path->second);
}

DataFrame DataFrameReader::load(const std::string& path) const {
  if (!schema_error_.ok()) return DataFrame(state_, schema_error_);
  if (sources::IsNonFileBatchSource(format_)) {
    sources::SourceRequest request{format_,           options_,
                                   path,              schema_,
                                   FormatContextOf(state_->config), false};
    auto source = sources::MakeBatchSource(request);
    if (!source.ok()) return DataFrame(state_, source.status());
    return DataFrame(state_, plan::Relation::Make(*source, state_->analysis_context()));
  }
  auto format = formats::ParseFileFormat(format_);
  if (!format.ok()) return DataFrame(state_, format.status());
  formats::FormatContext context = FormatContextOf(state_->config);
  auto reader = formats::MakeFormatReader(*format, options_, context);
  if (!reader.ok()) return DataFrame(state_, reader.status());
  auto source = plan::FileSource::Make(*reader, path, schema_, context);
  if (!source.ok()) return DataFrame(state_, source.status());
  return DataFrame(state_, plan::Relation::Make(*source, state_->analysis_context()));
}

DataFrame DataFrameReader::table(const std::string& name) const {
  if (auto view = state_->FindTempView(name)) return DataFrame(state_, std::move(view));
  auto named = ResolveTable(*state_, name);
  if (!named.ok()) return DataFrame(state_, named.status());
  if (!named->exists) return DataFrame(state_, TableNotFound(name));
  DataFrameReader delta = *this;
  delta.format("delta");
  return delta.load(named->path);
}

// ---- DataFrameWriter ---------------------------------------------------------------------

DataFrameWriter::DataFrameWriter(DataFrame df) : WriterSettings(""), df_(std::move(df)) {}

std::string DataFrameWriter::Format() const {
  if (!format_.empty()) return AsciiLower(format_);
  if (!df_.ok()) return "parquet";
  return AsciiLower(df_.session()->config.Get("spark.sql.sources.default").value_or("parquet"));
}

DataFrameWriter& DataFrameWriter::mode(const std::string& save_mode) {
  mode_ = save_mode;
  return *this;
}

arrow::Status DataFrameWriter::save() const {
  if (Format() == "kafka") return SaveToKafka();
  auto path = options_.find("path");
  if (path == options_.end()) {
    return SparkError("_LEGACY_ERROR_TEMP_1029",
                      "'path' is not specified: give save() a path or set the \"path\" option.");
  }
  return save(path->second);
}

arrow::Status DataFrameWriter::save(const std::string& path) const {
  if (Format() == "delta") return SaveToDelta(path);
  ARROW_RETURN_NOT_OK(df_.status());
  ARROW_ASSIGN_OR_RAISE(SaveMode mode, ParseSaveMode(mode_));
  ARROW_ASSIGN_OR_RAISE(auto format, formats::ParseFileFormat(Format()));
  const SessionState& state = *df_.session();
  formats::FormatContext context = FormatContextOf(state.config);
  ARROW_ASSIGN_OR_RAISE(auto writer, formats::MakeFormatWriter(format, options_, context));
  ARROW_ASSIGN_OR_RAISE(auto zone, formats::FindZone(context.session_time_zone));

  fs::path output(formats::LocalPath(path));
  std::error_code error;
  bool exists = fs::exists(output, error);
  if (exists) {
    if (mode == SaveMode::kErrorIfExists) {
      return SparkError("PATH_ALREADY_EXISTS",
                        "Path " + formats::QualifiedPath(output.string()) +
                            " already exists. Set mode as \"overwrite\" to overwrite the existing "
                            "path.");
    }
    if (mode == SaveMode::kIgnore) return arrow::Status::OK();
    if (!fs::is_directory(output, error)) {
      if (mode == SaveMode::kAppend) {
        return arrow::Status::IOError("Cannot append to ",
                                      formats::QualifiedPath(output.string()),
                                      ": it is a file, not a folder.");
      }
      fs::remove(output, error);
      if (error) return IoError("Cannot delete", output, error);
    }
  }
  const std::string job = formats::RandomUuid();
  const fs::path staging = output / "_temporary" / job;
  fs::create_directories(staging, error);
  if (error) return IoError("Cannot create", staging, error);

  auto run = [&]() -> arrow::Result<std::vector<std::string>> {
    physical::ExecContext exec{state.eval_context(NowMicros())};
    ARROW_ASSIGN_OR_RAISE(auto stream, physical::Execute(*df_.plan(), exec));
    ARROW_ASSIGN_OR_RAISE(auto files, formats::PartitionedWriter::Make(
                                          writer, staging.string(), stream->schema(),
                                          partition_by_, zone, job));
    while (true) {
      ARROW_ASSIGN_OR_RAISE(auto batch, stream->Next());
      if (batch == nullptr) break;
      ARROW_RETURN_NOT_OK(files->Write(batch));
    }
    ARROW_ASSIGN_OR_RAISE(auto written, files->Finish());
    return formats::RelativePaths(written);
  };
  auto written = run();
  if (!written.ok()) {
    fs::remove_all(staging, error);
    fs::remove(output / "_temporary", error);
    if (!exists) fs::remove(output, error);
    return written.status();
  }
  return Commit(output, staging, *written, mode == SaveMode::kOverwrite);
}

arrow::Status DataFrameWriter::SaveToKafka() const {
  ARROW_RETURN_NOT_OK(df_.status());
  ARROW_ASSIGN_OR_RAISE(SaveMode mode, ParseSaveMode(mode_));
  if (mode == SaveMode::kOverwrite || mode == SaveMode::kIgnore) {
    return SparkError("_LEGACY_ERROR_TEMP_3081",
                      std::string("Save mode ") +
                          (mode == SaveMode::kOverwrite ? "Overwrite" : "Ignore") +
                          " not allowed for Kafka. Allowed save modes are Append and "
                          "ErrorIfExists (default).");
  }
  physical::ExecContext exec{df_.session()->eval_context(NowMicros())};
  ARROW_ASSIGN_OR_RAISE(auto rows, physical::Execute(*df_.plan(), exec));
  return sinks::WriteKafkaBatch(options_, *rows);
}

arrow::Status DataFrameWriter::saveAsTable(const std::string& name) const {
  ARROW_RETURN_NOT_OK(df_.status());
  if (!format_.empty() && AsciiLower(format_) != "delta") {
    return SparkError("UNSUPPORTED_DATA_SOURCE_FOR_NAMED_TABLE",
                      "Named tables are Delta tables: saveAsTable cannot write format " +
                          format_ + ". Use format(\"delta\"), or save(path) for other formats.");
  }
  ARROW_ASSIGN_OR_RAISE(auto named, ResolveTable(*df_.session(), name));
  ARROW_ASSIGN_OR_RAISE(SaveMode mode, ParseSaveMode(mode_));
  if (named.exists && mode == SaveMode::kErrorIfExists) {
    return SparkError("TABLE_OR_VIEW_ALREADY_EXISTS",
                      "Cannot create table or view " + named.id.Quoted() +
                          " because it already exists. Choose a different name, drop the "
                          "existing object, add the IF NOT EXISTS clause to tolerate "
                          "pre-existing objects, add the OR REPLACE clause to replace the "
                          "existing object, or add the OR REFRESH clause to refresh the "
                          "existing streaming table.");
  }
  return SaveToDelta(named.path);
}

arrow::Status DataFrameWriter::SaveToDelta(const std::string& path) const {
  ARROW_RETURN_NOT_OK(df_.status());
  ARROW_ASSIGN_OR_RAISE(SaveMode mode, ParseSaveMode(mode_));
  const SessionState& state = *df_.session();
  formats::FormatContext context = FormatContextOf(state.config);
  if (options_.count("replaceWhere") > 0) {
    return SparkError("DELTA_UNSUPPORTED_WRITE_OPTION",
                      "The option replaceWhere is not supported yet: overwrite the whole table, "
                      "or use DeltaTable.merge.");
  }
  delta::WriteOptions write;
  write.mode = mode == SaveMode::kOverwrite ? delta::WriteMode::kOverwrite
                                            : delta::WriteMode::kAppend;
  write.partition_by = partition_by_;
  ARROW_ASSIGN_OR_RAISE(write.merge_schema,
                        sources::BooleanOption(options_, "mergeSchema", false));
  ARROW_ASSIGN_OR_RAISE(write.overwrite_schema,
                        sources::BooleanOption(options_, "overwriteSchema", false));
  auto app_id = options_.find("txnAppId");
  auto app_version = options_.find("txnVersion");
  if ((app_id == options_.end()) != (app_version == options_.end())) {
    return SparkError("DELTA_INVALID_IDEMPOTENT_WRITES_OPTIONS",
                      "Invalid options for idempotent Dataframe writes: both txnAppId and "
                      "txnVersion must be specified for idempotent Delta writes.");
  }
  if (app_id != options_.end()) {
    ARROW_ASSIGN_OR_RAISE(int64_t version, sources::LongOption(options_, "txnVersion", 0));
    write.transaction = delta::Transaction{app_id->second, version, std::nullopt};
  }
  write.operation = "WRITE";
  write.operation_parameters = {
      {"mode", mode == SaveMode::kOverwrite ? "Overwrite"
               : mode == SaveMode::kAppend  ? "Append"
               : mode == SaveMode::kIgnore  ? "Ignore"
                                            : "ErrorIfExists"}};
  std::string partition_json = "[";
  for (size_t i = 0; i < partition_by_.size(); ++i) {
    partition_json += (i ? ",\"" : "\"") + partition_by_[i] + "\"";
  }
  write.operation_parameters["partitionBy"] = partition_json + "]";
  ARROW_ASSIGN_OR_RAISE(write.parquet, formats::MakeFormatWriter(formats::FileFormat::kParquet,
                                                                 options_, context));
  ARROW_ASSIGN_OR_RAISE(write.zone, formats::FindZone(context.session_time_zone));
  write.now_ms = NowMicros() / 1000;

  delta::DeltaLog log(formats::LocalPath(path));
  ARROW_ASSIGN_OR_RAISE(auto latest, log.LatestVersion());
  std::optional<delta::Snapshot> read;
  if (latest) {
    if (mode == SaveMode::kErrorIfExists) {
      return SparkError("DELTA_PATH_EXISTS",
                        "Cannot write to already existent path " +
                            formats::QualifiedPath(log.table_path()) +
                            " without setting OVERWRITE = 'true'.");
    }
    if (mode == SaveMode::kIgnore) return arrow::Status::OK();
    ARROW_ASSIGN_OR_RAISE(read, log.Load(*latest));
    if (write.transaction) {
      auto done = read->AppVersion(write.transaction->app_id);
      // Delta skips a write whose application version the table has reached.
      if (done && *done >= write.transaction->version) return arrow::Status::OK();
    }
  }
  physical::ExecContext exec{state.eval_context(NowMicros())};
  ARROW_ASSIGN_OR_RAISE(auto stream, physical::Execute(*df_.plan(), exec));
  return delta::WriteToTable(log, read, *stream, write).status();
}

arrow::Status DataFrameWriter::json(const std::string& path) { return format("json").save(path); }
arrow::Status DataFrameWriter::csv(const std::string& path) { return format("csv").save(path); }
arrow::Status DataFrameWriter::parquet(const std::string& path) {
  return format("parquet").save(path);
}
arrow::Status DataFrameWriter::orc(const std::string& path) { return format("orc").save(path); }
arrow::Status DataFrameWriter::text(const std::string& path) { return format("text").save(path); }

// ---- Entry points --------------------------------------------------------------------------

DataFrameReader SparkSession::read() const { return DataFrameReader(state_); }
DataFrameWriter DataFrame::write() const { return DataFrameWriter(*this); }

DataStreamWriter DataFrame::writeStream() const { return DataStreamWriter(*this); }

}  // namespace sluice
