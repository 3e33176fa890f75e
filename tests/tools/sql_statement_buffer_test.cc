// How the SQL shell cuts its input into statements: at `;`, but not inside strings, backquoted
// names or comments, and across lines until the `;` arrives.
#include <gtest/gtest.h>

#include "sluice/tools/sql_statement_buffer.h"

namespace sluice::tools {
namespace {

using Statements = std::vector<std::string>;

TEST(SqlStatementBufferTest, CutsAtEachSemicolonAndDropsEmptyStatements) {
  SqlStatementBuffer buffer;
  EXPECT_EQ(buffer.AddLine("SELECT 1; ; SELECT 2 ;SELECT 3"),
            (Statements{"SELECT 1", "SELECT 2"}));
  EXPECT_FALSE(buffer.empty());
  EXPECT_EQ(buffer.TakeRest(), "SELECT 3");
  EXPECT_TRUE(buffer.empty());
  EXPECT_EQ(buffer.TakeRest(), "");
}

TEST(SqlStatementBufferTest, ASemicolonInQuotesOrCommentsDoesNotEndAStatement) {
  SqlStatementBuffer buffer;
  EXPECT_EQ(buffer.AddLine("SELECT 'a;b', \"c;\", `d;e` FROM t /* x; y */ WHERE 1 = 1; -- z;"),
            (Statements{"SELECT 'a;b', \"c;\", `d;e` FROM t /* x; y */ WHERE 1 = 1"}));
  // What follows the last `;` is a comment only: nothing is under way.
  EXPECT_TRUE(buffer.empty());
  EXPECT_EQ(buffer.AddLine("-- only a comment;"), Statements{});
  EXPECT_TRUE(buffer.empty());
}

TEST(SqlStatementBufferTest, AStatementSpansLinesUntilItsSemicolon) {
  SqlStatementBuffer buffer;
  EXPECT_EQ(buffer.AddLine("SELECT 'one"), Statements{});
  EXPECT_FALSE(buffer.empty());
  // Still inside the string: its `;` is text.
  EXPECT_EQ(buffer.AddLine("two;' AS s, /* a"), Statements{});
  EXPECT_EQ(buffer.AddLine("comment; */ 2 AS n"), Statements{});
  EXPECT_EQ(buffer.AddLine("; SELECT"), (Statements{"SELECT 'one\ntwo;' AS s, /* a\n"
                                                    "comment; */ 2 AS n"}));
  EXPECT_EQ(buffer.AddLine("3;"), Statements{"SELECT\n3"});
  EXPECT_TRUE(buffer.empty());
}

}  // namespace
}  // namespace sluice::tools
