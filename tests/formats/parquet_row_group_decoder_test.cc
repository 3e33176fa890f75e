// Reading Parquet row groups through ParquetColumnDecoder: the batches are those Arrow's own
// reader gives for the same leaves, whatever the pages look like (plain, dictionary-encoded,
// a dictionary falling back to plain, page versions 1 and 2, many small pages, nulls at every
// depth of a struct), the columns it cannot decode are left to Arrow's reader, and a corrupt
// page is an error naming its column.
#include "sluice/formats/parquet_row_group_decoder.h"

#include <random>

#include <arrow/api.h>
#include <arrow/io/file.h>
#include <arrow/json/from_string.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/writer.h>

#include "support/scratch_dir.h"

namespace sluice::formats {
namespace {

constexpr int64_t kRows = 5000;

/// A value of `builder` in each row, null with probability `null_share`.
template <typename Builder, typename Make>
std::shared_ptr<arrow::Array> Column(Builder builder, double null_share, std::mt19937* random,
                                     Make make) {
  std::bernoulli_distribution null(null_share);
  for (int64_t i = 0; i < kRows; ++i) {
    EXPECT_TRUE((null(*random) ? builder.AppendNull() : builder.Append(make(i))).ok());
  }
  return builder.Finish().ValueOrDie();
}

/// Numbers, dates, timestamps and strings of few and of many values, with and without nulls;
/// a struct (sometimes null) of a long, a string and a struct of its own; a required long.
std::shared_ptr<arrow::Table> Events() {
  std::mt19937 random(7);
  std::uniform_int_distribution<int64_t> wide(-1'000'000'000'000, 1'000'000'000'000);
  std::uniform_int_distribution<int> few(0, 9);
  auto text = [&](int64_t i) {
    std::string value = "v";
    value += std::to_string(wide(random) % (i + 1));
    return value;
  };
  auto ints = Column(arrow::Int32Builder(), 0.1, &random,
                     [&](int64_t) { return static_cast<int32_t>(wide(random)); });
  auto days = Column(arrow::Date32Builder(), 0.0, &random,
                     [&](int64_t i) { return static_cast<int32_t>(19000 + i % 40); });
  auto longs = Column(arrow::Int64Builder(), 0.3, &random, [&](int64_t) { return wide(random); });
  auto times = Column(arrow::TimestampBuilder(arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"),
                                              arrow::default_memory_pool()),
                      0.05, &random, [&](int64_t i) { return int64_t{1'700'000'000'000'000} + i; });
  auto floats = Column(arrow::FloatBuilder(), 0.2, &random,
                       [&](int64_t i) { return static_cast<float>(i) / 3; });
  auto doubles = Column(arrow::DoubleBuilder(), 0.0, &random,
                        [&](int64_t) { return static_cast<double>(few(random)) / 7; });
  auto names = Column(arrow::StringBuilder(), 0.25, &random,
                      [&](int64_t) { return std::string(static_cast<size_t>(few(random)), 'n'); });
  auto ids = Column(arrow::StringBuilder(), 0.1, &random, [&](int64_t i) {
    std::string value = text(i);
    value.append(static_cast<size_t>(i % 90), 'x');
    return value;
  });
  auto blobs = Column(arrow::BinaryBuilder(), 0.5, &random,
                      [&](int64_t i) { return std::string(static_cast<size_t>(i % 5), '\0'); });
  auto empty = Column(arrow::StringBuilder(), 1.0, &random, [&](int64_t) { return ""; });
  auto required = Column(arrow::Int64Builder(), 0.0, &random, [&](int64_t i) { return i; });

  auto inner_codes = Column(arrow::StringBuilder(), 0.2, &random, text);
  auto inner = arrow::StructArray::Make({inner_codes}, {arrow::field("code", arrow::utf8())},
                                        Column(arrow::BooleanBuilder(), 0.0, &random,
                                               [&](int64_t) { return few(random) > 2; })
                                            ->data()
                                            ->buffers[1])
                   .ValueOrDie();
  auto outer_prices = Column(arrow::Int64Builder(), 0.2, &random,
                             [&](int64_t) { return wide(random) % 1000; });
  auto outer_urls = Column(arrow::StringBuilder(), 0.0, &random, text);
  std::bernoulli_distribution outer_null(0.15);
  arrow::TypedBufferBuilder<bool> outer_valid;
  for (int64_t i = 0; i < kRows; ++i) EXPECT_TRUE(outer_valid.Append(!outer_null(random)).ok());
  auto outer = arrow::StructArray::Make({outer_prices, outer_urls, inner},
                                        std::vector<std::string>{"price", "url", "inner"},
                                        outer_valid.Finish().ValueOrDie())
                   .ValueOrDie();

  auto schema = arrow::schema(
      {arrow::field("ints", arrow::int32()), arrow::field("days", arrow::date32()),
       arrow::field("longs", arrow::int64()), arrow::field("times", times->type()),
       arrow::field("floats", arrow::float32()), arrow::field("doubles", arrow::float64()),
       arrow::field("names", arrow::utf8()), arrow::field("ids", arrow::utf8()),
       arrow::field("blobs", arrow::binary()), arrow::field("empty", arrow::utf8()),
       arrow::field("bid", outer->type()), arrow::field("required", arrow::int64(), false)});
  return arrow::Table::Make(schema, {ints, days, longs, times, floats, doubles, names, ids, blobs,
                                     empty, outer, required});
}

struct Layout {
  std::string name;
  bool dictionary;
  int64_t dictionary_page_bytes;  // small: the dictionary falls back to plain pages
  int64_t page_bytes;
  parquet::ParquetDataPageVersion page_version;
  parquet::Compression::type codec;
  int64_t row_group_rows;
};

void PrintTo(const Layout& layout, std::ostream* out) { *out << layout.name; }

/// Writes `table` to the Parquet file `path` in row groups of `row_group_rows`.
void WriteParquet(const std::string& path, const arrow::Table& table, int64_t row_group_rows,
                  std::shared_ptr<parquet::WriterProperties> properties =
                      parquet::default_writer_properties()) {
  auto out = arrow::io::FileOutputStream::Open(path).ValueOrDie();
  EXPECT_TRUE(parquet::arrow::WriteTable(table, arrow::default_memory_pool(), out,
                                         row_group_rows, std::move(properties))
                  .ok());
  EXPECT_TRUE(out->Close().ok());
}

std::string Write(const testing::ScratchDir& dir, const arrow::Table& table,
                  const Layout& layout) {
  const std::string path = dir / (layout.name + ".parquet");
  parquet::WriterProperties::Builder properties;
  properties.compression(layout.codec)
      ->data_page_version(layout.page_version)
      ->data_pagesize(layout.page_bytes)
      ->dictionary_pagesize_limit(layout.dictionary_page_bytes)
      ->write_batch_size(97);  // pages end between a writer's batches
  if (!layout.dictionary) properties.disable_dictionary();
  WriteParquet(path, table, layout.row_group_rows, properties.build());
  return path;
}

std::unique_ptr<parquet::arrow::FileReader> Open(const std::string& path) {
  parquet::arrow::FileReaderBuilder builder;
  EXPECT_TRUE(builder.OpenFile(path).ok());
  std::unique_ptr<parquet::arrow::FileReader> reader;
  EXPECT_TRUE(builder.Build(&reader).ok());
  return reader;
}

/// The table of `batches`, each checked to be valid and at most `batch_rows` long.
std::shared_ptr<arrow::Table> ReadAll(arrow::RecordBatchReader* batches, int64_t batch_rows) {
  arrow::RecordBatchVector all;
  std::shared_ptr<arrow::RecordBatch> batch;
  while (true) {
    auto status = batches->ReadNext(&batch);
    EXPECT_TRUE(status.ok()) << status;
    if (!status.ok() || batch == nullptr) break;
    EXPECT_TRUE(batch->ValidateFull().ok()) << batch->ValidateFull();
    EXPECT_LE(batch->num_rows(), batch_rows);
    all.push_back(batch);
  }
  return arrow::Table::FromRecordBatches(batches->schema(), all).ValueOrDie();
}

/// Checks that the decoder reads `leaves` of `path`, a file of `rows` rows, as Arrow's reader
/// does, in batches of `batch_rows`.
void ExpectArrowsBatches(const std::string& path, const std::vector<int>& leaves,
                         int64_t batch_rows, int64_t rows = kRows) {
  auto arrow_reader = Open(path);
  std::vector<int> groups(static_cast<size_t>(arrow_reader->num_row_groups()));
  for (size_t i = 0; i < groups.size(); ++i) groups[i] = static_cast<int>(i);
  auto expected_batches = arrow_reader->GetRecordBatchReader(groups, leaves).ValueOrDie();
  auto expected = ReadAll(expected_batches.get(), rows);

  auto reader = Open(path);
  ASSERT_TRUE(DecodesLeaves(*reader, leaves));
  auto decoded = DecodeRowGroups(std::move(reader), leaves, batch_rows);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  auto actual = ReadAll(decoded->get(), batch_rows);
  EXPECT_TRUE(actual->schema()->Equals(*expected->schema()))
      << actual->schema()->ToString() << "\n" << expected->schema()->ToString();
  ASSERT_EQ(actual->num_rows(), rows);
  for (int i = 0; i < expected->num_columns(); ++i) {
    EXPECT_TRUE(actual->column(i)->Equals(*expected->column(i)))
        << "column " << expected->schema()->field(i)->name();
  }
}

class ParquetRowGroupDecoderTest : public ::testing::TestWithParam<Layout> {};

TEST_P(ParquetRowGroupDecoderTest, EveryColumnReadsAsArrowReadsIt) {
  testing::ScratchDir dir;
  const std::string path = Write(dir, *Events(), GetParam());
  std::vector<int> all(14);
  for (int i = 0; i < 14; ++i) all[static_cast<size_t>(i)] = i;
  for (int64_t batch_rows : {int64_t{333}, int64_t{1024}, int64_t{32768}}) {
    SCOPED_TRACE("batches of " + std::to_string(batch_rows));
    ExpectArrowsBatches(path, all, batch_rows);
  }
}

// Leaves: ints 0 ... empty 9, bid.price 10, bid.url 11, bid.inner.code 12, required 13.
TEST_P(ParquetRowGroupDecoderTest, SomeLeavesOfAStructReadAsArrowReadsThem) {
  testing::ScratchDir dir;
  const std::string path = Write(dir, *Events(), GetParam());
  ExpectArrowsBatches(path, {11}, 700);
  ExpectArrowsBatches(path, {12}, 700);
  ExpectArrowsBatches(path, {2, 10, 12, 13}, 700);
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, ParquetRowGroupDecoderTest,
    ::testing::Values(
        Layout{"plain", false, 1 << 20, 1 << 20, parquet::ParquetDataPageVersion::V1,
               parquet::Compression::SNAPPY, kRows},
        Layout{"dictionary", true, 1 << 20, 1 << 20, parquet::ParquetDataPageVersion::V1,
               parquet::Compression::SNAPPY, 2000},
        Layout{"dictionary_falling_back", true, 512, 4096, parquet::ParquetDataPageVersion::V1,
               parquet::Compression::UNCOMPRESSED, 3000},
        Layout{"small_pages_v2", true, 2048, 1024, parquet::ParquetDataPageVersion::V2,
               parquet::Compression::SNAPPY, 1700},
        Layout{"plain_v2", false, 1 << 20, 1 << 20, parquet::ParquetDataPageVersion::V2,
               parquet::Compression::UNCOMPRESSED, kRows}),
    [](const ::testing::TestParamInfo<Layout>& info) { return info.param.name; });

// Dictionary indices of every width from 0 to 18 bits, each column's bit-packed runs broken by
// runs of one repeated value at places that leave them out of step with the groups of eight,
// in pages that end mid-group, read in batches that end mid-group too.
TEST(ParquetRowGroupDecoderCoverageTest, IndicesOfEveryBitWidthReadAsArrowReadsThem) {
  testing::ScratchDir dir;
  constexpr int64_t kManyRows = 140'000;
  std::mt19937 random(11);
  arrow::FieldVector fields;
  arrow::ArrayVector columns;
  for (int bits = 0; bits <= 18; ++bits) {
    const int64_t distinct = bits == 0 ? 1 : (int64_t{1} << (bits - 1)) + 1;
    arrow::Int32Builder values;
    for (int64_t i = 0; i < kManyRows; ++i) {
      // Every value once first, so that the dictionary holds them all.
      const int64_t value = i < distinct ? i : i % (89 + bits) < 17 ? 0 : random() % distinct;
      ASSERT_TRUE(values.Append(static_cast<int32_t>(value)).ok());
    }
    fields.push_back(arrow::field("bits" + std::to_string(bits), arrow::int32()));
    columns.push_back(values.Finish().ValueOrDie());
  }
  auto table = arrow::Table::Make(arrow::schema(fields), columns);
  const std::string path = dir / "widths.parquet";
  WriteParquet(path, *table, kManyRows,
               parquet::WriterProperties::Builder()
                   .data_pagesize(3000)
                   ->dictionary_pagesize_limit(1 << 20)
                   ->write_batch_size(101)
                   ->build());
  std::vector<int> all(fields.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
  for (int64_t batch_rows : {int64_t{1001}, int64_t{32768}}) {
    SCOPED_TRACE("batches of " + std::to_string(batch_rows));
    ExpectArrowsBatches(path, all, batch_rows, kManyRows);
  }
}

// Strings of every length from 0 to 300 bytes (copied in strides below 129, by memcpy above),
// some null, plain and from a dictionary, in pages small enough that many values end within a
// stride of their page's end.
TEST(ParquetRowGroupDecoderCoverageTest, StringsOfEveryLengthReadAsArrowReadsThem) {
  testing::ScratchDir dir;
  constexpr int64_t kManyRows = 20'000;
  std::mt19937 random(13);
  arrow::StringBuilder strings;
  for (int64_t i = 0; i < kManyRows; ++i) {
    if (random() % 10 == 0) {
      ASSERT_TRUE(strings.AppendNull().ok());
      continue;
    }
    std::string value;
    const int64_t length = (i * 7 + static_cast<int64_t>(random() % 3)) % 301;
    for (int64_t k = 0; k < length; ++k) value += static_cast<char>('a' + (i + k) % 26);
    ASSERT_TRUE(strings.Append(value).ok());
  }
  auto table = arrow::Table::Make(arrow::schema({arrow::field("text", arrow::utf8())}),
                                  {strings.Finish().ValueOrDie()});
  for (bool dictionary : {false, true}) {
    SCOPED_TRACE(dictionary ? "dictionary" : "plain");
    const std::string path = dir / (dictionary ? "dictionary.parquet" : "plain.parquet");
    parquet::WriterProperties::Builder properties;
    properties.data_pagesize(2000)->dictionary_pagesize_limit(1 << 22)->write_batch_size(37);
    if (!dictionary) properties.disable_dictionary();
    WriteParquet(path, *table, kManyRows, properties.build());
    for (int64_t batch_rows : {int64_t{999}, int64_t{32768}}) {
      SCOPED_TRACE("batches of " + std::to_string(batch_rows));
      ExpectArrowsBatches(path, {0}, batch_rows, kManyRows);
    }
  }
}

TEST(ParquetRowGroupDecoderCoverageTest, ListsDecimalsAndSmallIntsAreLeftToArrow) {
  testing::ScratchDir dir;
  auto json = [](std::shared_ptr<arrow::DataType> type, const char* values) {
    return arrow::json::ArrayFromJSONString(std::move(type), values).ValueOrDie();
  };
  auto list = json(arrow::list(arrow::int64()), "[[1, 2], null, []]");
  auto decimal = json(arrow::decimal128(10, 2), R"(["1.25", null, "3.50"])");
  auto small = json(arrow::int16(), "[1, null, 3]");
  auto longs = json(arrow::int64(), "[1, null, 3]");
  auto table = arrow::Table::Make(
      arrow::schema({arrow::field("list", list->type()), arrow::field("decimal", decimal->type()),
                     arrow::field("small", small->type()), arrow::field("longs", longs->type())}),
      {list, decimal, small, longs});
  const std::string path = dir / "other.parquet";
  WriteParquet(path, *table, 10);
  auto reader = Open(path);
  EXPECT_FALSE(DecodesLeaves(*reader, {0}));
  EXPECT_FALSE(DecodesLeaves(*reader, {1}));
  EXPECT_FALSE(DecodesLeaves(*reader, {2}));
  EXPECT_TRUE(DecodesLeaves(*reader, {3}));
  EXPECT_FALSE(DecodesLeaves(*reader, {1, 3}));
}

TEST(ParquetRowGroupDecoderCoverageTest, AValueRunningPastItsPageIsAnErrorNamingTheColumn) {
  testing::ScratchDir dir;
  arrow::StringBuilder names;
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(names.Append(i == 50 ? "MARKER" : "name").ok());
  auto table = arrow::Table::Make(arrow::schema({arrow::field("who", arrow::utf8())}),
                                  {names.Finish().ValueOrDie()});
  const std::string path = dir / "corrupt.parquet";
  WriteParquet(path, *table, 100,
               parquet::WriterProperties::Builder()
                   .compression(parquet::Compression::UNCOMPRESSED)
                   ->disable_dictionary()
                   ->disable_statistics()
                   ->build());
  // The marker's length, just before it in the plain page, becomes far more than the page.
  std::string bytes;
  {
    auto in = arrow::io::ReadableFile::Open(path).ValueOrDie();
    auto all = in->Read(in->GetSize().ValueOrDie()).ValueOrDie();
    bytes = all->ToString();
  }
  const size_t marker = bytes.find("MARKER");
  ASSERT_NE(marker, std::string::npos);
  bytes[marker - 1] = 0x7f;
  {
    auto out = arrow::io::FileOutputStream::Open(path).ValueOrDie();
    ASSERT_TRUE(out->Write(bytes.data(), static_cast<int64_t>(bytes.size())).ok());
    ASSERT_TRUE(out->Close().ok());
  }
  auto reader = Open(path);
  ASSERT_TRUE(DecodesLeaves(*reader, {0}));
  auto decoded = DecodeRowGroups(std::move(reader), {0}, 1000).ValueOrDie();
  std::shared_ptr<arrow::RecordBatch> batch;
  auto status = decoded->ReadNext(&batch);
  ASSERT_FALSE(status.ok());
  EXPECT_THAT(status.message(), ::testing::HasSubstr("Parquet column who"));
  EXPECT_THAT(status.message(), ::testing::HasSubstr("a page ends before its values"));
}

}  // namespace
}  // namespace sluice::formats
