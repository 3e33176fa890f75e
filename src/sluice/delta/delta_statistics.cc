#include "sluice/delta/delta_statistics.h"

#include <charconv>
#include <cmath>
#include <optional>

#include <arrow/scalar.h>
#include <arrow/type.h>

#include "sluice/common/json_writer.h"
#include "sluice/datetime/calendar.h"
#include "sluice/datetime/print.h"

namespace sluice::delta {

namespace {

enum class Bound { kMin, kMax };

/// The byte length of the first `characters` UTF-8 characters of `text` (all of it if shorter).
size_t PrefixBytes(std::string_view text, size_t characters) {
  size_t i = 0;
  for (size_t count = 0; i < text.size() && count < characters; ++count) {
    auto lead = static_cast<unsigned char>(text[i]);
    i += lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
  }
  return std::min(i, text.size());
}

/// "2024-01-01T10:00:00.123Z": a UTC instant to the millisecond; a maximum is rounded up.
std::string TimestampText(int64_t micros, Bound bound) {
  int64_t millis = datetime::FloorDiv(micros, 1000);
  if (bound == Bound::kMax && datetime::FloorMod(micros, 1000) != 0) ++millis;
  const int64_t days = datetime::FloorDiv(millis, 86400000);
  const int64_t in_day = datetime::FloorMod(millis, 86400000);
  std::string text;
  datetime::AppendDate(days, &text);
  char time[24];
  std::snprintf(time, sizeof(time), "T%02d:%02d:%02d.%03dZ", static_cast<int>(in_day / 3600000),
                static_cast<int>(in_day / 60000 % 60), static_cast<int>(in_day / 1000 % 60),
                static_cast<int>(in_day % 1000));
  return text + time;
}

/// Writes the bound as Delta writes it; false (nothing written) when it cannot be written
/// safely.
bool WriteBound(JsonWriter& json, const std::string& name, const arrow::Scalar& scalar,
                Bound bound) {
  switch (scalar.type->id()) {
    case arrow::Type::INT8:
    case arrow::Type::INT16:
    case arrow::Type::INT32:
    case arrow::Type::INT64:
    case arrow::Type::UINT8:
    case arrow::Type::UINT16:
    case arrow::Type::UINT32: {
      auto value = scalar.CastTo(arrow::int64());
      if (!value.ok()) return false;
      json.Key(name);
      json.Int(static_cast<const arrow::Int64Scalar&>(**value).value);
      return true;
    }
    case arrow::Type::FLOAT:
    case arrow::Type::DOUBLE: {
      double value = scalar.type->id() == arrow::Type::FLOAT
                         ? static_cast<const arrow::FloatScalar&>(scalar).value
                         : static_cast<const arrow::DoubleScalar&>(scalar).value;
      if (!std::isfinite(value)) return false;
      char text[32];
      auto end = std::to_chars(text, text + sizeof(text), value).ptr;
      std::string literal(text, end);
      // A JSON number needs a digit before the exponent or a plain integer: to_chars gives
      // "1e+20" or "5", both valid JSON numbers.
      json.Key(name);
      json.Number(literal);
      return true;
    }
    case arrow::Type::DECIMAL128:
    case arrow::Type::DECIMAL256:
      json.Key(name);
      json.Number(scalar.ToString());
      return true;
    case arrow::Type::DATE32: {
      std::string text;
      datetime::AppendDate(static_cast<const arrow::Date32Scalar&>(scalar).value, &text);
      json.Key(name);
      json.String(text);
      return true;
    }
    case arrow::Type::TIMESTAMP: {
      const auto& type = static_cast<const arrow::TimestampType&>(*scalar.type);
      int64_t value = static_cast<const arrow::TimestampScalar&>(scalar).value;
      switch (type.unit()) {
        case arrow::TimeUnit::SECOND: value *= 1000000; break;
        case arrow::TimeUnit::MILLI: value *= 1000; break;
        case arrow::TimeUnit::MICRO: break;
        case arrow::TimeUnit::NANO:
          value = bound == Bound::kMax ? -datetime::FloorDiv(-value, 1000)
                                       : datetime::FloorDiv(value, 1000);
          break;
      }
      std::string text = TimestampText(value, bound);
      // A timestamp without a zone (timestamp_ntz) is written without the 'Z'.
      if (type.timezone().empty()) text.pop_back();
      json.Key(name);
      json.String(text);
      return true;
    }
    case arrow::Type::STRING:
    case arrow::Type::LARGE_STRING: {
      std::string_view text = scalar.type->id() == arrow::Type::STRING
                                  ? static_cast<const arrow::StringScalar&>(scalar).view()
                                  : static_cast<const arrow::LargeStringScalar&>(scalar).view();
      const size_t prefix = PrefixBytes(text, kStringPrefixCharacters);
      if (prefix < text.size() && bound == Bound::kMax) return false;
      json.Key(name);
      json.String(text.substr(0, prefix));
      return true;
    }
    default:
      return false;
  }
}

void WriteBounds(JsonWriter& json, const char* key, const arrow::Schema& schema,
                 const std::vector<formats::ColumnStatistics>& statistics, Bound bound) {
  json.Key(key);
  json.StartObject();
  const int columns = std::min<int>(schema.num_fields(), kIndexedColumns);
  for (int c = 0; c < columns; ++c) {
    const auto& scalar = bound == Bound::kMin ? statistics[c].min() : statistics[c].max();
    if (scalar == nullptr || !scalar->is_valid) continue;
    WriteBound(json, schema.field(c)->name(), *scalar, bound);
  }
  json.EndObject();
}

}  // namespace

std::string StatisticsJson(int64_t rows, const arrow::Schema& data_schema,
                           const std::vector<formats::ColumnStatistics>& statistics) {
  JsonWriter json(JsonWriter::Layout::kCompact);
  json.StartObject();
  json.Key("numRecords");
  json.Int(rows);
  WriteBounds(json, "minValues", data_schema, statistics, Bound::kMin);
  WriteBounds(json, "maxValues", data_schema, statistics, Bound::kMax);
  json.Key("nullCount");
  json.StartObject();
  const int columns = std::min<int>(data_schema.num_fields(), kIndexedColumns);
  for (int c = 0; c < columns; ++c) {
    if (data_schema.field(c)->type()->num_fields() > 0) continue;  // nested: left out
    json.Key(data_schema.field(c)->name());
    json.Int(statistics[c].null_count());
  }
  json.EndObject();
  json.EndObject();
  return std::move(json).TakeText();
}

}  // namespace sluice::delta
