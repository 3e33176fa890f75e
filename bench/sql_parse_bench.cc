// Issue 7's figure: parsing and analysis of a 50-line query well under a millisecond. The
// query joins three views, has a CTE, a subquery in FROM, CASE, casts, GROUP BY with HAVING and
// ORDER BY; spark.sql() parses it and builds the analyzed DataFrame without running it.
#include <benchmark/benchmark.h>

#include <arrow/table.h>

#include "sluice/api/session.h"
#include "sluice/sql/statement.h"
#include "sluice/types/ddl_parser.h"

namespace {

constexpr const char* kQuery = R"sql(
WITH recent AS (
  SELECT id,
         cid,
         amount,
         qty,
         status,
         ts,
         CAST(ts AS DATE) AS day
  FROM orders
  WHERE ts >= TIMESTAMP '2024-01-01 00:00:00'
    AND status IS NOT NULL
    AND qty BETWEEN 1 AND 100
),
spend AS (
  SELECT cid,
         sum(amount * qty) AS total,
         count(*) AS orders,
         max(ts) AS last_order
  FROM recent
  GROUP BY cid
)
SELECT c.name,
       c.city,
       upper(substr(c.name, 1, 1)) AS initial,
       s.total,
       s.orders,
       CASE WHEN s.total > 1000 THEN 'gold'
            WHEN s.total > 100 THEN 'silver'
            ELSE 'bronze' END AS tier,
       coalesce(p.label, 'none') AS label,
       date_format(s.last_order, 'yyyy-MM-dd') AS last_day,
       round(s.total / s.orders, 2) AS mean_order,
       s.orders * 2 + 1 AS score
FROM spend s
JOIN customers c ON s.cid = c.cid
LEFT JOIN (
  SELECT cid, max(label) AS label
  FROM preferences
  WHERE label LIKE 'p%'
  GROUP BY cid
) p ON p.cid = c.cid
WHERE c.city IN ('Paris', 'Berlin', 'Oslo')
  AND s.orders > 0
  AND NOT c.name RLIKE '^test'
GROUP BY c.name, c.city, s.total, s.orders, p.label, s.last_order
HAVING count(*) >= 1
ORDER BY s.total DESC NULLS LAST, c.name
LIMIT 100
)sql";

std::shared_ptr<sluice::SparkSession> SessionWithViews() {
  auto spark = sluice::SparkSession::builder().getOrCreate().ValueOrDie();
  auto view = [&](const char* name, const char* ddl) {
    auto schema = sluice::types::ParseSchema(ddl).ValueOrDie();
    auto table = arrow::Table::MakeEmpty(schema).ValueOrDie();
    (void)spark->createDataFrame(table).createOrReplaceTempView(name);
  };
  view("orders", "id INT, cid INT, amount DECIMAL(10,2), qty INT, status STRING, ts TIMESTAMP");
  view("customers", "cid INT, name STRING, city STRING");
  view("preferences", "cid INT, label STRING");
  return spark;
}

void ParseFiftyLineQuery(benchmark::State& state) {
  for (auto _ : state) {
    auto statement = sluice::sql::ParseStatement(kQuery);
    if (!statement.ok()) state.SkipWithError(statement.status().ToString().c_str());
    benchmark::DoNotOptimize(statement);
  }
}
BENCHMARK(ParseFiftyLineQuery)->Unit(benchmark::kMicrosecond);

void ParseAndAnalyzeFiftyLineQuery(benchmark::State& state) {
  auto spark = SessionWithViews();
  for (auto _ : state) {
    auto df = spark->sql(kQuery);
    if (!df.ok()) state.SkipWithError(df.status().ToString().c_str());
    benchmark::DoNotOptimize(df);
  }
}
BENCHMARK(ParseAndAnalyzeFiftyLineQuery)->Unit(benchmark::kMicrosecond);

}  // namespace
