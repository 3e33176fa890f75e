// What stateful operators keep from one batch to the next besides their state: one object per
// operator, and buffers that keep their memory when refilled.
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "sluice/physical/operator_carry_over.h"
#include "sluice/physical/state_key_encoding.h"
#include "sluice/physical/stateful_context.h"

namespace sluice::physical {
namespace {

struct Groups {
  int64_t count = 0;
};
struct Buffers {
  EncodedRows rows;
};

TEST(OperatorCarryOverTest, AnOperatorFindsWhatItLeftInItsLastBatch) {
  OperatorCarryOver carry_over;
  StatefulContext first;
  first.carry_over = &carry_over;
  first.CarriedOver<Groups>(7)->count = 42;
  first.CarriedOver<Groups>(8)->count = 5;
  // The next batch's context, made anew by the executor, over the same carry-over.
  StatefulContext next;
  next.carry_over = &carry_over;
  EXPECT_EQ(next.CarriedOver<Groups>(7)->count, 42);
  EXPECT_EQ(next.CarriedOver<Groups>(8)->count, 5);
  EXPECT_EQ(next.CarriedOver<Groups>(9)->count, 0);
}

TEST(OperatorCarryOverTest, WithoutTheExecutorsCarryOverEachBatchStartsAfresh) {
  StatefulContext context;
  context.CarriedOver<Groups>(7)->count = 42;
  EXPECT_EQ(context.CarriedOver<Groups>(7)->count, 0);
}

TEST(OperatorCarryOverTest, AnOperatorKeepsOneObjectOfEachType) {
  OperatorCarryOver carry_over;
  carry_over.Of<Groups>(1)->count = 3;
  carry_over.Of<Buffers>(1)->rows.Append("row");
  EXPECT_EQ(carry_over.Of<Buffers>(1)->rows.size(), 1);
  EXPECT_EQ(carry_over.Of<Groups>(1)->count, 3);
}

TEST(EncodedRowsTest, ClearKeepsTheMemoryOfRowsThatFilledIt) {
  EncodedRows rows;
  const std::string row(1000, 'r');
  for (int i = 0; i < 1000; ++i) rows.Append(row);
  const char* bytes = rows.bytes.data();
  const size_t capacity = rows.bytes.capacity();
  rows.Clear();
  EXPECT_EQ(rows.size(), 0);
  EXPECT_EQ(rows.bytes.capacity(), capacity);
  // Refilled as much, the rows take the same memory again.
  for (int i = 0; i < 1000; ++i) rows.Append(row);
  EXPECT_EQ(rows.bytes.data(), bytes);
  EXPECT_EQ(rows.row(999), row);
}

TEST(EncodedRowsTest, ClearLetsGoOfMemoryTheRowsHardlyUsed) {
  EncodedRows rows;
  const std::string row(1000, 'r');
  for (int i = 0; i < 1000; ++i) rows.Append(row);
  rows.Clear();
  for (int i = 0; i < 10; ++i) rows.Append(row);
  // One large batch does not hold its memory for good: after a small one it goes.
  rows.Clear();
  EXPECT_LT(rows.bytes.capacity(), 1000u);
  EXPECT_EQ(rows.size(), 0);
  rows.Append("again");
  EXPECT_EQ(rows.row(0), "again");
}

}  // namespace
}  // namespace sluice::physical
