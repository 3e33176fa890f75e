// `sluice sql`: statements run on a session print Spark's table and spark-sql's timing line;
// a script stops at its first error, the interactive shell reports it and goes on.
#include <sstream>

#include <gtest/gtest.h>

#include "sluice/tools/sql_command.h"
#include "support/session_fixture.h"

namespace sluice::tools {
namespace {

class SqlCommandTest : public testing::SessionTest {
 protected:
  std::ostringstream out_;
  std::ostringstream err_;
};

TEST_F(SqlCommandTest, PrintsEveryRowUncutAndTheTimeTaken) {
  ASSERT_TRUE(RunSqlScript(*spark_,
                           "CREATE TEMP VIEW v AS SELECT id, repeat('x', 25) AS s FROM range(25);"
                           "SELECT id, s FROM v WHERE id >= 1 ORDER BY id",
                           out_, err_)
                  .ok())
      << err_.str();
  const std::string text = out_.str();
  // All 24 rows, none cut to 20 characters, no "only showing top" footer.
  EXPECT_TRUE(text.starts_with("+---+-------------------------+\n"
                               "|id |s                        |\n"
                               "+---+-------------------------+\n"
                               "|1  |xxxxxxxxxxxxxxxxxxxxxxxxx|\n"))
      << text;
  EXPECT_NE(text.find("|24 |xxxxxxxxxxxxxxxxxxxxxxxxx|\n+---+"), std::string::npos) << text;
  EXPECT_EQ(text.find("only showing"), std::string::npos) << text;
  // CREATE VIEW has no rows: its line has no row count.
  const std::string timing = err_.str();
  const auto first = timing.find('\n');
  ASSERT_NE(first, std::string::npos) << timing;
  EXPECT_TRUE(timing.substr(0, first).starts_with("Time taken: ")) << timing;
  EXPECT_TRUE(timing.substr(0, first).ends_with(" seconds")) << timing;
  EXPECT_TRUE(timing.substr(first + 1).ends_with(" seconds, Fetched 24 row(s)\n")) << timing;
}

TEST_F(SqlCommandTest, AScriptStopsAtItsFirstError) {
  auto status = RunSqlScript(*spark_, "SELECT 1 AS a; SELECT nope FROM range(1); SELECT 2 AS b;",
                             out_, err_);
  ASSERT_FALSE(status.ok());
  EXPECT_TRUE(testing::HasErrorClass(status, "UNRESOLVED_COLUMN.WITH_SUGGESTION"))
      << status.ToString();
  EXPECT_EQ(out_.str(), "+---+\n|a  |\n+---+\n|1  |\n+---+\n");
}

TEST_F(SqlCommandTest, TheShellReportsAnErrorAndGoesOn) {
  std::istringstream input(
      "SELECT 1 AS a;\n"
      "SELECT nope\n"
      "  FROM range(1);\n"
      "SET spark.sql.shuffle.partitions = 7;\n"
      "SELECT 'x;y' AS s,\n"
      "       2 AS n;\n"
      "exit;\n"
      "SELECT 3 AS never;\n");
  StreamLineSource lines(input);
  RunSqlShell(*spark_, lines, out_, err_);
  const std::string text = out_.str();
  EXPECT_NE(text.find("|a  |\n+---+\n|1  |"), std::string::npos) << text;
  EXPECT_NE(text.find("|spark.sql.shuffle.partitions|7    |"), std::string::npos) << text;
  EXPECT_NE(text.find("|s  |n  |\n+---+---+\n|x;y|2  |"), std::string::npos) << text;
  EXPECT_EQ(text.find("never"), std::string::npos) << text;
  EXPECT_NE(err_.str().find("Error in query: [UNRESOLVED_COLUMN"), std::string::npos)
      << err_.str();
  EXPECT_EQ(spark_->conf().get("spark.sql.shuffle.partitions"), "7");
}

}  // namespace
}  // namespace sluice::tools
