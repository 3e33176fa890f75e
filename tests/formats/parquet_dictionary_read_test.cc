// Reading dictionary-encoded Parquet string columns through their dictionaries: which columns
// qualify, and that the values expanded are the ones Arrow's plain read gives.
#include "sluice/formats/parquet_dictionary_read.h"

#include <arrow/api.h>
#include <arrow/io/file.h>
#include <arrow/json/from_string.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/writer.h>

#include "sluice/formats/file_format.h"
#include "support/scratch_dir.h"

namespace sluice::formats {
namespace {

constexpr int64_t kRows = 5000;

/// A table of: "city", strings of a few values, some null; "trip", a struct of a string
/// of a few values and a long; "id", strings all distinct and long enough that the writer's
/// dictionary outgrows its page limit and falls back to plain pages; "tag", binary values of a
/// few kinds.
std::shared_ptr<arrow::Table> Trips() {
  arrow::StringBuilder cities, stops, ids;
  arrow::BinaryBuilder tags;
  arrow::Int64Builder minutes;
  const std::vector<std::string> names = {"Oslo", "Paris", "", "Lima", "Kyoto"};
  for (int64_t i = 0; i < kRows; ++i) {
    EXPECT_TRUE((i % 7 == 3 ? cities.AppendNull() : cities.Append(names[i % 5])).ok());
    EXPECT_TRUE((i % 11 == 0 ? stops.AppendNull() : stops.Append(names[(i / 3) % 5])).ok());
    EXPECT_TRUE(ids.Append("trip-" + std::to_string(i * 7919) + std::string(40, 'x')).ok());
    EXPECT_TRUE(tags.Append(std::string(1 + i % 3, static_cast<char>(i % 2))).ok());
    EXPECT_TRUE(minutes.Append(i % 90).ok());
  }
  auto stop_array = stops.Finish().ValueOrDie();
  auto minute_array = minutes.Finish().ValueOrDie();
  auto trips = arrow::StructArray::Make({stop_array, minute_array},
                                        std::vector<std::string>{"stop", "minutes"})
                   .ValueOrDie();
  auto schema = arrow::schema({arrow::field("city", arrow::utf8()),
                               arrow::field("trip", trips->type()),
                               arrow::field("id", arrow::utf8()),
                               arrow::field("tag", arrow::binary())});
  return arrow::Table::Make(schema, {cities.Finish().ValueOrDie(), trips,
                                     ids.Finish().ValueOrDie(), tags.Finish().ValueOrDie()});
}

/// Writes `table` with dictionaries limited to 4 KiB a page, in row groups of 2000 rows.
std::string WriteParquet(const testing::ScratchDir& dir, const arrow::Table& table) {
  const std::string path = dir / "trips.parquet";
  auto out = arrow::io::FileOutputStream::Open(path).ValueOrDie();
  auto properties = parquet::WriterProperties::Builder().dictionary_pagesize_limit(4096)->build();
  EXPECT_TRUE(
      parquet::arrow::WriteTable(table, arrow::default_memory_pool(), out, 2000, properties)
          .ok());
  EXPECT_TRUE(out->Close().ok());
  return path;
}

std::unique_ptr<parquet::arrow::FileReader> OpenReader(const std::string& path,
                                                       const std::vector<int>& dictionaries) {
  auto input = arrow::io::ReadableFile::Open(path).ValueOrDie();
  parquet::ArrowReaderProperties properties;
  for (int leaf : dictionaries) properties.set_read_dictionary(leaf, true);
  parquet::arrow::FileReaderBuilder builder;
  EXPECT_TRUE(builder.Open(input).ok());
  std::unique_ptr<parquet::arrow::FileReader> reader;
  EXPECT_TRUE(builder.properties(properties)->Build(&reader).ok());
  return reader;
}

TEST(ParquetDictionaryReadTest, ChoosesTheStringLeavesWhosePagesAreAllDictionaryEncoded) {
  testing::ScratchDir dir;
  const std::string path = WriteParquet(dir, *Trips());
  auto reader = OpenReader(path, {});
  // Leaves: city 0, trip.stop 1, trip.minutes 2, id 3, tag 4. The ids fell back to plain
  // pages; minutes are not strings.
  EXPECT_THAT(DictionaryEncodedStringLeaves(*reader->parquet_reader()->metadata()),
              ::testing::ElementsAre(0, 1, 4));
}

TEST(ParquetDictionaryReadTest, ExpandedColumnsAreThoseOfThePlainRead) {
  testing::ScratchDir dir;
  const std::string path = WriteParquet(dir, *Trips());
  auto plain_reader = OpenReader(path, {});
  auto dictionary_reader = OpenReader(path, {0, 1, 4});
  ASSERT_EQ(dictionary_reader->num_row_groups(), 3);
  int64_t row = 0;
  // A row group at a time: each has dictionaries of its own.
  for (int group = 0; group < dictionary_reader->num_row_groups(); ++group) {
    auto plain_read = plain_reader->ReadRowGroup(group);
    auto dictionary_read = dictionary_reader->ReadRowGroup(group);
    ASSERT_TRUE(plain_read.ok()) << plain_read.status();
    ASSERT_TRUE(dictionary_read.ok()) << dictionary_read.status();
    const std::shared_ptr<arrow::Table>& plain = *plain_read;
    const std::shared_ptr<arrow::Table>& dictionaries = *dictionary_read;
    ASSERT_EQ(dictionaries->schema()->field(0)->type()->id(), arrow::Type::DICTIONARY);
    arrow::FieldVector fields;
    for (const auto& field : dictionaries->schema()->fields()) {
      fields.push_back(field->WithType(WithoutDictionaries(field->type())));
    }
    auto schema = arrow::schema(fields, dictionaries->schema()->metadata());
    EXPECT_TRUE(schema->Equals(*plain->schema()))
        << schema->ToString() << "\n" << plain->schema()->ToString();
    arrow::TableBatchReader batches(*dictionaries);
    batches.set_chunksize(700);  // slices, at offsets within the row group's arrays
    std::shared_ptr<arrow::RecordBatch> batch;
    int64_t at = 0;
    while (batches.ReadNext(&batch).ok() && batch != nullptr) {
      auto expanded = ExpandDictionaries(*batch, schema, arrow::default_memory_pool());
      ASSERT_TRUE(expanded.ok()) << expanded.status();
      ASSERT_TRUE((*expanded)->ValidateFull().ok()) << (*expanded)->ValidateFull();
      auto expected = plain->Slice(at, batch->num_rows())->CombineChunksToBatch().ValueOrDie();
      EXPECT_TRUE((*expanded)->Equals(*expected)) << "rows from " << row + at;
      at += batch->num_rows();
    }
    row += at;
  }
  EXPECT_EQ(row, kRows);
}

TEST(ParquetDictionaryReadTest, AnIndexOutsideTheDictionaryIsAnError) {
  auto dictionary = arrow::json::ArrayFromJSONString(arrow::utf8(), R"(["a", "b"])").ValueOrDie();
  auto indices = arrow::json::ArrayFromJSONString(arrow::int32(), "[0, 1, 2]").ValueOrDie();
  auto array = std::make_shared<arrow::DictionaryArray>(
      arrow::dictionary(arrow::int32(), arrow::utf8()), indices, dictionary);
  auto expanded = ExpandDictionaries(array->data(), arrow::default_memory_pool());
  ASSERT_FALSE(expanded.ok());
  EXPECT_THAT(expanded.status().message(),
              ::testing::HasSubstr("index 2 of row 2 is outside the 2 values"));
}

// A dictionary of other values (a file's own Arrow schema may ask for large strings) is
// expanded by Arrow's Take; one inside a struct is expanded too.
TEST(ParquetDictionaryReadTest, OtherDictionariesAndThoseInStructsAreExpandedToo) {
  auto dictionary =
      arrow::json::ArrayFromJSONString(arrow::large_utf8(), R"(["x", "yy"])").ValueOrDie();
  auto indices = arrow::json::ArrayFromJSONString(arrow::int32(), "[1, null, 0]").ValueOrDie();
  auto array = std::make_shared<arrow::DictionaryArray>(
      arrow::dictionary(arrow::int32(), arrow::large_utf8()), indices, dictionary);
  auto wrapped = arrow::StructArray::Make({array}, std::vector<std::string>{"s"}).ValueOrDie();
  auto expanded = ExpandDictionaries(wrapped->data(), arrow::default_memory_pool());
  ASSERT_TRUE(expanded.ok()) << expanded.status();
  auto expected = arrow::json::ArrayFromJSONString(
                      arrow::struct_({arrow::field("s", arrow::large_utf8())}),
                      R"([{"s": "yy"}, {"s": null}, {"s": "x"}])")
                      .ValueOrDie();
  auto ours = arrow::MakeArray(*expanded);
  ASSERT_TRUE(ours->ValidateFull().ok()) << ours->ValidateFull();
  EXPECT_TRUE(ours->Equals(*expected)) << ours->ToString();
}

TEST(ParquetDictionaryReadTest, TheParquetFormatReadsTheSameRowsWithPlainTypes) {
  testing::ScratchDir dir;
  auto table = Trips();
  const std::string path = WriteParquet(dir, *table);
  auto format = MakeFormatReader(FileFormat::kParquet, {}, FormatContext{}).ValueOrDie();
  auto schema = format->InferSchema({path}).ValueOrDie();
  auto batches = format->OpenFile(path, schema).ValueOrDie();
  auto read = arrow::Table::FromRecordBatchReader(batches.get()).ValueOrDie();
  EXPECT_EQ(read->schema()->field(0)->type()->id(), arrow::Type::STRING);
  EXPECT_TRUE(read->Equals(*table->ReplaceSchemaMetadata(nullptr)))
      << read->ToString() << "\n" << table->ToString();
}

}  // namespace
}  // namespace sluice::formats
