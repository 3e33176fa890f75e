"""JSON functions: from_json with DDL schemas (incl. malformed input), to_json of structs,
arrays and maps, get_json_object with JSONPath-like paths."""

from _common import LOS_ANGELES, UTC, select, select_each, table

RECORDS = table(
    "j STRING",
    [
        ['{"a": 1, "b": "x"}'],
        ['{"a": -5}'],
        ['{"b": "only b", "extra": true}'],
        ['{"a": "not a number", "b": "y"}'],
        ['{"a": 1.5, "b": 2}'],
        ['{"a": 2147483648, "b": null}'],
        ['{"A": 3, "B": "upper"}'],
        ['{"a": 1, "a": 2}'],
        ['{"b": "\\u00e9\\n\\"q\\""}'],
        ["{}"],
        ['{"a": 1, "b": "x"'],
        ["not json"],
        [""],
        ["[1, 2]"],
        ["null"],
        [None],
    ],
)

DOCUMENTS = table(
    "j STRING",
    [
        [
            '{"a": 1, "b": {"c": "deep", "d": [10, 20, 30]}, "arr": [{"x": 1}, {"x": 2}], "s": "str", "f": 1.50, "t": true, "n": null}'
        ],
        ['{"a": "text", "b": {"c": null}, "arr": [], "key with space": 7, "e": 1e2}'],
        ['{"arr": [1, [2, 3]], "b": "not an object"}'],
        ["[1, 2, 3]"],
        ['{"a": 1'],
        [""],
        [None],
    ],
)

CASES = [
    select(
        "from_json_struct",
        RECORDS,
        ["from_json(j, 'a INT, b STRING')", "from_json(j, 'a INT, b STRING').a", "from_json(j, 'b STRING')"],
    ),
    select(
        "from_json_wider_types",
        RECORDS,
        [
            "from_json(j, 'a BIGINT, b STRING')",
            "from_json(j, 'a DOUBLE')",
            "from_json(j, 'a DECIMAL(10,2)')",
            "from_json(j, 'a STRING')",
        ],
    ),
    select(
        "from_json_nested_and_collections",
        table(
            "j STRING",
            [
                [
                    '{"s": {"x": 1, "y": [1, 2, null]}, "m": {"k1": 1, "k2": null}, "l": [{"z": "a"}, {"z": null}]}'
                ],
                ['{"s": null, "m": {}, "l": []}'],
                ['{"s": {"x": "bad"}, "m": {"k": "bad"}, "l": [1]}'],
                ["{}"],
                [None],
            ],
        ),
        [
            "from_json(j, 's STRUCT<x: INT, y: ARRAY<INT>>, m MAP<STRING, INT>, l ARRAY<STRUCT<z: STRING>>')",
            "from_json(j, 's STRUCT<x: INT, y: ARRAY<INT>>').s.y",
        ],
    ),
    select(
        "from_json_top_level_array_and_map",
        table("j STRING", [["[1, 2, null]"], ["[]"], ['{"a": 1, "b": 2}'], ['[1, "x"]'], ["bad"], [None]]),
        ["from_json(j, 'ARRAY<INT>')", "from_json(j, 'MAP<STRING, INT>')"],
    ),
    select(
        "from_json_booleans_and_numbers",
        table(
            "j STRING",
            [
                ['{"b": true, "i": 7, "d": 1e3}'],
                ['{"b": "true", "i": "7", "d": "1.5"}'],
                ['{"b": 1, "i": 7.0, "d": NaN}'],
                [None],
            ],
        ),
        ["from_json(j, 'b BOOLEAN, i INT, d DOUBLE')"],
    ),
    *[
        select(
            f"from_json_timestamps_{zone}",
            table(
                "j STRING",
                [
                    ['{"ts": "2024-01-01T10:00:00Z", "d": "2024-02-29"}'],
                    ['{"ts": "2024-03-10T02:30:00", "d": "2024-03-10"}'],
                    ['{"ts": "2024-01-01 10:00:00.123+02:00", "d": "2024-1-5"}'],
                    ['{"ts": "garbage", "d": "garbage"}'],
                    [None],
                ],
            ),
            ["from_json(j, 'ts TIMESTAMP, d DATE')"],
            conf,
        )
        for zone, conf in (("utc", UTC), ("la", LOS_ANGELES))
    ],
    select(
        "from_json_options",
        table("j STRING", [['{"a": 1}'], ["{'a': 2}"], ['{"a": 01}'], [None]]),
        [
            "from_json(j, 'a INT', map('allowSingleQuotes', 'false'))",
            "from_json(j, 'a INT', map('allowNumericLeadingZeros', 'true'))",
            "from_json(j, 'a INT')",
        ],
    ),
    *select_each(
        "from_json_failfast",
        table(
            "j STRING",
            [
                ['{"a": 1'],
            ],
        ),
        {"malformed": "from_json(j, 'a INT', map('mode', 'FAILFAST'))"},
    ),
    select(
        "from_json_failfast_valid",
        table("j STRING", [['{"a": 1}'], [None]]),
        ["from_json(j, 'a INT', map('mode', 'FAILFAST'))"],
    ),
    *select_each(
        "from_json_invalid_schema",
        table("j STRING", [['{"a": 1}']]),
        {"unparsable": "from_json(j, 'a INT,,')"},
    ),
    select(
        "to_json_structs",
        table(
            "i INT, s STRING, d DOUBLE, b BOOLEAN, p DECIMAL(5,2)",
            [
                [1, "x", 1.5, True, "1.50"],
                [None, None, None, None, None],
                [-7, 'q"uote\\ \n ü', 1e20, False, "-0.01"],
            ],
        ),
        [
            "to_json(named_struct('i', i, 's', s))",
            "to_json(named_struct('d', d, 'b', b, 'p', p))",
            "to_json(struct(i, s))",
            "to_json(named_struct('nested', named_struct('i', i), 'arr', array(i, i)))",
            "to_json(named_struct('i', i, 's', s), map('ignoreNullFields', 'false'))",
            "to_json(if(i IS NULL, NULL, named_struct('i', i)))",
        ],
    ),
    select(
        "to_json_special_doubles",
        table("d DOUBLE, f FLOAT", [["NaN", "Infinity"], [-0.0, 0.1], [1e-7, 3.4e38], [123456789.0, -1.0]]),
        ["to_json(named_struct('d', d, 'f', f))", "to_json(array(d))"],
    ),
    select(
        "to_json_arrays_and_maps",
        table("i INT, s STRING", [[1, "a"], [None, None], [3, "ü"]]),
        [
            "to_json(array(i, 2, NULL))",
            "to_json(array(s))",
            "to_json(array())",
            "to_json(array(named_struct('k', s), named_struct('k', 'z')))",
            "to_json(map('a', i, 'b', 2))",
            "to_json(map('k', array(i)))",
            "to_json(map(1, s))",
            "to_json(array(array(i), array()))",
        ],
    ),
    *[
        select(
            f"to_json_datetimes_{zone}",
            table(
                "ts TIMESTAMP, d DATE",
                [
                    ["2024-01-01T10:00:00.123456Z", "2024-02-29"],
                    ["2024-07-01T00:00:00Z", "1969-12-31"],
                    [None, None],
                ],
            ),
            [
                "to_json(named_struct('ts', ts, 'd', d))",
                "to_json(named_struct('ts', ts), map('timestampFormat', 'yyyy/MM/dd HH:mm'))",
            ],
            conf,
        )
        for zone, conf in (("utc", UTC), ("la", LOS_ANGELES))
    ],
    select("to_json_binary", table("h STRING", [["00ff"], [None]]), ["to_json(named_struct('b', unhex(h)))"]),
    select(
        "get_json_object_paths",
        DOCUMENTS,
        [
            "get_json_object(j, '$.a')",
            "get_json_object(j, '$.b.c')",
            "get_json_object(j, '$.b.d[1]')",
            "get_json_object(j, '$.b.d')",
            "get_json_object(j, '$.b')",
            "get_json_object(j, '$.arr[0].x')",
            "get_json_object(j, '$.arr[*].x')",
            "get_json_object(j, '$.arr[*]')",
            "get_json_object(j, '$.arr[1][0]')",
            "get_json_object(j, '$.s')",
            "get_json_object(j, '$.f')",
            "get_json_object(j, '$.e')",
            "get_json_object(j, '$.t')",
            "get_json_object(j, '$.n')",
            "get_json_object(j, '$.missing')",
            "get_json_object(j, '$')",
            "get_json_object(j, '$[0]')",
            "get_json_object(j, '$[*]')",
            "get_json_object(j, \"$['key with space']\")",
            "get_json_object(j, '$.arr[5]')",
        ],
    ),
    select(
        "get_json_object_invalid_paths",
        DOCUMENTS,
        [
            "get_json_object(j, 'a')",
            "get_json_object(j, '$..a')",
            "get_json_object(j, '')",
            "get_json_object(j, NULL)",
            "get_json_object(j, '$.')",
        ],
    ),
    select(
        "get_json_object_scalars_and_escapes",
        table(
            "j STRING",
            [
                ['{"s": "a\\"b", "u": "\\u00fc", "num": -0.0, "big": 12345678901234567890, "sci": 1.0E+2}'],
                [None],
            ],
        ),
        [
            "get_json_object(j, '$.s')",
            "get_json_object(j, '$.u')",
            "get_json_object(j, '$.num')",
            "get_json_object(j, '$.big')",
            "get_json_object(j, '$.sci')",
        ],
    ),
]
