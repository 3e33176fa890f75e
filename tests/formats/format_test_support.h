// Scratch folders and row rendering for the file format tests.
#pragma once

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <arrow/record_batch.h>
#include <arrow/scalar.h>
#include <arrow/table.h>
#include <gtest/gtest.h>

namespace sluice::testing {

/// A fresh folder under the system temp folder, removed with everything in it at the end.
class ScratchDir {
 public:
  ScratchDir() {
    std::random_device device;
    path_ = std::filesystem::temp_directory_path() /
            ("sluice-formats-" + std::to_string(device()) + std::to_string(device()));
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code error;
    std::filesystem::remove_all(path_, error);
  }
  std::string path() const { return path_.string(); }
  std::string operator/(const std::string& relative) const { return (path_ / relative).string(); }

  /// Writes `content` to `relative` (creating folders).
  std::string Write(const std::string& relative, const std::string& content) const {
    auto file = path_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary);
    out << content;
    return file.string();
  }

 private:
  std::filesystem::path path_;
};

/// One string per row, cells joined by '|', null cells as "null", strings bare.
inline std::vector<std::string> Rows(const arrow::Table& table) {
  std::vector<std::string> rows;
  auto combined = table.CombineChunksToBatch();
  if (!combined.ok()) {
    ADD_FAILURE() << combined.status().ToString();
    return rows;
  }
  const auto& batch = **combined;
  for (int64_t r = 0; r < batch.num_rows(); ++r) {
    std::string row;
    for (int c = 0; c < batch.num_columns(); ++c) {
      if (c > 0) row += "|";
      auto scalar = batch.column(c)->GetScalar(r).ValueOrDie();
      if (!scalar->is_valid) {
        row += "null";
      } else if (scalar->type->id() == arrow::Type::STRING) {
        row += static_cast<const arrow::StringScalar&>(*scalar).view();
      } else {
        row += scalar->ToString();
      }
    }
    rows.push_back(row);
  }
  return rows;
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
