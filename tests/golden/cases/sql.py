"""The SQL corpus: queries through spark.sql over three small tables registered as temporary
views (t: orders, c: customers, e: events): projections, filters, joins of every kind,
aggregates with GROUP BY/HAVING, windows in GROUP BY, nulls, casts, strings, dates, CTEs,
subqueries, set operations, ORDER BY/LIMIT and the errors Spark gives."""

from _common import case, table

ORDERS = table(
    "id INT, cid INT, amount DECIMAL(10,2), qty INT, status STRING, ts TIMESTAMP, day DATE",
    [
        [1, 10, "25.50", 2, "shipped", "2024-03-01T10:00:00Z", "2024-03-01"],
        [2, 10, "10.00", 1, "pending", "2024-03-01T10:07:00Z", "2024-03-01"],
        [3, 20, "99.99", 5, "shipped", "2024-03-01T10:14:00Z", "2024-03-01"],
        [4, 30, None, 3, "cancelled", "2024-03-02T09:00:00Z", "2024-03-02"],
        [5, None, "5.25", None, "pending", "2024-03-02T09:30:00Z", "2024-03-02"],
        [6, 20, "42.00", 1, None, "2024-03-02T11:45:00Z", "2024-03-02"],
        [7, 40, "0.00", 0, "shipped", None, None],
        [8, 10, "13.75", 4, "returned", "2024-03-03T23:59:59Z", "2024-03-03"],
    ],
)

CUSTOMERS = table(
    "cid INT, name STRING, city STRING, vip BOOLEAN",
    [
        [10, "Ann", "Paris", True],
        [20, "bob", "Berlin", False],
        [30, "Cleo", None, None],
        [50, "Dan", "Paris", False],
        [None, "ghost", "Oslo", True],
    ],
)

EVENTS = table(
    "user STRING, ts TIMESTAMP, v INT",
    [
        ["u1", "2024-03-01T10:00:00Z", 1],
        ["u1", "2024-03-01T10:04:00Z", 2],
        ["u2", "2024-03-01T10:05:30Z", 3],
        ["u1", "2024-03-01T10:20:00Z", 4],
        ["u2", "2024-03-01T10:31:00Z", 5],
        ["u3", "2024-03-01T10:31:00Z", None],
        ["u2", "2024-03-01T11:02:00Z", 6],
    ],
)


def q(name, query, ordered=False):
    return case("sql_" + name, ORDERS, [{"op": "sql", "query": query}], ordered=ordered, c=CUSTOMERS, e=EVENTS)


def o(name, query):
    """A query whose ORDER BY fixes the row order."""
    return q(name, query, ordered=True)


PROJECTION = [
    q("select_star", "SELECT * FROM t"),
    q("select_columns", "SELECT id, status FROM t"),
    q("select_qualified_star", "SELECT t.* FROM t"),
    q("select_alias_star", "SELECT o.* FROM t AS o"),
    q("select_expressions", "SELECT id * 2 AS twice, qty + 1, amount * qty AS total FROM t"),
    q("select_implicit_alias", "SELECT id ident, status s FROM t"),
    q("select_backquoted", "SELECT `id` AS `order id`, `status` FROM t"),
    q("select_literal_only", "SELECT 1 AS one, 'x' AS letter, NULL AS nothing"),
    q("select_without_from_expressions", "SELECT 1 + 2, upper('abc'), 10 DIV 3"),
    q("select_case_searched", "SELECT id, CASE WHEN qty > 2 THEN 'big' WHEN qty > 0 THEN 'small' ELSE 'none' END AS size FROM t"),
    q("select_case_simple", "SELECT id, CASE status WHEN 'shipped' THEN 1 WHEN 'pending' THEN 2 END AS code FROM t"),
    q("select_cast", "SELECT CAST(id AS STRING) AS s, CAST(amount AS INT) AS a, CAST(day AS STRING) AS d FROM t"),
    q("select_double_colon_cast", "SELECT id::string AS s, qty::double AS q FROM t"),
    q("select_try_cast", "SELECT try_cast(status AS INT) AS n FROM t"),
    q("select_typed_literals", "SELECT DATE '2024-03-01' AS d, TIMESTAMP '2024-03-01 10:00:00' AS ts, X'CAFE' AS b"),
    q("select_string_functions", "SELECT upper(status), lower(status), length(status), substr(status, 2, 3), concat(status, '-', id) FROM t"),
    q("select_concat_operator", "SELECT status || '/' || cast(id AS string) AS tag FROM t"),
    q("select_coalesce", "SELECT id, coalesce(status, 'unknown') AS s, coalesce(amount, 0) AS a FROM t"),
    q("select_nvl_ifnull", "SELECT nvl(qty, -1), ifnull(cid, 0), nullif(qty, 1) FROM t"),
    q("select_if", "SELECT id, if(amount > 20, 'high', 'low') AS level FROM t"),
    q("select_date_functions", "SELECT id, year(day), month(day), dayofmonth(day), date_add(day, 7), datediff(day, DATE '2024-01-01') FROM t"),
    q("select_timestamp_functions", "SELECT id, hour(ts), minute(ts), date_trunc('HOUR', ts), to_date(ts) FROM t"),
    q("select_date_format", "SELECT id, date_format(ts, 'yyyy-MM-dd HH:mm') AS f FROM t"),
    q("select_arithmetic_decimal", "SELECT id, amount + 1, amount * 2, amount / 4, -amount FROM t"),
    q("select_modulo_and_div", "SELECT id, id % 3, id DIV 3, pmod(-id, 3) FROM t"),
    q("select_comparison_results", "SELECT id, qty > 2, qty = 1, qty <=> NULL, status <> 'shipped' FROM t"),
    q("select_boolean_logic", "SELECT c.name, vip AND city = 'Paris', vip OR city IS NULL, NOT vip FROM c"),
    q("select_in_list", "SELECT id, status IN ('shipped', 'returned') AS done FROM t"),
    q("select_between", "SELECT id, amount BETWEEN 10 AND 50 AS mid FROM t"),
    q("select_like", "SELECT name, name LIKE 'A%', name LIKE '_o%', name ILIKE 'b%' FROM c"),
    q("select_rlike", "SELECT name, name RLIKE '^[A-Z]' AS capital FROM c"),
    q("select_is_null", "SELECT id, status IS NULL, amount IS NOT NULL FROM t"),
    q("select_struct_and_fields", "SELECT id, named_struct('a', id, 'b', status) AS s FROM t"),
    q("select_struct_field_access", "SELECT s.a, s.b FROM (SELECT named_struct('a', id, 'b', status) AS s FROM t)"),
    q("select_array_functions", "SELECT id, array(id, qty) AS arr, size(array(id, qty)) AS n FROM t"),
    q("select_array_index", "SELECT id, array(id, qty)[1] AS second FROM t"),
    q("select_map_access", "SELECT id, map('k', id)['k'] AS v FROM t"),
    q("select_string_literal_escapes", "SELECT 'it''s', 'tab\\there', \"double\" AS d"),
    q("select_comments", "SELECT id -- the id\n, /* the status */ status FROM t"),
    q("select_greatest_least", "SELECT id, greatest(id, qty), least(id, qty) FROM t"),
    q("select_round_functions", "SELECT id, round(amount, 1), floor(amount), ceil(amount), abs(amount - 50) FROM t"),
    q("select_string_trim_pad", "SELECT trim('  x  '), ltrim('  x'), rtrim('x  '), lpad(cast(id AS string), 3, '0'), rpad('a', 3, '*')"),
    q("select_replace_split", "SELECT replace(status, 'p', 'P'), split(status, 'e') FROM t"),
    q("select_regexp_functions", "SELECT regexp_replace(status, '[aeiou]', '_'), regexp_extract(status, '(s+)', 1) FROM t"),
    q("select_instr_locate", "SELECT status, instr(status, 'p'), locate('e', status) FROM t"),
    q("select_unix_timestamp", "SELECT id, unix_timestamp(ts), from_unixtime(1709287200) FROM t"),
    q("select_make_date", "SELECT make_date(2024, 2, 29) AS d, last_day(DATE '2024-02-10') AS l"),
    q("select_nested_subquery_from", "SELECT x + 1 AS y FROM (SELECT id * 10 AS x FROM t) AS s"),
    q("select_subquery_without_alias", "SELECT id FROM (SELECT id, status FROM t WHERE qty > 1)"),
    q("select_values", "SELECT * FROM VALUES (1, 'a'), (2, 'b') AS v(n, s)"),
    q("select_values_default_names", "SELECT col1, col2 FROM VALUES (1, 'a'), (2, NULL)"),
    q("select_range", "SELECT id FROM range(5)"),
    q("select_range_step", "SELECT id * id AS sq FROM range(1, 10, 3)"),
    q("select_table_alias_columns", "SELECT a, b FROM t AS x(a, b, c, d, e, f, g)"),
    q("select_case_insensitive_names", "SELECT ID, Status FROM T"),
]

FILTERS = [
    q("where_comparison", "SELECT id FROM t WHERE amount > 20"),
    q("where_and_or", "SELECT id FROM t WHERE (status = 'shipped' AND qty > 1) OR cid IS NULL"),
    q("where_not", "SELECT id FROM t WHERE NOT status = 'shipped'"),
    q("where_null_comparison_drops", "SELECT id FROM t WHERE cid <> 10"),
    q("where_is_not_null", "SELECT id FROM t WHERE status IS NOT NULL AND amount IS NOT NULL"),
    q("where_in", "SELECT id FROM t WHERE cid IN (10, 30)"),
    q("where_not_in", "SELECT id FROM t WHERE cid NOT IN (10, 30)"),
    q("where_not_in_with_null", "SELECT id FROM t WHERE cid NOT IN (10, NULL)"),
    q("where_between", "SELECT id FROM t WHERE qty BETWEEN 1 AND 3"),
    q("where_not_between", "SELECT id FROM t WHERE qty NOT BETWEEN 1 AND 3"),
    q("where_like", "SELECT id FROM t WHERE status LIKE '%ed'"),
    q("where_not_like", "SELECT id FROM t WHERE status NOT LIKE 's%'"),
    q("where_like_escape", "SELECT * FROM VALUES ('a_b'), ('ab') AS v(s) WHERE s LIKE 'a\\_b'"),
    q("where_rlike", "SELECT id FROM t WHERE status RLIKE 'p.*g'"),
    q("where_date_literal", "SELECT id FROM t WHERE day >= DATE '2024-03-02'"),
    q("where_timestamp_literal", "SELECT id FROM t WHERE ts < TIMESTAMP '2024-03-01 10:10:00'"),
    q("where_string_to_date_comparison", "SELECT id FROM t WHERE day = '2024-03-01'"),
    q("where_expression_on_both_sides", "SELECT id FROM t WHERE qty * 10 > id + 15"),
    q("where_boolean_column", "SELECT name FROM c WHERE vip"),
    q("where_boolean_is_false", "SELECT name FROM c WHERE vip IS NOT TRUE"),
    q("where_is_distinct_from", "SELECT id FROM t WHERE cid IS DISTINCT FROM 10"),
    q("where_always_false", "SELECT * FROM t WHERE 1 = 0"),
    q("where_coalesce", "SELECT id FROM t WHERE coalesce(status, 'none') = 'none'"),
    q("where_case", "SELECT id FROM t WHERE CASE WHEN qty IS NULL THEN true ELSE qty > 4 END"),
    q("where_on_subquery_alias", "SELECT s.x FROM (SELECT id AS x, qty FROM t) s WHERE s.qty > 2"),
]

JOINS = [
    q("join_inner", "SELECT t.id, c.name FROM t JOIN c ON t.cid = c.cid"),
    q("join_inner_keyword", "SELECT t.id, c.name FROM t INNER JOIN c ON t.cid = c.cid"),
    q("join_left", "SELECT t.id, c.name FROM t LEFT JOIN c ON t.cid = c.cid"),
    q("join_left_outer", "SELECT t.id, c.name FROM t LEFT OUTER JOIN c ON t.cid = c.cid"),
    q("join_right", "SELECT t.id, c.name FROM t RIGHT JOIN c ON t.cid = c.cid"),
    q("join_full", "SELECT t.id, c.name FROM t FULL OUTER JOIN c ON t.cid = c.cid"),
    q("join_full_without_outer", "SELECT t.id, c.cid FROM t FULL JOIN c ON t.cid = c.cid"),
    q("join_left_semi", "SELECT * FROM t LEFT SEMI JOIN c ON t.cid = c.cid"),
    q("join_semi", "SELECT * FROM t SEMI JOIN c ON t.cid = c.cid"),
    q("join_left_anti", "SELECT * FROM t LEFT ANTI JOIN c ON t.cid = c.cid"),
    q("join_anti", "SELECT id FROM t ANTI JOIN c ON t.cid = c.cid"),
    q("join_cross", "SELECT t.id, c.name FROM t CROSS JOIN c WHERE t.id < 3"),
    q("join_comma", "SELECT t.id, c.name FROM t, c WHERE t.cid = c.cid AND c.vip"),
    q("join_using", "SELECT * FROM t JOIN c USING (cid)"),
    q("join_left_using", "SELECT cid, id, name FROM t LEFT JOIN c USING (cid)"),
    q("join_full_using", "SELECT cid, id, name FROM t FULL JOIN c USING (cid)"),
    q("join_aliases", "SELECT o.id, cu.name FROM t o JOIN c cu ON o.cid = cu.cid"),
    q("join_as_aliases", "SELECT o.id, cu.city FROM t AS o LEFT JOIN c AS cu ON o.cid = cu.cid"),
    q("join_residual_condition", "SELECT t.id, c.name FROM t JOIN c ON t.cid = c.cid AND t.qty > 1"),
    q("join_non_equi", "SELECT t.id, c.cid FROM t JOIN c ON t.cid < c.cid AND t.id < 3"),
    q("join_left_residual_keeps_rows", "SELECT t.id, c.name FROM t LEFT JOIN c ON t.cid = c.cid AND c.vip"),
    q("join_null_safe", "SELECT t.id, c.name FROM t JOIN c ON t.cid <=> c.cid"),
    q("join_self", "SELECT a.id, b.id AS other FROM t a JOIN t b ON a.cid = b.cid AND a.id < b.id"),
    q("join_three_tables", "SELECT t.id, c.name, e.user FROM t JOIN c ON t.cid = c.cid JOIN e ON e.v = t.id"),
    q("join_subquery", "SELECT t.id, s.total FROM t JOIN (SELECT cid, sum(qty) AS total FROM t GROUP BY cid) s ON t.cid = s.cid"),
    q("join_then_filter", "SELECT t.id FROM t LEFT JOIN c ON t.cid = c.cid WHERE c.cid IS NULL"),
    q("join_then_aggregate", "SELECT c.city, count(*) AS n FROM t JOIN c ON t.cid = c.cid GROUP BY c.city"),
    q("join_parenthesized", "SELECT t.id, c.name FROM (t JOIN c ON t.cid = c.cid)"),
    q("join_expression_keys", "SELECT t.id, c.name FROM t JOIN c ON t.cid + 10 = c.cid"),
    q("join_right_then_coalesce", "SELECT coalesce(t.cid, c.cid) AS k, t.id, c.name FROM t RIGHT JOIN c ON t.cid = c.cid"),
    q("join_ambiguous_column", "SELECT cid FROM t JOIN c ON t.cid = c.cid"),
]

AGGREGATES = [
    q("agg_count_star", "SELECT count(*) FROM t"),
    q("agg_count_column_skips_nulls", "SELECT count(cid), count(amount), count(status) FROM t"),
    q("agg_global", "SELECT sum(qty), min(amount), max(amount), avg(qty) FROM t"),
    q("agg_sum_decimal", "SELECT sum(amount) AS s FROM t"),
    q("agg_group_by", "SELECT cid, count(*) AS n, sum(qty) AS q FROM t GROUP BY cid"),
    q("agg_group_by_key_after_aggregates", "SELECT count(*) AS n, cid FROM t GROUP BY cid"),
    q("agg_group_by_without_key_in_select", "SELECT count(*) AS n FROM t GROUP BY status"),
    q("agg_group_by_two_keys", "SELECT cid, status, count(*) FROM t GROUP BY cid, status"),
    q("agg_group_by_expression", "SELECT qty % 2 AS parity, count(*) FROM t GROUP BY qty % 2"),
    q("agg_group_by_ordinal", "SELECT status, count(*) FROM t GROUP BY 1"),
    q("agg_group_by_alias", "SELECT upper(status) AS s, count(*) AS n FROM t GROUP BY s"),
    q("agg_group_by_all", "SELECT status, cid, count(*) FROM t GROUP BY ALL"),
    q("agg_having", "SELECT cid, count(*) AS n FROM t GROUP BY cid HAVING count(*) > 1"),
    q("agg_having_alias", "SELECT cid, count(*) AS n FROM t GROUP BY cid HAVING n >= 2"),
    q("agg_having_aggregate_not_selected", "SELECT cid FROM t GROUP BY cid HAVING sum(qty) > 3"),
    q("agg_having_on_key", "SELECT cid, max(amount) FROM t GROUP BY cid HAVING cid > 10"),
    q("agg_having_without_group_by", "SELECT sum(qty) FROM t HAVING sum(qty) > 10"),
    q("agg_count_distinct", "SELECT count(DISTINCT cid) AS n, count(DISTINCT status) FROM t"),
    q("agg_count_distinct_grouped", "SELECT day, count(DISTINCT cid) FROM t GROUP BY day"),
    q("agg_sum_distinct", "SELECT sum(DISTINCT qty) FROM t"),
    q("agg_filter_clause", "SELECT count(*) FILTER (WHERE status = 'shipped') AS shipped, sum(qty) FILTER (WHERE cid = 10) FROM t"),
    q("agg_expression_of_aggregates", "SELECT cid, sum(qty) * 2 + count(*) AS score FROM t GROUP BY cid"),
    q("agg_aggregate_of_expression", "SELECT sum(qty * id) AS weighted FROM t"),
    q("agg_expression_of_key", "SELECT cid + 1 AS next, count(*) FROM t GROUP BY cid"),
    q("agg_min_max_strings", "SELECT min(status), max(status) FROM t"),
    q("agg_min_max_dates", "SELECT min(day), max(ts) FROM t"),
    q("agg_first_last", "SELECT first(id), last(id) FROM (SELECT id FROM t ORDER BY id)"),
    q("agg_count_if", "SELECT count_if(qty > 1) FROM t"),
    q("agg_collect_list_sorted", "SELECT cid, sort_array(collect_list(id)) AS ids FROM t GROUP BY cid"),
    q("agg_collect_set_sorted", "SELECT sort_array(collect_set(status)) FROM t"),
    q("agg_stddev_variance", "SELECT stddev(qty), variance(qty), stddev_pop(qty), var_pop(qty) FROM t"),
    q("agg_avg_decimal", "SELECT avg(amount) FROM t"),
    q("agg_mean", "SELECT mean(qty) FROM t"),
    q("agg_bool_and_or", "SELECT bool_and(vip), bool_or(vip), every(vip) FROM c"),
    q("agg_empty_input_global", "SELECT count(*), sum(qty), max(id) FROM t WHERE 1 = 0"),
    q("agg_empty_input_grouped", "SELECT cid, count(*) FROM t WHERE 1 = 0 GROUP BY cid"),
    q("agg_null_group", "SELECT status, count(*) FROM t GROUP BY status"),
    q("agg_distinct_select", "SELECT DISTINCT cid FROM t"),
    q("agg_distinct_two_columns", "SELECT DISTINCT cid, status FROM t"),
    q("agg_distinct_with_aggregate", "SELECT DISTINCT count(*) FROM t GROUP BY cid"),
    q("agg_group_by_date_function", "SELECT to_date(ts) AS d, sum(qty) FROM t GROUP BY to_date(ts)"),
    q("agg_group_by_case", "SELECT CASE WHEN qty > 2 THEN 'big' ELSE 'small' END AS size, count(*) FROM t GROUP BY 1"),
    q("agg_approx_count_distinct", "SELECT approx_count_distinct(cid) FROM t"),
    q("agg_max_by_min_by", "SELECT max_by(id, amount), min_by(id, amount) FROM t"),
    q("agg_missing_group_by_error", "SELECT cid, count(*) FROM t"),
    q("agg_missing_aggregation_error", "SELECT cid, status FROM t GROUP BY cid"),
    q("agg_nested_aggregate_error", "SELECT sum(count(*)) FROM t"),
    q("agg_in_where_error", "SELECT id FROM t WHERE count(*) > 1"),
    q("agg_group_by_position_out_of_range", "SELECT cid, count(*) FROM t GROUP BY 3"),
    q("agg_group_by_aggregate_position", "SELECT cid, count(*) FROM t GROUP BY 2"),
]

WINDOWS = [
    q("window_tumbling", "SELECT window.start, window.end, count(*) AS n FROM e GROUP BY window(ts, '10 minutes')"),
    q("window_tumbling_with_key", "SELECT user, window.start, sum(v) AS total FROM e GROUP BY user, window(ts, '10 minutes')"),
    q("window_select_struct", "SELECT window, count(*) FROM e GROUP BY window(ts, '30 minutes')"),
    q("window_sliding", "SELECT window.start, count(*) AS n FROM e GROUP BY window(ts, '10 minutes', '5 minutes')"),
    q("window_start_time", "SELECT window.start, count(*) FROM e GROUP BY window(ts, '10 minutes', '10 minutes', '2 minutes')"),
    q("window_with_alias_in_select", "SELECT window(ts, '15 minutes') AS w, max(v) FROM e GROUP BY window(ts, '15 minutes')"),
    q("window_session", "SELECT user, session_window.start, session_window.end, count(*) FROM e GROUP BY user, session_window(ts, '5 minutes')"),
    q("window_session_global", "SELECT session_window.start, session_window.end, sum(v) FROM e GROUP BY session_window(ts, '10 minutes')"),
    q("window_having", "SELECT window.start, count(*) AS n FROM e GROUP BY window(ts, '10 minutes') HAVING count(*) > 1"),
    o("window_ordered", "SELECT window.start AS start, count(*) AS n FROM e GROUP BY window(ts, '10 minutes') ORDER BY start"),
    q("window_time_function", "SELECT window_time(window) AS wt, count(*) FROM e GROUP BY window(ts, '10 minutes')"),
    q("window_over_filter", "SELECT window.end, count(*) FROM e WHERE v IS NOT NULL GROUP BY window(ts, '1 hour')"),
    q("window_over_join", "SELECT window.start, count(*) FROM e JOIN t ON e.v = t.id GROUP BY window(e.ts, '10 minutes')"),
]

ORDERING = [
    o("order_by_column", "SELECT id, qty FROM t ORDER BY id"),
    o("order_by_desc", "SELECT id FROM t ORDER BY id DESC"),
    o("order_by_nulls_first_default", "SELECT id, cid FROM t ORDER BY cid, id"),
    o("order_by_desc_nulls_last_default", "SELECT id, cid FROM t ORDER BY cid DESC, id"),
    o("order_by_nulls_last", "SELECT id, cid FROM t ORDER BY cid ASC NULLS LAST, id"),
    o("order_by_desc_nulls_first", "SELECT id, amount FROM t ORDER BY amount DESC NULLS FIRST"),
    o("order_by_alias", "SELECT id, qty * 2 AS dbl FROM t ORDER BY dbl DESC, id"),
    o("order_by_ordinal", "SELECT status, id FROM t ORDER BY 2 DESC"),
    o("order_by_column_not_selected", "SELECT status FROM t ORDER BY id"),
    o("order_by_expression_not_selected", "SELECT id FROM t ORDER BY qty * -1, id"),
    o("order_by_aggregate", "SELECT cid, count(*) AS n FROM t GROUP BY cid ORDER BY count(*) DESC, cid"),
    o("order_by_aggregate_not_selected", "SELECT cid FROM t GROUP BY cid ORDER BY sum(qty), cid"),
    o("order_by_aggregate_alias", "SELECT cid, sum(qty) AS total FROM t GROUP BY cid ORDER BY total DESC NULLS LAST, cid"),
    o("order_by_key_of_group", "SELECT count(*) AS n FROM t GROUP BY cid ORDER BY cid"),
    o("order_by_string", "SELECT name FROM c ORDER BY name"),
    o("order_by_qualified", "SELECT t.id, c.name FROM t JOIN c ON t.cid = c.cid ORDER BY c.name, t.id"),
    o("order_by_limit", "SELECT id FROM t ORDER BY amount DESC NULLS LAST LIMIT 3"),
    o("order_by_limit_zero", "SELECT id FROM t ORDER BY id LIMIT 0"),
    q("limit_without_order", "SELECT count(*) FROM (SELECT * FROM t LIMIT 5)"),
    o("order_by_distinct", "SELECT DISTINCT cid FROM t ORDER BY cid"),
    o("order_by_union", "SELECT id FROM t WHERE id < 3 UNION ALL SELECT id FROM t WHERE id > 6 ORDER BY id DESC"),
    o("order_by_case", "SELECT id, status FROM t ORDER BY CASE WHEN status = 'shipped' THEN 0 ELSE 1 END, id"),
    o("order_by_date", "SELECT id, day FROM t ORDER BY day DESC, id"),
    o("order_by_subquery_then_outer", "SELECT * FROM (SELECT id FROM t ORDER BY id DESC LIMIT 4) ORDER BY id"),
    q("order_by_position_out_of_range", "SELECT id FROM t ORDER BY 2"),
    q("limit_negative_error", "SELECT id FROM t LIMIT -1"),
]

SET_OPERATIONS = [
    q("union_all", "SELECT cid FROM t UNION ALL SELECT cid FROM c"),
    q("union_distinct", "SELECT cid FROM t UNION SELECT cid FROM c"),
    q("union_distinct_keyword", "SELECT cid FROM t UNION DISTINCT SELECT cid FROM c"),
    q("union_widening", "SELECT id FROM t UNION ALL SELECT 1.5"),
    q("union_three", "SELECT 1 AS x UNION ALL SELECT 2 UNION ALL SELECT 2"),
    q("union_names_from_first", "SELECT id AS a FROM t WHERE id = 1 UNION ALL SELECT qty AS b FROM t WHERE id = 2"),
    q("except", "SELECT cid FROM t EXCEPT SELECT cid FROM c"),
    q("except_distinct", "SELECT cid FROM c EXCEPT DISTINCT SELECT cid FROM t"),
    q("minus", "SELECT cid FROM t MINUS SELECT cid FROM c"),
    q("except_null_matches_null", "SELECT cid, status FROM t EXCEPT SELECT cid, 'pending' FROM t WHERE id = 5"),
    q("intersect", "SELECT cid FROM t INTERSECT SELECT cid FROM c"),
    q("intersect_null", "SELECT cid FROM t INTERSECT SELECT cid FROM c WHERE cid IS NULL OR cid = 10"),
    q("intersect_binds_tighter", "SELECT 1 AS x UNION SELECT 2 INTERSECT SELECT 2"),
    q("union_parenthesized", "(SELECT id FROM t WHERE id < 3) UNION ALL (SELECT id FROM t WHERE id > 7)"),
    q("union_column_count_mismatch", "SELECT id, cid FROM t UNION SELECT cid FROM c"),
    q("union_in_subquery", "SELECT count(*) FROM (SELECT cid FROM t UNION SELECT cid FROM c)"),
]

CTES = [
    q("cte_simple", "WITH big AS (SELECT * FROM t WHERE qty > 1) SELECT id FROM big"),
    q("cte_two", "WITH a AS (SELECT cid FROM t), b AS (SELECT cid FROM c) SELECT * FROM a JOIN b USING (cid)"),
    q("cte_chained", "WITH a AS (SELECT id, qty FROM t), b AS (SELECT id FROM a WHERE qty > 2) SELECT * FROM b"),
    q("cte_aggregate", "WITH totals AS (SELECT cid, sum(amount) AS spent FROM t GROUP BY cid) SELECT c.name, totals.spent FROM c JOIN totals ON c.cid = totals.cid"),
    q("cte_self_join", "WITH x AS (SELECT id, cid FROM t) SELECT a.id, b.id FROM x a JOIN x b ON a.cid = b.cid AND a.id > b.id"),
    q("cte_shadows_view", "WITH c AS (SELECT 1 AS cid) SELECT * FROM c"),
    q("cte_in_subquery", "SELECT * FROM (WITH y AS (SELECT id FROM t WHERE id = 2) SELECT id FROM y)"),
    o("cte_with_order", "WITH s AS (SELECT status, count(*) AS n FROM t GROUP BY status) SELECT * FROM s ORDER BY n DESC, status NULLS FIRST"),
    q("cte_union", "WITH a AS (SELECT 1 AS v), b AS (SELECT 2 AS v) SELECT v FROM a UNION ALL SELECT v FROM b"),
    q("cte_as_keyword_optional", "WITH a (SELECT 5 AS v) SELECT v FROM a"),
]

SUBQUERIES = [
    q("subquery_in", "SELECT id FROM t WHERE cid IN (SELECT cid FROM c WHERE vip)"),
    q("subquery_not_in", "SELECT id FROM t WHERE cid NOT IN (SELECT cid FROM c WHERE cid IS NOT NULL)"),
    q("subquery_not_in_with_null_is_empty", "SELECT id FROM t WHERE cid NOT IN (SELECT cid FROM c)"),
    q("subquery_in_aggregate", "SELECT id FROM t WHERE cid IN (SELECT cid FROM t GROUP BY cid HAVING count(*) > 1)"),
    q("subquery_exists_correlated", "SELECT name FROM c WHERE EXISTS (SELECT 1 FROM t WHERE t.cid = c.cid)"),
    q("subquery_not_exists_correlated", "SELECT name FROM c WHERE NOT EXISTS (SELECT * FROM t WHERE t.cid = c.cid)"),
    q("subquery_exists_correlated_with_filter", "SELECT name FROM c WHERE EXISTS (SELECT 1 FROM t WHERE t.cid = c.cid AND t.qty > 3)"),
    q("subquery_exists_uncorrelated", "SELECT count(*) FROM c WHERE EXISTS (SELECT 1 FROM t WHERE qty > 4)"),
    q("subquery_exists_uncorrelated_empty", "SELECT count(*) FROM c WHERE EXISTS (SELECT 1 FROM t WHERE qty > 100)"),
    q("subquery_in_correlated", "SELECT name FROM c WHERE 5 IN (SELECT qty FROM t WHERE t.cid = c.cid)"),
    q("subquery_scalar_in_select", "SELECT id, (SELECT max(qty) FROM t) AS top FROM t"),
    q("subquery_scalar_in_where", "SELECT id FROM t WHERE amount > (SELECT avg(amount) FROM t)"),
    q("subquery_scalar_empty_is_null", "SELECT (SELECT id FROM t WHERE id > 100) AS x"),
    q("subquery_scalar_too_many_rows", "SELECT (SELECT id FROM t) AS x"),
    q("subquery_in_and_other_conditions", "SELECT id FROM t WHERE qty > 1 AND cid IN (SELECT cid FROM c WHERE city = 'Paris')"),
    q("subquery_from_with_aggregate", "SELECT max(n) FROM (SELECT cid, count(*) AS n FROM t GROUP BY cid)"),
    q("subquery_nested_two_levels", "SELECT * FROM (SELECT * FROM (SELECT id, qty FROM t) WHERE qty > 1) WHERE id < 5"),
]

NULLS_AND_TYPES = [
    q("null_arithmetic", "SELECT id, qty + NULL, amount * qty FROM t"),
    q("null_equality", "SELECT NULL = NULL, NULL <=> NULL, 1 <=> NULL"),
    q("null_in_boolean_logic", "SELECT NULL AND false, NULL OR true, NULL AND true"),
    q("null_if_functions", "SELECT isnull(cid), isnotnull(cid), nanvl(double('NaN'), 0.0) FROM t"),
    q("cast_string_to_numbers", "SELECT CAST('12' AS INT), CAST('1.5' AS DOUBLE), CAST('7' AS BIGINT)"),
    q("cast_invalid_string_error", "SELECT CAST(status AS INT) FROM t"),
    q("cast_decimal", "SELECT CAST(amount AS DECIMAL(6,1)) FROM t"),
    q("cast_timestamp_to_long", "SELECT CAST(ts AS LONG) FROM t"),
    q("cast_boolean", "SELECT CAST(vip AS INT), CAST('true' AS BOOLEAN) FROM c"),
    q("implicit_string_number_comparison", "SELECT id FROM t WHERE id = '3'"),
    q("int_overflow_error", "SELECT 2147483647 + id FROM t"),
    q("divide_by_zero_error", "SELECT id / 0 FROM t"),
    q("try_divide", "SELECT try_divide(id, 0), id / 2 FROM t"),
    q("bigint_literal_suffix", "SELECT 10L, 2S, 3Y, 1.5D, 1.5BD"),
    q("scientific_literal", "SELECT 1e3, 1.5E-2"),
    q("decimal_literal_arithmetic", "SELECT 0.1 + 0.2, 1.10 * 3"),
    q("string_comparison_case", "SELECT name FROM c WHERE name > 'B'"),
    q("unicode_strings", "SELECT upper('émile'), length('日本'), reverse('abc')"),
]

ERRORS = [
    q("error_unresolved_column", "SELECT nope FROM t"),
    q("error_unresolved_column_suggestion", "SELECT stat FROM t"),
    q("error_table_not_found", "SELECT * FROM missing_table"),
    q("error_unknown_function", "SELECT nofunction(id) FROM t"),
    q("error_wrong_argument_type", "SELECT upper(array(1)) FROM t"),
    q("error_wrong_argument_count", "SELECT substr() FROM t"),
    q("error_syntax", "SELECT id FROM t WHERE"),
    q("error_syntax_extra_token", "SELECT id id2 id3 FROM t"),
    q("error_syntax_unclosed_paren", "SELECT (id FROM t"),
    q("error_ambiguous_join_column", "SELECT t.id FROM t JOIN t ON cid = cid"),
    q("error_star_in_expression", "SELECT upper(*) FROM t"),
    q("error_qualified_star_unknown", "SELECT x.* FROM t"),
    q("error_non_boolean_where", "SELECT id FROM t WHERE id + 1"),
]

MIXED = [
    q("mixed_report", """
        SELECT c.city,
               count(DISTINCT t.cid) AS customers,
               sum(t.amount) AS revenue,
               max(t.ts) AS last_order
        FROM t
        JOIN c ON t.cid = c.cid
        WHERE t.status IS NOT NULL
        GROUP BY c.city
    """),
    o("mixed_top_customers", """
        WITH spend AS (
          SELECT cid, sum(amount) AS total, count(*) AS orders
          FROM t
          WHERE amount IS NOT NULL
          GROUP BY cid
        )
        SELECT c.name, spend.total, spend.orders
        FROM spend JOIN c ON spend.cid = c.cid
        ORDER BY spend.total DESC
        LIMIT 2
    """),
    q("mixed_daily_status_pivot", """
        SELECT day,
               sum(CASE WHEN status = 'shipped' THEN 1 ELSE 0 END) AS shipped,
               sum(CASE WHEN status = 'pending' THEN 1 ELSE 0 END) AS pending,
               count(*) AS all_orders
        FROM t
        GROUP BY day
    """),
    q("mixed_customers_without_orders", """
        SELECT c.name
        FROM c LEFT JOIN t ON c.cid = t.cid
        WHERE t.id IS NULL
    """),
    o("mixed_events_per_user_window", """
        SELECT user, window.start AS start, count(*) AS n, sum(coalesce(v, 0)) AS total
        FROM e
        GROUP BY user, window(ts, '30 minutes')
        ORDER BY user, start
    """),
    q("mixed_nested_aggregates", """
        SELECT status_count, count(*) AS how_many
        FROM (SELECT status, count(*) AS status_count FROM t GROUP BY status)
        GROUP BY status_count
    """),
    q("mixed_in_subquery_and_join", """
        SELECT t.id, c.name
        FROM t JOIN c ON t.cid = c.cid
        WHERE t.id IN (SELECT id FROM t WHERE qty >= 2)
    """),
    o("mixed_union_then_aggregate", """
        SELECT source, count(*) AS n
        FROM (SELECT 'orders' AS source, cid FROM t UNION ALL SELECT 'customers', cid FROM c)
        GROUP BY source
        ORDER BY source
    """),
    q("mixed_date_arithmetic", """
        SELECT id, day, date_add(day, qty) AS due, datediff(date_add(day, qty), day) AS days
        FROM t WHERE day IS NOT NULL
    """),
    q("mixed_string_report", """
        SELECT concat_ws(' ', upper(substr(name, 1, 1)), lower(substr(name, 2))) AS pretty,
               coalesce(city, '?') AS city
        FROM c
    """),
    o("mixed_having_and_order", """
        SELECT status, avg(qty) AS mean_qty
        FROM t
        WHERE status IS NOT NULL
        GROUP BY status
        HAVING count(*) >= 1 AND avg(qty) > 1
        ORDER BY mean_qty DESC
    """),
    q("mixed_exists_and_not_in", """
        SELECT name FROM c
        WHERE EXISTS (SELECT 1 FROM t WHERE t.cid = c.cid)
          AND cid NOT IN (SELECT cid FROM t WHERE status = 'returned')
    """),
]

CASES = PROJECTION + FILTERS + JOINS + AGGREGATES + WINDOWS + ORDERING + SET_OPERATIONS + CTES + SUBQUERIES + NULLS_AND_TYPES + ERRORS + MIXED
