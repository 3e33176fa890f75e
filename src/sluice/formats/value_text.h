// Single values of an Arrow array as the text formats write them (CSV fields, JSON scalars,
// partition folder names), in Spark's spelling.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

#include "sluice/datetime/pattern.h"
#include "sluice/datetime/zone.h"

namespace sluice::formats {

/// Formats values of Spark's types. Immutable, thread-safe.
class ValueText {
 public:
  /// For file contents: timestamps as `timestamp_format` (default
  /// yyyy-MM-dd'T'HH:mm:ss.SSSXXX) in `zone`, dates as `date_format` (default yyyy-MM-dd).
  static arrow::Result<ValueText> Make(const std::optional<std::string>& timestamp_format,
                                       const std::optional<std::string>& timestamp_ntz_format,
                                       const std::optional<std::string>& date_format,
                                       std::shared_ptr<const datetime::TimeZone> zone);
  /// As CAST(value AS STRING) does (partition folder names): "2024-01-01 10:00:00[.fraction]".
  static arrow::Result<ValueText> MakeCastStyle(std::shared_ptr<const datetime::TimeZone> zone);

  /// Appends the text of array[row] (which must not be null). Nested values are written as
  /// Spark's CAST to string does ("[1, 2]", "{a, b}").
  void Append(const arrow::Array& array, int64_t row, std::string* out) const;

 private:
  std::optional<datetime::DateTimePattern> timestamp_;
  std::optional<datetime::DateTimePattern> timestamp_ntz_;
  std::optional<datetime::DateTimePattern> date_;
  std::shared_ptr<const datetime::TimeZone> zone_;
  bool cast_style_ = false;
};

}  // namespace sluice::formats
