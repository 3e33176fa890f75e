#include "sluice/sinks/foreach/row.h"

#include <arrow/array/data.h>
#include <arrow/type.h>
#include <arrow/util/bit_util.h>

#include "sluice/common/errors.h"
#include "sluice/datetime/zone.h"
#include "sluice/formats/value_text.h"
#include "sluice/types/spark_type_names.h"

namespace sluice::sinks {

namespace {

using arrow::Type;

bool IsIntegerUpTo32(Type::type id) {
  return id == Type::INT8 || id == Type::INT16 || id == Type::INT32;
}

int64_t IntegerAt(const arrow::ArrayData& data, int64_t index) {
  switch (data.type->id()) {
    case Type::INT8: return data.GetValues<int8_t>(1)[index];
    case Type::INT16: return data.GetValues<int16_t>(1)[index];
    case Type::INT32: return data.GetValues<int32_t>(1)[index];
    default: return data.GetValues<int64_t>(1)[index];
  }
}

// How Row.toString renders values: as their string cast, in UTC.
const formats::ValueText* CastStyleText() {
  static const auto text = []() -> std::optional<formats::ValueText> {
    auto zone = datetime::TimeZone::Find("UTC");
    if (!zone.ok()) return std::nullopt;
    auto made = formats::ValueText::MakeCastStyle(*zone);
    if (!made.ok()) return std::nullopt;
    return std::move(*made);
  }();
  return text ? &*text : nullptr;
}

}  // namespace

arrow::Result<int> Row::FieldIndex(std::string_view name) const {
  const auto& fields = schema().fields();
  for (int i = 0; i < static_cast<int>(fields.size()); ++i) {
    if (fields[i]->name() == name) return i;
  }
  std::string names;
  for (const auto& field : fields) {
    if (!names.empty()) names += ", ";
    names += QuoteIdentifier(field->name());
  }
  return SparkError("FIELD_NOT_FOUND",
                    "No such struct field " + QuoteIdentifier(name) + " in " + names + ".");
}

bool Row::IsNullAt(int i) const {
  const arrow::ArrayData& data = column(i);
  if (data.type->id() == Type::NA) return true;
  if (data.buffers.empty() || data.buffers[0] == nullptr) return false;
  return !arrow::bit_util::GetBit(data.buffers[0]->data(), data.offset + index_);
}

template <typename Accepts>
arrow::Status Row::CheckReadable(int i, std::string_view wanted, Accepts accepts) const {
  if (i < 0 || i >= num_fields()) {
    return arrow::Status::IndexError("Column ", i, " does not exist: the row has ",
                                     num_fields(), " columns.");
  }
  const arrow::Field& field = *schema().field(i);
  if (!accepts(field.type()->id())) {
    return arrow::Status::TypeError("Column ", QuoteIdentifier(field.name()), " is ",
                                    types::SqlString(*field.type()), ", not ", wanted, ".");
  }
  if (IsNullAt(i)) {
    return SparkError("ROW_VALUE_IS_NULL", "Found NULL in a row at the index " +
                                               std::to_string(i) +
                                               ", expected a non-NULL value.");
  }
  return arrow::Status::OK();
}

arrow::Result<bool> Row::GetBoolean(int i) const {
  ARROW_RETURN_NOT_OK(CheckReadable(i, "BOOLEAN", [](Type::type id) { return id == Type::BOOL; }));
  const arrow::ArrayData& data = column(i);
  return arrow::bit_util::GetBit(data.buffers[1]->data(), data.offset + index_);
}

arrow::Result<int32_t> Row::GetInt(int i) const {
  ARROW_RETURN_NOT_OK(CheckReadable(i, "INT", IsIntegerUpTo32));
  return static_cast<int32_t>(IntegerAt(column(i), index_));
}

arrow::Result<int64_t> Row::GetLong(int i) const {
  ARROW_RETURN_NOT_OK(CheckReadable(
      i, "BIGINT", [](Type::type id) { return IsIntegerUpTo32(id) || id == Type::INT64; }));
  return IntegerAt(column(i), index_);
}

arrow::Result<double> Row::GetDouble(int i) const {
  ARROW_RETURN_NOT_OK(CheckReadable(
      i, "DOUBLE", [](Type::type id) { return id == Type::DOUBLE || id == Type::FLOAT; }));
  const arrow::ArrayData& data = column(i);
  if (data.type->id() == Type::FLOAT) return data.GetValues<float>(1)[index_];
  return data.GetValues<double>(1)[index_];
}

arrow::Result<std::string_view> Row::GetString(int i) const {
  ARROW_RETURN_NOT_OK(CheckReadable(
      i, "STRING", [](Type::type id) { return id == Type::STRING || id == Type::LARGE_STRING; }));
  const arrow::ArrayData& data = column(i);
  const char* bytes = reinterpret_cast<const char*>(data.buffers[2]->data());
  if (data.type->id() == Type::LARGE_STRING) {
    const int64_t* offsets = data.GetValues<int64_t>(1);
    return std::string_view(bytes + offsets[index_], offsets[index_ + 1] - offsets[index_]);
  }
  const int32_t* offsets = data.GetValues<int32_t>(1);
  return std::string_view(bytes + offsets[index_], offsets[index_ + 1] - offsets[index_]);
}

arrow::Result<int64_t> Row::GetTimestampMicros(int i) const {
  ARROW_RETURN_NOT_OK(
      CheckReadable(i, "TIMESTAMP", [](Type::type id) { return id == Type::TIMESTAMP; }));
  return column(i).GetValues<int64_t>(1)[index_];
}

arrow::Result<int32_t> Row::GetDateDays(int i) const {
  ARROW_RETURN_NOT_OK(CheckReadable(i, "DATE", [](Type::type id) { return id == Type::DATE32; }));
  return column(i).GetValues<int32_t>(1)[index_];
}

arrow::Result<bool> Row::IsNullAt(std::string_view name) const {
  ARROW_ASSIGN_OR_RAISE(int i, FieldIndex(name));
  return IsNullAt(i);
}
arrow::Result<bool> Row::GetBoolean(std::string_view name) const {
  ARROW_ASSIGN_OR_RAISE(int i, FieldIndex(name));
  return GetBoolean(i);
}
arrow::Result<int32_t> Row::GetInt(std::string_view name) const {
  ARROW_ASSIGN_OR_RAISE(int i, FieldIndex(name));
  return GetInt(i);
}
arrow::Result<int64_t> Row::GetLong(std::string_view name) const {
  ARROW_ASSIGN_OR_RAISE(int i, FieldIndex(name));
  return GetLong(i);
}
arrow::Result<double> Row::GetDouble(std::string_view name) const {
  ARROW_ASSIGN_OR_RAISE(int i, FieldIndex(name));
  return GetDouble(i);
}
arrow::Result<std::string_view> Row::GetString(std::string_view name) const {
  ARROW_ASSIGN_OR_RAISE(int i, FieldIndex(name));
  return GetString(i);
}
arrow::Result<int64_t> Row::GetTimestampMicros(std::string_view name) const {
  ARROW_ASSIGN_OR_RAISE(int i, FieldIndex(name));
  return GetTimestampMicros(i);
}
arrow::Result<int32_t> Row::GetDateDays(std::string_view name) const {
  ARROW_ASSIGN_OR_RAISE(int i, FieldIndex(name));
  return GetDateDays(i);
}

std::string Row::ToString() const {
  const formats::ValueText* text = CastStyleText();
  std::string out = "[";
  for (int i = 0; i < num_fields(); ++i) {
    if (i > 0) out += ",";
    if (IsNullAt(i) || text == nullptr) {
      out += "null";
    } else {
      text->Append(*batch_->column(i), index_, &out);
    }
  }
  out += "]";
  return out;
}

}  // namespace sluice::sinks
