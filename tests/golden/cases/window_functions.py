"""Window functions (OVER): ranking, offsets and aggregates over ROWS and RANGE frames, in SQL
and selectExpr, over a table with null and NaN keys, ties, and a partition of one row. Orders
that decide row_number, lag or first are total, so Spark's answer does not depend on how it
breaks ties."""

from _common import case, table

SCORES = table(
    "id INT, k STRING, a INT, d DOUBLE, amount DECIMAL(10,2), ts TIMESTAMP",
    [
        [1, "x", 10, 1.5, "2.50", "2024-03-01T10:00:00Z"],
        [2, "x", 20, None, "1.25", "2024-03-01T10:05:00Z"],
        [3, "x", 20, 3.0, None, "2024-03-01T10:07:00Z"],
        [4, "x", None, "NaN", "4.00", "2024-03-01T10:20:00Z"],
        [5, "y", 5, -1.0, "0.10", "2024-03-01T09:00:00Z"],
        [6, "y", 7, 2.0, "9.99", None],
        [7, "y", 9, None, "3.00", "2024-03-01T11:00:00Z"],
        [8, None, 1, 8.5, "1.00", "2024-03-02T00:00:00Z"],
        [9, "z", 3, 0.0, "7.77", "2024-03-01T12:00:00Z"],
    ],
)


def q(name, query, ordered=False):
    return case("window_fn_" + name, SCORES, [{"op": "sql", "query": query}], ordered=ordered)


def o(name, query):
    """A query whose ORDER BY fixes the row order."""
    return q(name, query, ordered=True)


def s(name, exprs):
    return case("window_fn_" + name, SCORES, [{"op": "selectExpr", "exprs": exprs}])


RANKING = [
    q("row_number", "SELECT id, row_number() OVER (PARTITION BY k ORDER BY a, id) AS rn FROM t"),
    q("rank_ties", "SELECT id, rank() OVER (PARTITION BY k ORDER BY a) AS r, dense_rank() OVER (PARTITION BY k ORDER BY a) AS dr FROM t"),
    q("rank_desc_nulls", "SELECT id, rank() OVER (PARTITION BY k ORDER BY a DESC) AS r, rank() OVER (PARTITION BY k ORDER BY a DESC NULLS FIRST) AS rf FROM t"),
    q("percent_rank_cume_dist", "SELECT id, percent_rank() OVER (PARTITION BY k ORDER BY a) AS pr, cume_dist() OVER (PARTITION BY k ORDER BY a) AS cd FROM t"),
    q("ntile_uneven", "SELECT id, ntile(3) OVER (ORDER BY id) AS n3, ntile(2) OVER (PARTITION BY k ORDER BY id) AS n2, ntile(20) OVER (ORDER BY id) AS n20 FROM t"),
    q("rank_over_nan", "SELECT id, rank() OVER (ORDER BY d) AS r, row_number() OVER (ORDER BY d DESC, id) AS rn FROM t"),
    q("no_partition", "SELECT id, row_number() OVER (ORDER BY ts, id) AS rn FROM t"),
    q("partition_by_expression", "SELECT id, row_number() OVER (PARTITION BY a % 2 ORDER BY id DESC) AS rn FROM t"),
    q("order_by_expression", "SELECT id, rank() OVER (ORDER BY coalesce(a, 0) * -1) AS r FROM t"),
    q("distribute_sort_by", "SELECT id, row_number() OVER (DISTRIBUTE BY k SORT BY id) AS rn FROM t"),
    q("rank_with_argument", "SELECT id, rank(a) OVER (PARTITION BY k ORDER BY a) AS r FROM t"),
    q("latest_per_key", """
        SELECT id, k, a FROM (
          SELECT *, row_number() OVER (PARTITION BY k ORDER BY ts DESC, id) AS rn FROM t
        ) WHERE rn = 1
    """),
    q("window_in_expression", "SELECT id, row_number() OVER (ORDER BY id) * 10 + 1 AS x, concat(k, rank() OVER (ORDER BY id)) AS y FROM t"),
    q("named_window", "SELECT id, rank() OVER w AS r, sum(a) OVER w AS s FROM t WINDOW w AS (PARTITION BY k ORDER BY id)"),
    q("named_windows_chained", "SELECT id, count(*) OVER w2 AS c FROM t WINDOW w1 AS (PARTITION BY k), w2 AS w1"),
    q("names", "SELECT row_number() OVER (PARTITION BY k ORDER BY id), rank() OVER (ORDER BY a DESC), cume_dist() OVER (ORDER BY id), ntile(2) OVER (ORDER BY id) FROM t"),
]

OFFSETS = [
    q("lag_lead", "SELECT id, lag(a) OVER (PARTITION BY k ORDER BY id) AS prev, lead(a) OVER (PARTITION BY k ORDER BY id) AS next FROM t"),
    q("lag_lead_offsets_defaults", "SELECT id, lag(a, 2, -1) OVER (PARTITION BY k ORDER BY id) AS p2, lead(d, 3, 0.5) OVER (ORDER BY id) AS n3, lag(a, 0) OVER (ORDER BY id) AS same FROM t"),
    q("lag_negative_offset", "SELECT id, lag(a, -1) OVER (ORDER BY id) AS x, lead(a, -2) OVER (ORDER BY id) AS y FROM t"),
    q("lag_default_column", "SELECT id, lag(a, 1, id) OVER (PARTITION BY k ORDER BY id) AS p FROM t"),
    q("lag_ignore_nulls", "SELECT id, lag(d) IGNORE NULLS OVER (ORDER BY id) AS p, lead(d, 2) IGNORE NULLS OVER (ORDER BY id) AS n FROM t"),
    q("lag_strings_and_decimals", "SELECT id, lag(k) OVER (ORDER BY id) AS pk, lead(amount) OVER (ORDER BY id) AS na FROM t"),
    q("nth_value", "SELECT id, nth_value(a, 2) OVER (PARTITION BY k ORDER BY id) AS n2, nth_value(d, 2) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS whole FROM t"),
    q("first_last_value", "SELECT id, first_value(d) OVER (PARTITION BY k ORDER BY id) AS f, last_value(d) OVER (PARTITION BY k ORDER BY id) AS l, first(d, true) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) AS fn FROM t"),
    q("offset_names", "SELECT lag(a) OVER (ORDER BY id), lead(a, 2, 0) OVER (ORDER BY id), nth_value(a, 3) OVER (ORDER BY id) FROM t"),
]

FRAMES = [
    q("running_sum_default_range", "SELECT id, sum(a) OVER (PARTITION BY k ORDER BY a) AS s FROM t"),
    q("running_sum_rows", "SELECT id, sum(a) OVER (PARTITION BY k ORDER BY a, id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s FROM t"),
    q("whole_partition", "SELECT id, count(*) OVER (PARTITION BY k) AS n, avg(a) OVER (PARTITION BY k) AS mean, max(d) OVER (PARTITION BY k) AS top FROM t"),
    q("whole_table", "SELECT id, sum(amount) OVER () AS total, count(d) OVER () AS nd FROM t"),
    q("sliding_rows", "SELECT id, avg(a) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS m, min(d) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING) AS lo FROM t"),
    q("shrinking_rows", "SELECT id, sum(a) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS rest, collect_list(id) OVER (ORDER BY id ROWS BETWEEN 2 FOLLOWING AND UNBOUNDED FOLLOWING) AS later FROM t"),
    q("empty_frames", "SELECT id, count(a) OVER (ORDER BY id ROWS BETWEEN 3 FOLLOWING AND 4 FOLLOWING) AS c, sum(a) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING) AS s FROM t"),
    q("error_frame_wrong_comparison", "SELECT sum(a) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 3 PRECEDING) FROM t"),
    q("single_bound_frame", "SELECT id, sum(a) OVER (ORDER BY id ROWS 2 PRECEDING) AS s, max(a) OVER (ORDER BY a RANGE UNBOUNDED PRECEDING) AS m FROM t"),
    q("range_offsets_int", "SELECT id, count(*) OVER (ORDER BY a RANGE BETWEEN 5 PRECEDING AND CURRENT ROW) AS c, sum(id) OVER (ORDER BY a RANGE BETWEEN 2 PRECEDING AND 3 FOLLOWING) AS s FROM t"),
    q("range_offsets_desc", "SELECT id, count(*) OVER (ORDER BY a DESC RANGE BETWEEN 5 PRECEDING AND CURRENT ROW) AS c, collect_list(id) OVER (PARTITION BY k ORDER BY a DESC RANGE BETWEEN CURRENT ROW AND 10 FOLLOWING) AS l FROM t"),
    q("range_offsets_double", "SELECT id, sum(a) OVER (ORDER BY d RANGE BETWEEN 1.5 PRECEDING AND 1.5 FOLLOWING) AS s FROM t"),
    q("range_interval_over_timestamps", "SELECT id, count(*) OVER (ORDER BY ts RANGE BETWEEN INTERVAL 10 MINUTES PRECEDING AND CURRENT ROW) AS c, sum(a) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL 60 MINUTES PRECEDING AND INTERVAL 5 MINUTES FOLLOWING) AS s, count(*) OVER (ORDER BY ts DESC RANGE BETWEEN INTERVAL '1' DAY PRECEDING AND CURRENT ROW) AS back FROM t"),
    q("error_range_interval_types_differ", "SELECT sum(a) OVER (ORDER BY ts RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND INTERVAL 5 MINUTES FOLLOWING) FROM t"),
    q("range_interval_names", "SELECT count(*) OVER (ORDER BY ts RANGE BETWEEN INTERVAL 10 MINUTES PRECEDING AND CURRENT ROW) FROM t"),
    q("range_current_row_peers", "SELECT id, sum(id) OVER (PARTITION BY k ORDER BY a RANGE BETWEEN CURRENT ROW AND CURRENT ROW) AS peers FROM t"),
    q("range_unbounded_following", "SELECT id, count(*) OVER (ORDER BY a RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS c FROM t"),
    q("aggregates_of_every_kind", "SELECT id, min(k) OVER w AS mn, sort_array(collect_set(k) OVER w) AS ks, stddev(a) OVER w AS sd, count_if(a > 5) OVER w AS big, bool_or(d > 2) OVER w AS any_big FROM t WINDOW w AS (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)"),
    q("decimal_running_total", "SELECT id, sum(amount) OVER (ORDER BY id) AS total, avg(amount) OVER (ORDER BY id) AS mean FROM t"),
    q("several_specs", "SELECT id, row_number() OVER (ORDER BY id DESC) AS a1, sum(a) OVER (PARTITION BY k) AS a2, lag(id) OVER (PARTITION BY k ORDER BY id) AS a3, count(*) OVER (ORDER BY a, id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS a4 FROM t WHERE id <> 9"),
    q("frame_names", "SELECT sum(a) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 2 FOLLOWING), count(a) OVER (ORDER BY a RANGE BETWEEN 3 PRECEDING AND UNBOUNDED FOLLOWING), avg(a) OVER (PARTITION BY k), max(a) OVER (PARTITION BY k ORDER BY a ROWS UNBOUNDED PRECEDING) FROM t"),
    s("select_expr", ["id", "row_number() OVER (PARTITION BY k ORDER BY id) AS rn", "sum(a) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s"]),
    q("over_empty_input", "SELECT id, row_number() OVER (ORDER BY id) AS rn, sum(a) OVER () AS s FROM t WHERE id > 100"),
]

OVER_AGGREGATES = [
    q("rank_of_aggregate", "SELECT k, count(*), rank() OVER (ORDER BY count(*) DESC, k) FROM t GROUP BY k"),
    q("share_of_total", "SELECT k, sum(a) AS s, sum(sum(a)) OVER () AS tot, round(sum(a) * 100.0 / sum(sum(a)) OVER (), 2) AS pct FROM t GROUP BY k"),
    q("per_group_ranking", "SELECT k, a % 2 AS p, count(*) AS c, row_number() OVER (PARTITION BY k ORDER BY count(*) DESC, a % 2) AS rn FROM t GROUP BY k, a % 2"),
    q("having_then_window", "SELECT k, max(d) AS top, lag(max(d)) OVER (ORDER BY k) AS prev FROM t GROUP BY k HAVING count(*) > 1"),
    o("ordered_by_window_alias", "SELECT k, count(*) AS c, dense_rank() OVER (ORDER BY count(*)) AS dr FROM t GROUP BY k ORDER BY dr, k"),
    q("global_aggregate_window", "SELECT count(*) AS n, sum(count(*)) OVER () AS total FROM t"),
    q("error_window_over_ungrouped", "SELECT k, rank() OVER (ORDER BY a) FROM t GROUP BY k"),
]

ERRORS = [
    q("error_ranking_needs_order", "SELECT row_number() OVER (PARTITION BY k) FROM t"),
    q("error_ranking_frame", "SELECT rank() OVER (ORDER BY a ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t"),
    q("error_range_two_keys", "SELECT sum(a) OVER (ORDER BY a, id RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t"),
    q("error_range_string_key", "SELECT sum(a) OVER (ORDER BY k RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t"),
    q("error_ntile_zero", "SELECT ntile(0) OVER (ORDER BY id) FROM t"),
    q("error_not_a_window_function", "SELECT upper(k) OVER (ORDER BY id) FROM t"),
    q("error_in_where", "SELECT id FROM t WHERE row_number() OVER (ORDER BY id) = 1"),
    q("error_missing_named_window", "SELECT rank() OVER w FROM t"),
    q("error_frame_bounds_reversed", "SELECT sum(a) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED FOLLOWING AND CURRENT ROW) FROM t"),
    q("error_distinct_aggregate", "SELECT count(DISTINCT a) OVER (PARTITION BY k) FROM t"),
]

CASES = RANKING + OFFSETS + FRAMES + OVER_AGGREGATES + ERRORS
