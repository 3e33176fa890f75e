#include "sluice/formats/part_file_stream.h"

#include <cerrno>

#include <arrow/io/file.h>
#include <arrow/util/io_util.h>

#include "sluice/common/fault_points.h"
#include "sluice/formats/gzip_streams.h"

namespace sluice::formats {

namespace {

class PartFileStream final : public arrow::io::OutputStream {
 public:
  PartFileStream(std::shared_ptr<arrow::io::FileOutputStream> file, std::string path)
      : file_(std::move(file)), path_(std::move(path)) {}

  arrow::Status Write(const void* data, int64_t nbytes) override {
    if (FailPoint(fault_points::kFileWrite, path_)) {
      return arrow::internal::IOErrorFromErrno(ENOSPC, "Error writing bytes to file");
    }
    ARROW_RETURN_NOT_OK(file_->Write(data, nbytes));
    KillPoint(fault_points::kFileHalfWritten, path_);
    return arrow::Status::OK();
  }
  arrow::Status Flush() override { return file_->Flush(); }
  arrow::Status Close() override { return file_->Close(); }
  arrow::Status Abort() override { return file_->Abort(); }
  arrow::Result<int64_t> Tell() const override { return file_->Tell(); }
  bool closed() const override { return file_->closed(); }

 private:
  std::shared_ptr<arrow::io::FileOutputStream> file_;
  std::string path_;
};

}  // namespace

arrow::Result<std::shared_ptr<arrow::io::OutputStream>> OpenPartFile(const std::string& path) {
  ARROW_ASSIGN_OR_RAISE(auto file, arrow::io::FileOutputStream::Open(path));
  return std::make_shared<PartFileStream>(std::move(file), path);
}

arrow::Result<std::shared_ptr<arrow::io::OutputStream>> OpenTextPartFile(
    const std::string& path, Compression compression) {
  ARROW_ASSIGN_OR_RAISE(auto stream, OpenPartFile(path));
  if (compression == Compression::kGzip) return Gzipping(std::move(stream));
  return stream;
}

}  // namespace sluice::formats
