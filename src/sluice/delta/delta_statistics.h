// The statistics of a Delta data file (add.stats): numRecords, and per column minValues,
// maxValues and nullCount, which readers use to skip files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <arrow/type_fwd.h>

#include "sluice/formats/column_statistics.h"

namespace sluice::delta {

/// Delta's default number of leading columns with statistics (delta.dataSkippingNumIndexedCols).
inline constexpr int kIndexedColumns = 32;
/// Delta's string prefix length in statistics (delta.dataSkippingStringPrefixLength).
inline constexpr size_t kStringPrefixCharacters = 32;

/// The stats JSON of a file with `rows` rows whose columns are `data_schema`'s, with
/// `statistics` per column. The first kIndexedColumns top-level columns get a nullCount, and
/// minValues/maxValues where their type keeps an order. Every bound is safe for skipping: a
/// string minimum is cut to its first 32 characters, a string maximum longer than that is left
/// out, a timestamp maximum is rounded up to the millisecond Delta's text keeps.
std::string StatisticsJson(int64_t rows, const arrow::Schema& data_schema,
                           const std::vector<formats::ColumnStatistics>& statistics);

}  // namespace sluice::delta
