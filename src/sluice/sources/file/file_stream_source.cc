#include "sluice/sources/file/file_stream_source.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <limits>

#include <arrow/scalar.h>
#include <arrow/type.h>
#include <arrow/util/logging.h>

#include "sluice/checkpoint/batch_log.h"
#include "sluice/checkpoint/file_sink_log.h"
#include "sluice/common/errors.h"
#include "sluice/formats/partition_discovery.h"
#include "sluice/sources/file/file_admission.h"
#include "sluice/formats/decodes_across_batches.h"
#include "sluice/formats/file_batch_reader.h"
#include "sluice/sources/file/file_source_offset.h"
#include "sluice/sources/file/file_stream_source_log.h"
#include "sluice/checkpoint/file_uri.h"
#include "sluice/sources/file/seen_files.h"
#include "sluice/sources/file/source_cleaner.h"
#include "sluice/sources/file/source_listing.h"

namespace sluice::sources {

namespace fs = std::filesystem;

namespace {

bool SameName(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
           return std::tolower(x) == std::tolower(y);
         });
}


/// The running file source of one query. Called from the query's batch loop thread only.
class FileStreamSource final : public StreamSource {
 public:
  FileStreamSource(std::shared_ptr<const FileStreamSpec> spec, FileStreamOptions options,
                   std::unique_ptr<FileStreamSourceLog> log,
                   std::unique_ptr<SourceCleaner> cleaner, int64_t current_offset,
                   SeenFilesMap seen, formats::FileScanOptions scan, std::string time_zone)
      : spec_(std::move(spec)),
        options_(std::move(options)),
        log_(std::move(log)),
        cleaner_(std::move(cleaner)),
        current_offset_(current_offset),
        seen_(std::move(seen)),
        scan_(scan),
        time_zone_(std::move(time_zone)) {
    // Spark decides once whether the path is a file sink's output; a glob never is.
    if (IsGlobPath(spec_->local_path)) has_manifest_ = false;
  }

  std::shared_ptr<arrow::Schema> schema() const override { return spec_->schema; }

  std::string Describe() const override {
    return "FileStreamSource[" + formats::QualifiedPath(spec_->local_path) + "]";
  }

  arrow::Result<std::optional<std::string>> LatestOffset(const std::optional<std::string>&,
                                                         ReadLimitMode mode) override;
  arrow::Status PrepareForAvailableNow() override;
  std::optional<SourceBacklog> Backlog() const override { return backlog_; }
  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> GetBatch(
      const std::optional<std::string>& start, const std::string& end) override;
  arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> GetBatchReading(
      const std::optional<std::string>& start, const std::string& end,
      const arrow::Schema& read) override;
  arrow::Status Commit(const std::string& end) override;
  void Stop() override { decodes_.Clear(); }

 private:
  /// Every file of the path now, in admission order.
  arrow::Result<std::vector<SourceFile>> FetchAllFiles();
  FileReadLimit LimitFor(ReadLimitMode mode) const;
  /// The folder whose key=value sub-folders give `local_path` its partition values: the
  /// source path, or for a glob the folder the pattern matched.
  std::string RootOf(const std::string& local_path) const;
  /// The logged files that still exist, with their partition values.
  arrow::Result<std::vector<formats::BatchFile>> BatchFilesOf(const std::vector<FileEntry>& entries);
  /// The first file the next batch will take, when it is known without listing the folder
  /// again: the first of the files listed but not taken yet.
  std::optional<std::string> NextBatchFirstFile() const;

  std::shared_ptr<const FileStreamSpec> spec_;
  FileStreamOptions options_;
  std::unique_ptr<FileStreamSourceLog> log_;
  std::unique_ptr<SourceCleaner> cleaner_;
  /// The newest log batch id; -1 before the first.
  int64_t current_offset_;
  SeenFilesMap seen_;
  formats::FileScanOptions scan_;
  std::string time_zone_;
  std::optional<bool> has_manifest_;
  /// Files listed but not taken yet, offered to the next batch before listing again.
  std::optional<std::vector<SourceFile>> unread_;
  /// Trigger.AvailableNow: the listing every batch of this run draws from.
  std::optional<std::vector<SourceFile>> available_now_;
  /// Trigger.AvailableNow: its new files, and how many of them batches took so far.
  std::optional<SourceBacklog> backlog_;
  /// The newest log batch whose files were cleaned in this run.
  std::optional<int64_t> last_cleaned_;
  /// The decodes of this batch's reads carried over to the next batch.
  formats::DecodesAcrossBatches decodes_;
};

arrow::Result<std::vector<SourceFile>> FileStreamSource::FetchAllFiles() {
  if (!has_manifest_ && checkpoint::HasSinkManifest(spec_->local_path)) has_manifest_ = true;
  if (has_manifest_.value_or(false) && cleaner_ != nullptr) {
    return SparkError("_LEGACY_ERROR_TEMP_2261",
                      "Clean up source files is not supported when reading from the output "
                      "directory of FileStreamSink.");
  }
  ARROW_ASSIGN_OR_RAISE(auto files, ListSourceFiles(spec_->local_path,
                                                    spec_->reader->file_options(),
                                                    options_.latest_first));
  if (!has_manifest_ && !files.empty()) has_manifest_ = false;
  return files;
}

FileReadLimit FileStreamSource::LimitFor(ReadLimitMode mode) const {
  FileReadLimit limit;
  if (mode == ReadLimitMode::kAll) return limit;
  if (options_.max_files_per_trigger) {
    limit.kind = FileReadLimit::Kind::kMaxFiles;
    limit.value = *options_.max_files_per_trigger;
  } else if (options_.max_bytes_per_trigger) {
    limit.kind = FileReadLimit::Kind::kMaxBytes;
    limit.value = *options_.max_bytes_per_trigger;
  }
  return limit;
}

arrow::Result<std::optional<std::string>> FileStreamSource::LatestOffset(
    const std::optional<std::string>& start, ReadLimitMode mode) {
  if (start) {
    // The checkpoint says the query read up to log batch `committed`; a log that ends before
    // it lost entries. Going on would log the next files under an id the query counts as
    // read (Spark's behaviour), skipping them in silence.
    ARROW_ASSIGN_OR_RAISE(int64_t committed, ParseFileSourceOffset(*start));
    if (committed > current_offset_) return log_->MissingEntry(committed);
  }
  std::vector<SourceFile> candidates;
  if (unread_ && !unread_->empty()) {
    candidates = std::move(*unread_);
  } else {
    std::vector<SourceFile> all;
    if (available_now_) {
      all = *available_now_;
    } else {
      ARROW_ASSIGN_OR_RAISE(all, FetchAllFiles());
    }
    for (auto& file : all) {
      if (seen_.IsNewFile(file.uri, file.timestamp)) candidates.push_back(std::move(file));
    }
  }
  // The cache would hold back files newer than the ones it keeps, and an AvailableNow run
  // already has its fixed listing.
  bool may_cache = !options_.latest_first && !available_now_;
  FileAdmission admission = AdmitFiles(std::move(candidates), LimitFor(mode), may_cache,
                                       options_.discard_cached_input_ratio);
  unread_.reset();
  if (admission.rest && !admission.rest->empty() && options_.max_cached_files > 0) {
    if (admission.rest->size() > static_cast<size_t>(options_.max_cached_files)) {
      admission.rest->resize(static_cast<size_t>(options_.max_cached_files));
    }
    unread_ = std::move(admission.rest);
  }
  for (const auto& file : admission.batch) seen_.Add(file.uri, file.timestamp);
  seen_.Purge();
  if (backlog_) backlog_->done += static_cast<int64_t>(admission.batch.size());
  if (!admission.batch.empty()) {
    std::vector<FileEntry> entries;
    entries.reserve(admission.batch.size());
    for (const auto& file : admission.batch) {
      entries.push_back({file.uri, file.timestamp, current_offset_ + 1});
    }
    ARROW_RETURN_NOT_OK(log_->Add(current_offset_ + 1, entries));
    ++current_offset_;
  }
  if (current_offset_ < 0) return std::nullopt;
  return std::optional<std::string>(FileSourceOffsetJson(current_offset_));
}

arrow::Status FileStreamSource::PrepareForAvailableNow() {
  ARROW_ASSIGN_OR_RAISE(auto files, FetchAllFiles());
  backlog_ = SourceBacklog{};
  for (const auto& file : files) {
    if (seen_.IsNewFile(file.uri, file.timestamp)) ++backlog_->total;
  }
  available_now_ = std::move(files);
  return arrow::Status::OK();
}

std::string FileStreamSource::RootOf(const std::string& local_path) const {
  if (!IsGlobPath(spec_->local_path)) return spec_->local_path;
  // Each glob component matches exactly one folder name, so the matched folder has as many
  // components as the pattern.
  size_t depth = 0;
  for (const auto& part : fs::path(spec_->local_path)) depth += part.empty() ? 0 : 1;
  fs::path root;
  size_t taken = 0;
  for (const auto& part : fs::path(local_path)) {
    if (taken++ == depth) break;
    root /= part;
  }
  return root.string();
}

arrow::Result<std::vector<formats::BatchFile>> FileStreamSource::BatchFilesOf(
    const std::vector<FileEntry>& entries) {
  std::vector<formats::BatchFile> files;
  std::vector<formats::RootedFile> rooted;
  for (const auto& entry : entries) {
    auto local = checkpoint::LocalPathOfFileUri(entry.path);
    if (!local.ok()) {
      return checkpoint::MalformedLogFile(log_->directory(), local.status().message());
    }
    std::error_code error;
    if (!fs::exists(*local, error)) {
      // Spark lists a batch's files as root paths, and a missing root path is skipped with
      // HadoopFSUtils' warning, worded as Spark 4.0.1 logs it.
      ARROW_LOG(WARNING) << "The directory " << formats::QualifiedPath(*local)
                         << " was not found. Was it deleted very recently?";
      continue;
    }
    files.push_back({*local, {}});
    rooted.push_back({RootOf(*local), *local});
  }
  const auto& partitions = spec_->partition_schema;
  if (partitions->num_fields() == 0 || files.empty()) return files;
  ARROW_ASSIGN_OR_RAISE(auto listing,
                        formats::DiscoverPartitions(rooted, spec_->reader->file_options(),
                                                    partitions, time_zone_));
  // Align the folders found to the source's partition columns (by name); a column a file's
  // folders lack is null for it.
  std::vector<int> positions;
  for (const auto& field : partitions->fields()) {
    int found = -1;
    for (int i = 0; i < listing.partition_schema->num_fields(); ++i) {
      if (SameName(listing.partition_schema->field(i)->name(), field->name())) found = i;
    }
    positions.push_back(found);
  }
  for (size_t f = 0; f < files.size(); ++f) {
    for (int p = 0; p < partitions->num_fields(); ++p) {
      const auto& type = partitions->field(p)->type();
      int position = positions[static_cast<size_t>(p)];
      auto value = position < 0 ? arrow::MakeNullScalar(type)
                                : listing.partition_values[f][static_cast<size_t>(position)];
      files[f].partition_values.push_back(std::move(value));
    }
  }
  return files;
}

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> FileStreamSource::GetBatch(
    const std::optional<std::string>& start, const std::string& end) {
  return GetBatchReading(start, end, *spec_->schema);
}

arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> FileStreamSource::GetBatchReading(
    const std::optional<std::string>& start, const std::string& end,
    const arrow::Schema& read) {
  int64_t first = 0;
  if (start) {
    ARROW_ASSIGN_OR_RAISE(int64_t start_offset, ParseFileSourceOffset(*start));
    first = start_offset + 1;
  }
  ARROW_ASSIGN_OR_RAISE(int64_t last, ParseFileSourceOffset(end));
  if (first > last + 1) {
    return arrow::Status::Invalid("The file source batch starts after it ends: start ",
                                  *start, ", end ", end);
  }
  ARROW_ASSIGN_OR_RAISE(auto entries, log_->Get(first, last));
  ARROW_ASSIGN_OR_RAISE(auto files, BatchFilesOf(entries));
  auto reader = std::make_shared<formats::FileBatchReader>(
      spec_->reader, std::move(files), spec_->data_schema, spec_->schema, scan_);
  reader->ReadOnly(read);
  decodes_.Ready(*reader, read, first, last, [this] { return NextBatchFirstFile(); });
  return reader;
}

std::optional<std::string> FileStreamSource::NextBatchFirstFile() const {
  // The next LatestOffset takes these first (unread_), or the AvailableNow listing's first
  // new file.
  if (unread_ && !unread_->empty()) return unread_->front().local_path;
  if (!available_now_) return std::nullopt;
  for (const auto& file : *available_now_) {
    if (seen_.IsNewFile(file.uri, file.timestamp)) return file.local_path;
  }
  return std::nullopt;
}

arrow::Status FileStreamSource::Commit(const std::string& end) {
  if (cleaner_ == nullptr) return arrow::Status::OK();
  ARROW_ASSIGN_OR_RAISE(int64_t last, ParseFileSourceOffset(end));
  // Spark cleans the files of the end batch; within one run the batches before it that this
  // source has not cleaned yet are cleaned too.
  int64_t first = last_cleaned_ ? *last_cleaned_ + 1 : last;
  ARROW_ASSIGN_OR_RAISE(auto entries, log_->Get(first, last));
  for (const auto& entry : entries) {
    auto local = checkpoint::LocalPathOfFileUri(entry.path);
    if (!local.ok()) {
      return checkpoint::MalformedLogFile(log_->directory(), local.status().message());
    }
    cleaner_->Clean(*local);
  }
  last_cleaned_ = std::max(last, last_cleaned_.value_or(last));
  return arrow::Status::OK();
}

}  // namespace

arrow::Result<std::unique_ptr<StreamSource>> MakeFileStreamSource(
    std::shared_ptr<const FileStreamSpec> spec, const SourceContext& context) {
  ARROW_ASSIGN_OR_RAISE(FileStreamOptions options, spec->stream_options);
  ARROW_ASSIGN_OR_RAISE(auto cleaner, SourceCleaner::Make(options.clean_source,
                                                          spec->local_path,
                                                          options.source_archive_dir));
  int compact_interval = kDefaultSourceLogCompactInterval;
  if (context.config != nullptr) {
    if (auto value = context.config->Get("spark.sql.streaming.fileSource.log.compactInterval")) {
      auto [end, error] =
          std::from_chars(value->data(), value->data() + value->size(), compact_interval);
      if (error != std::errc() || end != value->data() + value->size()) {
        return arrow::Status::Invalid(
            "spark.sql.streaming.fileSource.log.compactInterval should be int, but was ",
            *value);
      }
    }
  }
  ARROW_ASSIGN_OR_RAISE(auto log,
                        FileStreamSourceLog::Open(context.metadata_path, compact_interval));
  ARROW_ASSIGN_OR_RAISE(auto latest, log->LatestBatchId());
  // latestFirst with a limit would starve old files if they aged out: they never do then.
  bool limited = options.max_files_per_trigger || options.max_bytes_per_trigger;
  int64_t max_age = options.latest_first && limited ? std::numeric_limits<int64_t>::max()
                                                    : options.max_file_age_ms;
  SeenFilesMap seen(max_age, options.file_name_only);
  ARROW_ASSIGN_OR_RAISE(auto restored, log->Restore());
  for (const auto& entry : restored) seen.Add(entry.path, entry.timestamp);
  seen.Purge();
  const formats::FileScanOptions scan =
      formats::ScanOptionsOf(spec->reader->file_options(), context.format_context);
  return std::make_unique<FileStreamSource>(
      std::move(spec), std::move(options), std::move(log), std::move(cleaner),
      latest.value_or(-1), std::move(seen), scan,
      context.format_context.session_time_zone);
}

}  // namespace sluice::sources
