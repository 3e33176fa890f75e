// Row rendering and file reading for the file format tests; the scratch folder they write in
// is support/scratch_dir.h.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <arrow/record_batch.h>
#include <arrow/scalar.h>
#include <arrow/table.h>
#include <gtest/gtest.h>

#include "support/scratch_dir.h"
#include "support/table_rows.h"

namespace sluice::testing {

/// One string per row, cells joined by '|', null cells as "null", strings bare.
inline std::vector<std::string> Rows(const arrow::Table& table) {
  auto cell = [](const arrow::Array& column, int64_t row) -> std::string {
    auto scalar = column.GetScalar(row).ValueOrDie();
    if (!scalar->is_valid) return "null";
    if (scalar->type->id() == arrow::Type::STRING) {
      return std::string(static_cast<const arrow::StringScalar&>(*scalar).view());
    }
    return scalar->ToString();
  };
  return RenderRows(table, {cell, "|"});
}

/// The names of the files directly in `folder`, sorted.
inline std::vector<std::string> FileNames(const std::string& folder) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

inline std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace sluice::testing
