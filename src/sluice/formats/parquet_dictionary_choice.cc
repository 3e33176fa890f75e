#include "sluice/formats/parquet_dictionary_choice.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_set>

#include <arrow/array.h>
#include <arrow/type.h>

namespace sluice::formats {

namespace {

// The values looked at per column: enough to tell a key from a category.
constexpr int64_t kSampleRows = 16384;

// Distinct values among the first `rows` non-null values of a fixed-width column, and their
// count.
template <typename CType>
std::pair<int64_t, int64_t> DistinctFixed(const arrow::Array& array, int64_t rows) {
  const auto* values = array.data()->GetValues<CType>(1);
  std::unordered_set<CType> seen;
  seen.reserve(static_cast<size_t>(rows));
  int64_t counted = 0;
  for (int64_t i = 0; i < array.length() && counted < rows; ++i) {
    if (array.IsNull(i)) continue;
    seen.insert(values[i]);
    ++counted;
  }
  return {static_cast<int64_t>(seen.size()), counted};
}

struct Sample {
  int64_t distinct = 0;
  int64_t values = 0;
  double width = 0;  // bytes of a plain value
};

std::optional<Sample> SampleColumn(const arrow::Array& array) {
  const int64_t rows = std::min(array.length(), kSampleRows);
  Sample sample;
  switch (array.type_id()) {
    case arrow::Type::INT32:
    case arrow::Type::DATE32:
    case arrow::Type::FLOAT: {
      auto [distinct, values] = DistinctFixed<uint32_t>(array, rows);
      return Sample{distinct, values, 4};
    }
    case arrow::Type::INT64:
    case arrow::Type::TIMESTAMP:
    case arrow::Type::DOUBLE: {
      auto [distinct, values] = DistinctFixed<uint64_t>(array, rows);
      return Sample{distinct, values, 8};
    }
    case arrow::Type::STRING:
    case arrow::Type::BINARY: {
      const auto& binary = static_cast<const arrow::BinaryArray&>(array);
      std::unordered_set<std::string_view> seen;
      seen.reserve(static_cast<size_t>(rows));
      int64_t bytes = 0;
      for (int64_t i = 0; i < binary.length() && sample.values < rows; ++i) {
        if (binary.IsNull(i)) continue;
        const auto value = binary.GetView(i);
        seen.insert(value);
        bytes += static_cast<int64_t>(value.size()) + 4;  // plain: length prefix and bytes
        ++sample.values;
      }
      sample.distinct = static_cast<int64_t>(seen.size());
      sample.width = sample.values > 0 ? static_cast<double>(bytes) / sample.values : 0;
      return sample;
    }
    default:
      return std::nullopt;  // nested, boolean, decimal: left to the writer's default
  }
}

}  // namespace

std::vector<std::string> ColumnsWithoutDictionary(const arrow::RecordBatch& sample) {
  std::vector<std::string> columns;
  for (int c = 0; c < sample.num_columns(); ++c) {
    auto column = SampleColumn(*sample.column(c));
    if (!column || column->values == 0) continue;
    // Dictionary: each distinct value once, plus a bit-packed index per value.
    const double index_bits = std::bit_width(static_cast<uint64_t>(column->distinct));
    const double dictionary = static_cast<double>(column->distinct) * column->width +
                              static_cast<double>(column->values) * index_bits / 8;
    const double plain = static_cast<double>(column->values) * column->width;
    if (dictionary >= plain) columns.push_back(sample.schema()->field(c)->name());
  }
  return columns;
}

}  // namespace sluice::formats
