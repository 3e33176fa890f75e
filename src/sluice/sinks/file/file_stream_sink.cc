#include "sluice/sinks/file/file_stream_sink.h"

#include <cctype>
#include <chrono>
#include <filesystem>
#include <optional>

#include "sluice/checkpoint/compactible_log.h"
#include "sluice/checkpoint/file_sink_log.h"
#include "sluice/common/errors.h"
#include "sluice/common/fault_points.h"
#include "sluice/formats/partition_discovery.h"
#include "sluice/formats/partitioned_writer.h"
#include "sluice/sinks/file/file_sink_options.h"
#include "sluice/sinks/file/manifest_commit.h"

namespace sluice::sinks {

namespace fs = std::filesystem;

namespace {

/// Wall-clock time, not the query's (possibly manual) clock: retention compares it with the
/// modification times the file system gave the part files, as Spark does.
int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

/// What a file sink needs to write batches; fixed when the sink is made.
struct FileSinkSettings {
  formats::FileFormat format;
  std::shared_ptr<const formats::FormatWriter> writer;
  std::shared_ptr<const datetime::TimeZone> zone;
  /// The absolute local output folder.
  std::string folder;
  std::vector<std::string> partition_by;
  FileSinkOptions options;
};

class FileStreamSink final : public StreamSink {
 public:
  FileStreamSink(FileSinkSettings settings, std::unique_ptr<checkpoint::CompactibleLog> log)
      : settings_(std::move(settings)), log_(std::move(log)) {}

  std::string Describe() const override {
    return "FileSink[" + formats::QualifiedPath(settings_.folder) + "]";
  }

  arrow::Status AddBatch(int64_t batch_id, physical::BatchStream& data,
                         OutputMode mode) override {
    if (mode != OutputMode::kAppend) {
      std::string mode_name = OutputModeName(mode);
      for (char& c : mode_name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return SparkError("STREAMING_OUTPUT_MODE.UNSUPPORTED_DATASOURCE",
                        "Invalid streaming output mode: " + mode_name +
                            ". This output mode is not supported in Data Source " +
                            std::string(formats::FileFormatName(settings_.format)) + ".");
    }
    ARROW_ASSIGN_OR_RAISE(auto latest, log_->LatestBatchId());
    // A replay of a batch whose manifest entry exists ("Skipping already committed batch"):
    // its files are committed already, and its data is not even computed, as in Spark.
    if (latest.has_value() && batch_id <= *latest) return arrow::Status::OK();

    ARROW_ASSIGN_OR_RAISE(auto written, WriteFiles(data));
    auto statuses = DurableStatuses(written);
    if (!statuses.ok()) {
      formats::DeleteUncommittedFiles(settings_.folder, written);
      return statuses.status();
    }
    KillPoint(fault_points::kSinkFilesWritten);
    // The files stay even if this fails: the manifest entry may exist despite a reported
    // failure (Spark's commitJob forgets its pending files before logging them, too).
    return CommitBatchManifest(*log_, batch_id, *statuses, settings_.options.retention_ms,
                               NowMillis());
  }

 private:
  /// Writes every row of `data` as new part files (named by a fresh job id) and returns their
  /// paths relative to the output folder. On failure, unfinished files are removed by the
  /// partitioned writer; finished ones are orphans no manifest lists.
  arrow::Result<std::vector<std::string>> WriteFiles(physical::BatchStream& data) {
    ARROW_ASSIGN_OR_RAISE(auto files, formats::PartitionedWriter::Make(
                                          settings_.writer, settings_.folder, data.schema(),
                                          settings_.partition_by, settings_.zone,
                                          formats::RandomUuid()));
    while (true) {
      ARROW_ASSIGN_OR_RAISE(auto batch, data.Next());
      if (batch == nullptr) break;
      ARROW_RETURN_NOT_OK(files->Write(batch));
    }
    ARROW_ASSIGN_OR_RAISE(auto written, files->Finish());
    return formats::RelativePaths(written);
  }

  /// The manifest entries of the written files, once they are durable.
  arrow::Result<std::vector<checkpoint::SinkFileStatus>> DurableStatuses(
      const std::vector<std::string>& written) const {
    ARROW_RETURN_NOT_OK(formats::SyncPartFiles(settings_.folder, written));
    std::vector<checkpoint::SinkFileStatus> statuses;
    statuses.reserve(written.size());
    for (const auto& relative : written) {
      ARROW_ASSIGN_OR_RAISE(auto status, StatusOfPartFile(settings_.folder, relative));
      statuses.push_back(std::move(status));
    }
    return statuses;
  }

  FileSinkSettings settings_;
  std::unique_ptr<checkpoint::CompactibleLog> log_;
};

/// Creates the output folder and its manifest folder, as Spark's sink log does when the query
/// starts; the error names the path that cannot be written.
arrow::Status PrepareOutputFolder(const std::string& folder, const std::string& log_folder) {
  std::error_code error;
  if (fs::exists(folder, error) && !fs::is_directory(folder, error)) {
    return arrow::Status::IOError("Cannot write the file sink output to ",
                                  formats::QualifiedPath(folder),
                                  ": it is a file, not a folder.");
  }
  fs::create_directories(log_folder, error);
  if (error) {
    return arrow::Status::IOError("Cannot write the file sink output to ",
                                  formats::QualifiedPath(folder), ": cannot create ",
                                  formats::QualifiedPath(log_folder), ": ", error.message());
  }
  return arrow::Status::OK();
}

}  // namespace

arrow::Result<std::unique_ptr<StreamSink>> MakeFileStreamSink(
    formats::FileFormat format, const formats::OptionMap& options, const std::string& path,
    const std::vector<std::string>& partition_by, std::shared_ptr<arrow::Schema> schema,
    const formats::FormatContext& context, int compact_interval) {
  if (compact_interval <= 0) {
    return arrow::Status::Invalid(
        "Please set spark.sql.streaming.fileSink.log.compactInterval (was ", compact_interval,
        ") to a positive value.");
  }
  FileSinkSettings settings;
  settings.format = format;
  ARROW_ASSIGN_OR_RAISE(settings.options, ParseFileSinkOptions(options));
  ARROW_ASSIGN_OR_RAISE(settings.writer, formats::MakeFormatWriter(format, options, context));
  auto zone_option = options.find("timeZone");
  ARROW_ASSIGN_OR_RAISE(
      settings.zone,
      formats::ResolveZone(zone_option == options.end() ? "" : zone_option->second, context));
  settings.folder = formats::LocalPath(path);
  settings.partition_by = partition_by;
  if (schema != nullptr) {
    // Making a writer checks the partition columns and that the format can write the data
    // columns (it does no I/O), so a bad query fails when it starts, not at its first batch.
    ARROW_RETURN_NOT_OK(formats::PartitionedWriter::Make(settings.writer, settings.folder,
                                                         schema, partition_by, settings.zone,
                                                         "")
                            .status());
  }
  std::string log_folder =
      (fs::path(settings.folder) / std::string(checkpoint::kSinkMetadataFolder)).string();
  ARROW_RETURN_NOT_OK(PrepareOutputFolder(settings.folder, log_folder));
  ARROW_ASSIGN_OR_RAISE(auto log, checkpoint::CompactibleLog::Open(log_folder, compact_interval));
  return std::make_unique<FileStreamSink>(std::move(settings), std::move(log));
}

}  // namespace sluice::sinks
