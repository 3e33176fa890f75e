// The options of the file formats, as Spark's DataFrameReader/DataFrameWriter take them: string
// key/value pairs at the API edge (keys case-insensitive), parsed once here into typed structs.
// Each format declares its options in ONE table in format_options.cc (name, default, doc);
// unknown keys are ignored, as in Spark, and a bad value for a known key is an error naming the
// option and the allowed values.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/result.h>
#include <arrow/status.h>

namespace sluice::formats {

/// Orders option keys case-insensitively (Spark's CaseInsensitiveMap).
struct CaseInsensitiveLess {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const;
};

/// The string options given to a reader or writer; a later set of the same key (any case) wins.
using OptionMap = std::map<std::string, std::string, CaseInsensitiveLess>;

/// The file formats Sluice reads and writes.
enum class FileFormat { kJson, kCsv, kParquet, kOrc, kText };

/// The format named `name` (case-insensitive; also Spark's fully qualified class names of the
/// built-in sources). Fails with DATA_SOURCE_NOT_FOUND naming the allowed formats.
arrow::Result<FileFormat> ParseFileFormat(std::string_view name);
/// The short lower-case name: "json", "csv", "parquet", "orc", "text".
std::string_view FileFormatName(FileFormat format);
/// The name Spark uses in messages ("JSON", "CSV", "Parquet", "ORC", "Text").
std::string_view FileFormatDisplayName(FileFormat format);

/// How a reader treats a malformed record (Spark's ParseMode).
enum class ParseMode { kPermissive, kDropMalformed, kFailFast };

/// Options every file format takes when reading (listing and partition discovery).
struct FileSourceOptions {
  /// Only files whose name matches this glob are read (pathGlobFilter); empty: all.
  std::string path_glob_filter;
  /// Reads files of all sub-folders and turns off partition discovery (recursiveFileLookup).
  bool recursive_file_lookup = false;
  /// ignoreMissingFiles and ignoreCorruptFiles; unset: the session's setting.
  std::optional<bool> ignore_missing_files;
  std::optional<bool> ignore_corrupt_files;
};

/// Options shared by the text-based formats (JSON, CSV) when reading.
struct TextParseOptions {
  ParseMode mode = ParseMode::kPermissive;
  /// Name of the column that receives the raw text of a malformed record, if the schema has it.
  std::string column_name_of_corrupt_record = "_corrupt_record";
  /// A Spark datetime pattern; unset: ISO 8601 forms, parsed leniently as Spark's default.
  std::optional<std::string> timestamp_format;
  std::optional<std::string> timestamp_ntz_format;
  std::optional<std::string> date_format;
  /// Zone for timestamps without an offset; empty: the session zone.
  std::string time_zone;
  /// One record may span lines: JSON as a whole-file document, CSV quoted fields with newlines.
  bool multi_line = false;
};

/// JSON read options (Spark's JSONOptions).
struct JsonReadOptions {
  FileSourceOptions files;
  TextParseOptions parse;
  /// Inference: every primitive value as a string.
  bool primitives_as_string = false;
  /// Inference: floating-point numbers as decimals when they fit.
  bool prefers_decimal = false;
  /// NaN, Infinity, -Infinity strings are accepted for float/double fields.
  bool allow_non_numeric_numbers = true;
  /// Inference: drop columns that are null or empty in every record.
  bool drop_field_if_all_null = false;
};

/// CSV read options (Spark's CSVOptions).
struct CsvReadOptions {
  FileSourceOptions files;
  TextParseOptions parse;
  char separator = ',';
  /// '\0' turns quoting off (Spark's quote option set to the empty string).
  char quote = '"';
  char escape = '\\';
  /// '\0' means no comment lines.
  char comment = '\0';
  bool header = false;
  bool infer_schema = false;
  std::string null_value;
  /// What an empty quoted string ("") reads as; unset: the empty string.
  std::optional<std::string> empty_value;
  std::string nan_value = "NaN";
  std::string positive_inf = "Inf";
  std::string negative_inf = "-Inf";
  bool ignore_leading_white_space = false;
  bool ignore_trailing_white_space = false;
  /// Enforce the user schema by position, ignoring header names (enforceSchema).
  bool enforce_schema = true;
};

/// Parquet read options.
struct ParquetReadOptions {
  FileSourceOptions files;
};

/// ORC read options.
struct OrcReadOptions {
  FileSourceOptions files;
};

/// Text read options (Spark's TextOptions).
struct TextReadOptions {
  FileSourceOptions files;
  /// Each file is one row holding the whole file.
  bool whole_text = false;
};

/// Compression of written files; kNone writes no extension.
enum class Compression { kNone, kSnappy, kGzip, kZstd, kLz4, kZlib };
/// The file name extension Spark puts before the format's own (".snappy"), or "".
std::string_view CompressionExtension(Compression compression, FileFormat format);

/// JSON write options.
struct JsonWriteOptions {
  Compression compression = Compression::kNone;
  std::optional<std::string> timestamp_format;
  std::optional<std::string> timestamp_ntz_format;
  std::optional<std::string> date_format;
  std::string time_zone;
  /// Fields that are null are left out of the object (spark.sql.jsonGenerator.ignoreNullFields).
  bool ignore_null_fields = true;
};

/// CSV write options.
struct CsvWriteOptions {
  Compression compression = Compression::kNone;
  std::optional<std::string> timestamp_format;
  std::optional<std::string> timestamp_ntz_format;
  std::optional<std::string> date_format;
  std::string time_zone;
  char separator = ',';
  char quote = '"';
  char escape = '\\';
  bool header = false;
  std::string null_value;
  /// What an empty string writes as; Spark's default is "" (a quoted empty string).
  std::string empty_value = "\"\"";
  bool quote_all = false;
  bool escape_quotes = true;
  bool ignore_leading_white_space = true;
  bool ignore_trailing_white_space = true;
};

/// Parquet write options.
struct ParquetWriteOptions {
  Compression compression = Compression::kSnappy;
};

/// ORC write options.
struct OrcWriteOptions {
  Compression compression = Compression::kSnappy;
};

/// Text write options.
struct TextWriteOptions {
  Compression compression = Compression::kNone;
};

/// One documented option of a format or connector, for help texts and tests.
struct OptionDoc {
  std::string_view name;
  std::string_view default_value;
  std::string_view doc;
};

/// One row of an option table, the one place where a format or connector declares an option:
/// its key, its default (applied when the key is absent; nullptr leaves the field as the
/// struct initializes it), its doc, and how a value is checked and stored.
template <typename Options>
struct OptionSpec {
  const char* name;
  const char* default_value;
  const char* doc;
  arrow::Status (*apply)(std::string_view value, Options& options);
};

/// Parses `given` with `table`: each row in table order takes the user's value under its key
/// (in any case), else its default. Of two aliases the later row wins, and a row may check
/// what an earlier one stored. The first error stops the parse.
template <typename Options>
arrow::Result<Options> ApplyOptionTable(std::span<const OptionSpec<Options>> table,
                                        const OptionMap& given) {
  Options options;
  for (const auto& spec : table) {
    auto found = given.find(std::string_view(spec.name));
    if (found != given.end()) {
      ARROW_RETURN_NOT_OK(spec.apply(found->second, options));
    } else if (spec.default_value != nullptr) {
      ARROW_RETURN_NOT_OK(spec.apply(spec.default_value, options));
    }
  }
  return options;
}

/// The docs of `table`'s rows, in table order ("" for no default).
template <typename Options>
std::vector<OptionDoc> OptionTableDocs(std::span<const OptionSpec<Options>> table) {
  std::vector<OptionDoc> docs;
  for (const auto& spec : table) {
    docs.push_back({spec.name, spec.default_value == nullptr ? "" : spec.default_value, spec.doc});
  }
  return docs;
}

/// The options a format understands when reading (`for_write` false) or writing.
std::vector<OptionDoc> DocumentedOptions(FileFormat format, bool for_write);

arrow::Result<JsonReadOptions> ParseJsonReadOptions(const OptionMap& options);
arrow::Result<CsvReadOptions> ParseCsvReadOptions(const OptionMap& options);
arrow::Result<ParquetReadOptions> ParseParquetReadOptions(const OptionMap& options);
arrow::Result<OrcReadOptions> ParseOrcReadOptions(const OptionMap& options);
arrow::Result<TextReadOptions> ParseTextReadOptions(const OptionMap& options);

arrow::Result<JsonWriteOptions> ParseJsonWriteOptions(const OptionMap& options);
arrow::Result<CsvWriteOptions> ParseCsvWriteOptions(const OptionMap& options);
arrow::Result<ParquetWriteOptions> ParseParquetWriteOptions(const OptionMap& options);
arrow::Result<OrcWriteOptions> ParseOrcWriteOptions(const OptionMap& options);
arrow::Result<TextWriteOptions> ParseTextWriteOptions(const OptionMap& options);

}  // namespace sluice::formats
