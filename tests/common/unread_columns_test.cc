// UnreadColumns: nulls of a type, made once and then handed out as slices.
#include "sluice/common/unread_columns.h"

#include <gtest/gtest.h>

#include <arrow/type.h>

namespace sluice {
namespace {

std::shared_ptr<arrow::DataType> Struct() {
  return arrow::struct_({arrow::field("id", arrow::int64()), arrow::field("name", arrow::utf8())});
}

TEST(UnreadColumnsTest, GivesNullsOfTheTypeAndLength) {
  UnreadColumns unread;
  for (const auto& type : {arrow::int64(), arrow::utf8(), Struct(), arrow::list(arrow::int32())}) {
    auto nulls = unread.Get(type, 100);
    ASSERT_TRUE(nulls.ok()) << nulls.status();
    EXPECT_TRUE((*nulls)->type()->Equals(*type));
    EXPECT_EQ((*nulls)->length(), 100);
    EXPECT_EQ((*nulls)->null_count(), 100);
    EXPECT_TRUE((*nulls)->ValidateFull().ok());
  }
}

TEST(UnreadColumnsTest, ShorterBatchesShareTheNullsMadeForALongerOne) {
  UnreadColumns unread;
  auto first = unread.Get(Struct(), 1000).ValueOrDie();
  // Another instance of an equal type, and fewer rows: a slice of the same nulls.
  auto second = unread.Get(Struct(), 300).ValueOrDie();
  EXPECT_EQ(second->length(), 300);
  EXPECT_EQ(second->null_count(), 300);
  EXPECT_EQ(second->data()->buffers[0], first->data()->buffers[0]);
  EXPECT_EQ(second->data()->child_data[1]->buffers[1], first->data()->child_data[1]->buffers[1]);
  // More rows than made so far: made anew, long enough.
  auto third = unread.Get(Struct(), 5000).ValueOrDie();
  EXPECT_EQ(third->length(), 5000);
  EXPECT_EQ(third->null_count(), 5000);
  EXPECT_TRUE(third->ValidateFull().ok());
  // Another type has nulls of its own.
  auto longs = unread.Get(arrow::int64(), 10).ValueOrDie();
  EXPECT_TRUE(longs->type()->Equals(*arrow::int64()));
  EXPECT_EQ(longs->null_count(), 10);
}

}  // namespace
}  // namespace sluice
