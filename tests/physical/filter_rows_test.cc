// FilterRows and CopyRuns: the same rows as Arrow's Filter and Take, for every kind of column,
// sliced inputs and masks with nulls.
#include <gtest/gtest.h>

#include <random>

#include <arrow/array/builder_binary.h>
#include <arrow/array/builder_decimal.h>
#include <arrow/array/builder_nested.h>
#include <arrow/array/builder_primitive.h>
#include <arrow/compute/api_vector.h>
#include <arrow/memory_pool.h>
#include <arrow/util/decimal.h>

#include "sluice/physical/filter_rows.h"

namespace sluice::physical {
namespace {

constexpr int64_t kRows = 3000;

/// A batch of `rows` rows with a column of each kind, some values null, built from `seed`.
std::shared_ptr<arrow::RecordBatch> MixedBatch(int64_t rows, uint32_t seed) {
  std::mt19937 random(seed);
  auto null_now = [&random] { return random() % 7 == 0; };
  arrow::Int64Builder longs;
  arrow::DoubleBuilder doubles;
  arrow::BooleanBuilder bools;
  arrow::StringBuilder strings;
  arrow::LargeBinaryBuilder large;
  arrow::Decimal128Builder decimals(arrow::decimal128(20, 3));
  arrow::TimestampBuilder times(arrow::timestamp(arrow::TimeUnit::MICRO, "UTC"),
                                arrow::default_memory_pool());
  auto list_builder = std::make_shared<arrow::ListBuilder>(
      arrow::default_memory_pool(), std::make_shared<arrow::Int32Builder>());
  auto& list_values = static_cast<arrow::Int32Builder&>(*list_builder->value_builder());
  auto struct_type = arrow::struct_({arrow::field("id", arrow::int32()),
                                     arrow::field("name", arrow::utf8()),
                                     arrow::field("ok", arrow::boolean())});
  arrow::StructBuilder structs(struct_type, arrow::default_memory_pool(),
                               {std::make_shared<arrow::Int32Builder>(),
                                std::make_shared<arrow::StringBuilder>(),
                                std::make_shared<arrow::BooleanBuilder>()});
  auto& ids = static_cast<arrow::Int32Builder&>(*structs.field_builder(0));
  auto& names = static_cast<arrow::StringBuilder&>(*structs.field_builder(1));
  auto& oks = static_cast<arrow::BooleanBuilder&>(*structs.field_builder(2));
  for (int64_t i = 0; i < rows; ++i) {
    const std::string text(random() % 12, static_cast<char>('a' + i % 26));
    EXPECT_TRUE((null_now() ? longs.AppendNull() : longs.Append(i * 31)).ok());
    EXPECT_TRUE((null_now() ? doubles.AppendNull() : doubles.Append(i * 0.25)).ok());
    EXPECT_TRUE((null_now() ? bools.AppendNull() : bools.Append(random() % 2 == 0)).ok());
    EXPECT_TRUE((null_now() ? strings.AppendNull() : strings.Append(text)).ok());
    EXPECT_TRUE((null_now() ? large.AppendNull() : large.Append(text + "!")).ok());
    EXPECT_TRUE((null_now() ? decimals.AppendNull()
                            : decimals.Append(arrow::Decimal128(i * 1001 - 7)))
                    .ok());
    EXPECT_TRUE((null_now() ? times.AppendNull() : times.Append(i * 1'000'000)).ok());
    if (null_now()) {
      EXPECT_TRUE(list_builder->AppendNull().ok());
    } else {
      EXPECT_TRUE(list_builder->Append().ok());
      for (int k = 0; k < static_cast<int>(i % 3); ++k) EXPECT_TRUE(list_values.Append(k).ok());
    }
    if (null_now()) {
      EXPECT_TRUE(structs.AppendNull().ok());
    } else {
      EXPECT_TRUE(structs.Append().ok());
      EXPECT_TRUE((null_now() ? ids.AppendNull() : ids.Append(static_cast<int32_t>(i))).ok());
      EXPECT_TRUE((null_now() ? names.AppendNull() : names.Append(text)).ok());
      EXPECT_TRUE((null_now() ? oks.AppendNull() : oks.Append(i % 5 == 0)).ok());
    }
  }
  arrow::ArrayVector columns;
  for (arrow::ArrayBuilder* builder :
       std::vector<arrow::ArrayBuilder*>{&longs, &doubles, &bools, &strings, &large, &decimals,
                                         &times, list_builder.get(), &structs}) {
    columns.push_back(builder->Finish().ValueOrDie());
  }
  columns.push_back(arrow::MakeArrayOfNull(arrow::null(), rows).ValueOrDie());
  arrow::FieldVector fields;
  for (size_t c = 0; c < columns.size(); ++c) {
    fields.push_back(arrow::field(std::string(1, static_cast<char>('a' + c)), columns[c]->type()));
  }
  return arrow::RecordBatch::Make(arrow::schema(fields), rows, columns);
}

/// A mask of runs: each row starts a new run with probability 1/`mean_run`; a run keeps its
/// rows or drops them; with `nulls`, some kept rows are null instead.
std::shared_ptr<arrow::Array> RunMask(int64_t rows, int mean_run, bool nulls, uint32_t seed) {
  std::mt19937 random(seed);
  arrow::BooleanBuilder mask;
  bool keep = true;
  for (int64_t i = 0; i < rows; ++i) {
    if (random() % static_cast<uint32_t>(mean_run) == 0) keep = !keep;
    if (nulls && keep && random() % 50 == 0) {
      EXPECT_TRUE(mask.AppendNull().ok());
    } else {
      EXPECT_TRUE(mask.Append(keep).ok());
    }
  }
  return mask.Finish().ValueOrDie();
}

void ExpectSameAsArrowFilter(const std::shared_ptr<arrow::RecordBatch>& batch,
                             const std::shared_ptr<arrow::Array>& mask) {
  auto ours = FilterRows(batch, *mask, arrow::default_memory_pool());
  ASSERT_TRUE(ours.ok()) << ours.status();
  ASSERT_TRUE((*ours)->ValidateFull().ok()) << (*ours)->ValidateFull();
  auto arrows = arrow::compute::Filter(batch, mask);
  ASSERT_TRUE(arrows.ok()) << arrows.status();
  EXPECT_TRUE((*ours)->Equals(*arrows->record_batch()))
      << "ours:\n" << (*ours)->ToString() << "\nArrow's:\n" << arrows->record_batch()->ToString();
}

TEST(FilterRowsTest, KeepsTheSameRowsAsArrowsFilterForRunsLongAndShort) {
  auto batch = MixedBatch(kRows, 1);
  for (int mean_run : {1, 2, 5, 20, 100, 1000}) {
    for (bool nulls : {false, true}) {
      SCOPED_TRACE("mean run " + std::to_string(mean_run) + (nulls ? ", nulls" : ""));
      ExpectSameAsArrowFilter(batch, RunMask(kRows, mean_run, nulls, 7 + mean_run));
    }
  }
}

TEST(FilterRowsTest, ReadsSlicedBatchesAndSlicedMasksFromTheirOffsets) {
  auto batch = MixedBatch(kRows, 2)->Slice(37, 2000);
  auto mask = RunMask(kRows, 40, true, 3)->Slice(101, 2000);
  ExpectSameAsArrowFilter(batch, mask);
}

TEST(FilterRowsTest, ReturnsTheBatchItselfWhenEveryRowIsKeptAndNoRowsWhenNoneIs) {
  auto batch = MixedBatch(100, 4);
  arrow::BooleanBuilder all, none;
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(all.Append(true).ok());
    ASSERT_TRUE(none.Append(false).ok());
  }
  auto kept = FilterRows(batch, *all.Finish().ValueOrDie(), arrow::default_memory_pool());
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_EQ(kept->get(), batch.get());
  auto dropped = FilterRows(batch, *none.Finish().ValueOrDie(), arrow::default_memory_pool());
  ASSERT_TRUE(dropped.ok()) << dropped.status();
  EXPECT_EQ((*dropped)->num_rows(), 0);
  EXPECT_TRUE((*dropped)->schema()->Equals(*batch->schema()));
  // An empty batch, with a mask of no buffers.
  auto empty_mask =
      arrow::MakeArray(arrow::ArrayData::Make(arrow::boolean(), 0, {nullptr, nullptr}, 0));
  auto empty = FilterRows(*dropped, *empty_mask, arrow::default_memory_pool());
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ((*empty)->num_rows(), 0);
}

TEST(FilterRowsTest, SelectedRunsJoinsRunsAcrossTheVisitorsChunksSkipsNullsAndStopsAtItsLimit) {
  // 10000 true values cross the bit visitor's chunks of 4096; a null and a false split them.
  arrow::BooleanBuilder mask;
  for (int64_t i = 0; i < 10000; ++i) {
    ASSERT_TRUE((i == 5000 ? mask.AppendNull() : mask.Append(i != 7000)).ok());
  }
  auto data = mask.Finish().ValueOrDie()->data();
  EXPECT_FALSE(SelectedRuns(*data, 2).has_value());
  auto runs = *SelectedRuns(*data, 3);
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].start, 0);
  EXPECT_EQ(runs[0].length, 5000);
  EXPECT_EQ(runs[1].start, 5001);
  EXPECT_EQ(runs[1].length, 1999);
  EXPECT_EQ(runs[2].start, 7001);
  EXPECT_EQ(runs[2].length, 2999);
}

TEST(FilterRowsTest, CopyRunsCopiesEachColumnAsTakeGathersIt) {
  // Runs as short as one row, straight through CopyRuns, which FilterRows uses for long runs.
  auto batch = MixedBatch(kRows, 5)->Slice(3, 2990);
  std::vector<RowRun> runs = {{0, 1}, {2, 3}, {9, 1}, {10, 500}, {1200, 77}, {2989, 1}};
  arrow::Int64Builder indices;
  for (const RowRun& run : runs) {
    for (int64_t i = 0; i < run.length; ++i) ASSERT_TRUE(indices.Append(run.start + i).ok());
  }
  auto index_array = indices.Finish().ValueOrDie();
  for (const auto& column : batch->columns()) {
    SCOPED_TRACE(column->type()->ToString());
    auto copied = CopyRuns(*column->data(), runs, arrow::default_memory_pool());
    ASSERT_TRUE(copied.ok()) << copied.status();
    auto ours = arrow::MakeArray(*copied);
    ASSERT_TRUE(ours->ValidateFull().ok()) << ours->ValidateFull();
    auto taken = arrow::compute::Take(column, index_array);
    ASSERT_TRUE(taken.ok()) << taken.status();
    EXPECT_TRUE(ours->Equals(*taken->make_array()))
        << ours->ToString() << "\nTake's:\n" << taken->make_array()->ToString();
    EXPECT_EQ(ours->null_count(), taken->make_array()->null_count());
  }
}

/// Whether `array`'s values buffer (buffer 2) lies within `of`'s.
bool SharesValues(const arrow::Array& array, const arrow::Array& of) {
  const uint8_t* values = array.data()->buffers[2]->data();
  const auto& outer = *of.data()->buffers[2];
  return values >= outer.data() && values < outer.data() + outer.size();
}

TEST(FilterRowsTest, StringsOfRunsSeparatedByRowsWithoutBytesShareTheInputsValues) {
  // Runs of strings with nulls and empty strings between them, as a filter on Nexmark's
  // event type sees the bids' `extra` between the persons and auctions.
  arrow::StringBuilder strings;
  arrow::BooleanBuilder mask;
  for (int64_t i = 0; i < kRows; ++i) {
    const bool kept = i % 50 >= 4;
    if (kept) {
      ASSERT_TRUE(strings.Append(std::string(i % 13, static_cast<char>('a' + i % 26))).ok());
    } else {
      ASSERT_TRUE((i % 2 == 0 ? strings.AppendNull() : strings.Append("")).ok());
    }
    ASSERT_TRUE(mask.Append(kept).ok());
  }
  auto column = strings.Finish().ValueOrDie();
  auto batch = arrow::RecordBatch::Make(arrow::schema({arrow::field("extra", arrow::utf8())}),
                                        kRows, {column});
  auto bits = mask.Finish().ValueOrDie();
  ExpectSameAsArrowFilter(batch, bits);
  ExpectSameAsArrowFilter(batch->Slice(31, 2000), bits->Slice(31, 2000));
  auto kept = FilterRows(batch, *bits, arrow::default_memory_pool());
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_TRUE(SharesValues(*(*kept)->column(0), *column));

  // A dropped row with bytes between two runs: the values are copied.
  std::vector<RowRun> runs = {{4, 46}, {55, 45}};
  auto copied = CopyRuns(*column->data(), runs, arrow::default_memory_pool());
  ASSERT_TRUE(copied.ok()) << copied.status();
  EXPECT_FALSE(SharesValues(*arrow::MakeArray(*copied), *column));
  // Runs keeping less than half of the values: copied, so that the rest is not held.
  runs = {{4, 46}};
  copied = CopyRuns(*column->data(), runs, arrow::default_memory_pool());
  ASSERT_TRUE(copied.ok()) << copied.status();
  EXPECT_FALSE(SharesValues(*arrow::MakeArray(*copied), *column));
  EXPECT_TRUE(arrow::MakeArray(*copied)->Equals(*column->Slice(4, 46)));
}

}  // namespace
}  // namespace sluice::physical
