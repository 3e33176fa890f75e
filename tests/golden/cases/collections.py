"""Arrays, structs and maps: array, struct, named_struct, explode, size, element_at,
array_contains, map, map_keys, map_values, [] access and field access."""

from _common import ONE_ROW, case, select, select_each, table

VALUES = table(
    "a INT, b INT, s STRING",
    [[1, 2, "x"], [3, None, "y"], [None, None, None], [-1, 0, ""], [5, 5, "ü"]],
)

LISTS = table(
    "csv STRING",
    [["1,2,3"], ["4"], [""], [None], ["7,,9"], ["5,5,5,6"]],
)


def with_array(name, ops, t=LISTS, ordered=False):
    """Cases over arr ARRAY<STRING>, split from the comma separated csv column."""
    build = {"op": "withColumn", "name": "arr", "expr": "split(csv, ',')"}
    return case(name, t, [build, *ops], ordered=ordered)


CASES = [
    select(
        "array_constructor",
        VALUES,
        [
            "array(a, b)",
            "array(a, 1, NULL)",
            "array(s, 'lit')",
            "array()",
            "array(a, 2.5)",
            "array(array(a), array(b, b))",
            "array(NULL)",
        ],
    ),
    select(
        "struct_constructors",
        VALUES,
        [
            "struct(a, s)",
            "struct(a AS first, s AS second)",
            "named_struct('x', a, 'y', s)",
            "named_struct('x', a, 'y', s).x",
            "named_struct('n', named_struct('m', a)).n.m",
            "named_struct('arr', array(a, b), 'str', s)",
            "struct(a, s).s",
        ],
    ),
    select(
        "map_constructor",
        VALUES,
        [
            "map('a', a, 'b', b)",
            "map(coalesce(s, 'none'), a)",
            "map(coalesce(a, 0), s, 100, 'hundred')",
            "map()",
            "map('k', array(a, b))",
            "map(1, 'one', 0, 'zero', 2, 'two')",
            "map('m', map('inner', s))",
        ],
    ),
    *select_each(
        "map_constructor_invalid",
        VALUES,
        {"duplicate_key": "map('k', a, 'k', b)", "null_key": "map(s, a)"},
    ),
    with_array(
        "explode_array",
        [{"op": "selectExpr", "exprs": ["csv", "explode(arr) AS v"]}],
    ),
    case(
        "explode_int_array_with_nulls",
        VALUES,
        [{"op": "selectExpr", "exprs": ["s", "explode(array(a, b, 10)) AS v"]}],
    ),
    with_array(
        "explode_array_in_order",
        [
            {"op": "selectExpr", "exprs": ["csv", "explode(arr) AS v"]},
            {"op": "orderBy", "keys": ["csv", "v NULLS FIRST"]},
        ],
        ordered=True,
    ),
    case(
        "explode_map",
        VALUES,
        [{"op": "selectExpr", "exprs": ["a", "explode(map('x', a, 'y', b))"]}],
    ),
    case(
        "explode_empty_and_null",
        table("i INT", [[1], [2]]),
        [{"op": "selectExpr", "exprs": ["i", "explode(if(i = 1, array(), cast(NULL AS ARRAY<INT>))) AS v"]}],
    ),
    case(
        "explode_array_of_structs",
        VALUES,
        [
            {
                "op": "selectExpr",
                "exprs": [
                    "explode(array(named_struct('k', a, 'v', s), named_struct('k', b, 'v', 'z'))) AS e"
                ],
            },
            {"op": "selectExpr", "exprs": ["e.k", "e.v", "e"]},
        ],
    ),
    with_array(
        "size",
        [
            {
                "op": "selectExpr",
                "exprs": [
                    "csv",
                    "size(arr)",
                    "size(split(csv, ','))",
                    "size(map('a', 1))",
                    "size(array())",
                    "size(array(NULL))",
                ],
            }
        ],
    ),
    select(
        "size_of_null",
        table("i INT", [[1]]),
        ["size(cast(NULL AS ARRAY<INT>))", "size(cast(NULL AS MAP<STRING, INT>))"],
    ),
    with_array(
        "element_at_in_range",
        [
            {"op": "filter", "condition": "size(arr) >= 3"},
            {
                "op": "selectExpr",
                "exprs": [
                    "csv",
                    "element_at(arr, 1)",
                    "element_at(arr, 3)",
                    "element_at(arr, -1)",
                    "element_at(arr, -3)",
                    "arr[0]",
                    "arr[2]",
                ],
            },
        ],
    ),
    with_array(
        "element_at_null_array",
        [
            {"op": "filter", "condition": "csv IS NULL"},
            {"op": "selectExpr", "exprs": ["element_at(arr, 5)", "arr[7]"]},
        ],
    ),
    *select_each(
        "element_at_out_of_range",
        ONE_ROW,
        {
            "past_end": "element_at(array(1, 2, 3), 4)",
            "before_start": "element_at(array(1, 2, 3), -4)",
            "zero_index": "element_at(array(1, 2, 3), 0)",
            "try_zero_index": "try_element_at(array(1, 2, 3), 0)",
            "subscript_past_end": "array(1, 2, 3)[3]",
            "subscript_negative": "array(1, 2, 3)[-1]",
            "empty_array": "element_at(array(), 1)",
        },
    ),
    select(
        "map_access",
        VALUES,
        [
            "element_at(map('a', a, 'b', b), 'a')",
            "map('a', a, 'b', b)['b']",
            "element_at(map(1, s), 1)",
            "map(1, s)[a]",
            "element_at(map('a', a), s)",
            "map('k', array(a, b))['k'][1]",
            "element_at(map('a', a), cast(NULL AS STRING))",
            "element_at(array(a, b), cast(NULL AS INT))",
        ],
    ),
    *select_each(
        "map_access_missing_key",
        ONE_ROW,
        {"element_at": "element_at(map('a', 1), 'z')", "subscript": "map('a', 1)['z']"},
    ),
    select(
        "array_contains",
        table(
            "a INT, b INT, x INT, csv STRING",
            [
                [1, 2, 2, "1,2,3"],
                [1, 2, 4, "2"],
                [1, None, 4, ""],
                [1, None, 1, None],
                [None, None, None, "1,,3"],
            ],
        ),
        [
            "array_contains(array(a, b), x)",
            "array_contains(array(a, b, 3), 3)",
            "array_contains(split(csv, ','), '2')",
            "array_contains(split(csv, ','), '')",
            "array_contains(array(1, NULL), x)",
        ],
    ),
    select(
        "array_contains_types",
        VALUES,
        [
            "array_contains(array(1.5, 2.5), 2.5)",
            "array_contains(array(s, 'x'), 'x')",
            "array_contains(array(a, b), 5)",
            "array_contains(array(a, b), cast(NULL AS INT))",
        ],
    ),
    *select_each("array_contains_untyped_null", VALUES, {"literal": "array_contains(array(a, b), NULL)"}),
    select(
        "map_keys_values",
        VALUES,
        [
            "map_keys(map('a', a, 'b', b))",
            "map_values(map('a', a, 'b', b))",
            "map_keys(map(3, 'c', 1, 'a', 2, 'b'))",
            "map_values(map())",
            "map_keys(cast(NULL AS MAP<STRING, INT>))",
            "map_values(map('k', named_struct('s', s)))",
        ],
    ),
    select(
        "struct_field_access_on_null",
        table("i INT", [[1], [None]]),
        [
            "if(i IS NULL, NULL, named_struct('f', i)).f",
            "named_struct('f', i).f",
            "if(i IS NULL, NULL, array(i))[0]",
        ],
    ),
]
