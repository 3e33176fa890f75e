// spark.sql end to end: queries over views and tables, the commands, errors as Spark gives
// them, one analyzer behind SQL and the DataFrame API, and streaming SQL over streaming views.
#include <filesystem>
#include <map>
#include <regex>

#include <arrow/table.h>
#include <gtest/gtest.h>

#include "sluice/api/data_stream_reader.h"
#include "sluice/api/functions.h"
#include "sluice/api/grouped_data.h"
#include "support/canonical_values.h"
#include "support/stream_test.h"

namespace sluice::testing {
namespace {

namespace F = functions;

// The plan's tree with attribute ids renumbered in order of appearance, so two analyses of
// the same query compare equal.
std::string NormalizedPlan(const DataFrame& df) {
  EXPECT_TRUE(df.ok()) << df.status().ToString();
  if (!df.ok()) return "";
  std::string tree = df.plan()->TreeString();
  std::map<std::string, int> ids;
  std::string result;
  std::regex id("#[0-9]+");
  auto begin = std::sregex_iterator(tree.begin(), tree.end(), id);
  size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    result += tree.substr(last, it->position() - last);
    auto [entry, inserted] = ids.emplace(it->str(), static_cast<int>(ids.size()));
    result += "#" + std::to_string(entry->second);
    last = it->position() + it->length();
  }
  return result + tree.substr(last);
}

std::vector<std::string> Rows(const DataFrame& df) {
  auto table = df.collect();
  EXPECT_TRUE(table.ok()) << table.status().ToString();
  if (!table.ok()) return {};
  return RowsOf(**table);
}

std::vector<std::string> Sorted(std::vector<std::string> rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

class SqlTest : public StreamTest {
 protected:
  void SetUp() override {
    StreamTest::SetUp();
    ASSERT_TRUE(spark_->conf().set("spark.sql.warehouse.dir", scratch_dir_ / "warehouse").ok());
    orders_ = Frame("id INT, customer STRING, amount INT",
                    {"[1, 2, 3, 4]", R"(["ann", "bob", "ann", null])", "[10, 20, 5, 7]"});
    ASSERT_TRUE(orders_.createOrReplaceTempView("orders").ok());
  }

  /// Starts `df` into the memory sink `name` in `output_mode`, with its own checkpoint.
  std::shared_ptr<StreamingQuery> StartMemoryQuery(const DataFrame& df, const std::string& name,
                                                   const std::string& output_mode) {
    auto query = df.writeStream()
                     .format("memory")
                     .queryName(name)
                     .outputMode(output_mode)
                     .option("checkpointLocation", scratch_dir_ / name)
                     .start();
    EXPECT_TRUE(query.ok()) << query.status().ToString();
    return query.ValueOr(nullptr);
  }

  DataFrame orders_{nullptr, arrow::Status::OK()};
};

TEST_F(SqlTest, SqlAndDataFrameQueriesGiveTheSameAnalyzedPlan) {
  DataFrame from_sql = spark_->sql(
      "SELECT customer, sum(amount) AS total FROM orders WHERE amount > 5 GROUP BY customer");
  DataFrame from_api = orders_.alias("orders")
                           .filter(F::col("amount") > 5)
                           .groupBy({F::col("customer")})
                           .agg({F::sum(F::col("amount")).alias("total")});
  EXPECT_EQ(NormalizedPlan(from_sql), NormalizedPlan(from_api));

  DataFrame sorted_sql = spark_->sql(
      "SELECT id, amount * 2 AS doubled FROM orders ORDER BY doubled DESC LIMIT 2");
  DataFrame sorted_api = orders_.alias("orders")
                             .select({F::col("id"), (F::col("amount") * 2).alias("doubled")})
                             .orderBy({F::col("doubled").desc()})
                             .limit(2);
  EXPECT_EQ(NormalizedPlan(sorted_sql), NormalizedPlan(sorted_api));
  EXPECT_EQ(Rows(sorted_sql), (std::vector<std::string>{"[2,40]", "[1,20]"}));
}

TEST_F(SqlTest, QueriesViewsAndReportsSparkErrors) {
  EXPECT_EQ(Sorted(Rows(spark_->sql("SELECT customer, count(*) FROM orders GROUP BY 1"))),
            (std::vector<std::string>{"[\"ann\",2]", "[\"bob\",1]", "[null,1]"}));

  DataFrame missing = spark_->sql("SELECT * FROM nowhere");
  EXPECT_TRUE(HasErrorClass(missing.status(), "TABLE_OR_VIEW_NOT_FOUND"));
  DataFrame typo = spark_->sql("SELECT amont FROM orders");
  EXPECT_TRUE(HasErrorClass(typo.status(), "UNRESOLVED_COLUMN.WITH_SUGGESTION"));
  EXPECT_NE(typo.status().message().find("`amount`"), std::string::npos)
      << typo.status().ToString();
  DataFrame syntax = spark_->sql("SELECT id FROM orders WHERE");
  EXPECT_TRUE(HasErrorClass(syntax.status(), "PARSE_SYNTAX_ERROR"));
  EXPECT_NE(syntax.status().message().find("^^^"), std::string::npos);
  DataFrame types = spark_->sql("SELECT upper(array(id)) FROM orders");
  EXPECT_TRUE(HasErrorClass(types.status(), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE"))
      << types.status().ToString();
}

TEST_F(SqlTest, TempViewsAreCreatedReplacedAndDropped) {
  ASSERT_TRUE(spark_->sql("CREATE TEMP VIEW big AS SELECT id FROM orders WHERE amount >= 10")
                  .ok());
  EXPECT_EQ(Sorted(Rows(spark_->table("big"))), (std::vector<std::string>{"[1]", "[2]"}));
  EXPECT_TRUE(HasErrorClass(spark_->sql("CREATE TEMP VIEW big AS SELECT 1").status(),
                            "TEMP_TABLE_OR_VIEW_ALREADY_EXISTS"));
  ASSERT_TRUE(spark_->sql("CREATE OR REPLACE TEMP VIEW BIG (n) AS SELECT 7").ok());
  EXPECT_EQ(Rows(spark_->sql("SELECT n FROM big")), (std::vector<std::string>{"[7]"}));
  EXPECT_TRUE(HasErrorClass(orders_.createTempView("big"), "TEMP_TABLE_OR_VIEW_ALREADY_EXISTS"));

  EXPECT_EQ(Rows(spark_->sql("SHOW TABLES")),
            (std::vector<std::string>{"[\"\",\"big\",true]", "[\"\",\"orders\",true]"}));
  ASSERT_TRUE(spark_->sql("DROP VIEW big").ok());
  EXPECT_TRUE(HasErrorClass(spark_->sql("DROP VIEW big").status(), "TABLE_OR_VIEW_NOT_FOUND"));
  EXPECT_TRUE(spark_->sql("DROP VIEW IF EXISTS big").ok());
}

TEST_F(SqlTest, TablesAreCreatedFilledAndDroppedInTheWarehouse) {
  ASSERT_TRUE(spark_->sql("CREATE TABLE sales (id INT, customer STRING) USING delta").ok());
  EXPECT_TRUE(Rows(spark_->sql("SELECT * FROM sales")).empty());
  ASSERT_TRUE(
      spark_->sql("INSERT INTO sales SELECT id, customer FROM orders WHERE id <= 2").ok());
  ASSERT_TRUE(spark_->sql("INSERT INTO sales (id, customer) VALUES (9, 'zed')").ok());
  EXPECT_EQ(Sorted(Rows(spark_->sql("SELECT id, customer FROM sales"))),
            (std::vector<std::string>{"[1,\"ann\"]", "[2,\"bob\"]", "[9,\"zed\"]"}));
  ASSERT_TRUE(spark_->sql("INSERT OVERWRITE sales SELECT 5, 'eve'").ok());
  EXPECT_EQ(Rows(spark_->sql("SELECT * FROM sales")),
            (std::vector<std::string>{"[5,\"eve\"]"}));
  EXPECT_TRUE(HasErrorClass(spark_->sql("CREATE TABLE sales (x INT)").status(),
                            "TABLE_OR_VIEW_ALREADY_EXISTS"));

  ASSERT_TRUE(spark_->sql("CREATE TABLE totals USING delta AS SELECT customer, sum(amount) AS "
                          "total FROM orders GROUP BY customer")
                  .ok());
  EXPECT_EQ(Rows(spark_->sql("SELECT total FROM totals WHERE customer = 'ann'")),
            (std::vector<std::string>{"[15]"}));
  EXPECT_EQ(Rows(spark_->sql("SHOW TABLES LIKE 'sal*|tot*'")),
            (std::vector<std::string>{"[\"default\",\"sales\",false]",
                                      "[\"default\",\"totals\",false]"}));
  EXPECT_EQ(Rows(spark_->sql("DESCRIBE totals")),
            (std::vector<std::string>{"[\"customer\",\"string\",null]",
                                      "[\"total\",\"bigint\",null]"}));
  ASSERT_TRUE(spark_->sql("DROP TABLE totals").ok());
  EXPECT_TRUE(HasErrorClass(spark_->sql("SELECT * FROM totals").status(),
                            "TABLE_OR_VIEW_NOT_FOUND"));
  EXPECT_TRUE(spark_->sql("DROP TABLE IF EXISTS totals").ok());
}

TEST_F(SqlTest, TablesWithALocationLiveThereAndOutliveTheirName) {
  const std::string folder = scratch_dir_ / "external/sales";
  ASSERT_TRUE(spark_->sql("CREATE TABLE sales (id INT, customer STRING) USING delta "
                          "PARTITIONED BY (customer) LOCATION '" + folder + "'")
                  .ok());
  ASSERT_TRUE(spark_->sql("INSERT INTO sales VALUES (1, 'ann'), (2, 'bob')").ok());
  EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(folder) / "_delta_log"));
  EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(folder) / "customer=ann"));
  EXPECT_FALSE(std::filesystem::exists(scratch_dir_ / "warehouse/sales"));
  EXPECT_EQ(Rows(spark_->sql("SHOW TABLES LIKE 'sales'")),
            (std::vector<std::string>{"[\"default\",\"sales\",false]"}));
  // Dropping the name leaves the files; a new name over the folder finds the rows.
  ASSERT_TRUE(spark_->sql("DROP TABLE sales").ok());
  EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(folder) / "_delta_log"));
  EXPECT_TRUE(HasErrorClass(spark_->sql("SELECT * FROM sales").status(),
                            "TABLE_OR_VIEW_NOT_FOUND"));
  ASSERT_TRUE(spark_->sql("CREATE TABLE again USING delta LOCATION '" + folder + "'").ok());
  EXPECT_EQ(Sorted(Rows(spark_->sql("SELECT id, customer FROM again"))),
            (std::vector<std::string>{"[1,\"ann\"]", "[2,\"bob\"]"}));
  // An AS query does not write over a table already at the location.
  EXPECT_TRUE(HasErrorClass(
      spark_->sql("CREATE TABLE other USING delta LOCATION '" + folder + "' AS SELECT 1 AS x")
          .status(),
      "DELTA_CREATE_TABLE_WITH_NON_EMPTY_LOCATION"));
  EXPECT_TRUE(HasErrorClass(spark_->sql("SELECT * FROM other").status(),
                            "TABLE_OR_VIEW_NOT_FOUND"));
}

TEST_F(SqlTest, SettingsExplainAndFunctions) {
  EXPECT_EQ(Rows(spark_->sql("SET spark.sql.shuffle.partitions=3")),
            (std::vector<std::string>{"[\"spark.sql.shuffle.partitions\",\"3\"]"}));
  EXPECT_EQ(spark_->conf().get("spark.sql.shuffle.partitions"), "3");
  EXPECT_EQ(Rows(spark_->sql("SET spark.sql.shuffle.partitions")),
            (std::vector<std::string>{"[\"spark.sql.shuffle.partitions\",\"3\"]"}));
  EXPECT_TRUE(spark_->sql("SET spark.sql.shuffle.partitions=zero").status().IsInvalid() ||
              !spark_->sql("SET spark.sql.shuffle.partitions=zero").ok());
  ASSERT_TRUE(spark_->sql("RESET spark.sql.shuffle.partitions").ok());
  EXPECT_EQ(spark_->conf().get("spark.sql.shuffle.partitions"), "200");

  auto plan = Rows(spark_->sql("EXPLAIN SELECT id FROM orders WHERE amount > 1"));
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_NE(plan[0].find("Filter"), std::string::npos) << plan[0];

  auto functions = Rows(spark_->sql("SHOW FUNCTIONS LIKE 'date_*'"));
  EXPECT_NE(std::find(functions.begin(), functions.end(), "[\"date_add\"]"), functions.end());
  for (const auto& row : functions) EXPECT_EQ(row.rfind("[\"date_", 0), 0u) << row;
  // Functions the binder implements are listed too.
  EXPECT_EQ(Rows(spark_->sql("SHOW FUNCTIONS LIKE 'nvl|nullif'")),
            (std::vector<std::string>{"[\"nullif\"]", "[\"nvl\"]"}));
}

// Seed 002: a memory sink's table is queryable by name while the query runs.
TEST_F(SqlTest, MemorySinkTablesAreQueryableByName) {
  auto input = MemoryStream("value BIGINT");
  auto counts = spark_->readStream()
                    .load(input)
                    .withColumn("bucket", F::col("value") % 3)
                    .groupBy({F::col("bucket")})
                    .count();
  auto query = StartMemoryQuery(counts, "rates", "complete");
  ASSERT_TRUE(query);
  ASSERT_TRUE(input->AddData(Table("value BIGINT", {"[0, 1, 2, 3, 4, 5, 6]"})).ok());
  ASSERT_TRUE(query->processAllAvailable().ok());
  EXPECT_EQ(Rows(spark_->sql("SELECT bucket, count FROM rates ORDER BY bucket")),
            (std::vector<std::string>{"[0,3]", "[1,2]", "[2,2]"}));
  ASSERT_TRUE(query->stop().ok());
}

// max_by/min_by keep their winner in the state across batches: the partial states of earlier
// batches merge with later ones, null orderings are skipped.
TEST_F(SqlTest, MaxByAndMinByCarryTheirWinnerAcrossBatches) {
  auto input = MemoryStream("k STRING, v STRING, score DOUBLE");
  ASSERT_TRUE(spark_->readStream().load(input).createOrReplaceTempView("scores").ok());
  DataFrame best = spark_->sql(
      "SELECT k, max_by(v, score) AS top, min_by(v, score) AS bottom FROM scores GROUP BY k");
  auto query = StartMemoryQuery(best, "best", "complete");
  ASSERT_TRUE(query);
  const std::string schema = "k STRING, v STRING, score DOUBLE";
  ASSERT_TRUE(input->AddData(Table(schema, {R"(["a", "a", "b"])", R"(["x", "y", "z"])",
                                            "[1.0, 5.0, null]"})).ok());
  ASSERT_TRUE(query->processAllAvailable().ok());
  EXPECT_EQ(Sorted(Rows(spark_->table("best"))),
            (std::vector<std::string>{"[\"a\",\"y\",\"x\"]", "[\"b\",null,null]"}));
  ASSERT_TRUE(input->AddData(Table(schema, {R"(["a", "a", "b"])", R"(["w", "u", "t"])",
                                            "[3.0, 0.5, 2.0]"})).ok());
  ASSERT_TRUE(query->processAllAvailable().ok());
  EXPECT_EQ(Sorted(Rows(spark_->table("best"))),
            (std::vector<std::string>{"[\"a\",\"y\",\"u\"]", "[\"b\",\"t\",\"t\"]"}));
  ASSERT_TRUE(query->stop().ok());
}

// A whole streaming query in SQL over a streaming view gives the batches of the DataFrame
// query it is written as.
TEST_F(SqlTest, StreamingSqlOverAStreamingViewMatchesTheDataFrameQuery) {
  auto input = MemoryStream("ts TIMESTAMP, word STRING");
  DataFrame events = spark_->readStream().load(input).withWatermark("ts", "10 seconds");
  ASSERT_TRUE(events.createOrReplaceTempView("events").ok());
  DataFrame from_sql = spark_->sql(
      "SELECT window.start AS start, count(*) AS n FROM events "
      "GROUP BY window(ts, '10 seconds')");
  ASSERT_TRUE(from_sql.ok()) << from_sql.status().ToString();
  EXPECT_TRUE(from_sql.isStreaming());
  DataFrame from_api = events.groupBy({F::window(F::col("ts"), "10 seconds")})
                           .agg({F::count(F::lit(1)).alias("n")})
                           .select({F::col("window.start").alias("start"), F::col("n")});

  const std::vector<std::vector<std::string>> blocks = {
      {R"(["1970-01-01T00:00:01Z", "1970-01-01T00:00:04Z", "1970-01-01T00:00:12Z"])",
       R"(["a", "b", "c"])"},
      {R"(["1970-01-01T00:00:25Z"])", R"(["d"])"},
      {R"(["1970-01-01T00:00:03Z"])", R"(["late"])"},
      {R"(["1970-01-01T00:00:40Z"])", R"(["e"])"},
  };
  // Both queries run side by side on the same input, one batch per block; after each block
  // each sink holds the same rows.
  auto sql_query = StartMemoryQuery(from_sql, "from_sql", "append");
  auto api_query = StartMemoryQuery(from_api, "from_api", "append");
  ASSERT_TRUE(sql_query && api_query);
  for (const auto& block : blocks) {
    ASSERT_TRUE(input->AddData(Table("ts TIMESTAMP, word STRING", block)).ok());
    ASSERT_TRUE(sql_query->processAllAvailable().ok());
    ASSERT_TRUE(api_query->processAllAvailable().ok());
    EXPECT_EQ(Sorted(Rows(spark_->table("from_sql"))), Sorted(Rows(spark_->table("from_api"))));
  }
  // The windows close as the watermark (max time - 10 s) passes their end; the late row of
  // block 3 is dropped.
  EXPECT_EQ(Sorted(Rows(spark_->table("from_sql"))),
            (std::vector<std::string>{"[\"1970-01-01T00:00:00.000000Z\",2]",
                                      "[\"1970-01-01T00:00:10.000000Z\",1]",
                                      "[\"1970-01-01T00:00:20.000000Z\",1]"}));
  EXPECT_EQ(sql_query->lastProgress()->batch_id, api_query->lastProgress()->batch_id);
  ASSERT_TRUE(sql_query->stop().ok());
  ASSERT_TRUE(api_query->stop().ok());
}

}  // namespace
}  // namespace sluice::testing
