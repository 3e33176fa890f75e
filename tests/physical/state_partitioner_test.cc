// The store partition of a state key is the one Spark's HashPartitioning gives it:
// pmod(hash(key columns), numPartitions). The hashes below were computed by Apache Spark 4.0.1
// (the same values tests/expr/hash_functions_test.cc checks hash() against).
#include <cstdint>
#include <string>
#include <vector>

#include "expr/function_call_harness.h"
#include "sluice/physical/state_key_encoding.h"
#include "sluice/types/row_codec.h"

namespace sluice::testing {
namespace {

using physical::StatePartitioner;
using physical::StatePartitioning;

int32_t Pmod(int32_t hash, int32_t n) {
  const int32_t remainder = hash % n;
  return remainder < 0 ? remainder + n : remainder;
}

class StatePartitionerTest : public FunctionCallTest {
 protected:
  /// The partition of each row of `columns` (of Spark types `types`) among `n` partitions,
  /// encoded as a state key is, in the given column order.
  static std::vector<int32_t> Partitions(const std::vector<std::string>& types,
                                         const std::vector<std::string>& json, int32_t n,
                                         const std::vector<int>& key_order = {}) {
    std::vector<std::shared_ptr<arrow::DataType>> arrow_types;
    arrow::ArrayVector columns;
    for (size_t c = 0; c < types.size(); ++c) {
      arrow_types.push_back(Type(types[c]));
      columns.push_back(FromJson(arrow_types.back(), json[c]));
    }
    auto encoder = types::RowEncoder::Make(arrow_types, /*for_keys=*/true).ValueOrDie();
    StatePartitioner partitioner(arrow_types, n, StatePartitioning::kSpark, key_order);
    std::vector<int32_t> partitions;
    for (int64_t row = 0; row < columns[0]->length(); ++row) {
      std::string key;
      encoder->EncodeRow(columns, row, &key);
      partitions.push_back(partitioner.PartitionOf(key));
    }
    return partitions;
  }

  static std::vector<int32_t> Expected(const std::vector<int32_t>& spark_hashes, int32_t n) {
    std::vector<int32_t> partitions;
    for (int32_t hash : spark_hashes) partitions.push_back(Pmod(hash, n));
    return partitions;
  }
};

TEST_F(StatePartitionerTest, AtomicKeysLandWhereSparkPutsThem) {
  constexpr int32_t n = 7;
  EXPECT_EQ(Partitions({"int"}, {"[1, 0, -1, 2147483647, null]"}, n),
            Expected({-559580957, 933211791, -1604776387, 133916647, 42}, n));
  EXPECT_EQ(Partitions({"bigint"}, {"[1, -5]"}, n), Expected({-1712319331, 424949597}, n));
  EXPECT_EQ(Partitions({"double"}, {"[1.5, -0.0, 0.0]"}, n),
            Expected({1290763749, -1670924195, -1670924195}, n));
  EXPECT_EQ(Partitions({"float"}, {"[1.5, 0.0]"}, n), Expected({-221251528, 933211791}, n));
  EXPECT_EQ(Partitions({"tinyint"}, {"[1]"}, n), Expected({-559580957}, n));
  EXPECT_EQ(Partitions({"smallint"}, {"[1]"}, n), Expected({-559580957}, n));
  EXPECT_EQ(Partitions({"boolean"}, {"[true, false]"}, n), Expected({-559580957, 933211791}, n));
  EXPECT_EQ(Partitions({"double"}, {R"(["NaN"])"}, n), Expected({-1281358385}, n));
  EXPECT_EQ(Partitions({"date"}, {"[19723]"}, n), Expected({-456589419}, n));
  EXPECT_EQ(Partitions({"timestamp"}, {"[1704067200000000]"}, n), Expected({1545358984}, n));
}

TEST_F(StatePartitionerTest, StringAndDecimalKeysLandWhereSparkPutsThem) {
  constexpr int32_t n = 200;
  EXPECT_EQ(Partitions({"string"}, {R"(["", "a", "abc", "abcd", "abcde", "hello world", "ü",
                                       "日本語テキスト"])"},
                       n),
            Expected({142593372, 1485273170, 1322437556, -396302900, 814637928, -1528836094,
                      -1098725648, -675756566},
                     n));
  EXPECT_EQ(Partitions({"decimal(3,2)"}, {R"(["1.50"])"}, n), Expected({-2056712946}, n));
  EXPECT_EQ(Partitions({"decimal(38,2)"}, {R"(["12345678901234567890.12"])"}, n),
            Expected({-2030013727}, n));
  EXPECT_EQ(Partitions({"decimal(30,2)"}, {R"(["127.99"])"}, n), Expected({-231003172}, n));
  EXPECT_EQ(Partitions({"decimal(38,0)"}, {R"(["-128"])"}, n), Expected({775851899}, n));
}

TEST_F(StatePartitionerTest, CompositeKeysHashTheirColumnsInSparksOrder) {
  constexpr int32_t n = 5;
  EXPECT_EQ(Partitions({"int", "string"}, {"[1, null]", R"(["a", null])"}, n),
            Expected({-936062819, 42}, n));
  EXPECT_EQ(Partitions({"array<int>"}, {"[[1, 2, 3], [1, null]]"}, n),
            Expected({-912918097, -559580957}, n));
  EXPECT_EQ(Partitions({"struct<a:int,b:string>"}, {R"([{"a": 1, "b": "x"}])"}, n),
            Expected({-1305545736}, n));
  // Encoded as (string, int), as an aggregation encodes its event-time key first, but hashed
  // as Spark wrote the keys: (int, string).
  EXPECT_EQ(Partitions({"string", "int"}, {R"(["a"])", "[1]"}, n, {1, 0}),
            Expected({-936062819}, n));
}

TEST_F(StatePartitionerTest, MatchesTheStateReaderOfSpark) {
  // partition_id of keys a..e of a transformWithState run with 3 shuffle partitions.
  EXPECT_EQ(Partitions({"string"}, {R"(["a", "b", "c", "d", "e"])"}, 3),
            (std::vector<int32_t>{2, 2, 2, 1, 2}));
}

TEST_F(StatePartitionerTest, OnePartitionTakesEveryKey) {
  EXPECT_EQ(Partitions({"int"}, {"[1, 2, 3]"}, 1), (std::vector<int32_t>{0, 0, 0}));
}

}  // namespace
}  // namespace sluice::testing
