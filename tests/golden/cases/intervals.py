"""ANSI interval literals in Spark's forms, their types and names, and interval arithmetic with
dates and timestamps. PySpark cannot collect year-month intervals, so those are compared as
strings (CAST ... AS STRING, Spark's ANSI form)."""

from _common import case, table, UTC, LOS_ANGELES

EVENTS = table(
    "id INT, ts TIMESTAMP, later TIMESTAMP, day DATE, n INT, x DOUBLE",
    [
        [1, "2024-01-31T10:00:00Z", "2024-03-01T09:30:00Z", "2024-01-31", 2, 1.5],
        [2, "2024-02-29T23:59:59Z", "2024-02-29T23:59:59Z", "2024-02-29", -1, 0.25],
        [3, "2023-12-31T00:00:00.5Z", "2024-01-01T00:00:00Z", "2023-12-31", 0, -2.0],
        [4, None, "2024-03-10T10:30:00Z", None, None, None],
    ],
)


def q(name, query, conf=UTC):
    return case("interval_" + name, EVENTS, [{"op": "sql", "query": query}], conf)


def s(name, exprs, conf=UTC):
    return case("interval_" + name, EVENTS, [{"op": "selectExpr", "exprs": exprs}], conf)


LITERALS = [
    q("day_time_forms", "SELECT INTERVAL '10' MINUTE, INTERVAL 10 MINUTES, INTERVAL '1 02:03:04' DAY TO SECOND, INTERVAL '1 02' DAY TO HOUR, INTERVAL '25:00' HOUR TO MINUTE, INTERVAL '12:34.5' MINUTE TO SECOND"),
    q("multi_unit", "SELECT INTERVAL 1 DAY 2 HOURS, INTERVAL -3 HOURS, INTERVAL 1 WEEK, INTERVAL 90 MINUTES, INTERVAL 1500 MILLISECONDS, INTERVAL 3 MICROSECONDS, INTERVAL 0 SECONDS"),
    q("in_a_string", "SELECT INTERVAL '10 minutes', INTERVAL '1 day 2 hours 3.25 seconds', INTERVAL '-1 02:03' DAY TO MINUTE, INTERVAL '-0.000001' SECOND, INTERVAL '1.5' SECOND"),
    q("year_month_forms", "SELECT CAST(INTERVAL '2-3' YEAR TO MONTH AS STRING) AS a, CAST(INTERVAL 1 YEAR 2 MONTHS AS STRING) AS b, CAST(INTERVAL '14' MONTH AS STRING) AS c, CAST(INTERVAL -2 YEARS AS STRING) AS d, CAST(INTERVAL '-1-11' YEAR TO MONTH AS STRING) AS e"),
    q("to_string", "SELECT CAST(INTERVAL '10' MINUTE AS STRING), CAST(INTERVAL '1 02:00:03.25' DAY TO SECOND AS STRING), CAST(INTERVAL 100 HOURS AS STRING), CAST(INTERVAL -90 SECONDS AS STRING)"),
    q("casts", "SELECT CAST('10' AS INTERVAL MINUTE) AS a, CAST('INTERVAL \\'1 02\\' DAY TO HOUR' AS INTERVAL DAY TO HOUR) AS b, CAST(INTERVAL '1 02:03:04' DAY TO SECOND AS INTERVAL DAY TO HOUR) AS c, CAST(INTERVAL -90 MINUTES AS INTERVAL HOUR) AS d, try_cast('x' AS INTERVAL MINUTE) AS e"),
    q("casts_year_month", "SELECT CAST(CAST(' -1-2 ' AS INTERVAL YEAR TO MONTH) AS STRING) AS a, CAST(CAST(INTERVAL 14 MONTHS AS INTERVAL YEAR) AS STRING) AS b, CAST(CAST('3' AS INTERVAL YEAR) AS STRING) AS c"),
    q("error_cast_bad_text", "SELECT CAST('x' AS INTERVAL MINUTE)"),
    q("error_bad_text", "SELECT INTERVAL 'x' MINUTE"),
    q("error_mixed_families", "SELECT INTERVAL 1 YEAR 2 DAYS"),
    q("error_fraction", "SELECT INTERVAL 1.5 HOURS"),
    q("error_out_of_range_field", "SELECT INTERVAL '25:00' DAY TO HOUR"),
    q("error_month_13", "SELECT INTERVAL '1-13' YEAR TO MONTH"),
]

ARITHMETIC = [
    q("interval_sums", "SELECT INTERVAL 1 HOUR + INTERVAL 30 MINUTES, INTERVAL 1 HOUR - INTERVAL 1 DAY, -INTERVAL 1 DAY, CAST(INTERVAL '1' YEAR + INTERVAL '1' MONTH AS STRING) AS ym"),
    q("interval_scaling", "SELECT INTERVAL 1 HOUR * 2, INTERVAL 1 HOUR / 4, INTERVAL 1 DAY * 2.5, INTERVAL 7 SECONDS / 2, CAST(INTERVAL 7 MONTHS / 2 AS STRING) AS half, CAST(3 * INTERVAL 1 MONTH AS STRING) AS triple"),
    q("scaling_columns", "SELECT id, INTERVAL 1 HOUR * n, INTERVAL '1' DAY * x, INTERVAL 10 MINUTES / n FROM t WHERE n <> 0"),
    q("timestamp_plus", "SELECT id, ts + INTERVAL 10 MINUTES, ts - INTERVAL '1' DAY, INTERVAL 2 HOURS + ts, ts + INTERVAL '1 00:00:00.5' DAY TO SECOND FROM t"),
    q("timestamp_plus_months", "SELECT id, ts + INTERVAL 1 MONTH, ts - INTERVAL '1-1' YEAR TO MONTH, ts + INTERVAL 13 MONTHS FROM t"),
    q("timestamp_plus_months_la", "SELECT id, ts + INTERVAL 1 MONTH, ts - INTERVAL 3 MONTHS FROM t", LOS_ANGELES),
    q("date_plus", "SELECT id, day + INTERVAL 1 DAY, day - INTERVAL 1 DAY, day + INTERVAL 2 HOURS, day + INTERVAL 1 MONTH, day - INTERVAL '1-2' YEAR TO MONTH FROM t"),
    q("differences", "SELECT id, later - ts, ts - later, DATE '2024-03-01' - day, later - day FROM t"),
    q("timestamp_literal_names", "SELECT TIMESTAMP '2024-01-31 10:00:00' + INTERVAL 10 MINUTES, DATE '2024-01-31' + INTERVAL 1 MONTH, TIMESTAMP '2024-01-31 10:00:00'"),
    q("comparisons", "SELECT INTERVAL 1 HOUR > INTERVAL 59 MINUTES, INTERVAL 1 YEAR = INTERVAL 12 MONTHS, INTERVAL 1 DAY <= INTERVAL 24 HOURS, INTERVAL 2 MONTHS < INTERVAL 1 YEAR"),
    q("filter_by_age", "SELECT id FROM t WHERE later - ts > INTERVAL 1 DAY"),
    q("filter_recent", "SELECT id FROM t WHERE ts >= TIMESTAMP '2024-02-29 23:59:59' - INTERVAL 30 DAYS"),
    q("order_by_interval", "SELECT id, later - ts AS gap FROM t WHERE ts IS NOT NULL ORDER BY gap DESC"),
    q("error_incompatible", "SELECT INTERVAL 1 DAY < INTERVAL 1 MONTH"),
    q("error_divide_by_zero", "SELECT INTERVAL 1 HOUR / 0"),
    q("error_month_plus_day", "SELECT INTERVAL 1 MONTH + INTERVAL 1 DAY"),
    s("select_expr", ["id", "ts + INTERVAL 1 HOUR AS next_hour", "later - ts AS gap"]),
    q("min_max", "SELECT min(later - ts), max(later - ts), CAST(max(INTERVAL 1 MONTH * n) AS STRING) AS m FROM t"),
    q("sum_avg", "SELECT sum(later - ts), avg(later - ts), sum(INTERVAL 10 MINUTES * n), avg(INTERVAL '1' SECOND * n) FROM t"),
    q("sum_avg_grouped", "SELECT n > 0 AS positive, sum(later - ts) AS total, avg(later - ts) AS mean, count(*) AS c FROM t GROUP BY n > 0"),
    q("typeof", "SELECT typeof(INTERVAL 10 MINUTES), typeof(later - ts), typeof(day - day), typeof(INTERVAL 1 YEAR), typeof(id), typeof(array(1.5)), typeof(NULL) FROM t"),
    q("group_by_interval", "SELECT later - ts AS gap, count(*) AS c FROM t GROUP BY later - ts"),
]

CASES = LITERALS + ARITHMETIC
