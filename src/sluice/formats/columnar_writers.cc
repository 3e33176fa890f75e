// Parquet and ORC encoding through Arrow's writers.
#include <arrow/adapters/orc/adapter.h>
#include <arrow/io/file.h>
#include <arrow/scalar.h>
#include <arrow/table.h>
#include <parquet/arrow/writer.h>
#include <parquet/metadata.h>
#include <parquet/statistics.h>
#include <parquet/properties.h>

#include "sluice/common/errors.h"
#include "sluice/formats/file_writers.h"
#include "sluice/formats/part_file_stream.h"
#include "sluice/formats/parquet_dictionary_choice.h"

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

/// The number of Parquet leaf columns an Arrow field is written as.
int LeafCount(const arrow::DataType& type) {
  if (type.num_fields() == 0) return 1;
  int leaves = 0;
  for (const auto& field : type.fields()) leaves += LeafCount(*field->type());
  return leaves;
}

/// The smallest and largest value of one leaf column over every row group of a Parquet
/// footer, as scalars of `type`; nulls when a row group has no bounds or the type is not one
/// whose bounds are read here.
template <typename TypedStatistics, typename Convert>
std::pair<std::shared_ptr<arrow::Scalar>, std::shared_ptr<arrow::Scalar>> FooterBounds(
    const parquet::FileMetaData& footer, int leaf, Convert convert) {
  using Value = typename TypedStatistics::T;
  std::optional<Value> low, high;
  for (int g = 0; g < footer.num_row_groups(); ++g) {
    auto chunk = footer.RowGroup(g)->ColumnChunk(leaf);
    if (chunk->num_values() == 0) continue;
    auto statistics = chunk->statistics();
    if (statistics == nullptr) return {nullptr, nullptr};
    if (!statistics->HasMinMax()) {
      // A row group of nulls only has no bounds and needs none.
      if (!statistics->HasNullCount() || statistics->null_count() < chunk->num_values()) {
        return {nullptr, nullptr};
      }
      continue;
    }
    const auto& typed = static_cast<const TypedStatistics&>(*statistics);
    if (!low || convert.less(typed.min(), *low)) low = typed.min();
    if (!high || convert.less(*high, typed.max())) high = typed.max();
  }
  if (!low) return {nullptr, nullptr};
  return {convert.scalar(*low), convert.scalar(*high)};
}

// Opens the Parquet writer at the first batch, which decides the columns' encodings
// (parquet_dictionary_choice.h); a file without rows gets the writer's defaults.
class ParquetFileWriter final : public FormatFileWriter {
 public:
  ParquetFileWriter(std::shared_ptr<arrow::io::OutputStream> stream,
                    std::shared_ptr<arrow::Schema> schema, arrow::Compression::type codec)
      : stream_(std::move(stream)), schema_(std::move(schema)), codec_(codec) {}
  arrow::Status Write(const arrow::RecordBatch& batch) override {
    if (writer_ == nullptr) ARROW_RETURN_NOT_OK(Open(&batch));
    return writer_->WriteRecordBatch(batch);
  }
  arrow::Status Close() override {
    if (writer_ == nullptr) ARROW_RETURN_NOT_OK(Open(nullptr));
    return writer_->Close();
  }

  void RecordedBounds(std::vector<ColumnStatistics>* statistics) const override {
    auto footer = writer_->metadata();
    if (footer == nullptr) return;
    int leaf = 0;
    for (int c = 0; c < schema_->num_fields() && c < static_cast<int>(statistics->size()); ++c) {
      const auto& type = schema_->field(c)->type();
      auto [low, high] = Bounds(*footer, leaf, type);
      (*statistics)[c].SetBounds(std::move(low), std::move(high));
      leaf += LeafCount(*type);
    }
  }

 private:
  /// A numeric physical type read as `type` (a signed integer, a date, a microsecond
  /// timestamp, a float).
  template <typename Native>
  struct Numbers {
    std::shared_ptr<arrow::DataType> type;
    bool less(Native a, Native b) const { return a < b; }
    std::shared_ptr<arrow::Scalar> scalar(Native value) const {
      auto made = arrow::MakeScalar(type, value);
      return made.ok() ? *made : nullptr;
    }
  };
  struct Strings {
    bool less(const parquet::ByteArray& a, const parquet::ByteArray& b) const {
      return View(a) < View(b);
    }
    std::shared_ptr<arrow::Scalar> scalar(const parquet::ByteArray& value) const {
      return std::make_shared<arrow::StringScalar>(std::string(View(value)));
    }
    static std::string_view View(const parquet::ByteArray& value) {
      return {reinterpret_cast<const char*>(value.ptr), value.len};
    }
  };

  static std::pair<std::shared_ptr<arrow::Scalar>, std::shared_ptr<arrow::Scalar>> Bounds(
      const parquet::FileMetaData& footer, int leaf,
      const std::shared_ptr<arrow::DataType>& type) {
    switch (type->id()) {
      case arrow::Type::INT8:
      case arrow::Type::INT16:
      case arrow::Type::INT32:
      case arrow::Type::DATE32:
        return FooterBounds<parquet::Int32Statistics>(footer, leaf, Numbers<int32_t>{type});
      case arrow::Type::INT64:
        return FooterBounds<parquet::Int64Statistics>(footer, leaf, Numbers<int64_t>{type});
      case arrow::Type::TIMESTAMP:
        // Written as microseconds (coerce_timestamps).
        if (static_cast<const arrow::TimestampType&>(*type).unit() != arrow::TimeUnit::MICRO) {
          return {nullptr, nullptr};
        }
        return FooterBounds<parquet::Int64Statistics>(footer, leaf, Numbers<int64_t>{type});
      case arrow::Type::FLOAT:
        return FooterBounds<parquet::FloatStatistics>(footer, leaf, Numbers<float>{type});
      case arrow::Type::DOUBLE:
        return FooterBounds<parquet::DoubleStatistics>(footer, leaf, Numbers<double>{type});
      case arrow::Type::STRING:
        return FooterBounds<parquet::ByteArrayStatistics>(footer, leaf, Strings{});
      default:
        return {nullptr, nullptr};
    }
  }

  arrow::Status Open(const arrow::RecordBatch* first) {
    parquet::WriterProperties::Builder properties;
    properties.compression(codec_);
    if (first != nullptr) {
      for (const auto& column : ColumnsWithoutDictionary(*first)) {
        properties.disable_dictionary(column);
      }
    }
    auto arrow_properties = parquet::ArrowWriterProperties::Builder()
                                .coerce_timestamps(arrow::TimeUnit::MICRO)
                                ->build();
    ARROW_ASSIGN_OR_RAISE(writer_, parquet::arrow::FileWriter::Open(
                                       *schema_, arrow::default_memory_pool(), stream_,
                                       properties.build(), arrow_properties));
    return arrow::Status::OK();
  }

  std::shared_ptr<arrow::io::OutputStream> stream_;
  std::shared_ptr<arrow::Schema> schema_;
  arrow::Compression::type codec_;
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
    ARROW_ASSIGN_OR_RAISE(auto stream, OpenPartFile(path));
    return std::make_unique<ParquetFileWriter>(std::move(stream), schema,
                                               ArrowCodec(options_.compression));
  }

 private:
  ParquetWriteOptions options_;
};

class OrcFileWriter final : public FormatFileWriter {
 public:
  OrcFileWriter(std::shared_ptr<arrow::io::OutputStream> stream,
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
  std::shared_ptr<arrow::io::OutputStream> stream_;
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
    ARROW_ASSIGN_OR_RAISE(auto stream, OpenPartFile(path));
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
