// The options of the streaming file source (Spark's FileStreamOptions): string options at the
// API edge, parsed once into a typed struct whose names, defaults and docs are declared in one
// table in file_stream_options.cc. The format's own read options (multiLine, header, ...) are
// not parsed here; they pass through to the format reader.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/result.h>

#include "sluice/formats/format_options.h"

namespace sluice::sources {

/// What happens to the files of a committed batch (the cleanSource option).
enum class CleanSourceMode { kOff, kArchive, kDelete };

/// The file stream options with Spark's defaults. Immutable once parsed.
struct FileStreamOptions {
  /// maxFilesPerTrigger: at most this many new files per batch; unset: no limit.
  std::optional<int32_t> max_files_per_trigger;
  /// maxBytesPerTrigger: new files of at most this many bytes in total per batch (but always
  /// at least one file); unset: no limit. Exclusive with maxFilesPerTrigger.
  std::optional<int64_t> max_bytes_per_trigger;
  /// maxFileAge: a file older than the newest file seen minus this age is ignored ("7d").
  int64_t max_file_age_ms = 7LL * 24 * 60 * 60 * 1000;
  /// latestFirst: take the newest files first.
  bool latest_first = false;
  /// fileNameOnly: a file is known by its name alone, not its full path.
  bool file_name_only = false;
  /// cleanSource: off, archive or delete the files of committed batches.
  CleanSourceMode clean_source = CleanSourceMode::kOff;
  /// sourceArchiveDir: where archive moves files (their full path is kept below it).
  std::optional<std::string> source_archive_dir;
  /// maxCachedFiles: how many listed but not yet admitted files are kept for the next batches
  /// instead of listing again; 0 lists for every batch.
  int32_t max_cached_files = 10000;
  /// discardCachedInputRatio: the kept files are dropped (and the folder listed again) when
  /// they are fewer than this share of the limit.
  double discard_cached_input_ratio = 0.2;
};

/// Parses the file stream options out of all the reader's options (other keys are ignored).
/// A bad value fails with Spark's message naming the option and the value; so do
/// maxFilesPerTrigger with maxBytesPerTrigger, archive without sourceArchiveDir, and the
/// batch-only options modifiedBefore/modifiedAfter.
arrow::Result<FileStreamOptions> ParseFileStreamOptions(const formats::OptionMap& options);

/// The documented file stream options (name, default, doc), in table order.
std::vector<formats::OptionDoc> FileStreamOptionDocs();

/// Spark's JavaUtils.timeStringAsMs: "<integer>[us|ms|s|m|min|h|d]" (case-insensitive,
/// surrounding blanks ignored), milliseconds when there is no unit. Fails with Spark's message.
arrow::Result<int64_t> ParseTimeStringAsMs(std::string_view text);

}  // namespace sluice::sources
