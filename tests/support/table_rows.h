// Tables as lists of row strings, for comparing query output in tests.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/array.h>
#include <arrow/table.h>
#include <gtest/gtest.h>

namespace sluice::testing {

/// How RenderRows writes one row: each cell by `cell`, `separator` between cells, the whole
/// between `open` and `close`.
struct RowStyle {
  std::function<std::string(const arrow::Array& column, int64_t row)> cell;
  std::string_view separator;
  std::string_view open = "";
  std::string_view close = "";
};

/// One string per row of `table`, in order. A table whose chunks cannot be combined fails the
/// test and yields no rows.
inline std::vector<std::string> RenderRows(const arrow::Table& table, const RowStyle& style) {
  std::vector<std::string> rows;
  auto combined = table.CombineChunksToBatch();
  if (!combined.ok()) {
    ADD_FAILURE() << combined.status().ToString();
    return rows;
  }
  const auto& batch = **combined;
  for (int64_t row = 0; row < batch.num_rows(); ++row) {
    std::string text(style.open);
    for (int column = 0; column < batch.num_columns(); ++column) {
      if (column > 0) text += style.separator;
      text += style.cell(*batch.column(column), row);
    }
    text += style.close;
    rows.push_back(std::move(text));
  }
  return rows;
}

}  // namespace sluice::testing
