// JSON Lines encoding, as Spark's JacksonGenerator.
#include <cmath>

#include "sluice/common/json_string.h"

#include <arrow/array.h>
#include <arrow/io/file.h>
#include <arrow/type.h>

#include "sluice/common/base64.h"
#include "sluice/common/errors.h"
#include "sluice/formats/file_writers.h"
#include "sluice/formats/part_file_stream.h"
#include "sluice/formats/text_values.h"
#include "sluice/formats/value_text.h"

namespace sluice::formats {

namespace {


class JsonEncoder {
 public:
  JsonEncoder(const JsonWriteOptions& options, ValueText text)
      : options_(options), text_(std::move(text)) {}

  void AppendValue(const arrow::Array& array, int64_t row, std::string* out) const {
    if (array.IsNull(row)) {
      out->append("null");
      return;
    }
    switch (array.type_id()) {
      case arrow::Type::STRING: {
        AppendJsonString(static_cast<const arrow::StringArray&>(array).GetView(row), out);
        return;
      }
      case arrow::Type::BINARY: {
        std::string encoded;
        AppendBase64(static_cast<const arrow::BinaryArray&>(array).GetView(row), &encoded);
        AppendJsonString(encoded, out);
        return;
      }
      case arrow::Type::FLOAT:
      case arrow::Type::DOUBLE: {
        double value = array.type_id() == arrow::Type::FLOAT
                           ? static_cast<const arrow::FloatArray&>(array).Value(row)
                           : static_cast<const arrow::DoubleArray&>(array).Value(row);
        if (std::isnan(value) || std::isinf(value)) {
          // Jackson quotes the non-numeric numbers.
          out->push_back('"');
          text_.Append(array, row, out);
          out->push_back('"');
        } else {
          text_.Append(array, row, out);
        }
        return;
      }
      case arrow::Type::DATE32:
      case arrow::Type::TIMESTAMP: {
        std::string formatted;
        text_.Append(array, row, &formatted);
        AppendJsonString(formatted, out);
        return;
      }
      case arrow::Type::STRUCT: {
        const auto& struct_array = static_cast<const arrow::StructArray&>(array);
        arrow::ArrayVector fields;
        for (int i = 0; i < struct_array.num_fields(); ++i) fields.push_back(struct_array.field(i));
        AppendObject(fields, static_cast<const arrow::StructType&>(*array.type()), row, out);
        return;
      }
      case arrow::Type::LIST: {
        const auto& list = static_cast<const arrow::ListArray&>(array);
        auto values = list.values();
        out->push_back('[');
        for (int32_t i = list.value_offset(row); i < list.value_offset(row + 1); ++i) {
          if (i > list.value_offset(row)) out->push_back(',');
          AppendValue(*values, i, out);
        }
        out->push_back(']');
        return;
      }
      case arrow::Type::MAP: {
        const auto& map = static_cast<const arrow::MapArray&>(array);
        auto keys = map.keys();
        auto items = map.items();
        out->push_back('{');
        for (int32_t i = map.value_offset(row); i < map.value_offset(row + 1); ++i) {
          if (i > map.value_offset(row)) out->push_back(',');
          std::string key;
          text_.Append(*keys, i, &key);
          AppendJsonString(key, out);
          out->push_back(':');
          AppendValue(*items, i, out);
        }
        out->push_back('}');
        return;
      }
      default:
        text_.Append(array, row, out);
        return;
    }
  }

  /// One row of a struct as an object: `fields` are its child arrays (already sliced like the
  /// struct, as StructArray::field gives them) and `names` their names.
  void AppendObject(const arrow::ArrayVector& fields, const arrow::StructType& type, int64_t row,
                    std::string* out) const {
    out->push_back('{');
    bool first = true;
    for (size_t i = 0; i < fields.size(); ++i) {
      const arrow::Array& child = *fields[i];
      if (options_.ignore_null_fields && child.IsNull(row)) continue;
      if (!first) out->push_back(',');
      first = false;
      AppendJsonString(type.field(static_cast<int>(i))->name(), out);
      out->push_back(':');
      AppendValue(child, row, out);
    }
    out->push_back('}');
  }

 private:
  JsonWriteOptions options_;
  ValueText text_;
};

class JsonFileWriter final : public FormatFileWriter {
 public:
  JsonFileWriter(std::shared_ptr<arrow::io::OutputStream> stream,
                 std::shared_ptr<const JsonEncoder> encoder)
      : stream_(std::move(stream)), encoder_(std::move(encoder)) {}

  arrow::Status Write(const arrow::RecordBatch& batch) override {
    std::string out;
    arrow::StructType type(batch.schema()->fields());
    const arrow::ArrayVector& fields = batch.columns();
    for (int64_t row = 0; row < batch.num_rows(); ++row) {
      encoder_->AppendObject(fields, type, row, &out);
      out.push_back('\n');
      if (out.size() > (1 << 20)) {
        ARROW_RETURN_NOT_OK(stream_->Write(out.data(), static_cast<int64_t>(out.size())));
        out.clear();
      }
    }
    return stream_->Write(out.data(), static_cast<int64_t>(out.size()));
  }

  arrow::Status Close() override { return stream_->Close(); }

 private:
  std::shared_ptr<arrow::io::OutputStream> stream_;
  std::shared_ptr<const JsonEncoder> encoder_;
};

class JsonWriter final : public FormatWriter {
 public:
  JsonWriter(std::shared_ptr<const JsonEncoder> encoder, Compression compression)
      : encoder_(std::move(encoder)), compression_(compression) {}
  FileFormat format() const override { return FileFormat::kJson; }
  std::string FileSuffix() const override {
    return ".json" + std::string(CompressionExtension(compression_, FileFormat::kJson));
  }
  arrow::Status CheckSchema(const arrow::Schema&) const override { return arrow::Status::OK(); }
  arrow::Result<std::unique_ptr<FormatFileWriter>> Open(
      const std::string& path, const std::shared_ptr<arrow::Schema>&) const override {
    ARROW_ASSIGN_OR_RAISE(auto stream, OpenTextPartFile(path, compression_));
    return std::make_unique<JsonFileWriter>(std::move(stream), encoder_);
  }

 private:
  std::shared_ptr<const JsonEncoder> encoder_;
  Compression compression_;
};

}  // namespace

arrow::Result<std::shared_ptr<const FormatWriter>> MakeJsonWriter(const OptionMap& options,
                                                                  const FormatContext& context) {
  ARROW_ASSIGN_OR_RAISE(auto parsed, ParseJsonWriteOptions(options));
  ARROW_ASSIGN_OR_RAISE(auto zone, ResolveZone(parsed.time_zone, context));
  ARROW_ASSIGN_OR_RAISE(auto text, ValueText::Make(parsed.timestamp_format,
                                                   parsed.timestamp_ntz_format,
                                                   parsed.date_format, std::move(zone)));
  return std::make_shared<JsonWriter>(std::make_shared<JsonEncoder>(parsed, std::move(text)),
                                      parsed.compression);
}

}  // namespace sluice::formats
