// Reads a local file line by line in bounded memory, keeping readable bytes after every line so
// simdjson can parse a line in place (it reads up to kLinePadding bytes past the end). A file
// whose name ends in .gz is gzip-compressed and read decompressed, as Spark's text, CSV and
// JSON sources read it (Hadoop's codec by extension).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/io/interfaces.h>
#include <arrow/result.h>

namespace sluice::formats {

/// Bytes that stay readable after each line returned by LineReader (simdjson's padding).
inline constexpr size_t kLinePadding = 64;

/// Splits a file at \n, \r\n and \r (Spark's default line separators). Memory is bounded by the
/// block size plus the longest line. Not thread-safe.
class LineReader {
 public:
  /// Opens `path`; an I/O error (or damaged gzip data) names the file.
  static arrow::Result<std::unique_ptr<LineReader>> Open(const std::string& path,
                                                         int64_t block_size = 1 << 20);

  /// The next line without its terminator, or nullopt at the end of the file. The view is
  /// valid until the next call and is followed by at least kLinePadding readable bytes.
  arrow::Result<std::optional<std::string_view>> Next();
  /// 1-based number of the line last returned.
  int64_t line_number() const { return line_number_; }

 private:
  LineReader() = default;
  arrow::Status Fill();

  std::shared_ptr<arrow::io::InputStream> file_;
  std::string path_;
  std::vector<char> buffer_;
  size_t begin_ = 0;
  size_t end_ = 0;
  int64_t block_size_ = 0;
  bool eof_ = false;
  bool skip_leading_newline_ = false;
  int64_t line_number_ = 0;
};

/// Reads a whole file (decompressed, for a .gz file) into a string with kLinePadding spare
/// capacity (for multiLine records).
arrow::Result<std::string> ReadWholeFile(const std::string& path);

}  // namespace sluice::formats
