#include "sluice/formats/value_text.h"

#include <charconv>

#include <arrow/array.h>
#include <arrow/type.h>

#include "sluice/formats/text_values.h"

namespace sluice::formats {

namespace {

constexpr int64_t kMicrosPerSecond = 1000000;

template <typename T>
void AppendInteger(T value, std::string* out) {
  char buffer[24];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out->append(buffer, result.ptr);
}

/// CAST(timestamp AS STRING): yyyy-MM-dd HH:mm:ss with the fraction's trailing zeros removed.
void AppendCastTimestamp(int64_t local_micros, std::string* out) {
  int64_t days = local_micros / (86400 * kMicrosPerSecond);
  int64_t rest = local_micros % (86400 * kMicrosPerSecond);
  if (rest < 0) {
    rest += 86400 * kMicrosPerSecond;
    --days;
  }
  AppendIsoDate(static_cast<int32_t>(days), out);
  char buffer[32];
  int n = std::snprintf(buffer, sizeof(buffer), " %02lld:%02lld:%02lld",
                        static_cast<long long>(rest / (3600 * kMicrosPerSecond)),
                        static_cast<long long>(rest / (60 * kMicrosPerSecond) % 60),
                        static_cast<long long>(rest / kMicrosPerSecond % 60));
  out->append(buffer, static_cast<size_t>(n));
  int64_t fraction = rest % kMicrosPerSecond;
  if (fraction != 0) {
    n = std::snprintf(buffer, sizeof(buffer), ".%06lld", static_cast<long long>(fraction));
    std::string text(buffer, static_cast<size_t>(n));
    while (text.back() == '0') text.pop_back();
    out->append(text);
  }
}

}  // namespace

arrow::Result<ValueText> ValueText::Make(const std::optional<std::string>& timestamp_format,
                                         const std::optional<std::string>& timestamp_ntz_format,
                                         const std::optional<std::string>& date_format,
                                         std::shared_ptr<const TimeZone> zone) {
  ValueText text;
  ARROW_ASSIGN_OR_RAISE(text.timestamp_, DatetimePattern::Compile(timestamp_format.value_or(
                                             "yyyy-MM-dd'T'HH:mm:ss.SSSXXX")));
  ARROW_ASSIGN_OR_RAISE(text.timestamp_ntz_, DatetimePattern::Compile(timestamp_ntz_format.value_or(
                                                 "yyyy-MM-dd'T'HH:mm:ss.SSS")));
  if (date_format) {
    ARROW_ASSIGN_OR_RAISE(text.date_, DatetimePattern::Compile(*date_format));
  }
  text.zone_ = std::move(zone);
  return text;
}

arrow::Result<ValueText> ValueText::MakeCastStyle(std::shared_ptr<const TimeZone> zone) {
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
        date_->Format(static_cast<int64_t>(days) * 86400 * kMicrosPerSecond, 0, out);
      } else {
        AppendIsoDate(days, out);
      }
      return;
    }
    case arrow::Type::TIMESTAMP: {
      const auto& type = static_cast<const arrow::TimestampType&>(*array.type());
      int64_t micros = static_cast<const arrow::TimestampArray&>(array).Value(row);
      if (type.timezone().empty()) {
        if (cast_style_) {
          AppendCastTimestamp(micros, out);
        } else {
          timestamp_ntz_->Format(micros, 0, out);
        }
        return;
      }
      int32_t offset = zone_->OffsetAt(micros);
      int64_t local = micros + offset * kMicrosPerSecond;
      if (cast_style_) {
        AppendCastTimestamp(local, out);
      } else {
        timestamp_->Format(local, offset, out);
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
