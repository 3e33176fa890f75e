#include "sluice/formats/value_text.h"

#include <charconv>

#include <arrow/array.h>
#include <arrow/scalar.h>
#include <arrow/type.h>

#include "sluice/datetime/calendar.h"
#include "sluice/datetime/print.h"
#include "sluice/formats/text_values.h"

namespace sluice::formats {

namespace {

template <typename T>
void AppendInteger(T value, std::string* out) {
  char buffer[24];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out->append(buffer, result.ptr);
}

}  // namespace

arrow::Result<ValueText> ValueText::Make(const std::optional<std::string>& timestamp_format,
                                         const std::optional<std::string>& timestamp_ntz_format,
                                         const std::optional<std::string>& date_format,
                                         std::shared_ptr<const datetime::TimeZone> zone) {
  ValueText text;
  ARROW_ASSIGN_OR_RAISE(text.timestamp_,
                        datetime::DateTimePattern::Compile(
                            timestamp_format.value_or("yyyy-MM-dd'T'HH:mm:ss.SSSXXX")));
  ARROW_ASSIGN_OR_RAISE(text.timestamp_ntz_,
                        datetime::DateTimePattern::Compile(
                            timestamp_ntz_format.value_or("yyyy-MM-dd'T'HH:mm:ss.SSS")));
  if (date_format) {
    ARROW_ASSIGN_OR_RAISE(text.date_, datetime::DateTimePattern::Compile(*date_format));
  }
  text.zone_ = std::move(zone);
  return text;
}

arrow::Result<ValueText> ValueText::MakeCastStyle(
    std::shared_ptr<const datetime::TimeZone> zone) {
  ValueText text;
  text.zone_ = std::move(zone);
  text.cast_style_ = true;
  return text;
}

void ValueText::Append(const arrow::Array& array, int64_t row, std::string* out) const {
  switch (array.type_id()) {
    case arrow::Type::BOOL:
      out->append(static_cast<const arrow::BooleanArray&>(array).Value(row) ? "true" : "false");
      return;
    case arrow::Type::INT8:
      AppendInteger(static_cast<const arrow::Int8Array&>(array).Value(row), out);
      return;
    case arrow::Type::INT16:
      AppendInteger(static_cast<const arrow::Int16Array&>(array).Value(row), out);
      return;
    case arrow::Type::INT32:
      AppendInteger(static_cast<const arrow::Int32Array&>(array).Value(row), out);
      return;
    case arrow::Type::INT64:
      AppendInteger(static_cast<const arrow::Int64Array&>(array).Value(row), out);
      return;
    case arrow::Type::FLOAT:
      AppendJavaFloat(static_cast<const arrow::FloatArray&>(array).Value(row), out);
      return;
    case arrow::Type::DOUBLE:
      AppendJavaDouble(static_cast<const arrow::DoubleArray&>(array).Value(row), out);
      return;
    case arrow::Type::DECIMAL128: {
      const auto& decimal = static_cast<const arrow::Decimal128Array&>(array);
      const auto& type = static_cast<const arrow::Decimal128Type&>(*array.type());
      AppendJavaBigDecimal(arrow::Decimal128(decimal.GetValue(row)), type.scale(), out);
      return;
    }
    case arrow::Type::STRING:
      out->append(static_cast<const arrow::StringArray&>(array).GetView(row));
      return;
    case arrow::Type::BINARY:
      out->append(static_cast<const arrow::BinaryArray&>(array).GetView(row));
      return;
    case arrow::Type::DATE32: {
      int32_t days = static_cast<const arrow::Date32Array&>(array).Value(row);
      if (date_) {
        date_->Format(days * datetime::kMicrosPerDay, datetime::ZoneFacts{}, out);
      } else {
        datetime::AppendDate(days, out);
      }
      return;
    }
    case arrow::Type::TIMESTAMP: {
      const auto& type = static_cast<const arrow::TimestampType&>(*array.type());
      int64_t micros = static_cast<const arrow::TimestampArray&>(array).Value(row);
      if (type.timezone().empty()) {
        if (cast_style_) {
          datetime::AppendLocalTimestamp(micros, out);
        } else {
          timestamp_ntz_->Format(micros, datetime::ZoneFacts{}, out);
        }
        return;
      }
      const datetime::ZoneFacts facts = datetime::ZoneFactsAt(*zone_, micros);
      const int64_t local = micros + int64_t{facts.offset_seconds} * datetime::kMicrosPerSecond;
      if (cast_style_) {
        datetime::AppendLocalTimestamp(local, out);
      } else {
        timestamp_->Format(local, facts, out);
      }
      return;
    }
    case arrow::Type::LIST: {
      const auto& list = static_cast<const arrow::ListArray&>(array);
      out->push_back('[');
      for (int32_t i = list.value_offset(row); i < list.value_offset(row + 1); ++i) {
        if (i > list.value_offset(row)) out->append(", ");
        if (list.values()->IsNull(i)) {
          out->append("null");
        } else {
          Append(*list.values(), i, out);
        }
      }
      out->push_back(']');
      return;
    }
    case arrow::Type::STRUCT: {
      const auto& struct_array = static_cast<const arrow::StructArray&>(array);
      out->push_back('{');
      for (int i = 0; i < struct_array.num_fields(); ++i) {
        if (i > 0) out->append(", ");
        auto field = struct_array.field(i);
        if (field->IsNull(row)) {
          out->append("null");
        } else {
          Append(*field, row, out);
        }
      }
      out->push_back('}');
      return;
    }
    default:
      out->append(array.GetScalar(row).ValueOr(nullptr)
                      ? array.GetScalar(row).ValueOrDie()->ToString()
                      : std::string());
      return;
  }
}

}  // namespace sluice::formats
