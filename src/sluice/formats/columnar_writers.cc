// Parquet and ORC encoding through Arrow's writers.
#include <arrow/adapters/orc/adapter.h>
#include <arrow/io/file.h>
#include <arrow/table.h>
#include <parquet/arrow/writer.h>
#include <parquet/properties.h>

#include "sluice/common/errors.h"
#include "sluice/formats/file_writers.h"

namespace sluice::formats {

namespace {

arrow::Compression::type ArrowCodec(Compression compression) {
  switch (compression) {
    case Compression::kNone: return arrow::Compression::UNCOMPRESSED;
    case Compression::kSnappy: return arrow::Compression::SNAPPY;
    case Compression::kGzip: return arrow::Compression::GZIP;
    case Compression::kZstd: return arrow::Compression::ZSTD;
    case Compression::kLz4: return arrow::Compression::LZ4;
    case Compression::kZlib: return arrow::Compression::GZIP;
  }
  return arrow::Compression::UNCOMPRESSED;
}

class ParquetFileWriter final : public FormatFileWriter {
 public:
  explicit ParquetFileWriter(std::unique_ptr<parquet::arrow::FileWriter> writer)
      : writer_(std::move(writer)) {}
  arrow::Status Write(const arrow::RecordBatch& batch) override {
    return writer_->WriteRecordBatch(batch);
  }
  arrow::Status Close() override { return writer_->Close(); }

 private:
  std::unique_ptr<parquet::arrow::FileWriter> writer_;
};

class ParquetWriter final : public FormatWriter {
 public:
  explicit ParquetWriter(ParquetWriteOptions options) : options_(options) {}
  FileFormat format() const override { return FileFormat::kParquet; }
  std::string FileSuffix() const override {
    return std::string(CompressionExtension(options_.compression, FileFormat::kParquet)) +
           ".parquet";
  }
  arrow::Status CheckSchema(const arrow::Schema&) const override { return arrow::Status::OK(); }
  arrow::Result<std::unique_ptr<FormatFileWriter>> Open(
      const std::string& path, const std::shared_ptr<arrow::Schema>& schema) const override {
    ARROW_ASSIGN_OR_RAISE(auto stream, arrow::io::FileOutputStream::Open(path));
    auto properties = parquet::WriterProperties::Builder()
                          .compression(ArrowCodec(options_.compression))
                          ->build();
    auto arrow_properties = parquet::ArrowWriterProperties::Builder()
                                .coerce_timestamps(arrow::TimeUnit::MICRO)
                                ->build();
    ARROW_ASSIGN_OR_RAISE(auto writer,
                          parquet::arrow::FileWriter::Open(*schema, arrow::default_memory_pool(),
                                                           stream, properties, arrow_properties));
    return std::make_unique<ParquetFileWriter>(std::move(writer));
  }

 private:
  ParquetWriteOptions options_;
};

class OrcFileWriter final : public FormatFileWriter {
 public:
  OrcFileWriter(std::shared_ptr<arrow::io::FileOutputStream> stream,
                std::unique_ptr<arrow::adapters::orc::ORCFileWriter> writer)
      : stream_(std::move(stream)), writer_(std::move(writer)) {}
  arrow::Status Write(const arrow::RecordBatch& batch) override {
    // Spark's ORC reader knows ORC `timestamp` (an instant in UTC) but not `timestamp with
    // local time zone`, which Arrow writes for zoned timestamps: write the same instants as the
    // former. Top-level columns only.
    arrow::FieldVector fields;
    arrow::ArrayVector columns;
    for (int i = 0; i < batch.num_columns(); ++i) {
      auto column = batch.column(i);
      auto field = batch.schema()->field(i);
      if (column->type_id() == arrow::Type::TIMESTAMP &&
          !static_cast<const arrow::TimestampType&>(*column->type()).timezone().empty()) {
        auto data = column->data()->Copy();
        data->type = arrow::timestamp(arrow::TimeUnit::MICRO);
        column = arrow::MakeArray(data);
        field = field->WithType(data->type);
      }
      fields.push_back(field);
      columns.push_back(column);
    }
    return writer_->Write(*arrow::RecordBatch::Make(arrow::schema(fields), batch.num_rows(),
                                                    columns));
  }
  arrow::Status Close() override {
    ARROW_RETURN_NOT_OK(writer_->Close());
    return stream_->Close();
  }

 private:
  std::shared_ptr<arrow::io::FileOutputStream> stream_;
  std::unique_ptr<arrow::adapters::orc::ORCFileWriter> writer_;
};

class OrcWriter final : public FormatWriter {
 public:
  explicit OrcWriter(OrcWriteOptions options) : options_(options) {}
  FileFormat format() const override { return FileFormat::kOrc; }
  std::string FileSuffix() const override {
    return std::string(CompressionExtension(options_.compression, FileFormat::kOrc)) + ".orc";
  }
  arrow::Status CheckSchema(const arrow::Schema&) const override { return arrow::Status::OK(); }
  arrow::Result<std::unique_ptr<FormatFileWriter>> Open(
      const std::string& path, const std::shared_ptr<arrow::Schema>&) const override {
    ARROW_ASSIGN_OR_RAISE(auto stream, arrow::io::FileOutputStream::Open(path));
    arrow::adapters::orc::WriteOptions write_options;
    write_options.compression = ArrowCodec(options_.compression);
    ARROW_ASSIGN_OR_RAISE(auto writer,
                          arrow::adapters::orc::ORCFileWriter::Open(stream.get(), write_options));
    return std::make_unique<OrcFileWriter>(std::move(stream), std::move(writer));
  }

 private:
  OrcWriteOptions options_;
};

}  // namespace

arrow::Result<std::shared_ptr<const FormatWriter>> MakeParquetWriter(
    const OptionMap& options, const FormatContext&) {
  ARROW_ASSIGN_OR_RAISE(auto parsed, ParseParquetWriteOptions(options));
  return std::make_shared<ParquetWriter>(parsed);
}

arrow::Result<std::shared_ptr<const FormatWriter>> MakeOrcWriter(const OptionMap& options,
                                                                 const FormatContext&) {
  ARROW_ASSIGN_OR_RAISE(auto parsed, ParseOrcWriteOptions(options));
  return std::make_shared<OrcWriter>(parsed);
}

}  // namespace sluice::formats
