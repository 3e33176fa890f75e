// KeyIndex numbers keys in the order first met; GroupByKey groups items by those numbers.
#include "sluice/physical/state_row_bytes.h"

#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace sluice::physical {
namespace {

TEST(KeyIndexTest, NumbersKeysInTheOrderFirstMetAndFindsThemAcrossGrowth) {
  std::vector<std::string> keys;
  for (int i = 0; i < 100; ++i) keys.push_back("key-" + std::to_string(i % 40));
  KeyIndex index(4);  // grows several times
  for (size_t i = 0; i < keys.size(); ++i) {
    EXPECT_EQ(index.Insert(keys[i]), static_cast<int32_t>(i % 40));
  }
  ASSERT_EQ(index.keys().size(), 40u);
  EXPECT_EQ(index.keys()[7], "key-7");
  EXPECT_EQ(index.Find("key-39"), 39);
  EXPECT_EQ(index.Find("key-40"), -1);
}

TEST(KeyIndexTest, GroupByKeyKeepsEachKeysItemsInOrderAndLeavesOutItemsOfNoKey) {
  const std::vector<int32_t> key_of = {2, 0, -1, 2, 1, 0, -1, 2};
  const KeyGroups groups = GroupByKey(key_of, 4);  // key 3 has no items
  EXPECT_THAT(groups.starts, ::testing::ElementsAre(0, 2, 3, 6, 6));
  EXPECT_THAT(groups.members, ::testing::ElementsAre(1, 5, 4, 0, 3, 7));
  const KeyGroups none = GroupByKey({}, 0);
  EXPECT_THAT(none.starts, ::testing::ElementsAre(0));
  EXPECT_TRUE(none.members.empty());
}

}  // namespace
}  // namespace sluice::physical
