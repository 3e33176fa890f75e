#include "sluice/formats/gzip_streams.h"

#include <arrow/io/compressed.h>
#include <arrow/util/compression.h>

namespace sluice::formats {

namespace {

arrow::Result<std::shared_ptr<arrow::util::Codec>> GzipCodec() {
  ARROW_ASSIGN_OR_RAISE(std::shared_ptr<arrow::util::Codec> codec,
                        arrow::util::Codec::Create(arrow::Compression::GZIP));
  return codec;
}

// Arrow's compressed streams use a codec they do not own: these keep it alive with them.
class OwningInput final : public arrow::io::InputStream {
 public:
  OwningInput(std::shared_ptr<arrow::util::Codec> codec,
              std::shared_ptr<arrow::io::CompressedInputStream> stream)
      : codec_(std::move(codec)), stream_(std::move(stream)) {}
  arrow::Status Close() override { return stream_->Close(); }
  bool closed() const override { return stream_->closed(); }
  arrow::Result<int64_t> Tell() const override { return stream_->Tell(); }
  arrow::Result<int64_t> Read(int64_t nbytes, void* out) override {
    return stream_->Read(nbytes, out);
  }
  arrow::Result<std::shared_ptr<arrow::Buffer>> Read(int64_t nbytes) override {
    return stream_->Read(nbytes);
  }

 private:
  std::shared_ptr<arrow::util::Codec> codec_;
  std::shared_ptr<arrow::io::CompressedInputStream> stream_;
};

class OwningOutput final : public arrow::io::OutputStream {
 public:
  OwningOutput(std::shared_ptr<arrow::util::Codec> codec,
               std::shared_ptr<arrow::io::CompressedOutputStream> stream)
      : codec_(std::move(codec)), stream_(std::move(stream)) {}
  arrow::Status Write(const void* data, int64_t nbytes) override {
    return stream_->Write(data, nbytes);
  }
  arrow::Status Flush() override { return stream_->Flush(); }
  arrow::Status Close() override { return stream_->Close(); }
  arrow::Status Abort() override { return stream_->Abort(); }
  arrow::Result<int64_t> Tell() const override { return stream_->Tell(); }
  bool closed() const override { return stream_->closed(); }

 private:
  std::shared_ptr<arrow::util::Codec> codec_;
  std::shared_ptr<arrow::io::CompressedOutputStream> stream_;
};

}  // namespace

bool IsGzipPath(const std::string& path) {
  return path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
}

arrow::Result<std::shared_ptr<arrow::io::InputStream>> Gunzipped(
    std::shared_ptr<arrow::io::InputStream> raw) {
  ARROW_ASSIGN_OR_RAISE(auto codec, GzipCodec());
  ARROW_ASSIGN_OR_RAISE(auto stream,
                        arrow::io::CompressedInputStream::Make(codec.get(), std::move(raw)));
  return std::make_shared<OwningInput>(std::move(codec), std::move(stream));
}

arrow::Result<std::shared_ptr<arrow::io::OutputStream>> Gzipping(
    std::shared_ptr<arrow::io::OutputStream> raw) {
  ARROW_ASSIGN_OR_RAISE(auto codec, GzipCodec());
  ARROW_ASSIGN_OR_RAISE(auto stream,
                        arrow::io::CompressedOutputStream::Make(codec.get(), std::move(raw)));
  return std::make_shared<OwningOutput>(std::move(codec), std::move(stream));
}

}  // namespace sluice::formats
