#include "sluice/formats/line_reader.h"

#include <cstring>

#include <arrow/io/file.h>

#include "sluice/formats/gzip_streams.h"

namespace sluice::formats {

namespace {

/// The bytes of `path` as a stream: decompressed when it is a .gz file.
arrow::Result<std::shared_ptr<arrow::io::InputStream>> OpenDecompressed(const std::string& path) {
  ARROW_ASSIGN_OR_RAISE(auto file, arrow::io::ReadableFile::Open(path));
  if (!IsGzipPath(path)) return file;
  return Gunzipped(std::move(file));
}

/// Names the file in a read error: gzip errors do not.
arrow::Status InFile(const arrow::Status& status, const std::string& path) {
  if (status.ok()) return status;
  return status.WithMessage("Cannot read ", path, ": ", status.message());
}

}  // namespace

arrow::Result<std::unique_ptr<LineReader>> LineReader::Open(const std::string& path,
                                                           int64_t block_size) {
  std::unique_ptr<LineReader> reader(new LineReader());
  ARROW_ASSIGN_OR_RAISE(reader->file_, OpenDecompressed(path));
  reader->path_ = path;
  reader->block_size_ = block_size;
  reader->buffer_.resize(static_cast<size_t>(block_size) + kLinePadding);
  return reader;
}

arrow::Status LineReader::Fill() {
  // Move the unread tail to the front, grow when a line does not fit, then read one block.
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  size_t capacity = buffer_.size() - kLinePadding;
  if (end_ == capacity) {
    buffer_.resize(buffer_.size() * 2);
    capacity = buffer_.size() - kLinePadding;
  }
  auto read_or = file_->Read(static_cast<int64_t>(capacity - end_), buffer_.data() + end_);
  ARROW_RETURN_NOT_OK(InFile(read_or.status(), path_));
  const int64_t read = *read_or;
  if (read == 0) eof_ = true;
  end_ += static_cast<size_t>(read);
  return arrow::Status::OK();
}

arrow::Result<std::optional<std::string_view>> LineReader::Next() {
  while (true) {
    if (skip_leading_newline_ && begin_ < end_) {
      if (buffer_[begin_] == '\n') ++begin_;
      skip_leading_newline_ = false;
    }
    const char* start = buffer_.data() + begin_;
    size_t available = end_ - begin_;
    // The first \n, then a \r before it (rare): both scans stay within one line.
    const char* terminator = static_cast<const char*>(std::memchr(start, '\n', available));
    size_t scan = terminator == nullptr ? available : static_cast<size_t>(terminator - start);
    if (const void* carriage = std::memchr(start, '\r', scan)) {
      terminator = static_cast<const char*>(carriage);
    }
    if (terminator != nullptr) {
      size_t length = static_cast<size_t>(terminator - start);
      if (*terminator == '\r') {
        if (terminator + 1 < buffer_.data() + end_) {
          begin_ += length + (terminator[1] == '\n' ? 2 : 1);
        } else if (eof_) {
          begin_ += length + 1;
        } else {
          // A \r at the end of the block: the \n may be in the next block.
          begin_ += length + 1;
          skip_leading_newline_ = true;
        }
      } else {
        begin_ += length + 1;
      }
      ++line_number_;
      return std::string_view(start, length);
    }
    if (eof_) {
      if (available == 0) return std::nullopt;
      begin_ = end_;
      ++line_number_;
      return std::string_view(start, available);
    }
    ARROW_RETURN_NOT_OK(Fill());
  }
}

arrow::Result<std::string> ReadWholeFile(const std::string& path) {
  if (IsGzipPath(path)) {
    // The decompressed size is not known ahead: read blocks until the end.
    ARROW_ASSIGN_OR_RAISE(auto stream, OpenDecompressed(path));
    constexpr size_t kBlock = 1 << 20;
    std::string content;
    while (true) {
      const size_t at = content.size();
      content.resize(at + kBlock);
      auto read = stream->Read(static_cast<int64_t>(kBlock), content.data() + at);
      ARROW_RETURN_NOT_OK(InFile(read.status(), path));
      content.resize(at + static_cast<size_t>(*read));
      if (*read == 0) break;
    }
    content.reserve(content.size() + kLinePadding);
    return content;
  }
  ARROW_ASSIGN_OR_RAISE(auto file, arrow::io::ReadableFile::Open(path));
  ARROW_ASSIGN_OR_RAISE(int64_t size, file->GetSize());
  std::string content;
  content.reserve(static_cast<size_t>(size) + kLinePadding);
  content.resize(static_cast<size_t>(size));
  ARROW_ASSIGN_OR_RAISE(int64_t read, file->Read(size, content.data()));
  content.resize(static_cast<size_t>(read));
  return content;
}

}  // namespace sluice::formats
