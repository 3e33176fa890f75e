// A scratch folder per test, for the tests that read and write files.
#pragma once

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace sluice::testing {

/// A fresh folder under the system temp folder, removed with everything in it when the object
/// goes. Each object has its own folder, so tests may run in parallel.
class ScratchDir {
 public:
  ScratchDir() {
    std::random_device device;
    path_ = std::filesystem::temp_directory_path() /
            ("sluice-test-" + std::to_string(device()) + std::to_string(device()));
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code error;
    std::filesystem::remove_all(path_, error);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  std::string path() const { return path_.string(); }
  /// The path of `relative` inside the folder (nothing is created).
  std::string operator/(const std::string& relative) const { return (path_ / relative).string(); }

  /// Writes `content` to `relative` (creating folders); returns the file's path.
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

}  // namespace sluice::testing
