// What the fuzz targets share: reading a fuzzer's bytes as a selector byte and text, and handing
// text to readers that take a file.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sluice::fuzz {

/// A fuzzer's input split into its first byte (picking options or a parser) and the rest.
struct FuzzInput {
  uint8_t selector = 0;
  std::string_view text;

  FuzzInput(const uint8_t* data, size_t size) {
    if (size == 0) return;
    selector = data[0];
    text = std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1);
  }
};

/// A file in memory holding `contents`, for the readers that open a path; gone with the object.
class MemoryFile {
 public:
  explicit MemoryFile(std::string_view contents) {
    fd_ = ::memfd_create("fuzz-input", MFD_CLOEXEC);
    if (fd_ < 0) return;
    size_t written = 0;
    while (written < contents.size()) {
      ssize_t n = ::write(fd_, contents.data() + written, contents.size() - written);
      if (n <= 0) break;
      written += static_cast<size_t>(n);
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  ~MemoryFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;

  bool ok() const { return fd_ >= 0; }
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

}  // namespace sluice::fuzz
