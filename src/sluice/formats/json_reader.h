// Decoding of JSON records into Arrow record batches with Spark's JSON data source semantics
// (JacksonParser): JSON Lines by default, a whole-file document with multiLine; malformed
// records handled by the parse mode (PERMISSIVE keeps the fields that converted and puts the raw
// record in the corrupt-record column, DROPMALFORMED skips the record, FAILFAST fails naming the
// file and record). Parsing is simdjson on-demand straight into column buffers.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <arrow/record_batch.h>
#include <arrow/result.h>

#include "sluice/datetime/zone.h"
#include "sluice/formats/format_options.h"

namespace sluice::formats {

/// Decodes JSON records into rows of a fixed schema. Rows accumulate until Flush(). Not
/// thread-safe; make one per scan.
class JsonRecordDecoder {
 public:
  /// `schema` is the data schema (Spark types); a string field named like the option
  /// columnNameOfCorruptRecord receives malformed records' text. `zone` interprets timestamps
  /// without an offset.
  static arrow::Result<std::unique_ptr<JsonRecordDecoder>> Make(
      std::shared_ptr<arrow::Schema> schema, const JsonReadOptions& options,
      std::shared_ptr<const datetime::TimeZone> zone);
  ~JsonRecordDecoder();

  /// Decodes one record's text (a line, or a whole file with multiLine): appends zero rows
  /// (blank, or dropped), one row, or one per element of a top-level array of objects.
  /// `padded_size` >= text.size() + 64 bytes must be readable from text.data(). `file` and
  /// `line` only serve the FAILFAST message.
  arrow::Status Decode(std::string_view text, size_t padded_size, const std::string& file,
                       int64_t line);
  int64_t num_rows() const;
  /// The rows decoded since the last Flush.
  arrow::Result<std::shared_ptr<arrow::RecordBatch>> Flush();

 private:
  class Impl;
  explicit JsonRecordDecoder(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// Reads one JSON file (JSON Lines, or multiLine) as batches of about `batch_rows` rows, in
/// bounded memory for JSON Lines.
arrow::Result<std::shared_ptr<arrow::RecordBatchReader>> OpenJsonFile(
    const std::string& path, std::shared_ptr<arrow::Schema> schema, const JsonReadOptions& options,
    std::shared_ptr<const datetime::TimeZone> zone, int64_t batch_rows);

/// Spark's JSON schema inference over whole files (JsonInferSchema): long/double/decimal/
/// string/boolean/struct/array, field names sorted, conflicting types widened (to string when
/// nothing narrower holds both), nulls only -> string. In PERMISSIVE mode a malformed record
/// adds the corrupt-record column; FAILFAST fails on it. Fails with UNABLE_TO_INFER_SCHEMA when
/// no field was found.
arrow::Result<std::shared_ptr<arrow::Schema>> InferJsonSchema(
    const std::vector<std::string>& files, const JsonReadOptions& options);

}  // namespace sluice::formats
