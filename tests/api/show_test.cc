// show() must print exactly what Spark prints; the expected texts below were printed by Spark
// 4.0.1 for the same rows (spark.sql("select * from values ...").show(...)).
#include <gtest/gtest.h>

#include "sluice/api/functions.h"
#include "support/session_fixture.h"

namespace sluice {
namespace {

class ShowTest : public testing::SessionTest {
 protected:
  DataFrame Rows() {
    return Frame("id INT, text STRING, x DOUBLE",
                 {"[1, 22, null, 4]",
                  R"(["short", "a string that is longer than twenty", "tab\there", "日本語テキスト"])",
                  "[1.5, null, 2.0, 0.1]"});
  }

  std::string Show(const DataFrame& df, int n, int truncate_to, bool vertical = false) {
    auto text = df.showString(n, truncate_to, vertical);
    EXPECT_TRUE(text.ok()) << text.status().ToString();
    return text.ok() ? *text : "";
  }
};

TEST_F(ShowTest, TruncatesAndRightAlignsByDefault) {
  EXPECT_EQ(Show(Rows(), 20, 20),
            "+----+--------------------+----+\n"
            "|  id|                text|   x|\n"
            "+----+--------------------+----+\n"
            "|   1|               short| 1.5|\n"
            "|  22|a string that is ...|NULL|\n"
            "|NULL|           tab\\there| 2.0|\n"
            "|   4|      日本語テキスト| 0.1|\n"
            "+----+--------------------+----+\n");
}

// Spark 4.0.1: spark.sql("select cast('hello' as binary) b, array(1, null) a, named_struct('x',
// cast(null as string), 'b', cast('' as binary)) st, map('k', cast(null as binary)) m").show()
// (ToPrettyString: binary in hex, nulls inside nested values as NULL), while a string cast of
// the same values keeps "null" and the raw bytes.
TEST_F(ShowTest, BinaryPrintsInHexAndNestedNullsAsNull) {
  auto df = spark_->sql(
      "select cast('hello' as binary) b, array(1, null) a, named_struct('x', cast(null as "
      "string), 'b', cast('' as binary)) st, map('k', cast(null as binary)) m");
  EXPECT_EQ(Show(df, 20, 20),
            "+----------------+---------+----------+-----------+\n"
            "|               b|        a|        st|          m|\n"
            "+----------------+---------+----------+-----------+\n"
            "|[68 65 6C 6C 6F]|[1, NULL]|{NULL, []}|{k -> NULL}|\n"
            "+----------------+---------+----------+-----------+\n");
  auto cast = spark_->sql("select cast(array(1, null) as string) a, cast(cast('hi' as binary) as "
                          "string) b").collect();
  ASSERT_TRUE(cast.ok()) << cast.status().ToString();
  EXPECT_EQ((*cast)->column(0)->GetScalar(0).ValueOrDie()->ToString(), "[1, null]");
  EXPECT_EQ((*cast)->column(1)->GetScalar(0).ValueOrDie()->ToString(), "hi");
}

TEST_F(ShowTest, SaysWhenRowsAreLeftOut) {
  EXPECT_EQ(Show(Rows(), 2, 20),
            "+---+--------------------+----+\n"
            "| id|                text|   x|\n"
            "+---+--------------------+----+\n"
            "|  1|               short| 1.5|\n"
            "| 22|a string that is ...|NULL|\n"
            "+---+--------------------+----+\n"
            "only showing top 2 rows\n");
}

TEST_F(ShowTest, WithoutTruncationLeftAligns) {
  EXPECT_EQ(Show(Rows(), 20, 0),
            "+----+-----------------------------------+----+\n"
            "|id  |text                               |x   |\n"
            "+----+-----------------------------------+----+\n"
            "|1   |short                              |1.5 |\n"
            "|22  |a string that is longer than twenty|NULL|\n"
            "|NULL|tab\\there                          |2.0 |\n"
            "|4   |日本語テキスト                     |0.1 |\n"
            "+----+-----------------------------------+----+\n");
}

TEST_F(ShowTest, VerticalPrintsOneBlockPerRow) {
  EXPECT_EQ(Show(Rows(), 1, 20, true),
            "-RECORD 0-----\n"
            " id   | 1     \n"
            " text | short \n"
            " x    | 1.5   \n"
            "only showing top 1 row\n");
}

TEST_F(ShowTest, NarrowTruncationCountsCharactersNotBytes) {
  EXPECT_EQ(Show(Rows(), 20, 5),
            "+----+-------+----+\n"
            "|  id|   text|   x|\n"
            "+----+-------+----+\n"
            "|   1|  short| 1.5|\n"
            "|  22|  a ...|NULL|\n"
            "|NULL|  ta...| 2.0|\n"
            "|   4|日本...| 0.1|\n"
            "+----+-------+----+\n");
}

TEST_F(ShowTest, EmptyResultPrintsTheHeaderOnly) {
  EXPECT_EQ(Show(Rows().filter(functions::col("id") > 100), 20, 20),
            "+---+----+---+\n"
            "| id|text|  x|\n"
            "+---+----+---+\n"
            "+---+----+---+\n");
}

}  // namespace
}  // namespace sluice
