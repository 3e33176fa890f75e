"""Relational operators: filter, orderBy (direction and null placement), limit, distinct,
union, unionByName, and joins of every type with null keys and duplicate keys."""

from _common import case, table

PEOPLE = table(
    "id INT, name STRING, score DOUBLE",
    [
        [1, "ann", 9.5],
        [2, "Bob", None],
        [3, "cat", 7.0],
        [None, "dan", 7.0],
        [5, None, "NaN"],
        [6, "Émile", -1.0],
        [7, "bob", "-Infinity"],
        [8, "", 0.0],
    ],
)

LEFT = table(
    "k INT, a STRING",
    [[1, "a1"], [2, "a2"], [2, "a2b"], [None, "anull"], [4, "a4"], [5, "a5"]],
)

RIGHT = table(
    "k INT, b STRING",
    [[2, "b2"], [2, "b2b"], [3, "b3"], [None, "bnull"], [4, "b4"]],
)


def ordered(name, t, ops, **other_tables):
    return case(name, t, ops, ordered=True, **other_tables)


def join(name, how, on="t.k = u.k", then=(), ordered=False):
    """A join of LEFT (as t) with RIGHT (as u); on=None joins without a condition."""
    step = {"op": "join", "table": "u", "how": how}
    if on is not None:
        step["on"] = on
    return case(name, LEFT, [step, *then], ordered=ordered, u=RIGHT)


CASES = [
    case("filter_comparison", PEOPLE, [{"op": "filter", "condition": "score > 5"}]),
    case(
        "filter_null_condition_drops_rows", PEOPLE, [{"op": "filter", "condition": "id > 2 OR name = 'ann'"}]
    ),
    case("filter_is_null", PEOPLE, [{"op": "filter", "condition": "id IS NULL OR name IS NULL"}]),
    case("filter_nan_equals_nan", PEOPLE, [{"op": "filter", "condition": "score = double('NaN')"}]),
    case(
        "filter_chained",
        PEOPLE,
        [{"op": "filter", "condition": "id > 1"}, {"op": "filter", "condition": "name LIKE '%b%'"}],
    ),
    case("filter_always_false", PEOPLE, [{"op": "filter", "condition": "1 = 0"}]),
    ordered("order_by_default_ascending_nulls_first", PEOPLE, [{"op": "orderBy", "keys": ["id"]}]),
    ordered("order_by_descending_nulls_last", PEOPLE, [{"op": "orderBy", "keys": ["id DESC"]}]),
    ordered("order_by_ascending_nulls_last", PEOPLE, [{"op": "orderBy", "keys": ["id ASC NULLS LAST"]}]),
    ordered("order_by_descending_nulls_first", PEOPLE, [{"op": "orderBy", "keys": ["id DESC NULLS FIRST"]}]),
    ordered("order_by_string_binary_order", PEOPLE, [{"op": "orderBy", "keys": ["name", "id"]}]),
    ordered(
        "order_by_double_with_nan_and_infinity",
        PEOPLE,
        [{"op": "orderBy", "keys": ["score DESC NULLS FIRST", "id"]}],
    ),
    ordered("order_by_two_keys", PEOPLE, [{"op": "orderBy", "keys": ["score", "id DESC"]}]),
    ordered(
        "order_by_expression",
        PEOPLE,
        [{"op": "orderBy", "keys": ["length(name) DESC NULLS LAST", "id NULLS LAST"]}],
    ),
    ordered(
        "order_by_negative_zero",
        table("d DOUBLE, i INT", [[0.0, 1], [-0.0, 2], [-1.0, 3], [1.0, 4]]),
        [{"op": "orderBy", "keys": ["d", "i"]}],
    ),
    ordered(
        "limit_after_order",
        PEOPLE,
        [{"op": "orderBy", "keys": ["id DESC NULLS LAST"]}, {"op": "limit", "n": 3}],
    ),
    ordered("limit_zero", PEOPLE, [{"op": "orderBy", "keys": ["id"]}, {"op": "limit", "n": 0}]),
    ordered(
        "limit_larger_than_input", PEOPLE, [{"op": "orderBy", "keys": ["id"]}, {"op": "limit", "n": 100}]
    ),
    case(
        "limit_then_aggregate",
        PEOPLE,
        [{"op": "limit", "n": 3}, {"op": "groupBy", "keys": [], "aggs": ["count(*)"]}],
    ),
    case(
        "distinct_with_nulls",
        table(
            "a INT, b STRING",
            [[1, "x"], [1, "x"], [None, None], [None, None], [1, None], [None, "x"], [2, "y"]],
        ),
        [{"op": "distinct"}],
    ),
    case(
        "distinct_normalizes_doubles",
        table("d DOUBLE", [[0.0], [-0.0], ["NaN"], ["NaN"], [1.0], [None], [None]]),
        [{"op": "distinct"}],
    ),
    case("distinct_after_projection", PEOPLE, [{"op": "selectExpr", "exprs": ["score"]}, {"op": "distinct"}]),
    case(
        "union_keeps_duplicates",
        table("a INT, b STRING", [[1, "x"], [2, None]]),
        [{"op": "union", "table": "u"}],
        u=table("a INT, b STRING", [[1, "x"], [3, "z"]]),
    ),
    case(
        "union_is_positional",
        table("a INT, b STRING", [[1, "x"]]),
        [{"op": "union", "table": "u"}],
        u=table("b INT, a STRING", [[2, "y"]]),
    ),
    case(
        "union_widens_types",
        table("a INT, d DECIMAL(5,2)", [[1, "1.50"]]),
        [{"op": "union", "table": "u"}],
        u=table("a BIGINT, d DOUBLE", [[9223372036854775807, 0.25]]),
    ),
    case(
        "union_then_distinct",
        table("a INT", [[1], [1], [2]]),
        [{"op": "union", "table": "u"}, {"op": "distinct"}],
        u=table("a INT", [[2], [3], [None]]),
    ),
    case(
        "union_column_count_mismatch",
        table("a INT, b STRING", [[1, "x"]]),
        [{"op": "union", "table": "u"}],
        u=table("a INT", [[2]]),
    ),
    case(
        "union_incompatible_types",
        table("a INT", [[1]]),
        [{"op": "union", "table": "u"}],
        u=table("a DATE", [["2024-01-01"]]),
    ),
    case(
        "union_by_name_reorders",
        table("a INT, b STRING", [[1, "x"]]),
        [{"op": "unionByName", "table": "u"}],
        u=table("b STRING, a INT", [["y", 2]]),
    ),
    case(
        "union_by_name_missing_columns_allowed",
        table("a INT, b STRING", [[1, "x"]]),
        [{"op": "unionByName", "table": "u", "allowMissingColumns": True}],
        u=table("c DOUBLE, a INT", [[2.5, 2]]),
    ),
    case(
        "union_by_name_missing_columns_not_allowed",
        table("a INT, b STRING", [[1, "x"]]),
        [{"op": "unionByName", "table": "u", "allowMissingColumns": False}],
        u=table("c DOUBLE, a INT", [[2.5, 2]]),
    ),
    case(
        "union_by_name_is_case_insensitive",
        table("a INT, B STRING", [[1, "x"]]),
        [{"op": "unionByName", "table": "u"}],
        u=table("b STRING, A INT", [["y", 2]]),
    ),
    join("join_inner", "inner"),
    join("join_left", "left"),
    join("join_right", "right"),
    join("join_full", "full"),
    join("join_left_semi", "left_semi"),
    join("join_left_anti", "left_anti"),
    join("join_cross", "cross", on=None),
    join("join_cross_with_condition", "cross", on="t.k < u.k"),
    join("join_null_safe_equality", "inner", on="t.k <=> u.k"),
    join("join_full_null_safe", "full", on="t.k <=> u.k"),
    join("join_non_equi", "left", on="t.k < u.k AND u.b <> 'b3'"),
    join("join_extra_condition", "inner", on="t.k = u.k AND u.b LIKE '%b'"),
    join("join_anti_with_null_safe", "left_anti", on="t.k <=> u.k"),
    join(
        "join_then_project_qualified",
        "full",
        then=[
            {"op": "selectExpr", "exprs": ["coalesce(t.k, u.k) AS k", "t.a", "u.b"]},
            {"op": "orderBy", "keys": ["k NULLS FIRST", "a NULLS FIRST", "b NULLS FIRST"]},
        ],
        ordered=True,
    ),
    join(
        "join_then_aggregate",
        "left",
        then=[{"op": "groupBy", "keys": ["t.k"], "aggs": ["count(u.b) AS matches", "count(*) AS n"]}],
    ),
    case(
        "join_on_expression_keys",
        table("s STRING", [["A"], ["b"], [None]]),
        [{"op": "join", "table": "u", "on": "lower(t.s) = u.s", "how": "inner"}],
        u=table("s STRING", [["a"], ["b"], ["B"]]),
    ),
    case(
        "join_empty_right_side",
        LEFT,
        [{"op": "join", "table": "u", "on": "t.k = u.k", "how": "left"}],
        u=table("k INT, b STRING", []),
    ),
    case(
        "join_mixed_key_types",
        table("k INT", [[1], [2], [None]]),
        [{"op": "join", "table": "u", "on": "t.k = u.k", "how": "full"}],
        u=table("k BIGINT", [[2], [3]]),
    ),
    case(
        "with_column_and_drop",
        PEOPLE,
        [
            {"op": "withColumn", "name": "double_id", "expr": "id * 2"},
            {"op": "withColumn", "name": "score", "expr": "coalesce(score, -100.0)"},
            {"op": "drop", "columns": ["name"]},
            {"op": "filter", "condition": "double_id > 4"},
        ],
    ),
]
