// CSV decoding with Spark's CSV data source semantics (univocity settings as Spark sets them):
// quotes and escapes, nullValue/emptyValue, comment lines, blank lines skipped, header lines
// skipped per file, schema inference (inferSchema) and the parse modes; a record with too few
// or too many fields is malformed, as is a value that does not convert.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/formats/file_format.h"

namespace sluice::formats {

/// Splits CSV records into fields. Immutable once made.
class CsvTokenizer {
 public:
  explicit CsvTokenizer(const CsvReadOptions& options) : options_(options) {}

  /// A field of the record last tokenized: its text (after unquoting, before null mapping)
  /// or null.
  struct Field {
    size_t begin = 0;
    size_t end = 0;
    bool is_null = false;
  };

  /// Tokenizes the record starting at `*position` in `data` (a line, or with multiLine the rest
  /// of the file: quoted fields may span lines); advances past the record's terminator.
  /// Values go to `storage`, referenced by `fields`.
  void Tokenize(std::string_view data, size_t* position, std::vector<Field>* fields,
                std::string* storage) const;

 private:
  CsvReadOptions options_;
};

/// The CSV reader (schema inference and decoding).
arrow::Result<std::shared_ptr<const FormatReader>> MakeCsvReader(const OptionMap& options,
                                                                 const FormatContext& context);

}  // namespace sluice::formats
