"""CAST between strings, numbers, booleans, dates, timestamps and decimals, in ANSI mode:
malformed input and overflow raise errors instead of producing NULL."""

from _common import LOS_ANGELES, ONE_ROW, UTC, select, select_each, table


def failing_inputs(prefix, column_type, expr, values):
    """One case per input value that makes `expr` (over column v) raise."""
    return [
        select(f"{prefix}_{suffix}", table(f"v {column_type}", [[value]]), [expr])
        for suffix, value in values.items()
    ]


INTEGER_STRINGS = table(
    "s STRING",
    [
        ["0"],
        ["123"],
        ["-45"],
        ["+7"],
        [" 12 "],
        ["\t8\n"],
        ["-0"],
        ["00042"],
        ["2147483647"],
        ["-2147483648"],
        [None],
    ],
)

FRACTIONAL_STRINGS = table(
    "s STRING",
    [
        ["1.5"],
        ["-0.25"],
        [" 2.5 "],
        ["1e3"],
        ["1E-2"],
        [".5"],
        ["5."],
        ["1.5d"],
        ["2.5F"],
        ["NaN"],
        ["nan"],
        ["Infinity"],
        ["-Infinity"],
        ["inf"],
        ["+INF"],
        ["1e400"],
        ["-1e-400"],
        ["0.1"],
        [None],
    ],
)

BOOLEAN_STRINGS = table(
    "s STRING",
    [
        ["true"],
        ["TRUE"],
        ["t"],
        ["yes"],
        ["Y"],
        ["1"],
        ["false"],
        ["F"],
        ["no"],
        ["n"],
        ["0"],
        [" true "],
        [None],
    ],
)

DATE_STRINGS = table(
    "s STRING",
    [
        ["2024-02-29"],
        ["2024-2-3"],
        ["2024"],
        ["2024-05"],
        ["2024-01-01T10:00:00"],
        ["2024-01-01 23:59:59"],
        [" 2024-01-01 "],
        ["2024-01-01 junk"],
        ["0001-01-01"],
        ["9999-12-31"],
        ["1582-10-10"],
        ["-0044-03-15"],
        ["+10000-01-01"],
        [None],
    ],
)

TIMESTAMP_STRINGS = table(
    "s STRING",
    [
        ["2024-01-01 10:00:00"],
        ["2024-01-01T10:00:00Z"],
        ["2024-01-01 10:00:00+02:00"],
        ["2024-01-01T10:00:00.5-08:00"],
        ["2024-01-01 10:00:00 America/New_York"],
        ["2024-01-01 10:00:00 UTC"],
        ["2024-01-01"],
        ["2024-01-01 10:00"],
        ["2024-01-01 10:00:00.123456789"],
        ["2024-03-10 02:30:00"],
        ["2024-11-03 01:30:00"],
        ["1969-12-31 23:59:59.999999"],
        ["2024-02-29 12:00:00"],
        [None],
    ],
)

NUMBERS = table(
    "i INT, l BIGINT, d DOUBLE, f FLOAT, p DECIMAL(10,3)",
    [
        [0, 0, 0.0, 0.0, "0.000"],
        [1, 9007199254740993, 1.9, 1.1, "1.500"],
        [-1, -9223372036854775808, -1.9, -2.5, "-1.500"],
        [127, 9223372036854775807, 2.5, 1e20, "123.456"],
        [2147483647, 4294967296, -0.0, 3.4e38, "9999999.999"],
        [None, None, None, None, None],
    ],
)

DOUBLE_SPELLINGS = table(
    "d DOUBLE",
    [
        [0.0],
        [-0.0],
        [1.0],
        [100.0],
        [1234567.0],
        [12345678.0],
        [0.001],
        [0.0001],
        [1e7],
        [1e-7],
        [1.5e300],
        [-3.25],
        [0.1],
        [1.0 / 3.0],
        [123456789012345680.0],
        [2.82879384806159e17],
        [1e23],
        [5e-324],
        [1.7976931348623157e308],
        [4.35],
        ["NaN"],
        ["Infinity"],
        ["-Infinity"],
        [None],
    ],
)

TIMESTAMPS = table(
    "ts TIMESTAMP",
    [
        ["2024-01-01T10:00:00Z"],
        ["2024-01-01T10:00:00.5Z"],
        ["2024-01-01T10:00:00.120Z"],
        ["2024-03-10T10:30:00Z"],
        ["2024-11-03T08:30:00Z"],
        ["2024-11-03T09:30:00Z"],
        ["1969-12-31T23:59:59.5Z"],
        ["2024-02-29T23:59:59.999999Z"],
        [None],
    ],
)

CASES = [
    select(
        "string_to_integral",
        INTEGER_STRINGS,
        ["cast(s AS INT)", "cast(s AS BIGINT)", "cast(s AS DOUBLE)", "cast(s AS DECIMAL(12,2))"],
    ),
    select(
        "string_to_small_integral",
        table("s STRING", [["127"], ["-128"], ["0"], [" 5 "], [None]]),
        ["cast(s AS TINYINT)", "cast(s AS SMALLINT)"],
    ),
    select(
        "string_to_bigint_limits",
        table("s STRING", [["9223372036854775807"], ["-9223372036854775808"]]),
        ["cast(s AS BIGINT)"],
    ),
    select("string_to_floating", FRACTIONAL_STRINGS, ["cast(s AS DOUBLE)", "cast(s AS FLOAT)"]),
    select(
        "string_to_decimal",
        table(
            "s STRING",
            [
                ["1.234"],
                ["1.235"],
                ["-1.235"],
                ["1.225"],
                ["1e3"],
                [".5"],
                [" 7 "],
                ["9999.994"],
                ["-0.001"],
                [None],
            ],
        ),
        ["cast(s AS DECIMAL(10,2))", "cast(s AS DECIMAL(38,10))", "cast(s AS DECIMAL(5,0))"],
    ),
    select("string_to_boolean", BOOLEAN_STRINGS, ["cast(s AS BOOLEAN)"]),
    *failing_inputs(
        "string_to_int_invalid",
        "STRING",
        "cast(v AS INT)",
        {
            "fraction": "1.5",
            "empty": "",
            "word": "abc",
            "exponent": "1e3",
            "hex": "0x10",
            "overflow": "2147483648",
            "inner_space": "1 2",
        },
    ),
    *failing_inputs("string_to_tinyint_invalid", "STRING", "cast(v AS TINYINT)", {"overflow": "128"}),
    *failing_inputs(
        "string_to_bigint_invalid", "STRING", "cast(v AS BIGINT)", {"overflow": "9223372036854775808"}
    ),
    *failing_inputs(
        "string_to_double_invalid",
        "STRING",
        "cast(v AS DOUBLE)",
        {"word": "abc", "empty": "", "two_points": "1.2.3"},
    ),
    *failing_inputs(
        "string_to_decimal_invalid",
        "STRING",
        "cast(v AS DECIMAL(10,2))",
        {"word": "abc", "overflow": "123456789.5", "rounds_to_overflow": "99999999.995"},
    ),
    *failing_inputs(
        "string_to_boolean_invalid",
        "STRING",
        "cast(v AS BOOLEAN)",
        {"two": "2", "empty": "", "word": "maybe"},
    ),
    select(
        "numbers_to_boolean_and_back",
        NUMBERS,
        [
            "cast(i AS BOOLEAN)",
            "cast(d AS BOOLEAN)",
            "cast(p AS BOOLEAN)",
            "cast(cast(i AS BOOLEAN) AS INT)",
            "cast(true AS DOUBLE)",
            "cast(false AS DECIMAL(3,1))",
        ],
    ),
    select(
        "boolean_to_string",
        table("b BOOLEAN", [[True], [False], [None]]),
        ["cast(b AS STRING)", "cast(b AS BIGINT)", "cast(b AS TINYINT)"],
    ),
    select(
        "numeric_widening",
        NUMBERS,
        [
            "cast(i AS BIGINT)",
            "cast(i AS DOUBLE)",
            "cast(l AS DOUBLE)",
            "cast(f AS DOUBLE)",
            "cast(i AS DECIMAL(10,0))",
            "cast(l AS DECIMAL(20,0))",
            "cast(l AS FLOAT)",
        ],
    ),
    select(
        "fractional_to_integral_truncates",
        table(
            "d DOUBLE, f FLOAT, p DECIMAL(10,3)",
            [
                [1.9, 1.9, "1.999"],
                [-1.9, -1.9, "-1.999"],
                [0.5, -0.5, "0.500"],
                [-0.0, 2.5, "-0.001"],
                [None, None, None],
            ],
        ),
        [
            "cast(d AS INT)",
            "cast(d AS BIGINT)",
            "cast(f AS INT)",
            "cast(p AS INT)",
            "cast(p AS SMALLINT)",
            "cast(d AS DECIMAL(5,2))",
        ],
    ),
    select(
        "integral_narrowing_in_range",
        table("i INT", [[127], [-128], [0], [None]]),
        ["cast(i AS TINYINT)", "cast(i AS SMALLINT)", "cast(cast(i AS BIGINT) AS TINYINT)"],
    ),
    *failing_inputs(
        "narrowing_overflow",
        "BIGINT",
        "cast(v AS INT)",
        {"bigint_to_int_high": 2147483648, "bigint_to_int_low": -2147483649},
    ),
    *failing_inputs("int_to_tinyint_overflow", "INT", "cast(v AS TINYINT)", {"high": 128, "low": -129}),
    *failing_inputs("int_to_smallint_overflow", "INT", "cast(v AS SMALLINT)", {"high": 32768}),
    *failing_inputs(
        "double_to_int_overflow",
        "DOUBLE",
        "cast(v AS INT)",
        {"large": 1e10, "nan": "NaN", "infinity": "Infinity", "just_above": 2147483648.0},
    ),
    *failing_inputs(
        "double_to_bigint_overflow",
        "DOUBLE",
        "cast(v AS BIGINT)",
        {"large": 1e20, "negative_infinity": "-Infinity"},
    ),
    select(
        "double_to_integral_at_limits",
        table("d DOUBLE", [[2147483647.9], [-2147483648.9], [None]]),
        ["cast(d AS INT)", "cast(d AS BIGINT)"],
    ),
    select("double_to_string", DOUBLE_SPELLINGS, ["cast(d AS STRING)", "cast(cast(d AS FLOAT) AS STRING)"]),
    select(
        "float_to_string",
        table("f FLOAT", [[1.1], [0.1], [1e20], [3.4e38], [1e-5], [123456.7], [16777217.0], [-0.0], [None]]),
        ["cast(f AS STRING)", "cast(f AS DOUBLE)"],
    ),
    select(
        "integral_and_decimal_to_string",
        NUMBERS,
        [
            "cast(i AS STRING)",
            "cast(l AS STRING)",
            "cast(p AS STRING)",
            "cast(cast(p AS DECIMAL(20,8)) AS STRING)",
        ],
    ),
    select(
        "small_decimal_to_string",
        table(
            "p DECIMAL(10,9), z DECIMAL(38,18)",
            [["0.000000010", "0"], ["-0.000000001", "-1.5"], [None, None]],
        ),
        ["cast(p AS STRING)", "cast(z AS STRING)"],
    ),
    select(
        "decimal_rescale",
        table("p DECIMAL(10,3)", [["123.456"], ["-123.456"], ["0.005"], ["-0.005"], ["999.950"], [None]]),
        [
            "cast(p AS DECIMAL(5,1))",
            "cast(p AS DECIMAL(10,2))",
            "cast(p AS DECIMAL(20,6))",
            "cast(p AS DECIMAL(4,0))",
        ],
    ),
    *failing_inputs(
        "decimal_narrowing_overflow",
        "DECIMAL(10,3)",
        "cast(v AS DECIMAL(5,1))",
        {"integer_digits": "12345.600", "rounding_carry": "9999.960"},
    ),
    *failing_inputs("int_to_decimal_overflow", "INT", "cast(v AS DECIMAL(3,0))", {"four_digits": 1000}),
    *failing_inputs("double_to_decimal_overflow", "DOUBLE", "cast(v AS DECIMAL(5,0))", {"large": 1e10}),
    select(
        "double_to_decimal",
        table("d DOUBLE", [[0.125], [0.375], [-0.125], [1.005], [2.675], [1e-10], ["NaN"], [None]]),
        ["cast(d AS DECIMAL(5,2))", "cast(d AS DECIMAL(20,10))"],
    ),
    select(
        "float_to_decimal",
        table("f FLOAT", [[0.1], [1.5], [-2.675], [None]]),
        ["cast(f AS DECIMAL(10,9))", "cast(f AS DECIMAL(5,2))"],
    ),
    select(
        "double_precision_loss",
        table(
            "l BIGINT, i INT", [[9007199254740993, 16777217], [-9007199254740993, -16777217], [None, None]]
        ),
        ["cast(l AS DOUBLE)", "cast(i AS FLOAT)", "cast(cast(l AS DOUBLE) AS BIGINT)"],
    ),
    select(
        "double_to_float_rounding",
        table("d DOUBLE", [[1e39], [-1e39], [1e-50], [0.1], [None]]),
        ["cast(d AS FLOAT)"],
    ),
    *[
        select(f"string_to_date_{zone}", DATE_STRINGS, ["cast(s AS DATE)"], conf)
        for zone, conf in (("utc", UTC), ("la", LOS_ANGELES))
    ],
    *failing_inputs(
        "string_to_date_invalid",
        "STRING",
        "cast(v AS DATE)",
        {
            "feb_30": "2024-02-30",
            "compact": "20240101",
            "word": "notadate",
            "empty": "",
            "month_13": "2024-13-01",
            "not_leap": "2023-02-29",
        },
    ),
    *[
        select(
            f"string_to_timestamp_{zone}",
            TIMESTAMP_STRINGS,
            ["cast(s AS TIMESTAMP)", "cast(s AS TIMESTAMP_NTZ)"],
            conf,
        )
        for zone, conf in (("utc", UTC), ("la", LOS_ANGELES))
    ],
    *failing_inputs(
        "string_to_timestamp_invalid",
        "STRING",
        "cast(v AS TIMESTAMP)",
        {
            "hour_25": "2024-01-01 25:00:00",
            "word": "notatime",
            "empty": "",
            "bad_zone": "2024-01-01 10:00:00 Mars/Olympus",
        },
    ),
    *[
        select(
            f"timestamp_to_other_{zone}",
            TIMESTAMPS,
            [
                "cast(ts AS STRING)",
                "cast(ts AS DATE)",
                "cast(ts AS BIGINT)",
                "cast(ts AS INT)",
                "cast(ts AS DOUBLE)",
                "cast(ts AS TIMESTAMP_NTZ)",
            ],
            conf,
        )
        for zone, conf in (("utc", UTC), ("la", LOS_ANGELES))
    ],
    *[
        select(
            f"date_to_other_{zone}",
            table(
                "d DATE",
                [["2024-01-01"], ["2024-02-29"], ["1969-12-31"], ["2024-03-10"], ["0001-01-01"], [None]],
            ),
            ["cast(d AS STRING)", "cast(d AS TIMESTAMP)", "cast(d AS TIMESTAMP_NTZ)"],
            conf,
        )
        for zone, conf in (("utc", UTC), ("la", LOS_ANGELES))
    ],
    *[
        select(
            f"timestamp_ntz_to_other_{zone}",
            table(
                "n TIMESTAMP_NTZ",
                [
                    ["2024-01-01T10:00:00"],
                    ["2024-03-10T02:30:00"],
                    ["2024-11-03T01:30:00"],
                    ["1969-12-31T23:59:59.5"],
                    [None],
                ],
            ),
            ["cast(n AS STRING)", "cast(n AS TIMESTAMP)", "cast(n AS DATE)"],
            conf,
        )
        for zone, conf in (("utc", UTC), ("la", LOS_ANGELES))
    ],
    select(
        "numbers_to_timestamp",
        table(
            "l BIGINT, d DOUBLE, p DECIMAL(13,3)",
            [
                [0, 0.0, "0.000"],
                [1700000000, 1.5, "-1.500"],
                [-1, -0.000001, "1700000000.123"],
                [None, None, None],
            ],
        ),
        ["cast(l AS TIMESTAMP)", "cast(d AS TIMESTAMP)", "cast(p AS TIMESTAMP)"],
    ),
    select(
        "string_to_binary",
        table("s STRING", [["abc"], [""], ["ü"], ["日本"], [None]]),
        ["cast(s AS BINARY)", "cast(cast(s AS BINARY) AS STRING)", "unhex('6162')"],
    ),
    *select_each(
        "cast_not_allowed",
        table("d DATE, i INT, b BOOLEAN, x DOUBLE", [["2024-01-01", 1, True, 1.5]]),
        {
            "date_to_int": "cast(d AS INT)",
            "int_to_binary": "cast(i AS BINARY)",
            "boolean_to_timestamp": "cast(b AS TIMESTAMP)",
            "double_to_timestamp_ntz": "cast(x AS TIMESTAMP_NTZ)",
            "int_to_date": "cast(i AS DATE)",
        },
    ),
    select(
        "cast_null_literal",
        ONE_ROW,
        ["cast(NULL AS INT)", "cast(NULL AS DATE)", "cast(NULL AS DECIMAL(5,2))", "cast(NULL AS STRING)"],
    ),
    *select_each("cast_invalid_inside_predicate", ONE_ROW, {"is_null": "cast('x' AS INT) IS NULL"}),
]
