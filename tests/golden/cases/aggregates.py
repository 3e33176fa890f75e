"""Aggregate functions, global and grouped, over nulls and empty input. first/last are
order-sensitive; with one partition they follow input order. collect_list/collect_set go
through sort_array so the results do not depend on order."""

from _common import case, table

SALES = table(
    "k STRING, v INT, d DOUBLE, l BIGINT, p DECIMAL(10,2)",
    [
        ["a", 1, 1.5, 10, "1.10"],
        ["a", 2, 2.5, 20, "2.20"],
        ["a", None, None, None, None],
        ["a", 2, -1.0, 30, "3.30"],
        ["b", None, None, None, None],
        ["b", None, None, None, None],
        ["c", 7, 7.0, 70, "7.70"],
        [None, 3, 0.5, 5, "0.50"],
        [None, 4, "NaN", 6, "0.60"],
    ],
)

EMPTY = table("k STRING, v INT, d DOUBLE", [])

ALL_NULL = table("k STRING, v INT, d DOUBLE", [[None, None, None], [None, None, None]])

BASIC_AGGS = [
    "count(v) AS count_v",
    "count(*) AS count_star",
    "count(1) AS count_one",
    "sum(v) AS sum_v",
    "avg(v) AS avg_v",
    "min(v) AS min_v",
    "max(v) AS max_v",
    "count_if(v > 1) AS count_if_v",
    "sort_array(collect_list(v)) AS list_v",
    "sort_array(collect_set(v)) AS set_v",
    "count(DISTINCT v) AS distinct_v",
    "approx_count_distinct(v) AS approx_v",
]

STATISTICS = [
    "stddev(d) AS stddev_d",
    "stddev_samp(d) AS stddev_samp_d",
    "stddev_pop(d) AS stddev_pop_d",
    "variance(d) AS variance_d",
    "var_samp(d) AS var_samp_d",
    "var_pop(d) AS var_pop_d",
]


def aggregate(name, t, keys, aggs, pre=(), ordered_by=None):
    ops = [*pre, {"op": "groupBy", "keys": keys, "aggs": aggs}]
    if ordered_by:
        ops.append({"op": "orderBy", "keys": ordered_by})
    return case(name, t, ops, ordered=bool(ordered_by))


NUMERIC_STATS = table(
    "k STRING, d DOUBLE, v INT",
    [
        ["spread", 1.0, 1],
        ["spread", 2.0, 2],
        ["spread", 3.0, 3],
        ["spread", 4.0, 4],
        ["single", 5.0, 5],
        ["constant", 2.5, 1],
        ["constant", 2.5, 1],
        ["with_null", None, None],
        ["with_null", 10.0, 10],
        ["with_null", 20.0, 20],
        ["with_nan", "NaN", 1],
        ["with_nan", 1.0, 2],
        ["with_inf", "Infinity", 1],
        ["with_inf", 1.0, 2],
        ["large", 1e8, 1],
        ["large", 1e8 + 1, 2],
        ["large", 1e8 + 2, 3],
    ],
)

CASES = [
    aggregate("global_basic", SALES, [], BASIC_AGGS),
    aggregate("grouped_basic", SALES, ["k"], BASIC_AGGS, ordered_by=["k NULLS FIRST"]),
    aggregate("global_over_empty_input", EMPTY, [], BASIC_AGGS),
    aggregate("grouped_over_empty_input", EMPTY, ["k"], BASIC_AGGS),
    aggregate(
        "global_over_filtered_to_empty", SALES, [], BASIC_AGGS, pre=[{"op": "filter", "condition": "v > 100"}]
    ),
    aggregate("global_over_all_null", ALL_NULL, [], BASIC_AGGS + STATISTICS),
    aggregate(
        "grouped_null_key_only",
        ALL_NULL,
        ["k"],
        ["count(*) AS n", "sum(v) AS s", "sort_array(collect_list(v)) AS l"],
    ),
    aggregate(
        "sum_avg_types",
        SALES,
        ["k"],
        [
            "sum(v) AS sum_int",
            "sum(l) AS sum_bigint",
            "sum(d) AS sum_double",
            "sum(p) AS sum_decimal",
            "avg(v) AS avg_int",
            "avg(l) AS avg_bigint",
            "avg(p) AS avg_decimal",
            "avg(d) AS avg_double",
            "sum(cast(v AS TINYINT)) AS sum_tinyint",
            "sum(cast(v AS FLOAT)) AS sum_float",
        ],
        ordered_by=["k NULLS FIRST"],
    ),
    aggregate(
        "min_max_types",
        table(
            "k INT, s STRING, dt DATE, ts TIMESTAMP, b BOOLEAN, d DOUBLE, p DECIMAL(5,2)",
            [
                [1, "b", "2024-02-29", "2024-01-01T00:00:00Z", True, 1.0, "1.00"],
                [1, "B", "2023-01-01", "2024-06-01T00:00:00Z", False, "NaN", "-1.00"],
                [1, "ü", "2025-01-01", "1969-12-31T23:59:59Z", None, -0.0, None],
                [1, "", None, None, True, 0.0, "0.50"],
                [2, None, None, None, None, None, None],
            ],
        ),
        ["k"],
        [
            "min(s)",
            "max(s)",
            "min(dt)",
            "max(dt)",
            "min(ts)",
            "max(ts)",
            "min(b)",
            "max(b)",
            "min(d)",
            "max(d)",
            "min(p)",
            "max(p)",
        ],
        ordered_by=["k"],
    ),
    aggregate(
        "min_max_nested",
        table(
            "k INT, x INT, y STRING, z DOUBLE",
            [
                [1, 1, "a", 1.0],
                [1, 1, None, "NaN"],
                [1, None, "z", 2.0],
                [1, 1, "b", -0.0],
                [2, None, None, None],
                [3, 2, "a", 0.0],
                [3, 2, "abc", -0.0],
            ],
        ),
        ["k"],
        [
            "min(named_struct('x', x, 'y', y)) AS min_xy",
            "max(named_struct('x', x, 'y', y)) AS max_xy",
            "min(struct(z, x)) AS min_zx",
            "max(struct(z, x)) AS max_zx",
            "min(CASE WHEN y IS NULL THEN array(x) ELSE array(x, length(y)) END) AS min_arr",
            "max(CASE WHEN y IS NULL THEN array(x) ELSE array(x, length(y)) END) AS max_arr",
            "max(struct(array(z), y)) AS max_nested",
            "min(CASE WHEN x IS NULL THEN NULL ELSE struct(x) END) AS min_or_null",
        ],
        ordered_by=["k"],
    ),
    aggregate(
        "first_last",
        SALES,
        ["k"],
        [
            "first(v) AS first_v",
            "last(v) AS last_v",
            "first(v, true) AS first_non_null",
            "last(v, true) AS last_non_null",
            "first_value(d)",
            "last_value(d)",
        ],
        ordered_by=["k NULLS FIRST"],
    ),
    aggregate("first_last_global", SALES, [], ["first(k)", "last(k)", "first(k, true)", "last(k, true)"]),
    aggregate(
        "statistics_grouped",
        NUMERIC_STATS,
        ["k"],
        STATISTICS + ["avg(d) AS avg_d", "stddev(v) AS stddev_int", "var_pop(v) AS var_pop_int"],
        ordered_by=["k"],
    ),
    aggregate("statistics_global", NUMERIC_STATS, [], STATISTICS),
    aggregate("statistics_over_empty_input", EMPTY, [], STATISTICS),
    aggregate(
        "count_distinct_variants",
        table(
            "a INT, b STRING",
            [[1, "x"], [1, "x"], [1, "y"], [2, None], [None, "x"], [None, None], [3, "z"], [3, "z"]],
        ),
        [],
        [
            "count(DISTINCT a) AS distinct_a",
            "count(DISTINCT b) AS distinct_b",
            "count(DISTINCT a, b) AS distinct_pairs",
            "count(a, b) AS count_pairs",
            "approx_count_distinct(a) AS approx_a",
            "approx_count_distinct(b, 0.05) AS approx_b",
            "sum(DISTINCT a) AS sum_distinct",
            "avg(DISTINCT a) AS avg_distinct",
        ],
    ),
    case(
        "approx_count_distinct_many_values",
        table("a INT", [[i] for i in range(20)]),
        [
            {"op": "join", "table": "u", "how": "cross"},
            {"op": "withColumn", "name": "v", "expr": "t.a * 1000 + u.b"},
            {
                "op": "groupBy",
                "keys": [],
                "aggs": [
                    "approx_count_distinct(v)",
                    "approx_count_distinct(v % 250)",
                    "approx_count_distinct(concat('s', v % 120))",
                    "count(DISTINCT v)",
                    "approx_count_distinct(v, 0.01)",
                ],
            },
        ],
        u=table("b INT", [[i] for i in range(25)]),
    ),
    aggregate(
        "collect_with_nulls_and_duplicates",
        table("k INT, s STRING", [[1, "b"], [1, "a"], [1, None], [1, "a"], [2, None], [3, "ü"], [3, "z"]]),
        ["k"],
        [
            "sort_array(collect_list(s)) AS list_s",
            "sort_array(collect_set(s)) AS set_s",
            "size(collect_list(s)) AS n",
            "sort_array(collect_list(s), false) AS desc_s",
        ],
        ordered_by=["k"],
    ),
    aggregate(
        "collect_list_in_input_order",
        table("k INT, s STRING", [[1, "b"], [1, "a"], [1, None], [1, "c"], [2, "z"]]),
        ["k"],
        ["collect_list(s) AS list_s"],
        ordered_by=["k"],
    ),
    aggregate(
        "group_by_expressions_and_multiple_keys",
        SALES,
        ["k", "v % 2"],
        ["count(*) AS n", "sum(l) AS s"],
        ordered_by=["k NULLS FIRST", "`(v % 2)` NULLS FIRST"],
    ),
    aggregate(
        "group_by_double_normalizes_zero_and_nan",
        table("d DOUBLE, v INT", [[0.0, 1], [-0.0, 2], ["NaN", 3], ["NaN", 4], [None, 5], [1.0, 6]]),
        ["d"],
        ["count(*) AS n", "sum(v) AS s"],
        ordered_by=["d NULLS FIRST"],
    ),
    aggregate(
        "count_if_and_conditions",
        SALES,
        ["k"],
        ["count_if(v IS NULL) AS nulls", "count_if(d > 0) AS positive", "count_if(k = 'a') AS is_a"],
        ordered_by=["k NULLS FIRST"],
    ),
    # More rows than a 64-row word, conditions true, false and null in no order, and groups
    # met again and again.
    aggregate(
        "count_if_over_many_rows",
        table(
            "k INT, v INT",
            [[i % 7, None if i % 11 == 0 else (i * 37) % 100] for i in range(201)],
        ),
        ["k"],
        ["count_if(v < 50) AS low", "count_if(v >= 50 AND v < 90) AS middle", "count(*) AS n"],
        ordered_by=["k"],
    ),
    aggregate(
        "aggregate_then_filter_and_expressions",
        SALES,
        ["k"],
        [
            "sum(v) + 1 AS s1",
            "max(v) - min(v) AS spread",
            "coalesce(sum(v), 0) AS s0",
            "count(*) * 2 AS twice",
        ],
        ordered_by=["k NULLS FIRST"],
    ),
    case(
        "having_via_filter",
        SALES,
        [
            {"op": "groupBy", "keys": ["k"], "aggs": ["sum(v) AS s", "count(*) AS n"]},
            {"op": "filter", "condition": "n > 1 AND s IS NOT NULL"},
            {"op": "orderBy", "keys": ["k"]},
        ],
        ordered=True,
    ),
    case(
        "sum_bigint_overflow",
        table("v BIGINT", [[9223372036854775807], [1]]),
        [{"op": "groupBy", "keys": [], "aggs": ["sum(v)"]}],
    ),
    case(
        "sum_bigint_overflow_and_back",
        table("v BIGINT", [[9223372036854775807], [1], [-2]]),
        [{"op": "groupBy", "keys": [], "aggs": ["sum(v)"]}],
    ),
    case(
        "sum_int_does_not_overflow",
        table("v INT", [[2147483647], [2147483647], [2147483647]]),
        [{"op": "groupBy", "keys": [], "aggs": ["sum(v)", "avg(v)"]}],
    ),
    case(
        "sum_decimal_overflow",
        table("p DECIMAL(38,0)", [["99999999999999999999999999999999999999"], ["1"]]),
        [{"op": "groupBy", "keys": [], "aggs": ["sum(p)"]}],
    ),
    case(
        "sum_decimal_widens_precision",
        table("p DECIMAL(10,2)", [["99999999.99"]] * 5),
        [{"op": "groupBy", "keys": [], "aggs": ["sum(p)", "avg(p)"]}],
    ),
    case(
        "avg_decimal_rounding",
        table("p DECIMAL(5,2)", [["1.00"], ["2.00"], ["2.00"]]),
        [{"op": "groupBy", "keys": [], "aggs": ["avg(p)", "sum(p) / count(p)"]}],
    ),
    case(
        "sum_double_special_values",
        table("d DOUBLE", [[1e308], [1e308], [-1.0]]),
        [{"op": "groupBy", "keys": [], "aggs": ["sum(d)", "avg(d)", "max(d)"]}],
    ),
    case(
        "sum_double_infinities_cancel",
        table("d DOUBLE", [["Infinity"], ["-Infinity"], [1.0]]),
        [{"op": "groupBy", "keys": [], "aggs": ["sum(d)", "min(d)", "max(d)"]}],
    ),
]
