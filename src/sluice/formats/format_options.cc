#include "sluice/formats/format_options.h"

#include <algorithm>
#include <cctype>
#include <span>
#include <string>

#include "sluice/common/ascii.h"
#include "sluice/common/errors.h"

namespace sluice::formats {

namespace {

/// A boolean option: Spark's CSVOptions.getBool / JSONOptions wording.
arrow::Result<bool> ParseBool(std::string_view name, std::string_view value) {
  std::string lower = AsciiLower(value);
  if (lower == "true") return true;
  if (lower == "false") return false;
  return SparkError("INVALID_OPTION_VALUE", std::string(name) +
                                                " flag can be true or false; got '" +
                                                std::string(value) + "'.");
}

/// A one-character option (sep, quote, escape, comment): Spark's CSVUtils.toChar rules, with
/// the escapes \t, \n, \r, \b, \f, \", \', \\, \u0000 and "" meaning the null character.
arrow::Result<char> ParseChar(std::string_view name, std::string_view value, bool allow_empty) {
  if (value.size() == 1) return value[0];
  if (value.empty()) {
    if (allow_empty) return '\0';
    return SparkError("INVALID_OPTION_VALUE",
                      "Delimiter cannot be empty string; the option " + std::string(name) +
                          " needs one character.");
  }
  if (value.size() == 2 && value[0] == '\\') {
    switch (value[1]) {
      case 't': return '\t';
      case 'n': return '\n';
      case 'r': return '\r';
      case 'b': return '\b';
      case 'f': return '\f';
      case '"': return '"';
      case '\'': return '\'';
      case '\\': return '\\';
      default: break;
    }
  }
  if (value == "\\u0000") return '\0';
  return SparkError("INVALID_OPTION_VALUE",
                    "The option " + std::string(name) +
                        " must be a single character (or \\t, \\n, \\r, \\b, \\f, \\\", \\', "
                        "\\\\, \\u0000); got '" + std::string(value) + "'.");
}

/// Spark's ParseMode.fromString: an unknown mode falls back to PERMISSIVE (Spark logs a
/// warning and does the same).
ParseMode ParseModeOf(std::string_view value) {
  std::string lower = AsciiLower(value);
  if (lower == "dropmalformed") return ParseMode::kDropMalformed;
  if (lower == "failfast") return ParseMode::kFailFast;
  return ParseMode::kPermissive;
}

arrow::Result<Compression> ParseCompression(std::string_view value,
                                            std::span<const Compression> allowed,
                                            std::string_view allowed_text) {
  std::string lower = AsciiLower(value);
  Compression compression;
  if (lower == "none" || lower == "uncompressed") {
    compression = Compression::kNone;
  } else if (lower == "snappy") {
    compression = Compression::kSnappy;
  } else if (lower == "gzip") {
    compression = Compression::kGzip;
  } else if (lower == "zstd") {
    compression = Compression::kZstd;
  } else if (lower == "lz4") {
    compression = Compression::kLz4;
  } else if (lower == "zlib") {
    compression = Compression::kZlib;
  } else {
    return SparkError("CODEC_NOT_AVAILABLE.WITH_AVAILABLE_CODECS_SUGGESTION",
                      "The codec " + std::string(value) +
                          " is not available for the option compression. Available codecs "
                          "are " + std::string(allowed_text) + ".");
  }
  if (std::find(allowed.begin(), allowed.end(), compression) == allowed.end()) {
    return SparkError("CODEC_NOT_AVAILABLE.WITH_AVAILABLE_CODECS_SUGGESTION",
                      "The codec " + std::string(value) +
                          " is not available for the option compression. Available codecs "
                          "are " + std::string(allowed_text) + ".");
  }
  return compression;
}

// Field accessors shared by the tables: every struct with `files` / `parse` members.
template <typename Options>
arrow::Status SetGlobFilter(std::string_view v, Options& o) {
  o.files.path_glob_filter = std::string(v);
  return arrow::Status::OK();
}
template <typename Options>
arrow::Status SetRecursive(std::string_view v, Options& o) {
  ARROW_ASSIGN_OR_RAISE(o.files.recursive_file_lookup, ParseBool("recursiveFileLookup", v));
  return arrow::Status::OK();
}
template <typename Options>
arrow::Status SetIgnoreMissing(std::string_view v, Options& o) {
  ARROW_ASSIGN_OR_RAISE(o.files.ignore_missing_files, ParseBool("ignoreMissingFiles", v));
  return arrow::Status::OK();
}
template <typename Options>
arrow::Status SetIgnoreCorrupt(std::string_view v, Options& o) {
  ARROW_ASSIGN_OR_RAISE(o.files.ignore_corrupt_files, ParseBool("ignoreCorruptFiles", v));
  return arrow::Status::OK();
}
template <typename Options>
arrow::Status SetMode(std::string_view v, Options& o) {
  o.parse.mode = ParseModeOf(v);
  return arrow::Status::OK();
}
template <typename Options>
arrow::Status SetCorruptColumn(std::string_view v, Options& o) {
  o.parse.column_name_of_corrupt_record = std::string(v);
  return arrow::Status::OK();
}
template <typename Options>
arrow::Status SetTimestampFormat(std::string_view v, Options& o) {
  o.parse.timestamp_format = std::string(v);
  return arrow::Status::OK();
}
template <typename Options>
arrow::Status SetTimestampNtzFormat(std::string_view v, Options& o) {
  o.parse.timestamp_ntz_format = std::string(v);
  return arrow::Status::OK();
}
template <typename Options>
arrow::Status SetDateFormat(std::string_view v, Options& o) {
  o.parse.date_format = std::string(v);
  return arrow::Status::OK();
}
template <typename Options>
arrow::Status SetTimeZone(std::string_view v, Options& o) {
  o.parse.time_zone = std::string(v);
  return arrow::Status::OK();
}
template <typename Options>
arrow::Status SetMultiLine(std::string_view v, Options& o) {
  ARROW_ASSIGN_OR_RAISE(o.parse.multi_line, ParseBool("multiLine", v));
  return arrow::Status::OK();
}

#define SLUICE_FILE_OPTIONS(Options)                                                         \
  {"pathGlobFilter", nullptr, "Only files whose name matches this glob pattern are read.",    \
   SetGlobFilter<Options>},                                                                   \
  {"recursiveFileLookup", "false",                                                            \
   "Read files in all sub-folders; turns partition discovery off.", SetRecursive<Options>},   \
  {"ignoreMissingFiles", nullptr,                                                             \
   "Skip a file deleted after it was listed; default: spark.sql.files.ignoreMissingFiles.",   \
   SetIgnoreMissing<Options>},                                                                \
  {"ignoreCorruptFiles", nullptr,                                                             \
   "Skip the rest of a file that cannot be read (with a warning naming it); default: "       \
   "spark.sql.files.ignoreCorruptFiles.",                                                     \
   SetIgnoreCorrupt<Options>}

#define SLUICE_TEXT_PARSE_OPTIONS(Options)                                                    \
  {"mode", "PERMISSIVE",                                                                      \
   "PERMISSIVE (malformed record -> nulls, raw text in the corrupt-record column), "          \
   "DROPMALFORMED (skip it) or FAILFAST (fail the read).",                                     \
   SetMode<Options>},                                                                         \
  {"columnNameOfCorruptRecord", "_corrupt_record",                                            \
   "Column that receives a malformed record's text, if the schema has it.",                   \
   SetCorruptColumn<Options>},                                                                \
  {"timestampFormat", nullptr,                                                                \
   "Datetime pattern of timestamps; default: ISO 8601, parsed leniently.",                    \
   SetTimestampFormat<Options>},                                                              \
  {"timestampNTZFormat", nullptr, "Datetime pattern of timestamps without time zone.",        \
   SetTimestampNtzFormat<Options>},                                                           \
  {"dateFormat", nullptr, "Datetime pattern of dates; default yyyy-MM-dd, parsed leniently.", \
   SetDateFormat<Options>},                                                                   \
  {"timeZone", nullptr, "Zone of timestamps without an offset; default: the session zone.",   \
   SetTimeZone<Options>},                                                                     \
  {"multiLine", "false", "A record may span several lines.", SetMultiLine<Options>}

// ---- JSON read ---------------------------------------------------------------------------

constexpr OptionSpec<JsonReadOptions> kJsonReadTable[] = {
    SLUICE_FILE_OPTIONS(JsonReadOptions),
    SLUICE_TEXT_PARSE_OPTIONS(JsonReadOptions),
    {"primitivesAsString", "false", "Schema inference types every primitive value as string.",
     [](std::string_view v, JsonReadOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.primitives_as_string, ParseBool("primitivesAsString", v));
       return arrow::Status::OK();
     }},
    {"prefersDecimal", "false", "Schema inference types fractional numbers as decimal.",
     [](std::string_view v, JsonReadOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.prefers_decimal, ParseBool("prefersDecimal", v));
       return arrow::Status::OK();
     }},
    {"allowNonNumericNumbers", "true", "Accept NaN, Infinity, -Infinity for floating fields.",
     [](std::string_view v, JsonReadOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.allow_non_numeric_numbers,
                             ParseBool("allowNonNumericNumbers", v));
       return arrow::Status::OK();
     }},
    {"dropFieldIfAllNull", "false", "Schema inference drops columns that are always null.",
     [](std::string_view v, JsonReadOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.drop_field_if_all_null, ParseBool("dropFieldIfAllNull", v));
       return arrow::Status::OK();
     }},
};

// ---- CSV read ----------------------------------------------------------------------------

arrow::Status SetCsvSeparator(std::string_view v, CsvReadOptions& o) {
  ARROW_ASSIGN_OR_RAISE(o.separator, ParseChar("sep", v, /*allow_empty=*/false));
  return arrow::Status::OK();
}

constexpr OptionSpec<CsvReadOptions> kCsvReadTable[] = {
    SLUICE_FILE_OPTIONS(CsvReadOptions),
    SLUICE_TEXT_PARSE_OPTIONS(CsvReadOptions),
    {"delimiter", nullptr, "Alias of sep.", SetCsvSeparator},
    {"sep", nullptr, "Field separator, one character; default ','.", SetCsvSeparator},
    {"quote", "\"", "Quote character; empty turns quoting off.",
     [](std::string_view v, CsvReadOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.quote, ParseChar("quote", v, /*allow_empty=*/true));
       return arrow::Status::OK();
     }},
    {"escape", "\\", "Escape character inside quoted values.",
     [](std::string_view v, CsvReadOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.escape, ParseChar("escape", v, /*allow_empty=*/true));
       return arrow::Status::OK();
     }},
    {"comment", nullptr, "Lines starting with this character are skipped; default: none.",
     [](std::string_view v, CsvReadOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.comment, ParseChar("comment", v, /*allow_empty=*/true));
       return arrow::Status::OK();
     }},
    {"header", "false", "The first line of each file holds the column names.",
     [](std::string_view v, CsvReadOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.header, ParseBool("header", v));
       return arrow::Status::OK();
     }},
    {"inferSchema", "false", "Infer column types from the data (else all strings).",
     [](std::string_view v, CsvReadOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.infer_schema, ParseBool("inferSchema", v));
       return arrow::Status::OK();
     }},
    {"nullValue", "", "The text of a null value.",
     [](std::string_view v, CsvReadOptions& o) -> arrow::Status {
       o.null_value = std::string(v);
       return arrow::Status::OK();
     }},
    {"emptyValue", nullptr, "What an empty quoted value reads as; default: empty string.",
     [](std::string_view v, CsvReadOptions& o) -> arrow::Status {
       o.empty_value = std::string(v);
       return arrow::Status::OK();
     }},
    {"nanValue", "NaN", "The text of a NaN float value.",
     [](std::string_view v, CsvReadOptions& o) -> arrow::Status {
       o.nan_value = std::string(v);
       return arrow::Status::OK();
     }},
    {"positiveInf", "Inf", "The text of positive infinity.",
     [](std::string_view v, CsvReadOptions& o) -> arrow::Status {
       o.positive_inf = std::string(v);
       return arrow::Status::OK();
     }},
    {"negativeInf", "-Inf", "The text of negative infinity.",
     [](std::string_view v, CsvReadOptions& o) -> arrow::Status {
       o.negative_inf = std::string(v);
       return arrow::Status::OK();
     }},
    {"ignoreLeadingWhiteSpace", "false", "Trim white space before values.",
     [](std::string_view v, CsvReadOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.ignore_leading_white_space,
                             ParseBool("ignoreLeadingWhiteSpace", v));
       return arrow::Status::OK();
     }},
    {"ignoreTrailingWhiteSpace", "false", "Trim white space after values.",
     [](std::string_view v, CsvReadOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.ignore_trailing_white_space,
                             ParseBool("ignoreTrailingWhiteSpace", v));
       return arrow::Status::OK();
     }},
    {"enforceSchema", "true", "Apply the user schema by position, ignoring header names.",
     [](std::string_view v, CsvReadOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.enforce_schema, ParseBool("enforceSchema", v));
       return arrow::Status::OK();
     }},
};

// ---- Parquet, ORC, text read -------------------------------------------------------------

constexpr OptionSpec<ParquetReadOptions> kParquetReadTable[] = {
    SLUICE_FILE_OPTIONS(ParquetReadOptions)};
constexpr OptionSpec<OrcReadOptions> kOrcReadTable[] = {SLUICE_FILE_OPTIONS(OrcReadOptions)};
constexpr OptionSpec<TextReadOptions> kTextReadTable[] = {
    SLUICE_FILE_OPTIONS(TextReadOptions),
    {"wholetext", "false", "Each file is one row holding its whole text.",
     [](std::string_view v, TextReadOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.whole_text, ParseBool("wholetext", v));
       return arrow::Status::OK();
     }},
};

// ---- Writers -----------------------------------------------------------------------------

constexpr Compression kTextCodecs[] = {Compression::kNone, Compression::kGzip,
                                       Compression::kSnappy, Compression::kZstd,
                                       Compression::kLz4};
constexpr Compression kParquetCodecs[] = {Compression::kNone, Compression::kSnappy,
                                          Compression::kGzip, Compression::kZstd,
                                          Compression::kLz4};
constexpr Compression kOrcCodecs[] = {Compression::kNone, Compression::kSnappy,
                                      Compression::kZlib, Compression::kZstd, Compression::kLz4};
constexpr char kTextCodecNames[] = "none, uncompressed, gzip";
constexpr char kParquetCodecNames[] = "none, uncompressed, snappy, gzip, zstd, lz4";
constexpr char kOrcCodecNames[] = "none, uncompressed, snappy, zlib, zstd, lz4";

// JSON, CSV and text write plain or gzip files (Spark's bzip2, lz4, snappy and deflate are an
// error naming what is available).
constexpr Compression kWritableTextCodecs[] = {Compression::kNone, Compression::kGzip};

template <typename Options>
arrow::Status SetTextCompression(std::string_view v, Options& o) {
  ARROW_ASSIGN_OR_RAISE(o.compression, ParseCompression(v, kWritableTextCodecs, kTextCodecNames));
  return arrow::Status::OK();
}

constexpr OptionSpec<JsonWriteOptions> kJsonWriteTable[] = {
    {"compression", "none", "Codec of the written files: none or gzip.", SetTextCompression},
    {"timestampFormat", nullptr, "Pattern of timestamps; default yyyy-MM-dd'T'HH:mm:ss.SSSXXX.",
     [](std::string_view v, JsonWriteOptions& o) -> arrow::Status {
       o.timestamp_format = std::string(v);
       return arrow::Status::OK();
     }},
    {"timestampNTZFormat", nullptr, "Pattern of timestamps without time zone.",
     [](std::string_view v, JsonWriteOptions& o) -> arrow::Status {
       o.timestamp_ntz_format = std::string(v);
       return arrow::Status::OK();
     }},
    {"dateFormat", nullptr, "Pattern of dates; default yyyy-MM-dd.",
     [](std::string_view v, JsonWriteOptions& o) -> arrow::Status {
       o.date_format = std::string(v);
       return arrow::Status::OK();
     }},
    {"timeZone", nullptr, "Zone timestamps are written in; default: the session zone.",
     [](std::string_view v, JsonWriteOptions& o) -> arrow::Status {
       o.time_zone = std::string(v);
       return arrow::Status::OK();
     }},
    {"ignoreNullFields", "true", "Leave null fields out of the objects.",
     [](std::string_view v, JsonWriteOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.ignore_null_fields, ParseBool("ignoreNullFields", v));
       return arrow::Status::OK();
     }},
};

arrow::Status SetCsvWriteSeparator(std::string_view v, CsvWriteOptions& o) {
  ARROW_ASSIGN_OR_RAISE(o.separator, ParseChar("sep", v, /*allow_empty=*/false));
  return arrow::Status::OK();
}

constexpr OptionSpec<CsvWriteOptions> kCsvWriteTable[] = {
    {"compression", "none", "Codec of the written files: none or gzip.", SetTextCompression},
    {"timestampFormat", nullptr, "Pattern of timestamps; default yyyy-MM-dd'T'HH:mm:ss.SSSXXX.",
     [](std::string_view v, CsvWriteOptions& o) -> arrow::Status {
       o.timestamp_format = std::string(v);
       return arrow::Status::OK();
     }},
    {"timestampNTZFormat", nullptr, "Pattern of timestamps without time zone.",
     [](std::string_view v, CsvWriteOptions& o) -> arrow::Status {
       o.timestamp_ntz_format = std::string(v);
       return arrow::Status::OK();
     }},
    {"dateFormat", nullptr, "Pattern of dates; default yyyy-MM-dd.",
     [](std::string_view v, CsvWriteOptions& o) -> arrow::Status {
       o.date_format = std::string(v);
       return arrow::Status::OK();
     }},
    {"timeZone", nullptr, "Zone timestamps are written in; default: the session zone.",
     [](std::string_view v, CsvWriteOptions& o) -> arrow::Status {
       o.time_zone = std::string(v);
       return arrow::Status::OK();
     }},
    {"delimiter", nullptr, "Alias of sep.", SetCsvWriteSeparator},
    {"sep", nullptr, "Field separator; default ','.", SetCsvWriteSeparator},
    {"quote", "\"", "Quote character.",
     [](std::string_view v, CsvWriteOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.quote, ParseChar("quote", v, /*allow_empty=*/true));
       return arrow::Status::OK();
     }},
    {"escape", "\\", "Escape character for quotes inside quoted values.",
     [](std::string_view v, CsvWriteOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.escape, ParseChar("escape", v, /*allow_empty=*/true));
       return arrow::Status::OK();
     }},
    {"header", "false", "Write the column names as the first line.",
     [](std::string_view v, CsvWriteOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.header, ParseBool("header", v));
       return arrow::Status::OK();
     }},
    {"nullValue", "", "The text written for null.",
     [](std::string_view v, CsvWriteOptions& o) -> arrow::Status {
       o.null_value = std::string(v);
       return arrow::Status::OK();
     }},
    {"emptyValue", "\"\"", "The text written for an empty string.",
     [](std::string_view v, CsvWriteOptions& o) -> arrow::Status {
       o.empty_value = std::string(v);
       return arrow::Status::OK();
     }},
    {"quoteAll", "false", "Quote every value.",
     [](std::string_view v, CsvWriteOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.quote_all, ParseBool("quoteAll", v));
       return arrow::Status::OK();
     }},
    {"escapeQuotes", "true", "Quote values containing the quote character.",
     [](std::string_view v, CsvWriteOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.escape_quotes, ParseBool("escapeQuotes", v));
       return arrow::Status::OK();
     }},
    {"ignoreLeadingWhiteSpace", "true", "Trim leading white space of written values.",
     [](std::string_view v, CsvWriteOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.ignore_leading_white_space,
                             ParseBool("ignoreLeadingWhiteSpace", v));
       return arrow::Status::OK();
     }},
    {"ignoreTrailingWhiteSpace", "true", "Trim trailing white space of written values.",
     [](std::string_view v, CsvWriteOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.ignore_trailing_white_space,
                             ParseBool("ignoreTrailingWhiteSpace", v));
       return arrow::Status::OK();
     }},
};

constexpr OptionSpec<ParquetWriteOptions> kParquetWriteTable[] = {
    {"compression", "snappy", "Codec: none, uncompressed, snappy, gzip, zstd, lz4.",
     [](std::string_view v, ParquetWriteOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.compression,
                             ParseCompression(v, kParquetCodecs, kParquetCodecNames));
       return arrow::Status::OK();
     }},
};

constexpr OptionSpec<OrcWriteOptions> kOrcWriteTable[] = {
    {"compression", "snappy", "Codec: none, uncompressed, snappy, zlib, zstd, lz4.",
     [](std::string_view v, OrcWriteOptions& o) -> arrow::Status {
       ARROW_ASSIGN_OR_RAISE(o.compression, ParseCompression(v, kOrcCodecs, kOrcCodecNames));
       return arrow::Status::OK();
     }},
};

constexpr OptionSpec<TextWriteOptions> kTextWriteTable[] = {
    {"compression", "none", "Codec of the written files: none or gzip.", SetTextCompression},
};

}  // namespace

bool CaseInsensitiveLess::operator()(std::string_view a, std::string_view b) const {
  return std::lexicographical_compare(
      a.begin(), a.end(), b.begin(), b.end(), [](unsigned char x, unsigned char y) {
        return std::tolower(x) < std::tolower(y);
      });
}

arrow::Result<FileFormat> ParseFileFormat(std::string_view name) {
  std::string lower = AsciiLower(name);
  if (lower == "json" || lower == "org.apache.spark.sql.execution.datasources.json.jsonfileformat")
    return FileFormat::kJson;
  if (lower == "csv" || lower == "org.apache.spark.sql.execution.datasources.csv.csvfileformat")
    return FileFormat::kCsv;
  if (lower == "parquet" ||
      lower == "org.apache.spark.sql.execution.datasources.parquet.parquetfileformat")
    return FileFormat::kParquet;
  if (lower == "orc" || lower == "org.apache.spark.sql.execution.datasources.orc.orcfileformat")
    return FileFormat::kOrc;
  if (lower == "text" || lower == "org.apache.spark.sql.execution.datasources.text.textfileformat")
    return FileFormat::kText;
  return SparkError("DATA_SOURCE_NOT_FOUND",
                    "Failed to find the data source: " + std::string(name) +
                        ". Make sure the provider name is correct; the file formats are json, "
                        "csv, parquet, orc and text.");
}

std::string_view FileFormatName(FileFormat format) {
  switch (format) {
    case FileFormat::kJson: return "json";
    case FileFormat::kCsv: return "csv";
    case FileFormat::kParquet: return "parquet";
    case FileFormat::kOrc: return "orc";
    case FileFormat::kText: return "text";
  }
  return "";
}

std::string_view FileFormatDisplayName(FileFormat format) {
  switch (format) {
    case FileFormat::kJson: return "JSON";
    case FileFormat::kCsv: return "CSV";
    case FileFormat::kParquet: return "Parquet";
    case FileFormat::kOrc: return "ORC";
    case FileFormat::kText: return "Text";
  }
  return "";
}

std::string_view CompressionExtension(Compression compression, FileFormat format) {
  switch (compression) {
    case Compression::kNone: return "";
    case Compression::kSnappy: return ".snappy";
    case Compression::kGzip: return format == FileFormat::kParquet ? ".gz" : ".gz";
    case Compression::kZstd: return ".zstd";
    case Compression::kLz4: return format == FileFormat::kParquet ? ".lz4hadoop" : ".lz4";
    case Compression::kZlib: return ".zlib";
  }
  return "";
}

std::vector<OptionDoc> DocumentedOptions(FileFormat format, bool for_write) {
  switch (format) {
    case FileFormat::kJson:
      return for_write ? OptionTableDocs<JsonWriteOptions>(kJsonWriteTable)
                       : OptionTableDocs<JsonReadOptions>(kJsonReadTable);
    case FileFormat::kCsv:
      return for_write ? OptionTableDocs<CsvWriteOptions>(kCsvWriteTable)
                       : OptionTableDocs<CsvReadOptions>(kCsvReadTable);
    case FileFormat::kParquet:
      return for_write ? OptionTableDocs<ParquetWriteOptions>(kParquetWriteTable)
                       : OptionTableDocs<ParquetReadOptions>(kParquetReadTable);
    case FileFormat::kOrc:
      return for_write ? OptionTableDocs<OrcWriteOptions>(kOrcWriteTable)
                       : OptionTableDocs<OrcReadOptions>(kOrcReadTable);
    case FileFormat::kText:
      return for_write ? OptionTableDocs<TextWriteOptions>(kTextWriteTable)
                       : OptionTableDocs<TextReadOptions>(kTextReadTable);
  }
  return {};
}

arrow::Result<JsonReadOptions> ParseJsonReadOptions(const OptionMap& options) {
  return ApplyOptionTable<JsonReadOptions>(kJsonReadTable, options);
}
arrow::Result<CsvReadOptions> ParseCsvReadOptions(const OptionMap& options) {
  // sep wins over delimiter when both are given (the table applies delimiter first).
  return ApplyOptionTable<CsvReadOptions>(kCsvReadTable, options);
}
arrow::Result<ParquetReadOptions> ParseParquetReadOptions(const OptionMap& options) {
  return ApplyOptionTable<ParquetReadOptions>(kParquetReadTable, options);
}
arrow::Result<OrcReadOptions> ParseOrcReadOptions(const OptionMap& options) {
  return ApplyOptionTable<OrcReadOptions>(kOrcReadTable, options);
}
arrow::Result<TextReadOptions> ParseTextReadOptions(const OptionMap& options) {
  return ApplyOptionTable<TextReadOptions>(kTextReadTable, options);
}
arrow::Result<JsonWriteOptions> ParseJsonWriteOptions(const OptionMap& options) {
  return ApplyOptionTable<JsonWriteOptions>(kJsonWriteTable, options);
}
arrow::Result<CsvWriteOptions> ParseCsvWriteOptions(const OptionMap& options) {
  return ApplyOptionTable<CsvWriteOptions>(kCsvWriteTable, options);
}
arrow::Result<ParquetWriteOptions> ParseParquetWriteOptions(const OptionMap& options) {
  return ApplyOptionTable<ParquetWriteOptions>(kParquetWriteTable, options);
}
arrow::Result<OrcWriteOptions> ParseOrcWriteOptions(const OptionMap& options) {
  return ApplyOptionTable<OrcWriteOptions>(kOrcWriteTable, options);
}
arrow::Result<TextWriteOptions> ParseTextWriteOptions(const OptionMap& options) {
  return ApplyOptionTable<TextWriteOptions>(kTextWriteTable, options);
}

}  // namespace sluice::formats
