#include "sluice/sources/file/file_stream_options.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

#include "sluice/common/ascii.h"
#include "sluice/sources/typed_options.h"

namespace sluice::sources {

namespace {

/// Java's Float.parseFloat for plain decimal numbers (blanks around, an f/d suffix allowed).
std::optional<double> ParseJavaFloat(std::string_view text) {
  while (!text.empty() && static_cast<unsigned char>(text.front()) <= ' ') text.remove_prefix(1);
  while (!text.empty() && static_cast<unsigned char>(text.back()) <= ' ') text.remove_suffix(1);
  if (!text.empty() && std::string_view("fFdD").find(text.back()) != std::string_view::npos) {
    text.remove_suffix(1);
  }
  if (text.empty()) return std::nullopt;
  std::string copy(text);
  for (char c : copy) {
    if (!std::isdigit(static_cast<unsigned char>(c)) &&
        std::string_view("+-.eE").find(c) == std::string_view::npos) {
      return copy == "NaN" ? std::optional<double>(std::nan("")) : std::nullopt;
    }
  }
  char* end = nullptr;
  double value = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size()) return std::nullopt;
  return static_cast<double>(static_cast<float>(value));
}

arrow::Status InvalidValue(std::string_view value, std::string_view option,
                           std::string_view requirement) {
  return arrow::Status::Invalid("Invalid value '", value, "' for option '", option, "', ",
                                requirement);
}

arrow::Status SetBoolean(std::string_view option, std::string_view value, bool* out) {
  const std::string lower = AsciiLower(value);
  if (lower != "true" && lower != "false") {
    return InvalidValue(value, option, "must be 'true' or 'false'");
  }
  *out = lower == "true";
  return arrow::Status::OK();
}

constexpr formats::OptionSpec<FileStreamOptions> kOptions[] = {
    {"maxFilesPerTrigger", nullptr, "At most this many new files per batch.",
     [](std::string_view value, FileStreamOptions& options) -> arrow::Status {
       auto parsed = ParseJavaInt(value);
       if (!parsed || *parsed <= 0) {
         return InvalidValue(value, "maxFilesPerTrigger", "must be a positive integer");
       }
       options.max_files_per_trigger = *parsed;
       return arrow::Status::OK();
     }},
    {"maxBytesPerTrigger", nullptr,
     "At most this many bytes of new files per batch (at least one file).",
     [](std::string_view value, FileStreamOptions& options) -> arrow::Status {
       auto parsed = ParseJavaLong(value);
       if (!parsed || *parsed <= 0) {
         return InvalidValue(value, "maxBytesPerTrigger", "must be a positive integer");
       }
       if (options.max_files_per_trigger) {
         return arrow::Status::Invalid(
             "Options 'maxFilesPerTrigger' and 'maxBytesPerTrigger' can't be both set at the "
             "same time");
       }
       options.max_bytes_per_trigger = *parsed;
       return arrow::Status::OK();
     }},
    {"maxFileAge", "7d",
     "Files older than the newest file seen minus this age are ignored (ignored with "
     "latestFirst and a limit).",
     [](std::string_view value, FileStreamOptions& options) -> arrow::Status {
       auto parsed = ParseTimeStringAsMs(value);
       if (!parsed.ok()) {
         return arrow::Status::Invalid("Invalid value '", value, "' for option 'maxFileAge': ",
                                       parsed.status().message());
       }
       if (*parsed < 0) return InvalidValue(value, "maxFileAge", "must not be negative");
       options.max_file_age_ms = *parsed;
       return arrow::Status::OK();
     }},
    {"latestFirst", "false", "Take the newest files first.",
     [](std::string_view value, FileStreamOptions& options) {
       return SetBoolean("latestFirst", value, &options.latest_first);
     }},
    {"fileNameOnly", "false", "Know files by their name only, not their full path.",
     [](std::string_view value, FileStreamOptions& options) {
       return SetBoolean("fileNameOnly", value, &options.file_name_only);
     }},
    {"sourceArchiveDir", nullptr, "Where cleanSource=archive moves processed files.",
     [](std::string_view value, FileStreamOptions& options) -> arrow::Status {
       options.source_archive_dir = std::string(value);
       return arrow::Status::OK();
     }},
    {"cleanSource", "off", "What to do with processed files: off, archive or delete.",
     [](std::string_view value, FileStreamOptions& options) -> arrow::Status {
       const std::string lower = AsciiLower(value);
       if (lower == "off") {
         options.clean_source = CleanSourceMode::kOff;
       } else if (lower == "archive") {
         options.clean_source = CleanSourceMode::kArchive;
       } else if (lower == "delete") {
         options.clean_source = CleanSourceMode::kDelete;
       } else {
         return arrow::Status::Invalid("Invalid mode for clean source option '", value,
                                       "'. Must be one of ARCHIVE,DELETE,OFF");
       }
       if (options.clean_source == CleanSourceMode::kArchive && !options.source_archive_dir) {
         return arrow::Status::Invalid(
             "Archive mode must be used with 'sourceArchiveDir' option.");
       }
       return arrow::Status::OK();
     }},
    {"maxCachedFiles", "10000",
     "How many listed files not yet taken are kept for the next batches (0: list each time).",
     [](std::string_view value, FileStreamOptions& options) -> arrow::Status {
       auto parsed = ParseJavaInt(value);
       if (!parsed || *parsed < 0) {
         return InvalidValue(value, "maxCachedFiles",
                             "must be an integer greater than or equal to 0");
       }
       options.max_cached_files = *parsed;
       return arrow::Status::OK();
     }},
    {"discardCachedInputRatio", "0.2",
     "Kept files fewer than this share of the limit are dropped and the folder listed again.",
     [](std::string_view value, FileStreamOptions& options) -> arrow::Status {
       auto parsed = ParseJavaFloat(value);
       if (!parsed || !(*parsed >= 0 && *parsed <= 1)) {
         return InvalidValue(value, "discardCachedInputRatio",
                             "must be a positive float between 0 and 1");
       }
       options.discard_cached_input_ratio = *parsed;
       return arrow::Status::OK();
     }},
};

/// File index options of batch reads that a stream cannot honour (Spark's
/// checkDisallowedOptions; Spark names them in lower case).
constexpr std::string_view kDisallowedOptions[] = {"modifiedbefore", "modifiedafter"};

}  // namespace

arrow::Result<int64_t> ParseTimeStringAsMs(std::string_view text) {
  return ParseTimeString(text, TimeStringUnit::kMilliseconds);
}

arrow::Result<FileStreamOptions> ParseFileStreamOptions(const formats::OptionMap& options) {
  for (std::string_view disallowed : kDisallowedOptions) {
    if (options.count(disallowed) > 0) {
      return arrow::Status::Invalid("option '", disallowed,
                                    "' is not allowed in file stream sources");
    }
  }
  return formats::ApplyOptionTable<FileStreamOptions>(kOptions, options);
}

std::vector<formats::OptionDoc> FileStreamOptionDocs() {
  return formats::OptionTableDocs<FileStreamOptions>(kOptions);
}

}  // namespace sluice::sources
