#include <random>

#include <gtest/gtest.h>

#include "sluice/sql/query_parser.h"
#include "sluice/common/errors.h"
#include "sluice/sql/statement.h"
#include "support/session_fixture.h"
#include "support/text_mutation.h"

namespace sluice::sql {
namespace {

using ::sluice::testing::HasErrorClass;

// The parsed query (kept alive by the caller's pointer), or a failed expectation.
QueryPtr Parsed(const arrow::Result<QueryPtr>& result) {
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return result.ValueOr(std::make_shared<Query>());
}

TEST(QueryParserTest, ReadsEveryClauseOfASelect) {
  auto result = ParseQuery(
      "SELECT DISTINCT a, b + 1 AS c FROM t WHERE a > 1 GROUP BY a, 2 HAVING count(*) > 1 "
      "ORDER BY c DESC LIMIT 5;");
  auto query_ptr = Parsed(result);
  const Query& query = *query_ptr;
  ASSERT_EQ(query.kind, Query::Kind::kSelect);
  const SelectClause& select = *query.select;
  EXPECT_TRUE(select.distinct);
  ASSERT_EQ(select.items.size(), 2u);
  ASSERT_EQ(select.items[1]->kind(), expr::ExprKind::kAlias);
  EXPECT_EQ(select.items[1]->children()[0]->ToString(), "(b + 1)");
  ASSERT_TRUE(select.from);
  EXPECT_EQ(select.from->kind, FromItem::Kind::kTable);
  EXPECT_EQ(select.from->name, "t");
  EXPECT_EQ(select.where->ToString(), "(a > 1)");
  ASSERT_EQ(select.group_by.size(), 2u);
  EXPECT_TRUE(select.having);
  ASSERT_EQ(query.order_by.size(), 1u);
  EXPECT_EQ(query.limit, 5);
}

TEST(QueryParserTest, ReadsJoinsOfEveryKind) {
  auto result = ParseQuery(
      "SELECT * FROM a JOIN b ON a.k = b.k LEFT OUTER JOIN c USING (k) LEFT SEMI JOIN d ON true "
      "ANTI JOIN e ON false CROSS JOIN f FULL JOIN g ON a.k = g.k RIGHT JOIN h ON 1 = 1, i");
  const FromItem* item = Parsed(result)->select->from.get();
  std::vector<std::string> kinds;
  while (item->kind == FromItem::Kind::kJoin) {
    kinds.insert(kinds.begin(), item->join_type);
    item = item->left.get();
  }
  EXPECT_EQ(kinds, (std::vector<std::string>{"inner", "left", "semi", "anti", "cross", "full",
                                             "right", "inner"}));
}

TEST(QueryParserTest, AliasesDoNotSwallowJoinKeywords) {
  auto result = ParseQuery("SELECT * FROM t x LEFT JOIN u ON x.a = u.a");
  const FromItem& join = *Parsed(result)->select->from;
  ASSERT_EQ(join.kind, FromItem::Kind::kJoin);
  EXPECT_EQ(join.left->alias, "x");
  EXPECT_EQ(join.right->alias, "");
}

TEST(QueryParserTest, SetOperationsFollowSparkPrecedence) {
  // INTERSECT binds tighter than UNION: a UNION (b INTERSECT c).
  auto query_ptr = Parsed(ParseQuery("SELECT 1 UNION SELECT 2 INTERSECT SELECT 3"));
  const Query& query = *query_ptr;
  ASSERT_EQ(query.kind, Query::Kind::kSetOperation);
  EXPECT_EQ(query.set_operator, "UNION");
  EXPECT_EQ(query.right->set_operator, "INTERSECT");
  // Set operations are left-associative; ALL is kept.
  auto chain_ptr = Parsed(ParseQuery("SELECT 1 UNION ALL SELECT 2 EXCEPT SELECT 3"));
  const Query& chain = *chain_ptr;
  EXPECT_EQ(chain.set_operator, "EXCEPT");
  EXPECT_TRUE(chain.left->all);
}

TEST(QueryParserTest, ReadsCtesSubqueriesValuesAndTableFunctions) {
  auto query_ptr = Parsed(ParseQuery(
      "WITH a AS (SELECT 1 AS x), b AS (SELECT * FROM a) "
      "SELECT * FROM (SELECT x FROM b) s, VALUES (1, 'a'), (2, 'b') v(n, t), range(1, 3)"));
  const Query& query = *query_ptr;
  ASSERT_EQ(query.ctes.size(), 2u);
  EXPECT_EQ(query.ctes[1].name, "b");
  const FromItem& from = *query.select->from;
  EXPECT_EQ(from.right->kind, FromItem::Kind::kTableFunction);
  EXPECT_EQ(from.right->arguments.size(), 2u);
  EXPECT_EQ(from.left->right->kind, FromItem::Kind::kValues);
  EXPECT_EQ(from.left->right->column_aliases, (std::vector<std::string>{"n", "t"}));
  EXPECT_EQ(from.left->left->kind, FromItem::Kind::kSubquery);
  EXPECT_EQ(from.left->left->alias, "s");
}

TEST(QueryParserTest, ReadsSubqueryExpressions) {
  auto query_ptr = Parsed(ParseQuery(
      "SELECT (SELECT max(a) FROM u) AS m FROM t "
      "WHERE a IN (SELECT a FROM u) AND NOT EXISTS (SELECT 1 FROM v WHERE v.a = t.a)"));
  const Query& query = *query_ptr;
  EXPECT_EQ(query.select->items[0]->children()[0]->kind(), expr::ExprKind::kSubquery);
  EXPECT_EQ(query.select->where->ToString(),
            "(a IN (SELECT a FROM u) AND (NOT EXISTS (SELECT 1 FROM v WHERE v.a = t.a)))");
}

TEST(QueryParserTest, SyntaxErrorsPointAtTheToken) {
  auto result = ParseQuery("SELECT a\nFROM t WHERE");
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(HasErrorClass(result.status(), "PARSE_SYNTAX_ERROR"));
  const std::string message = result.status().message();
  EXPECT_NE(message.find("end of input"), std::string::npos) << message;
  EXPECT_NE(message.find("line 2, pos 12"), std::string::npos) << message;
  EXPECT_NE(message.find("== SQL =="), std::string::npos) << message;

  auto extra = ParseQuery("SELECT a b c FROM t");
  ASSERT_FALSE(extra.ok());
  EXPECT_NE(std::string(extra.status().message()).find("'c'"), std::string::npos)
      << extra.status().ToString();
}

TEST(QueryParserTest, RefusesNegativeLimits) {
  auto result = ParseQuery("SELECT a FROM t LIMIT -1");
  EXPECT_TRUE(HasErrorClass(result.status(), "INVALID_LIMIT_LIKE_EXPRESSION.IS_NEGATIVE"));
}

StatementPtr ParsedStatement(const arrow::Result<StatementPtr>& result) {
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return result.ValueOr(std::make_shared<Statement>());
}

TEST(StatementParserTest, ReadsViewAndTableStatements) {
  auto view_ptr = ParsedStatement(
      ParseStatement("CREATE OR REPLACE TEMP VIEW v (x, y) AS SELECT a, b FROM t"));
  const Statement& view = *view_ptr;
  EXPECT_EQ(view.kind, Statement::Kind::kCreateView);
  EXPECT_TRUE(view.or_replace);
  EXPECT_EQ(view.name, "v");
  EXPECT_EQ(view.columns, (std::vector<std::string>{"x", "y"}));

  auto table_ptr = ParsedStatement(ParseStatement(
      "CREATE TABLE IF NOT EXISTS db.events (id BIGINT, day DATE COMMENT 'when') USING delta "
      "PARTITIONED BY (day) OPTIONS (mergeSchema = 'true')"));
  const Statement& table = *table_ptr;
  EXPECT_EQ(table.kind, Statement::Kind::kCreateTable);
  EXPECT_TRUE(table.if_not_exists);
  EXPECT_EQ(table.name, "db.events");
  EXPECT_EQ(table.schema_ddl, "id BIGINT, day DATE COMMENT 'when'");
  EXPECT_EQ(table.format, "delta");
  EXPECT_EQ(table.partition_by, (std::vector<std::string>{"day"}));
  EXPECT_EQ(table.options.at("mergeSchema"), "true");

  auto ctas_ptr = ParsedStatement(ParseStatement("CREATE TABLE s USING delta AS SELECT * FROM t"));
  const Statement& ctas = *ctas_ptr;
  EXPECT_TRUE(ctas.query);

  auto insert_ptr = ParsedStatement(ParseStatement("INSERT OVERWRITE TABLE s (a, b) SELECT 1, 2"));
  const Statement& insert = *insert_ptr;
  EXPECT_EQ(insert.kind, Statement::Kind::kInsert);
  EXPECT_TRUE(insert.overwrite);
  EXPECT_EQ(insert.columns, (std::vector<std::string>{"a", "b"}));

  EXPECT_EQ(ParsedStatement(ParseStatement("DROP TABLE IF EXISTS s"))->kind,
            Statement::Kind::kDropTable);
  EXPECT_TRUE(ParsedStatement(ParseStatement("DROP VIEW IF EXISTS v"))->if_exists);
}

TEST(StatementParserTest, ReadsCommands) {
  auto set_ptr = ParsedStatement(ParseStatement("SET spark.sql.shuffle.partitions = 4;"));
  const Statement& set = *set_ptr;
  EXPECT_EQ(set.kind, Statement::Kind::kSet);
  EXPECT_EQ(set.key, "spark.sql.shuffle.partitions");
  EXPECT_EQ(set.value, "4");
  EXPECT_FALSE(ParsedStatement(ParseStatement("SET"))->key);
  EXPECT_FALSE(ParsedStatement(ParseStatement("SET spark.sql.ansi.enabled"))->value);

  auto show_ptr = ParsedStatement(ParseStatement("SHOW TABLES IN db LIKE 'ev*'"));
  const Statement& show = *show_ptr;
  EXPECT_EQ(show.kind, Statement::Kind::kShowTables);
  EXPECT_EQ(show.database, "db");
  EXPECT_EQ(show.pattern, "ev*");
  EXPECT_EQ(ParsedStatement(ParseStatement("SHOW FUNCTIONS LIKE 'date*'"))->kind,
            Statement::Kind::kShowFunctions);

  auto explain_ptr = ParsedStatement(ParseStatement("EXPLAIN EXTENDED SELECT 1"));
  const Statement& explain = *explain_ptr;
  EXPECT_EQ(explain.kind, Statement::Kind::kExplain);
  EXPECT_TRUE(explain.extended);
  EXPECT_EQ(explain.explained->kind, Statement::Kind::kQuery);

  EXPECT_EQ(ParsedStatement(ParseStatement("DESCRIBE TABLE EXTENDED t"))->name, "t");
  EXPECT_TRUE(ParsedStatement(ParseStatement("DESCRIBE QUERY SELECT 1"))->query);
}

TEST(StatementParserTest, RefusesUnknownStatements) {
  auto result = ParseStatement("UPDATE t SET a = 1");
  EXPECT_TRUE(HasErrorClass(result.status(), "PARSE_SYNTAX_ERROR"));
  EXPECT_TRUE(HasErrorClass(ParseStatement("CREATE VIEW v AS SELECT 1").status(),
                            "PARSE_SYNTAX_ERROR"));
}

// Mutations of valid statements with a fixed seed, run in every test pass: the parser gives a
// statement or an error with a class for each, never a crash or a hang. The libFuzzer target
// (make fuzz) explores further.
TEST(StatementParserFuzzTest, NeverCrashesOrHangs) {
  std::mt19937 random(20261201);
  const std::vector<std::string> seeds = {
      "WITH a AS (SELECT x FROM t WHERE y IN (SELECT y FROM u)) SELECT * FROM a ORDER BY 1 LIMIT 3",
      "SELECT a, count(*) FILTER (WHERE b > 1) FROM t JOIN u USING (k) GROUP BY ALL HAVING a > 0",
      "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) v(n, s) LEFT ANTI JOIN range(1, 5) r ON n = id",
      "SELECT 1 UNION ALL (SELECT 2 INTERSECT SELECT 3) EXCEPT SELECT 4",
      "CREATE OR REPLACE TEMP VIEW v (x) AS SELECT EXISTS (SELECT 1 FROM t) AS e",
      "CREATE TABLE IF NOT EXISTS db.t (a INT, b ARRAY<STRING>) USING delta PARTITIONED BY (a)",
      "INSERT OVERWRITE TABLE t (a, b) SELECT window(ts, '10 minutes'), `b``c` FROM s",
      "EXPLAIN EXTENDED SELECT (SELECT max(a) FROM t) + 1",
      "SET spark.sql.shuffle.partitions = 4; ",
      "SHOW TABLES IN db LIKE 'a*|b*'",
  };
  const std::vector<std::string> fragments = {
      "(", ")", "SELECT", "FROM", "WHERE", "JOIN", "ON", "USING", "GROUP BY", "ORDER BY",
      "UNION", "WITH", "AS", "VALUES", ",", "'", "`", "/*", "--", "EXISTS", "IN", "*", ";"};
  const std::string alphabet = "ab1.'\"`()*,;=<> \n_";
  for (int i = 0; i < 5000; ++i) {
    const std::string text = ::sluice::testing::MutateText(
        random, seeds[random() % seeds.size()], fragments, alphabet, 5);
    auto parsed = ParseStatement(text);
    if (!parsed.ok()) {
      EXPECT_TRUE(ErrorClassOf(parsed.status()).has_value()) << text << ": "
                                                             << parsed.status().ToString();
    }
  }
}

}  // namespace
}  // namespace sluice::sql
