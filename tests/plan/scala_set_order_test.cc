// The order Scala's Set gives names, which Spark 4.0.1 records as a deduplication's state key:
// each expected order is the key schema Spark's state reader showed for dropDuplicates(names).
#include "sluice/plan/scala_set_order.h"

#include <gtest/gtest.h>

namespace sluice::plan {
namespace {

using Names = std::vector<std::string>;

TEST(ScalaSetOrderTest, UpToFourNamesKeepTheirFirstAppearance) {
  EXPECT_EQ(ScalaSetOrder({"b", "a"}), (Names{"b", "a"}));
  EXPECT_EQ(ScalaSetOrder({"c", "b", "a", "c"}), (Names{"c", "b", "a"}));
  EXPECT_EQ(ScalaSetOrder({"a", "b", "c", "a", "b"}), (Names{"a", "b", "c"}));
}

TEST(ScalaSetOrderTest, MoreNamesTakeTheOrderOfSparksHashSet) {
  EXPECT_EQ(ScalaSetOrder({"a", "b", "c", "d", "e"}), (Names{"e", "a", "b", "c", "d"}));
  EXPECT_EQ(ScalaSetOrder({"e", "d", "c", "b", "a"}), (Names{"e", "a", "b", "c", "d"}));
  EXPECT_EQ(ScalaSetOrder({"id", "user", "amount", "ts", "name", "x"}),
            (Names{"x", "name", "ts", "amount", "id", "user"}));
  EXPECT_EQ(ScalaSetOrder({"c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11",
                           "c12"}),
            (Names{"c7", "c10", "c3", "c4", "c11", "c8", "c5", "c2", "c9", "c12", "c1", "c6"}));
}

}  // namespace
}  // namespace sluice::plan
