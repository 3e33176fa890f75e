// A growable column for the text decoders (JSON, CSV): appends values row by row and, unlike an
// Arrow builder, can be truncated back to an earlier row count, so a record that turns out to be
// malformed half-way can be taken back. Finish() hands the data to Arrow without copying values.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <arrow/result.h>
#include <arrow/type_fwd.h>

namespace sluice::formats {

/// The physical shape of a column, decided once from its Spark type.
enum class ColumnKind {
  kNull, kBoolean, kInt8, kInt16, kInt32, kInt64, kFloat, kDouble, kDecimal, kString, kBinary,
  kDate, kTimestamp, kTimestampNtz, kStruct, kList, kMap
};

/// One column being built. Not thread-safe; owned by one decoder. Members are public so the
/// decoders' hot loops append without indirection; keep the invariants documented here:
/// validity has one byte per row; fixed-width kinds keep `width` bytes per row in `values`;
/// string/binary/list/map keep `offsets` (rows + 1 entries); struct keeps one child per field
/// with `length` rows each; list keeps one child (the elements), map two (keys, values).
class ColumnBuffer {
 public:
  /// A buffer for a column of Spark type `type`; fails for types the decoders cannot build.
  static arrow::Result<std::unique_ptr<ColumnBuffer>> Make(std::shared_ptr<arrow::DataType> type);

  int64_t length() const { return static_cast<int64_t>(validity.size()); }

  void AppendNull();
  template <typename T>
  void AppendFixed(T value) {
    size_t at = values.size();
    values.resize(at + sizeof(T));
    std::memcpy(values.data() + at, &value, sizeof(T));
    validity.push_back(1);
  }
  void AppendBytes(std::string_view bytes) {
    chars.append(bytes.data(), bytes.size());
    offsets.push_back(static_cast<int32_t>(chars.size()));
    validity.push_back(1);
  }
  /// Ends a list/map row whose elements were appended to the children.
  void EndNested(int64_t child_length) {
    offsets.push_back(static_cast<int32_t>(child_length));
    validity.push_back(1);
  }
  /// Ends a struct row whose fields were appended to the children.
  void EndStruct() { validity.push_back(1); }

  /// Takes back rows: keeps the first `rows` rows (and their children).
  void Truncate(int64_t rows);

  /// The Arrow array of the rows so far; the buffer is empty afterwards.
  arrow::Result<std::shared_ptr<arrow::Array>> Finish();

  ColumnKind kind = ColumnKind::kNull;
  std::shared_ptr<arrow::DataType> type;
  int width = 0;
  std::vector<uint8_t> validity;
  std::vector<uint8_t> values;
  std::vector<int32_t> offsets;
  std::string chars;
  std::vector<std::unique_ptr<ColumnBuffer>> children;

 private:
  arrow::Result<std::shared_ptr<arrow::ArrayData>> FinishData();
  void Reset();
};

}  // namespace sluice::formats
