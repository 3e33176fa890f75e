#include "sluice/types/row_codec.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <memory>
#include <random>

#include <arrow/api.h>
#include <arrow/compare.h>
#include <arrow/extension/uuid.h>
#include <arrow/json/from_string.h>

#include "sluice/common/errors.h"

namespace sluice::types {
namespace {

using arrow::DataType;
using TypeVector = std::vector<std::shared_ptr<DataType>>;

// Random arrays of any supported type, with nulls at every level and a nonzero offset at every
// depth, so the codec sees sliced parents over sliced children.
class RandomArrays {
 public:
  explicit RandomArrays(uint32_t seed) : random_(seed) {}

  std::shared_ptr<arrow::Array> Make(const std::shared_ptr<DataType>& type, int64_t length) {
    return arrow::MakeArray(MakeData(type, length, /*nullable=*/true));
  }

 private:
  std::shared_ptr<arrow::ArrayData> MakeData(const std::shared_ptr<DataType>& type,
                                             int64_t length, bool nullable) {
    const int64_t skip = Below(3);
    const int64_t total = skip + length;
    if (type->id() == arrow::Type::NA) {
      return arrow::ArrayData::Make(type, total, {nullptr}, total)->Slice(skip, length);
    }
    std::shared_ptr<arrow::Buffer> validity;
    int64_t null_count = 0;
    if (nullable) {
      validity = Bitmap(total, [&] { return Below(5) != 0; }, &null_count);
    }
    std::vector<std::shared_ptr<arrow::Buffer>> buffers = {validity};
    std::vector<std::shared_ptr<arrow::ArrayData>> children;
    switch (type->id()) {
      case arrow::Type::BOOL: {
        int64_t unused;
        buffers.push_back(Bitmap(total, [&] { return Below(2) == 1; }, &unused));
        break;
      }
      case arrow::Type::STRING: case arrow::Type::BINARY:
        AppendBinary<int32_t>(type->id() == arrow::Type::STRING, total, &buffers);
        break;
      case arrow::Type::LARGE_STRING: case arrow::Type::LARGE_BINARY:
        AppendBinary<int64_t>(type->id() == arrow::Type::LARGE_STRING, total, &buffers);
        break;
      case arrow::Type::LIST: case arrow::Type::MAP: {
        int64_t elements = AppendOffsets<int32_t>(total, &buffers);
        children.push_back(type->id() == arrow::Type::MAP
                               ? MapEntries(static_cast<const arrow::MapType&>(*type), elements)
                               : MakeData(type->field(0)->type(), elements, true));
        break;
      }
      case arrow::Type::LARGE_LIST: {
        int64_t elements = AppendOffsets<int64_t>(total, &buffers);
        children.push_back(MakeData(type->field(0)->type(), elements, true));
        break;
      }
      case arrow::Type::FIXED_SIZE_LIST: {
        auto size = static_cast<const arrow::FixedSizeListType&>(*type).list_size();
        children.push_back(MakeData(type->field(0)->type(), total * size, true));
        break;
      }
      case arrow::Type::STRUCT:
        for (const auto& field : type->fields()) {
          children.push_back(MakeData(field->type(), total, field->nullable()));
        }
        break;
      default:
        buffers.push_back(FixedWidthValues(*type, total));
        break;
    }
    return arrow::ArrayData::Make(type, total, buffers, children, null_count)
        ->Slice(skip, length);
  }

  int64_t Below(int64_t bound) { return static_cast<int64_t>(random_() % bound); }

  template <typename Generator>
  std::shared_ptr<arrow::Buffer> Bitmap(int64_t length, Generator bit, int64_t* false_count) {
    auto buffer = *arrow::AllocateEmptyBitmap(length);
    *false_count = 0;
    for (int64_t i = 0; i < length; ++i) {
      if (bit()) {
        arrow::bit_util::SetBit(buffer->mutable_data(), i);
      } else {
        ++*false_count;
      }
    }
    return buffer;
  }

  template <typename Offset>
  int64_t AppendOffsets(int64_t length, std::vector<std::shared_ptr<arrow::Buffer>>* buffers) {
    std::vector<Offset> offsets = {0};
    for (int64_t i = 0; i < length; ++i) offsets.push_back(offsets.back() + Below(4));
    buffers->push_back(arrow::Buffer::FromVector(offsets));
    return offsets.back();
  }

  template <typename Offset>
  void AppendBinary(bool text, int64_t length,
                    std::vector<std::shared_ptr<arrow::Buffer>>* buffers) {
    int64_t bytes = AppendOffsets<Offset>(length, buffers);
    std::vector<uint8_t> data(bytes);
    for (auto& byte : data) byte = static_cast<uint8_t>(text ? 'a' + Below(3) : Below(256));
    buffers->push_back(arrow::Buffer::FromVector(data));
  }

  std::shared_ptr<arrow::ArrayData> MapEntries(const arrow::MapType& type, int64_t length) {
    return arrow::ArrayData::Make(type.value_type(), length, {nullptr},
                                  {MakeData(type.key_type(), length, false),
                                   MakeData(type.item_type(), length, true)},
                                  0);
  }

  // Values Arrow's ValidateFull accepts (times within a day, dates in whole days, decimals
  // within their precision), with the floating-point values that keys canonicalize mixed in.
  std::shared_ptr<arrow::Buffer> FixedWidthValues(const DataType& type, int64_t length) {
    const int width = type.byte_width();
    std::vector<uint8_t> bytes(static_cast<size_t>(length * width));
    for (int64_t i = 0; i < length; ++i) {
      uint8_t* value = bytes.data() + i * width;
      for (int b = 0; b < width; ++b) value[b] = static_cast<uint8_t>(Below(256));
      int64_t integer = 0;
      switch (type.id()) {
        case arrow::Type::TIME32:
          integer = Below(static_cast<const arrow::Time32Type&>(type).unit() ==
                                  arrow::TimeUnit::SECOND
                              ? 86400
                              : 86400000);
          break;
        case arrow::Type::TIME64:
          integer = Below(86400000000LL);
          break;
        case arrow::Type::DATE64:
          integer = (Below(40000) - 20000) * 86400000LL;
          break;
        case arrow::Type::DECIMAL32: case arrow::Type::DECIMAL64: case arrow::Type::DECIMAL128:
        case arrow::Type::DECIMAL256:
          integer = Below(1999) - 999;
          break;
        case arrow::Type::FLOAT:
          if (Below(3) == 0) std::memcpy(value, &kFloatSpecials[Below(6)], 4);
          continue;
        case arrow::Type::DOUBLE:
          if (Below(3) == 0) std::memcpy(value, &kDoubleSpecials[Below(6)], 8);
          continue;
        default:
          continue;
      }
      // Sign-extended little-endian integer filling the width.
      std::memset(value, integer < 0 ? 0xff : 0, width);
      std::memcpy(value, &integer, std::min(width, 8));
    }
    return arrow::Buffer::FromVector(bytes);
  }

  static constexpr uint32_t kFloatSpecials[] = {0x80000000u, 0, 0x7fc00000u,
                                                0x7f800001u, 0xffc00123u, 0x7f800000u};
  static constexpr uint64_t kDoubleSpecials[] = {
      0x8000000000000000ull, 0, 0x7ff8000000000000ull, 0x7ff0000000000001ull,
      0xfff8000000000abcull, 0xfff0000000000000ull};

  std::mt19937 random_;
};

TypeVector EveryType() {
  return {
      arrow::null(), arrow::boolean(), arrow::int8(), arrow::uint8(), arrow::int16(),
      arrow::uint16(), arrow::int32(), arrow::uint32(), arrow::int64(), arrow::uint64(),
      arrow::float16(), arrow::float32(), arrow::float64(), arrow::date32(), arrow::date64(),
      arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"), arrow::timestamp(arrow::TimeUnit::NANO),
      arrow::time32(arrow::TimeUnit::SECOND), arrow::time32(arrow::TimeUnit::MILLI),
      arrow::time64(arrow::TimeUnit::MICRO), arrow::duration(arrow::TimeUnit::MILLI),
      arrow::month_interval(), arrow::day_time_interval(), arrow::month_day_nano_interval(),
      arrow::decimal32(7, 2), arrow::decimal64(15, 3), arrow::decimal128(38, 10),
      arrow::decimal256(50, 5), arrow::fixed_size_binary(3), arrow::utf8(), arrow::binary(),
      arrow::large_utf8(), arrow::large_binary(), arrow::list(arrow::int64()),
      arrow::large_list(arrow::utf8()), arrow::fixed_size_list(arrow::float64(), 2),
      arrow::struct_({arrow::field("a", arrow::int32()), arrow::field("b", arrow::utf8())}),
      arrow::map(arrow::utf8(), arrow::float64()),
      arrow::list(arrow::struct_({arrow::field("x", arrow::float32()),
                                  arrow::field("y", arrow::list(arrow::boolean()))})),
      arrow::struct_({arrow::field("l", arrow::list(arrow::decimal128(10, 2))),
                      arrow::field("m", arrow::map(arrow::int32(), arrow::list(arrow::utf8()))),
                      arrow::field("n", arrow::null())}),
      arrow::struct_({arrow::field("window",
                                   arrow::struct_({arrow::field("start", arrow::timestamp(
                                                                             arrow::TimeUnit::MICRO,
                                                                             "UTC")),
                                                   arrow::field("end", arrow::timestamp(
                                                                           arrow::TimeUnit::MICRO,
                                                                           "UTC"))}))}),
  };
}

std::shared_ptr<const RowEncoder> Encoder(const TypeVector& types, bool for_keys) {
  auto encoder = RowEncoder::Make(types, for_keys);
  EXPECT_TRUE(encoder.ok()) << encoder.status().ToString();
  return *encoder;
}

std::vector<std::string> EncodeEach(const RowEncoder& encoder, const arrow::ArrayVector& columns) {
  std::vector<std::string> rows;
  for (int64_t r = 0; r < columns[0]->length(); ++r) {
    std::string row = "prefix";  // EncodeRow appends
    encoder.EncodeRow(columns, r, &row);
    rows.push_back(row.substr(6));
  }
  return rows;
}

arrow::Result<arrow::ArrayVector> Decode(const TypeVector& types,
                                         const std::vector<std::string>& rows) {
  ARROW_ASSIGN_OR_RAISE(auto decoder, RowDecoder::Make(types));
  for (const auto& row : rows) ARROW_RETURN_NOT_OK(decoder->Append(row));
  EXPECT_EQ(decoder->num_rows(), static_cast<int64_t>(rows.size()));
  return decoder->Finish();
}

// Encodes `columns` both ways (they must agree), decodes, and checks the decoded arrays are
// valid, of the same types, and encode to the same bytes again: with for_keys false that is
// the bits of every value.
std::vector<std::string> ExpectRoundTrip(const TypeVector& types,
                                         const arrow::ArrayVector& columns, bool for_keys) {
  auto encoder = Encoder(types, for_keys);
  const int64_t length = columns[0]->length();
  std::string bytes;
  std::vector<uint32_t> offsets;
  encoder->EncodeRows(columns, 0, length, &bytes, &offsets);
  EXPECT_EQ(offsets.size(), static_cast<size_t>(length + 1));
  EXPECT_EQ(offsets.back(), bytes.size());
  std::vector<std::string> rows = EncodeEach(*encoder, columns);
  for (int64_t r = 0; r < length; ++r) {
    EXPECT_EQ(bytes.substr(offsets[r], offsets[r + 1] - offsets[r]), rows[r]) << "row " << r;
  }
  auto decoded = Decode(types, rows);
  EXPECT_TRUE(decoded.ok()) << decoded.status().ToString();
  if (!decoded.ok()) return rows;
  for (size_t c = 0; c < types.size(); ++c) {
    const auto& array = (*decoded)[c];
    EXPECT_TRUE(array->type()->Equals(types[c])) << array->type()->ToString();
    EXPECT_TRUE(array->ValidateFull().ok()) << array->ValidateFull().ToString();
    if (!for_keys) {
      auto options = arrow::EqualOptions().nans_equal(true).signed_zeros_equal(false);
      EXPECT_TRUE(array->Equals(*columns[c], options))
          << types[c]->ToString() << "\n" << array->ToString() << "\n" << columns[c]->ToString();
    }
  }
  EXPECT_EQ(EncodeEach(*encoder, *decoded), rows);
  return rows;
}

std::shared_ptr<arrow::Array> Json(const std::shared_ptr<DataType>& type, const std::string& json) {
  auto array = arrow::json::ArrayFromJSONString(type, json);
  EXPECT_TRUE(array.ok()) << array.status().ToString();
  return *array;
}

TEST(RowCodecTest, LayoutIsTheDocumentedFormat) {
  TypeVector types = {arrow::int32(), arrow::utf8(), arrow::float64(),
                      arrow::list(arrow::int16()), arrow::boolean()};
  arrow::ArrayVector columns = {Json(types[0], "[5]"), Json(types[1], R"(["ab"])"),
                                Json(types[2], "[null]"), Json(types[3], "[[7, null]]"),
                                Json(types[4], "[true]")};
  auto rows = ExpectRoundTrip(types, columns, false);
  const std::string expected("\x01\x05\x00\x00\x00"              // int32 5
                             "\x01\x02\x00\x00\x00" "ab"          // "ab"
                             "\x00"                               // null double
                             "\x01\x02\x00\x00\x00\x01\x07\x00\x00"  // [7, null]
                             "\x01\x01",                          // true
                             24);
  EXPECT_EQ(rows[0], expected);
}

TEST(RowCodecTest, RoundTripsEveryTypeWithRandomData) {
  RandomArrays random(20240611);
  TypeVector types = EveryType();
  for (const auto& type : types) {
    SCOPED_TRACE(type->ToString());
    for (bool for_keys : {false, true}) ExpectRoundTrip({type}, {random.Make(type, 200)}, for_keys);
  }
  arrow::ArrayVector columns;
  for (const auto& type : types) columns.push_back(random.Make(type, 300));
  ExpectRoundTrip(types, columns, false);
}

TEST(RowCodecTest, RoundTripsNullsAtEveryLevel) {
  auto inner =
      arrow::struct_({arrow::field("x", arrow::int64()), arrow::field("s", arrow::utf8())});
  auto type = arrow::list(inner);
  auto column = Json(type, R"([null, [], [null], [{"x": null, "s": null}],
                               [{"x": 1, "s": ""}, null, {"x": 2, "s": "b"}]])");
  auto map_type = arrow::map(arrow::utf8(), arrow::list(arrow::int32()));
  auto map_column =
      Json(map_type, R"([[["a", null], ["b", []]], null, [], [["c", [null, 3]]], [["", [1]]]])");
  ExpectRoundTrip({type, map_type}, {column, map_column}, false);
  ExpectRoundTrip({type, map_type}, {column->Slice(1), map_column->Slice(1)}, true);
}

TEST(RowCodecTest, StructColumnsWithoutNullsEncodeFieldByField) {
  auto inner = arrow::struct_({arrow::field("start", arrow::timestamp(arrow::TimeUnit::MICRO)),
                               arrow::field("tag", arrow::utf8())});
  auto type = arrow::struct_({arrow::field("window", inner), arrow::field("x", arrow::float32()),
                              arrow::field("flag", arrow::boolean())});
  auto column = Json(type, R"([{"window": null, "x": 1, "flag": true},
                               {"window": {"start": 5, "tag": "a"}, "x": -0.0, "flag": null},
                               {"window": {"start": null, "tag": ""}, "x": null, "flag": false},
                               {"window": {"start": 7, "tag": null}, "x": 2.5, "flag": true}])");
  ASSERT_EQ(column->null_count(), 0);
  for (bool for_keys : {false, true}) {
    ExpectRoundTrip({arrow::int64(), type}, {Json(arrow::int64(), "[1, 2, 3]"), column->Slice(1)},
                    for_keys);
  }
}

TEST(RowCodecTest, EncodeRowsEncodesASliceOfRows) {
  TypeVector types = {arrow::int64(), arrow::utf8()};
  arrow::ArrayVector columns = {Json(types[0], "[1, 2, null, 4]"),
                                Json(types[1], R"(["a", null, "ccc", "d"])")};
  auto encoder = Encoder(types, true);
  std::string bytes = "stale";
  std::vector<uint32_t> offsets = {9, 9};
  encoder->EncodeRows(columns, 1, 2, &bytes, &offsets);
  ASSERT_EQ(offsets.size(), 3u);
  auto rows = EncodeEach(*encoder, columns);
  EXPECT_EQ(bytes, rows[1] + rows[2]);
  EXPECT_EQ(offsets[1], rows[1].size());
  encoder->EncodeRows(columns, 4, 0, &bytes, &offsets);
  EXPECT_EQ(bytes, "");
  EXPECT_EQ(offsets, std::vector<uint32_t>{0});
}

TEST(RowCodecTest, EncodeRowsOfASliceLongerThanAWriteChunk) {
  // Rows are written in chunks of every column; a slice from an offset crosses chunks.
  RandomArrays random(20261206);
  TypeVector types = EveryType();
  arrow::ArrayVector columns;
  for (const auto& type : types) columns.push_back(random.Make(type, 1000));
  auto encoder = Encoder(types, false);
  std::string bytes;
  std::vector<uint32_t> offsets;
  encoder->EncodeRows(columns, 333, 600, &bytes, &offsets);
  ASSERT_EQ(offsets.size(), 601u);
  auto rows = EncodeEach(*encoder, columns);
  for (int64_t r = 0; r < 600; ++r) {
    ASSERT_EQ(bytes.substr(offsets[r], offsets[r + 1] - offsets[r]), rows[333 + r]) << "row " << r;
  }
}

TEST(RowCodecTest, TimestampsKeepUnitAndZoneOfTheGivenTypes) {
  TypeVector types = {arrow::timestamp(arrow::TimeUnit::MICRO, "America/Los_Angeles"),
                      arrow::decimal128(12, 4)};
  auto rows = ExpectRoundTrip(
      types, {Json(types[0], "[1, null]"), Json(types[1], R"(["1.5000", null])")}, false);
  auto decoded = Decode(types, rows);
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ((*decoded)[0]->type()->ToString(), "timestamp[us, tz=America/Los_Angeles]");
  EXPECT_EQ((*decoded)[1]->ToString(), "[\n  1.5000,\n  null\n]");
}

// Doubles from bits, so NaN payloads and signs survive into the arrays.
std::shared_ptr<arrow::Array> Doubles(const std::vector<uint64_t>& bits) {
  return std::make_shared<arrow::DoubleArray>(static_cast<int64_t>(bits.size()),
                                              arrow::Buffer::FromVector(bits));
}

constexpr uint64_t kNegativeZero = 0x8000000000000000ull;
constexpr uint64_t kQuietNan = 0x7ff8000000000000ull;
constexpr uint64_t kPayloadNan = 0x7ff0000000000001ull;
constexpr uint64_t kNegativeNan = 0xfff8000000000abcull;

TEST(RowCodecTest, KeysGroupWhatSparkGroups) {
  auto values = Doubles({0, kNegativeZero, kQuietNan, kPayloadNan, kNegativeNan});
  auto floats = *arrow::MakeArrayFromScalar(arrow::FloatScalar(-0.0f), 1);
  auto type = arrow::struct_({arrow::field("d", arrow::float64())});
  auto structs = *arrow::StructArray::Make({values}, {arrow::field("d", arrow::float64())});
  auto list_type = arrow::list(arrow::float64());
  auto lists = *arrow::ListArray::FromArrays(*Json(arrow::int32(), "[0, 1, 2, 3, 4, 5]"), *values);
  auto map_type = arrow::map(arrow::int32(), arrow::float64());
  auto maps = *arrow::MapArray::FromArrays(Json(arrow::int32(), "[0, 1, 2, 3, 4, 5]"),
                                           Json(arrow::int32(), "[7, 7, 7, 7, 7]"), values);
  for (const auto& [column, column_type] :
       std::vector<std::pair<std::shared_ptr<arrow::Array>, std::shared_ptr<DataType>>>{
           {values, arrow::float64()}, {structs, type}, {lists, list_type}, {maps, map_type}}) {
    SCOPED_TRACE(column_type->ToString());
    auto rows = ExpectRoundTrip({column_type}, {column}, true);
    EXPECT_EQ(rows[0], rows[1]) << "0.0 and -0.0 group together";
    EXPECT_EQ(rows[2], rows[3]) << "every NaN groups together";
    EXPECT_EQ(rows[2], rows[4]);
    EXPECT_NE(rows[0], rows[2]);
  }
  // Decoding a key gives Spark's canonical values: 0.0 and Java's Double.NaN.
  auto rows = ExpectRoundTrip({arrow::float64()}, {values}, true);
  auto decoded = Decode({arrow::float64()}, rows);
  ASSERT_TRUE(decoded.ok());
  const auto* raw = (*decoded)[0]->data()->GetValues<uint64_t>(1);
  EXPECT_EQ(std::vector<uint64_t>(raw, raw + 5),
            (std::vector<uint64_t>{0, 0, kQuietNan, kQuietNan, kQuietNan}));
  auto float_row = ExpectRoundTrip({arrow::float32()}, {floats}, true)[0];
  EXPECT_EQ(float_row, std::string("\x01\x00\x00\x00\x00", 5));
  auto half = std::make_shared<arrow::HalfFloatArray>(
      3, arrow::Buffer::FromVector(std::vector<uint16_t>{0x8000, 0x7c01, 0xfe00}));
  auto half_rows = ExpectRoundTrip({arrow::float16()}, {half}, true);
  EXPECT_EQ(half_rows[0], std::string("\x01\x00\x00", 3));
  EXPECT_EQ(half_rows[1], half_rows[2]);
}

TEST(RowCodecTest, ValuesKeepTheBitsOfEveryDouble) {
  auto values = Doubles({0, kNegativeZero, kQuietNan, kPayloadNan, kNegativeNan});
  auto rows = ExpectRoundTrip({arrow::float64()}, {values}, false);
  auto decoded = Decode({arrow::float64()}, rows);
  ASSERT_TRUE(decoded.ok());
  const auto* raw = (*decoded)[0]->data()->GetValues<uint64_t>(1);
  EXPECT_EQ(std::vector<uint64_t>(raw, raw + 5),
            (std::vector<uint64_t>{0, kNegativeZero, kQuietNan, kPayloadNan, kNegativeNan}));
}

TEST(RowCodecTest, KeysSparkTellsApartEncodeDifferently) {
  auto distinct = [](const std::shared_ptr<DataType>& type, const std::string& json) {
    SCOPED_TRACE(json);
    auto rows = ExpectRoundTrip({type}, {Json(type, json)}, true);
    for (size_t i = 0; i < rows.size(); ++i) {
      for (size_t j = i + 1; j < rows.size(); ++j) EXPECT_NE(rows[i], rows[j]) << i << " " << j;
    }
  };
  distinct(arrow::utf8(), R"([null, "", "a", "a\u0000"])");
  distinct(arrow::list(arrow::utf8()), R"([null, [], [null], [""], ["1", "2"], ["12"]])");
  distinct(arrow::list(arrow::int32()), "[null, [], [null], [1, 2], [12], [1], [2, 1]]");
  auto inner = arrow::struct_({arrow::field("a", arrow::int32())});
  distinct(arrow::struct_({arrow::field("s", inner)}),
           R"([null, {"s": null}, {"s": {"a": null}}, {"s": {"a": 0}}])");
  distinct(arrow::list(arrow::list(arrow::int8())), "[[[1], [2]], [[1, 2]], [[], [1, 2]]]");
  // Column boundaries are framed too: ("ab", "c") and ("a", "bc") differ.
  TypeVector two = {arrow::utf8(), arrow::utf8()};
  auto rows = ExpectRoundTrip(two, {Json(two[0], R"(["ab", "a"])"), Json(two[1], R"(["c", "bc"])")},
                              true);
  EXPECT_NE(rows[0], rows[1]);
}

TEST(RowCodecTest, DecoderStartsOverAfterFinish) {
  TypeVector types = {arrow::utf8(), arrow::list(arrow::int32())};
  auto first = ExpectRoundTrip(types, {Json(types[0], R"(["x", null])"),
                                       Json(types[1], "[null, [1]]")}, false);
  auto second = ExpectRoundTrip(types, {Json(types[0], R"(["yz"])"), Json(types[1], "[[2, 3]]")},
                                false);
  auto decoder = *RowDecoder::Make(types);
  for (const auto& row : first) ASSERT_TRUE(decoder->Append(row).ok());
  auto batch = *decoder->Finish();
  EXPECT_EQ(batch[0]->length(), 2);
  EXPECT_EQ(decoder->num_rows(), 0);
  ASSERT_TRUE(decoder->Append(second[0]).ok());
  batch = *decoder->Finish();
  ASSERT_TRUE(batch[1]->ValidateFull().ok());
  EXPECT_TRUE(batch[0]->Equals(*Json(types[0], R"(["yz"])")));
  EXPECT_TRUE(batch[1]->Equals(*Json(types[1], "[[2, 3]]")));
}

// Reserve makes room only: whatever it is told, short of the rows, past them or in between two
// uses of the decoder, the arrays are those of a decoder never told.
TEST(RowCodecTest, ReservingDecodesTheSameArrays) {
  RandomArrays random(20261204);
  const TypeVector types = EveryType();
  arrow::ArrayVector columns;
  for (const auto& type : types) columns.push_back(random.Make(type, 300));
  const auto rows = EncodeEach(*Encoder(types, false), columns);
  auto expected = *Decode(types, rows);
  for (int64_t reserved : {0, 1, 150, 300, 5000}) {
    SCOPED_TRACE("reserved " + std::to_string(reserved));
    auto decoder = *RowDecoder::Make(types);
    for (int use = 0; use < 2; ++use) {
      ASSERT_TRUE(decoder->Reserve(reserved).ok());
      for (const auto& row : rows) ASSERT_TRUE(decoder->Append(row).ok());
      auto decoded = *decoder->Finish();
      for (size_t c = 0; c < types.size(); ++c) {
        SCOPED_TRACE(types[c]->ToString());
        ASSERT_TRUE(decoded[c]->ValidateFull().ok()) << decoded[c]->ValidateFull().ToString();
        auto options = arrow::EqualOptions().nans_equal(true).signed_zeros_equal(false);
        EXPECT_TRUE(decoded[c]->Equals(*expected[c], options));
      }
    }
  }
}

arrow::Status DecodeOne(const TypeVector& types, std::string_view row) {
  ARROW_ASSIGN_OR_RAISE(auto decoder, RowDecoder::Make(types));
  return decoder->Append(row);
}

// `count` random rows of every type (seeded by `seed`), each encoded on its own.
std::vector<std::string> RandomRowsOfEveryType(uint32_t seed, int64_t count) {
  RandomArrays random(seed);
  arrow::ArrayVector columns;
  for (const auto& type : EveryType()) columns.push_back(random.Make(type, count));
  return EncodeEach(*Encoder(EveryType(), false), columns);
}

TEST(RowCodecTest, EveryTruncationOfAValidRowFails) {
  const TypeVector types = EveryType();
  for (const auto& row : RandomRowsOfEveryType(7, 20)) {
    ASSERT_TRUE(DecodeOne(types, row).ok());
    for (size_t length = 0; length < row.size(); ++length) {
      // A heap copy of exactly `length` bytes (no small-string buffer around it), so that
      // AddressSanitizer catches any read past the end.
      auto truncated = std::make_unique<char[]>(length);
      std::memcpy(truncated.get(), row.data(), length);
      auto status = DecodeOne(types, std::string_view(truncated.get(), length));
      ASSERT_TRUE(status.IsInvalid()) << length << ": " << status.ToString();
      ASSERT_NE(status.message().find("Malformed state row"), std::string::npos);
    }
  }
}

// The bytes of column `column` of `row`, found by EncodedValueEnd column after column.
std::optional<std::string_view> ColumnByValueEnds(const TypeVector& types, size_t column,
                                                  std::string_view row) {
  size_t position = 0;
  for (size_t c = 0; c < column; ++c) {
    auto end = EncodedValueEnd(*types[c], row, position);
    if (!end) return std::nullopt;
    position = *end;
  }
  auto end = EncodedValueEnd(*types[column], row, position);
  if (!end) return std::nullopt;
  return row.substr(position, *end - position);
}

TEST(RowCodecTest, ASeekerFindsEachColumnWhereValueEndsDoAndFailsWhereTheyDo) {
  const TypeVector types = EveryType();
  const auto rows = RandomRowsOfEveryType(11, 30);
  for (size_t column = 0; column < types.size(); ++column) {
    SCOPED_TRACE("column " + std::to_string(column) + ", " + types[column]->ToString());
    const EncodedColumnSeeker seeker(types, static_cast<int>(column));
    for (const auto& row : rows) {
      auto found = seeker.Find(row);
      ASSERT_TRUE(found.has_value());
      EXPECT_EQ(found, ColumnByValueEnds(types, column, row));
      for (size_t length = 0; length < row.size(); length += 7) {
        const std::string_view truncated(row.data(), length);
        ASSERT_EQ(seeker.Find(truncated), ColumnByValueEnds(types, column, truncated)) << length;
      }
    }
  }
}

TEST(RowCodecTest, MalformedRowsFailSayingWhat) {
  auto message = [](const TypeVector& types, const std::string& row) {
    auto status = DecodeOne(types, row);
    EXPECT_TRUE(status.IsInvalid()) << status.ToString();
    return status.message();
  };
  TypeVector ints = {arrow::int32()};
  EXPECT_EQ(message(ints, std::string("\x01\x05\x00\x00\x00\x09", 6)),
            "Malformed state row: 1 trailing bytes after the last column, at byte 5 of 6");
  EXPECT_EQ(message(ints, std::string("\x02", 1)),
            "Malformed state row: the null flag of column 0 (int32) at byte 0 is 2, not 0 or 1");
  EXPECT_EQ(message(ints, std::string("\x01\x05", 2)),
            "Malformed state row: the value of column 0 (int32) needs 4 bytes at byte 1 but the "
            "row ends after 2");
  auto structs = arrow::struct_({arrow::field("name", arrow::utf8())});
  EXPECT_EQ(message({structs}, std::string("\x01\x01\xff\x00\x00\x00" "abc", 9)),
            "Malformed state row: the bytes of column 0 (struct<name: string>) field name needs "
            "255 bytes at byte 6 but the row ends after 9");
  EXPECT_EQ(message({arrow::list(arrow::int8())}, std::string("\x01\x00\x00\x01\x00", 5)),
            "Malformed state row: column 0 (list<item: int8>) claims 65536 elements at byte 1 but "
            "only 0 bytes follow");
  EXPECT_EQ(message({arrow::boolean()}, std::string("\x01\x03", 2)),
            "Malformed state row: the boolean value of column 0 (bool) at byte 1 is 3, not 0 or 1");
  EXPECT_EQ(message({arrow::fixed_size_list(arrow::int8(), 2)},
                    std::string("\x01\x01\x00\x00\x00\x01\x07", 7)),
            "Malformed state row: column 0 (fixed_size_list<item: int8>[2]) has 1 elements at "
            "byte 1, not 2");
  EXPECT_EQ(message({arrow::null()}, std::string("\x01", 1)),
            "Malformed state row: column 0 (null) is always null but byte 0 flags a value");
  EXPECT_EQ(message({arrow::map(arrow::int8(), arrow::int8())},
                    std::string("\x01\x01\x00\x00\x00\x00\x01\x02", 8)),
            "Malformed state row: a null key in column 0 (map<int8, int8>) before byte 6");
}

TEST(RowCodecTest, DecoderStaysFailedAfterMalformedRow) {
  auto decoder = *RowDecoder::Make({arrow::int8()});
  ASSERT_TRUE(decoder->Append(std::string("\x01\x07", 2)).ok());
  EXPECT_TRUE(decoder->Append(std::string("\x05", 1)).IsInvalid());
  EXPECT_TRUE(decoder->Append(std::string("\x01\x07", 2)).IsInvalid());
  EXPECT_TRUE(decoder->Finish().status().IsInvalid());
}

TEST(RowCodecTest, MakeRefusesUnsupportedTypesNamingThem) {
  auto dictionary = arrow::dictionary(arrow::int32(), arrow::utf8());
  struct Case {
    std::shared_ptr<DataType> type;
    std::string named;
    std::string within;  // where in column 1's type
  };
  for (const auto& [type, named, within] : std::vector<Case>{
           {arrow::dense_union({arrow::field("a", arrow::int32())}), "dense_union<a: int32=0>",
            ""},
           {arrow::list(dictionary), "dictionary<values=string, indices=int32, ordered=0>",
            " element"},
           {arrow::struct_({arrow::field("u", arrow::extension::uuid())}),
            "extension<arrow.uuid>", " field u"},
           {arrow::map(arrow::int32(), arrow::utf8_view()), "string_view", " value"}}) {
    TypeVector types = {arrow::int64(), type};
    std::string expected = "[UNSUPPORTED_ARROWTYPE] Unsupported arrow type " + named +
                           ". State rows cannot hold unions, dictionaries, extension types, views "
                           "or run-end encoded arrays: column 1 (" + type->ToString() + ")" +
                           within + " has it.";
    auto encoder = RowEncoder::Make(types, true);
    ASSERT_FALSE(encoder.ok());
    EXPECT_EQ(encoder.status().message(), expected);
    EXPECT_EQ(ErrorClassOf(encoder.status()), "UNSUPPORTED_ARROWTYPE");
    auto decoder = RowDecoder::Make(types);
    ASSERT_FALSE(decoder.ok());
    EXPECT_EQ(decoder.status().message(), expected);
  }
}

}  // namespace
}  // namespace sluice::types
