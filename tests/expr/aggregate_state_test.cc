// Partial aggregation states: folding the exported state of one accumulator into another gives
// the same result as aggregating all rows in one (what a streaming aggregation relies on), and
// the key grouper groups keys as Spark does.
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <string>

#include <arrow/api.h>
#include <arrow/compute/initialize.h>
#include <gtest/gtest.h>

#include "sluice/expr/aggregate_function.h"
#include "sluice/expr/function_registry.h"
#include "sluice/expr/key_grouper.h"
#include "sluice/types/row_codec.h"

namespace sluice::expr {
namespace {

class AggregateStateTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_TRUE(arrow::compute::Initialize().ok()); }

  std::shared_ptr<AggregateFunction> Resolve(const std::string& name,
                                             std::shared_ptr<arrow::DataType> type) {
    auto column = std::make_shared<BoundColumn>(0, type, true, "a");
    const auto* resolver = FunctionRegistry::Builtins().FindAggregate(name);
    EXPECT_NE(resolver, nullptr);
    return (*resolver)(CallSite{name, {column}, &config_}, false).ValueOrDie();
  }

  SessionConfig config_;
  EvalContext context_{&config_, 0};
};

TEST_F(AggregateStateTest, MergedStatesFinalizeLikeOneAccumulator) {
  arrow::DoubleBuilder builder;
  ASSERT_TRUE(builder.AppendValues({1.5, 2.0, -3.0, 10.25, 7.0, 0.5}).ok());
  ASSERT_TRUE(builder.AppendNull().ok());
  auto values = builder.Finish().ValueOrDie();
  const std::vector<GroupId> groups{0, 1, 0, 1, 0, 1, 0};
  for (const char* name : {"sum", "avg", "count", "min", "max", "first", "last", "var_samp",
                           "stddev_pop", "collect_list", "approx_count_distinct"}) {
    SCOPED_TRACE(name);
    auto function = Resolve(name, arrow::float64());
    // All rows in one accumulator.
    auto whole = function->MakeAccumulator(arrow::default_memory_pool()).ValueOrDie();
    ASSERT_TRUE(whole->Resize(2).ok());
    ASSERT_TRUE(whole->Update(groups.data(), 7, {arrow::Datum(values)}, context_).ok());
    auto expected = whole->Finalize(context_).ValueOrDie();
    // The same rows split over two accumulators whose states are merged into a third.
    auto first = function->MakeAccumulator(arrow::default_memory_pool()).ValueOrDie();
    auto second = function->MakeAccumulator(arrow::default_memory_pool()).ValueOrDie();
    ASSERT_TRUE(first->Resize(2).ok());
    ASSERT_TRUE(second->Resize(2).ok());
    ASSERT_TRUE(first->Update(groups.data(), 3, {arrow::Datum(values->Slice(0, 3))}, context_).ok());
    ASSERT_TRUE(
        second->Update(groups.data() + 3, 4, {arrow::Datum(values->Slice(3, 4))}, context_).ok());
    auto merged = function->MakeAccumulator(arrow::default_memory_pool()).ValueOrDie();
    ASSERT_TRUE(merged->Resize(2).ok());
    const std::vector<GroupId> identity{0, 1};
    for (auto* part : {first.get(), second.get()}) {
      auto state = part->State().ValueOrDie();
      ASSERT_EQ(state.size(), function->state_fields().size());
      ASSERT_TRUE(merged->Merge(identity.data(), 2, state, context_).ok());
    }
    auto actual = merged->Finalize(context_).ValueOrDie();
    if (std::string(name) == "var_samp" || std::string(name) == "stddev_pop" ||
        std::string(name) == "avg") {
      for (int64_t g = 0; g < 2; ++g) {
        EXPECT_NEAR(static_cast<const arrow::DoubleArray&>(*actual).Value(g),
                    static_cast<const arrow::DoubleArray&>(*expected).Value(g), 1e-9);
      }
    } else {
      EXPECT_TRUE(actual->Equals(*expected)) << actual->ToString() << " vs "
                                             << expected->ToString();
    }
  }
}

TEST_F(AggregateStateTest, KeyGrouperGroupsNullsNaNAndZeros) {
  arrow::DoubleBuilder doubles;
  ASSERT_TRUE(doubles.AppendValues({0.0, -0.0, std::nan(""), -std::nan(""), 1.0}).ok());
  ASSERT_TRUE(doubles.AppendNull().ok());
  ASSERT_TRUE(doubles.AppendNull().ok());
  auto keys = doubles.Finish().ValueOrDie();
  auto grouper = KeyGrouper::Make({arrow::float64()}).ValueOrDie();
  std::vector<uint32_t> ids;
  ASSERT_TRUE(grouper->Consume({keys}, keys->length(), &ids).ok());
  EXPECT_EQ(ids, (std::vector<uint32_t>{0, 0, 1, 1, 2, 3, 3}));
  EXPECT_EQ(grouper->num_groups(), 4);
  std::vector<int32_t> found;
  ASSERT_TRUE(grouper->Lookup({keys}, keys->length(), false, &found).ok());
  EXPECT_EQ(found, (std::vector<int32_t>{0, 0, 1, 1, 2, -1, -1}));

  arrow::Int64Builder longs;
  ASSERT_TRUE(longs.AppendValues({5, 7, 5}).ok());
  ASSERT_TRUE(longs.AppendNull().ok());
  auto ints = longs.Finish().ValueOrDie();
  arrow::StringBuilder strings;
  ASSERT_TRUE(strings.AppendValues({"a", "a", "a", "a"}).ok());
  auto texts = strings.Finish().ValueOrDie();
  auto pairs = KeyGrouper::Make({arrow::int64(), arrow::utf8()}).ValueOrDie();
  ASSERT_TRUE(pairs->Consume({ints, texts}, 4, &ids).ok());
  EXPECT_EQ(ids, (std::vector<uint32_t>{0, 1, 0, 2}));
  auto uniques = pairs->GetUniques().ValueOrDie();
  EXPECT_EQ(uniques[0]->ToString(), "[\n  5,\n  7,\n  null\n]");
}

// A group's key is output in the one form Spark's grouping outputs (NormalizeFloatingNumbers),
// whatever form its first row had: 0.0 for -0.0 and the quiet NaN for any NaN, at any depth.
TEST_F(AggregateStateTest, KeyGrouperOutputsFloatingPointKeysInOneForm) {
  auto bits_of = [](double value) {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof(bits));
    return bits;
  };
  const double negative_nan = -std::nan("7");
  const uint64_t quiet_nan = 0x7ff8000000000000ull;
  arrow::DoubleBuilder doubles;
  ASSERT_TRUE(doubles.AppendValues({-0.0, 0.0, negative_nan, 2.5}).ok());
  auto keys = doubles.Finish().ValueOrDie();
  auto nested_type = arrow::struct_({arrow::field("d", arrow::float64())});
  auto nested =
      arrow::StructArray::Make({keys}, {arrow::field("d", arrow::float64())}).ValueOrDie();
  auto grouper = KeyGrouper::Make({arrow::float64(), nested_type}).ValueOrDie();
  std::vector<uint32_t> ids;
  ASSERT_TRUE(grouper->Consume({keys, nested}, keys->length(), &ids).ok());
  EXPECT_EQ(ids, (std::vector<uint32_t>{0, 0, 1, 2}));
  auto uniques = grouper->GetUniques().ValueOrDie();
  auto top = std::static_pointer_cast<arrow::DoubleArray>(uniques[0]);
  auto inner = std::static_pointer_cast<arrow::DoubleArray>(
      std::static_pointer_cast<arrow::StructArray>(uniques[1])->field(0));
  for (const auto& column : {top, inner}) {
    ASSERT_EQ(column->length(), 3);
    EXPECT_EQ(bits_of(column->Value(0)), 0u);
    EXPECT_EQ(bits_of(column->Value(1)), quiet_nan);
    EXPECT_EQ(column->Value(2), 2.5);
  }
}

// Keys of integral values (here a window-like struct with nulls at both levels, longs,
// bytes, booleans and unsigned ints, in sliced arrays over several of the grouper's slices)
// group exactly as their canonical row encoding does.
TEST_F(AggregateStateTest, KeyGrouperGroupsIntegralStructKeysAsTheirEncoding) {
  auto time = arrow::timestamp(arrow::TimeUnit::MICRO);
  auto window = arrow::struct_({arrow::field("start", time), arrow::field("end", time)});
  std::vector<std::shared_ptr<arrow::DataType>> types = {window, arrow::int64(), arrow::int8(),
                                                         arrow::boolean(), arrow::uint32()};
  std::mt19937_64 random(7);
  auto random_keys = [&](int64_t rows) {
    auto starts = std::make_shared<arrow::TimestampBuilder>(time, arrow::default_memory_pool());
    auto ends = std::make_shared<arrow::TimestampBuilder>(time, arrow::default_memory_pool());
    arrow::StructBuilder windows(window, arrow::default_memory_pool(), {starts, ends});
    arrow::Int64Builder longs;
    arrow::Int8Builder bytes;
    arrow::BooleanBuilder flags;
    arrow::UInt32Builder unsigned_ints;
    for (int64_t i = 0; i < rows; ++i) {
      if (random() % 50 == 0) {
        EXPECT_TRUE(windows.AppendNull().ok());
      } else {
        EXPECT_TRUE(windows.Append().ok());
        const int64_t start = static_cast<int64_t>(random() % 3) * 60'000'000;
        EXPECT_TRUE(starts->Append(start).ok());
        EXPECT_TRUE((random() % 40 == 0 ? ends->AppendNull() : ends->Append(start + 60'000'000))
                        .ok());
      }
      EXPECT_TRUE((random() % 30 == 0 ? longs.AppendNull()
                                      : longs.Append(static_cast<int64_t>(random() % 4000) - 2000))
                      .ok());
      EXPECT_TRUE(bytes.Append(static_cast<int8_t>(random() % 3) - 1).ok());
      EXPECT_TRUE((random() % 20 == 0 ? flags.AppendNull() : flags.Append(random() % 2 == 0)).ok());
      EXPECT_TRUE(unsigned_ints.Append(random() % 2 == 0 ? 0xFFFFFFFFu : 1u).ok());
    }
    arrow::ArrayVector keys = {windows.Finish().ValueOrDie(), longs.Finish().ValueOrDie(),
                               bytes.Finish().ValueOrDie(), flags.Finish().ValueOrDie(),
                               unsigned_ints.Finish().ValueOrDie()};
    // Offsets into the buffers, as slices of a batch have.
    for (auto& key : keys) key = key->Slice(3);
    return keys;
  };
  auto encoder = types::RowEncoder::Make(types, /*for_keys=*/true).ValueOrDie();
  auto encoded = [&](const arrow::ArrayVector& keys, int64_t row) {
    std::string bytes;
    encoder->EncodeRow(keys, row, &bytes);
    return bytes;
  };

  auto grouper = KeyGrouper::Make(types).ValueOrDie();
  std::map<std::string, uint32_t> expected_groups;
  std::vector<uint32_t> ids;
  for (int64_t rows : {150'003, 1'003}) {
    auto keys = random_keys(rows);
    ASSERT_TRUE(grouper->Consume(keys, rows - 3, &ids).ok());
    for (int64_t i = 0; i < rows - 3; ++i) {
      auto [it, added] = expected_groups.emplace(
          encoded(keys, i), static_cast<uint32_t>(expected_groups.size()));
      ASSERT_EQ(ids[i], it->second) << "row " << i;
    }
  }
  ASSERT_EQ(grouper->num_groups(), static_cast<int64_t>(expected_groups.size()));
  auto uniques = grouper->GetUniques().ValueOrDie();
  for (const auto& [bytes, id] : expected_groups) EXPECT_EQ(encoded(uniques, id), bytes);

  auto probes = random_keys(20'003);
  for (bool null_matches : {false, true}) {
    std::vector<int32_t> found;
    ASSERT_TRUE(grouper->Lookup(probes, 20'000, null_matches, &found).ok());
    for (int64_t i = 0; i < 20'000; ++i) {
      bool any_null = false;
      for (const auto& key : probes) any_null = any_null || key->IsNull(i);
      auto it = expected_groups.find(encoded(probes, i));
      int32_t expected = it == expected_groups.end() || (any_null && !null_matches)
                             ? -1
                             : static_cast<int32_t>(it->second);
      ASSERT_EQ(found[i], expected) << "row " << i << ", null_matches " << null_matches;
    }
  }
}

// An integral array whose null slots hold the given values: what a null's slot holds is
// whatever it happens to be.
template <typename T>
std::shared_ptr<arrow::Array> WithBytesUnderNulls(std::shared_ptr<arrow::DataType> type,
                                                  const std::vector<T>& values,
                                                  const std::vector<bool>& valid) {
  const auto n = static_cast<int64_t>(values.size());
  auto buffer = arrow::AllocateBuffer(n * static_cast<int64_t>(sizeof(T))).ValueOrDie();
  std::memcpy(buffer->mutable_data(), values.data(), values.size() * sizeof(T));
  auto bitmap = arrow::AllocateEmptyBitmap(n).ValueOrDie();
  int64_t nulls = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (valid[static_cast<size_t>(i)]) {
      arrow::bit_util::SetBit(bitmap->mutable_data(), i);
    } else {
      ++nulls;
    }
  }
  return arrow::MakeArray(
      arrow::ArrayData::Make(type, n, {std::move(bitmap), std::move(buffer)}, nulls));
}

// Keys of integral columns and structs of them are grouped by their values and nulls alone:
// whatever the slots under a null hold (a null window's fields, a null field, a null id), in
// a struct and fields sliced at offsets of their own.
TEST_F(AggregateStateTest, KeyGrouperGroupsIntegralKeysWhateverLiesUnderANull) {
  auto time = arrow::timestamp(arrow::TimeUnit::MICRO);
  arrow::FieldVector fields = {arrow::field("start", time), arrow::field("end", time)};
  // Row 0 of each array is cut off by a slice; then the rows of the comment below.
  //                          -  r0  r1  r2  r3  r4  r5  r6  r7  r8  r9
  auto starts = WithBytesUnderNulls<int64_t>(time, {0, 0, 1, 2, 1, 1, 1, 1, 1, 1, 0, 0},
                                             std::vector<bool>(12, true))
                    ->Slice(1);
  auto ends = WithBytesUnderNulls<int64_t>(time, {5, 0, 10, 20, 99, 98, 10, 10, 10, 10, 0, 0},
                                           {true, true, true, true, false, false, true, true,
                                            true, true, true, true})
                  ->Slice(1);
  // r0, r1 and r9 are null windows over different fields; r2 and r3 have a null end.
  std::vector<bool> window_valid = {true, false, false, true, true, true,
                                    true, true,  true,  true, false};
  auto window_bitmap = arrow::AllocateEmptyBitmap(11).ValueOrDie();
  for (int64_t i = 0; i < 11; ++i) {
    if (window_valid[static_cast<size_t>(i)]) {
      arrow::bit_util::SetBit(window_bitmap->mutable_data(), i);
    }
  }
  std::shared_ptr<arrow::Array> windows =
      arrow::StructArray::Make({starts->Slice(0, 11), ends}, fields, window_bitmap)
          .ValueOrDie()
          ->Slice(1);
  auto ids = WithBytesUnderNulls<int32_t>(arrow::int32(), {0, 7, 7, 7, 7, 5, 6, 7, 5, 0, 7},
                                          {true, true, true, true, true, false, false, true,
                                           true, true, true})
                 ->Slice(1);
  ASSERT_EQ(windows->length(), 10);
  auto grouper = KeyGrouper::Make({windows->type(), arrow::int32()}).ValueOrDie();
  std::vector<uint32_t> groups;
  ASSERT_TRUE(grouper->Consume({windows, ids}, 10, &groups).ok());
  EXPECT_EQ(groups, (std::vector<uint32_t>{0, 0, 1, 1, 2, 2, 3, 4, 5, 0}));
  EXPECT_EQ(grouper->num_groups(), 6);
  auto uniques = grouper->GetUniques().ValueOrDie();
  EXPECT_EQ(uniques[0]->null_count(), 1);
  EXPECT_EQ(uniques[1]->null_count(), 1);
  // Each group's key is the key of its first row.
  for (size_t c = 0; c < 2; ++c) {
    ASSERT_TRUE(uniques[c]->ValidateFull().ok());
    const auto& rows = c == 0 ? windows : ids;
    for (int64_t row : {0, 2, 4, 6, 7, 8}) {
      auto want = rows->GetScalar(row).ValueOrDie();
      auto got = uniques[c]->GetScalar(groups[static_cast<size_t>(row)]).ValueOrDie();
      EXPECT_TRUE(got->Equals(*want)) << "column " << c << ", row " << row << ": "
                                      << got->ToString() << " against " << want->ToString();
    }
  }

  std::vector<int32_t> found;
  ASSERT_TRUE(grouper->Lookup({windows, ids}, 10, false, &found).ok());
  EXPECT_EQ(found, (std::vector<int32_t>{-1, -1, 1, 1, -1, -1, 3, 4, 5, -1}));
  ASSERT_TRUE(grouper->Lookup({windows, ids}, 10, true, &found).ok());
  EXPECT_EQ(found, (std::vector<int32_t>{0, 0, 1, 1, 2, 2, 3, 4, 5, 0}));
}

// String keys of every length from 0 to 40 bytes, in pairs that differ only in their first or
// their last byte, so that every length of a key's tail and of its last word is compared and
// hashed: equal strings share a group and different ones never do, in Consume and in Lookup.
TEST_F(AggregateStateTest, KeyGrouperTellsKeysApartByEveryByteAtEveryLength) {
  std::vector<std::string> distinct;
  for (size_t length = 0; length <= 40; ++length) {
    const std::string base(length, 'k');
    distinct.push_back(base);
    if (length == 0) continue;
    std::string last = base;
    last.back() = 'z';
    distinct.push_back(last);
    std::string first = base;
    first.front() = 'a';
    distinct.push_back(first);
  }
  // Each key three times, in an order that mixes lengths.
  std::vector<std::string> rows;
  for (int copy = 0; copy < 3; ++copy) {
    for (size_t i = 0; i < distinct.size(); ++i) {
      rows.push_back(distinct[(i * 7 + copy) % distinct.size()]);
    }
  }
  arrow::StringBuilder strings;
  ASSERT_TRUE(strings.AppendValues(rows).ok());
  auto keys = strings.Finish().ValueOrDie();
  auto grouper = KeyGrouper::Make({arrow::utf8()}).ValueOrDie();
  std::vector<uint32_t> ids;
  ASSERT_TRUE(grouper->Consume({keys}, keys->length(), &ids).ok());
  EXPECT_EQ(grouper->num_groups(), static_cast<int64_t>(distinct.size()));
  std::map<std::string, uint32_t> group_of;
  for (size_t i = 0; i < rows.size(); ++i) {
    auto [it, inserted] = group_of.emplace(rows[i], ids[i]);
    EXPECT_EQ(it->second, ids[i]) << "key of " << rows[i].size() << " bytes";
  }
  std::map<uint32_t, std::string> key_of;
  for (const auto& [key, id] : group_of) {
    EXPECT_TRUE(key_of.emplace(id, key).second) << "two keys in group " << id;
  }
  std::vector<int32_t> found;
  ASSERT_TRUE(grouper->Lookup({keys}, keys->length(), false, &found).ok());
  for (size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(found[i], static_cast<int32_t>(ids[i]));
}


// Reserve sizes a grouper's table before its groups come, and again once some have (a table
// that grows with groups in it): groups and their ids are the same as without it, for each of
// the groupers (an integral column, a string column, a struct and an id in words, an encoded
// key).
TEST_F(AggregateStateTest, KeyGrouperReservedGroupsAsWithoutReserving) {
  const int64_t rows = 150'000;
  arrow::Int64Builder ids_builder;
  arrow::StringBuilder names;
  arrow::DoubleBuilder reals;
  for (int64_t i = 0; i < rows; ++i) {
    const int64_t key = (i * 7919) % 40'000;
    ASSERT_TRUE(i % 101 == 0 ? ids_builder.AppendNull().ok() : ids_builder.Append(key).ok());
    ASSERT_TRUE(names.Append("k" + std::to_string(key)).ok());
    ASSERT_TRUE(reals.Append(static_cast<double>(key % 977)).ok());
  }
  auto ids = ids_builder.Finish().ValueOrDie();
  auto strings = names.Finish().ValueOrDie();
  auto doubles = reals.Finish().ValueOrDie();
  auto pair_type = arrow::struct_({arrow::field("start", arrow::int64()),
                                   arrow::field("bucket", arrow::int32())});
  auto buckets = arrow::MakeArrayFromScalar(arrow::Int32Scalar(3), rows).ValueOrDie();
  auto pairs = std::make_shared<arrow::StructArray>(pair_type, rows,
                                                    arrow::ArrayVector{ids, buckets});
  const std::vector<arrow::ArrayVector> keys_of = {
      {ids}, {strings}, {pairs, ids}, {doubles, strings}};
  for (const auto& keys : keys_of) {
    std::vector<std::shared_ptr<arrow::DataType>> types;
    for (const auto& key : keys) types.push_back(key->type());
    SCOPED_TRACE(keys.size() == 1 ? types[0]->ToString() : types[0]->ToString() + ", ...");
    const int64_t half = rows / 2;
    auto group = [&](int64_t reserve_first, int64_t reserve_later) {
      auto grouper = KeyGrouper::Make(types).ValueOrDie();
      grouper->Reserve(reserve_first);
      std::vector<uint32_t> first, second;
      arrow::ArrayVector head, tail;
      for (const auto& key : keys) {
        head.push_back(key->Slice(0, half));
        tail.push_back(key->Slice(half));
      }
      EXPECT_TRUE(grouper->Consume(head, half, &first).ok());
      grouper->Reserve(reserve_later);
      EXPECT_TRUE(grouper->Consume(tail, rows - half, &second).ok());
      first.insert(first.end(), second.begin(), second.end());
      std::vector<int32_t> found;
      EXPECT_TRUE(grouper->Lookup(keys, rows, true, &found).ok());
      for (int64_t i = 0; i < rows; ++i) {
        EXPECT_EQ(found[static_cast<size_t>(i)], static_cast<int32_t>(first[static_cast<size_t>(i)]))
            << "row " << i;
      }
      return std::make_pair(first, grouper->num_groups());
    };
    const auto plain = group(0, 0);
    const bool has_ids = keys.back() == ids;  // null ids: a group of their own
    EXPECT_EQ(plain.second, has_ids ? 40'001 : 40'000);
    for (auto [reserve_first, reserve_later] :
         {std::pair<int64_t, int64_t>{40'001, 0}, {1'000'000, 0}, {10, 300'000}}) {
      SCOPED_TRACE("reserving " + std::to_string(reserve_first) + " then " +
                   std::to_string(reserve_later));
      const auto reserved = group(reserve_first, reserve_later);
      EXPECT_EQ(reserved.second, plain.second);
      EXPECT_EQ(reserved.first, plain.first);
    }
  }
}

// A single string or binary column is grouped where its values lie, not encoded: null is a
// group of its own, and a sliced array is read from its offset, over several of the
// grouper's slices, for each of the four string and binary types.
TEST_F(AggregateStateTest, KeyGrouperGroupsOneStringColumnWithNullsFromItsOffset) {
  std::mt19937_64 random(11);
  std::vector<std::optional<std::string>> values;
  for (int64_t i = 0; i < 140'000; ++i) {
    if (random() % 25 == 0) {
      values.push_back(std::nullopt);
    } else {
      values.push_back("url/" + std::to_string(random() % 5000));
    }
  }
  const int64_t offset = 17;
  const int64_t rows = static_cast<int64_t>(values.size()) - offset - 5;
  for (const auto& type : {arrow::utf8(), arrow::binary(), arrow::large_utf8(),
                           arrow::large_binary()}) {
    SCOPED_TRACE(type->ToString());
    auto builder = arrow::MakeBuilder(type).ValueOrDie();
    for (const auto& value : values) {
      if (!value) {
        ASSERT_TRUE(builder->AppendNull().ok());
      } else if (type->id() == arrow::Type::LARGE_STRING ||
                 type->id() == arrow::Type::LARGE_BINARY) {
        ASSERT_TRUE(static_cast<arrow::LargeBinaryBuilder&>(*builder).Append(*value).ok());
      } else {
        ASSERT_TRUE(static_cast<arrow::BinaryBuilder&>(*builder).Append(*value).ok());
      }
    }
    auto keys = builder->Finish().ValueOrDie()->Slice(offset, rows);
    auto grouper = KeyGrouper::Make({type}).ValueOrDie();
    std::vector<uint32_t> ids;
    ASSERT_TRUE(grouper->Consume({keys}, rows, &ids).ok());
    std::map<std::optional<std::string>, uint32_t> expected;
    for (int64_t i = 0; i < rows; ++i) {
      auto [it, added] = expected.emplace(values[static_cast<size_t>(offset + i)],
                                          static_cast<uint32_t>(expected.size()));
      ASSERT_EQ(ids[static_cast<size_t>(i)], it->second) << "row " << i;
    }
    ASSERT_EQ(grouper->num_groups(), static_cast<int64_t>(expected.size()));
    auto uniques = grouper->GetUniques().ValueOrDie();
    for (const auto& [value, id] : expected) {
      EXPECT_EQ(uniques[0]->IsNull(id), !value.has_value());
    }
    for (bool null_matches : {false, true}) {
      std::vector<int32_t> found;
      ASSERT_TRUE(grouper->Lookup({keys}, rows, null_matches, &found).ok());
      for (int64_t i = 0; i < rows; ++i) {
        const bool null = !values[static_cast<size_t>(offset + i)].has_value();
        const int32_t want =
            null && !null_matches ? -1 : static_cast<int32_t>(ids[static_cast<size_t>(i)]);
        ASSERT_EQ(found[static_cast<size_t>(i)], want) << "row " << i;
      }
    }
  }
}

}  // namespace
}  // namespace sluice::expr
