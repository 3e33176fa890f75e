"""Math functions: abs, round (HALF_UP), bround (HALF_EVEN), floor, ceil, pow, sqrt, log, ln,
log10, exp, greatest, least, % and pmod."""

from _common import ONE_ROW, select, select_each, table

INTEGERS = table(
    "i INT, l BIGINT, s SMALLINT, b TINYINT",
    [
        [0, 0, 0, 0],
        [-7, -7, -7, -7],
        [15, 25, 35, 45],
        [-25, -15, -5, -125],
        [2147483647, 9223372036854775807, 32767, 127],
        [None, None, None, None],
    ],
)

DOUBLES = table(
    "x DOUBLE",
    [
        [0.0],
        [-0.0],
        [2.5],
        [-2.5],
        [3.5],
        [0.5],
        [-0.5],
        [1.4999999999999998],
        [2.675],
        [1234.5678],
        [-1234.5678],
        [1e20],
        [1e-20],
        ["NaN"],
        ["Infinity"],
        ["-Infinity"],
        [None],
    ],
)

DECIMALS = table(
    "p DECIMAL(10,3)",
    [
        ["2.500"],
        ["-2.500"],
        ["3.500"],
        ["1.005"],
        ["-1.005"],
        ["1234.567"],
        ["0.000"],
        ["-0.001"],
        ["9999999.999"],
        [None],
    ],
)

CASES = [
    select("abs", INTEGERS, ["abs(i)", "abs(l)", "abs(s)", "abs(b)", "abs(-i)"]),
    select("abs_floating_and_decimal", DOUBLES, ["abs(x)", "abs(cast(x AS FLOAT))"]),
    select("abs_decimal", DECIMALS, ["abs(p)"]),
    *select_each(
        "abs_overflow",
        table("i INT, l BIGINT, s SMALLINT, b TINYINT", [[-2147483648, -9223372036854775808, -32768, -128]]),
        {"int": "abs(i)", "bigint": "abs(l)", "smallint": "abs(s)", "tinyint": "abs(b)"},
    ),
    select(
        "round_doubles",
        DOUBLES,
        ["round(x)", "round(x, 1)", "round(x, 2)", "round(x, -1)", "round(x, -2)", "round(x, 10)"],
    ),
    select(
        "bround_doubles",
        DOUBLES,
        ["bround(x)", "bround(x, 1)", "bround(x, 2)", "bround(x, -1)", "bround(x, -2)"],
    ),
    select(
        "round_decimals",
        DECIMALS,
        [
            "round(p)",
            "round(p, 2)",
            "round(p, -1)",
            "round(p, 5)",
            "bround(p)",
            "bround(p, 2)",
            "bround(p, -2)",
        ],
    ),
    select(
        "round_integers",
        table("i INT, l BIGINT, s SMALLINT", [[15, 25, 35], [-25, -15, -5], [-7, 14, 0], [None, None, None]]),
        ["round(i)", "round(i, -1)", "bround(i, -1)", "round(i, 2)", "round(s, -1)", "bround(l, -1)"],
    ),
    *select_each(
        "round_integer_overflow",
        table("i INT, l BIGINT, b TINYINT", [[2147483647, 9223372036854775807, 127]]),
        {
            "int": "round(i, -1)",
            "bigint": "round(l, -1)",
            "tinyint": "round(b, -1)",
            "int_bround": "bround(i, -1)",
        },
    ),
    select(
        "round_float",
        table("f FLOAT", [[2.5], [0.125], [-1.55], [None]]),
        ["round(f, 1)", "bround(f, 2)", "round(f)"],
    ),
    select(
        "floor_ceil_doubles",
        table("x DOUBLE", [[0.0], [-0.0], [2.5], [-2.5], [0.5], [-0.5], [1e15 + 0.5], [-1e-20], [None]]),
        ["floor(x)", "ceil(x)", "ceiling(x)"],
    ),
    *select_each(
        "floor_ceil_out_of_bigint",
        table("x DOUBLE", [[1e20]]),
        {"floor": "floor(x)", "ceil": "ceil(x)"},
    ),
    select(
        "floor_ceil_nonfinite",
        table("x DOUBLE", [["NaN"], ["Infinity"], ["-Infinity"]]),
        ["floor(x)", "ceil(x)"],
    ),
    select(
        "floor_ceil_integers_and_decimals",
        DECIMALS,
        ["floor(p)", "ceil(p)", "floor(p, 1)", "ceil(p, -2)", "floor(cast(p AS INT))"],
    ),
    select(
        "pow_sqrt",
        table(
            "x DOUBLE, y DOUBLE",
            [
                [2.0, 10.0],
                [0.0, 0.0],
                [-8.0, 1.0 / 3.0],
                [2.0, -1.0],
                [4.0, 0.5],
                [-1.0, "Infinity"],
                ["NaN", 0.0],
                [0.0, -1.0],
                [10.0, 400.0],
                [None, 1.0],
            ],
        ),
        ["pow(x, y)", "power(x, y)", "pow(x, 2)", "sqrt(x)", "sqrt(y)"],
    ),
    select("pow_sqrt_integers", INTEGERS, ["pow(i, 2)", "pow(2, s)", "sqrt(i)", "sqrt(l)"]),
    select(
        "logarithms_and_exp",
        table(
            "x DOUBLE",
            [
                [1.0],
                [2.718281828459045],
                [10.0],
                [1000.0],
                [0.5],
                [0.0],
                [-1.0],
                ["Infinity"],
                ["NaN"],
                [1e-300],
                [None],
            ],
        ),
        ["ln(x)", "log(x)", "log10(x)", "log(2, x)", "log(10, x)", "log(x, 8)", "exp(x)", "exp(-x)"],
    ),
    select(
        "exp_extremes",
        table("x DOUBLE", [[709.0], [710.0], [-745.0], [-746.0], ["-Infinity"], [None]]),
        ["exp(x)"],
    ),
    select(
        "greatest_least",
        table(
            "a INT, b INT, c INT",
            [[1, 2, 3], [3, None, 1], [None, None, None], [-5, -5, -6], [None, 7, None]],
        ),
        [
            "greatest(a, b, c)",
            "least(a, b, c)",
            "greatest(a, b)",
            "least(a, 0)",
            "greatest(a, 2.5)",
            "least(a, b, -1e0)",
        ],
    ),
    select(
        "greatest_least_doubles_and_strings",
        table(
            "x DOUBLE, y DOUBLE, s STRING, u STRING",
            [
                ["NaN", 1.0, "a", "B"],
                [0.0, -0.0, "", "a"],
                [-0.0, 0.0, "ü", "z"],
                ["-Infinity", None, None, "x"],
                [None, None, None, None],
            ],
        ),
        ["greatest(x, y)", "least(x, y)", "greatest(s, u)", "least(s, u)"],
    ),
    select(
        "greatest_least_dates",
        table("d DATE, e DATE", [["2024-02-29", "2024-03-01"], ["1970-01-01", None]]),
        ["greatest(d, e)", "least(d, e)"],
    ),
    select(
        "modulo_and_pmod_integers",
        table(
            "a INT, n INT",
            [[7, 3], [-7, 3], [7, -3], [-7, -3], [0, 5], [6, 3], [-2147483648, -1], [None, 3], [7, None]],
        ),
        ["a % n", "pmod(a, n)", "a % 2", "pmod(a, 2)", "pmod(a, -2)"],
    ),
    select(
        "modulo_and_pmod_fractional",
        table(
            "x DOUBLE, p DECIMAL(6,2)",
            [
                [5.5, "5.50"],
                [-5.5, "-5.50"],
                [0.1, "0.10"],
                [-0.0, "0.00"],
                ["NaN", "1.00"],
                ["Infinity", "-1.25"],
                [None, None],
            ],
        ),
        [
            "x % 2",
            "pmod(x, 2)",
            "x % -2.5",
            "pmod(x, -2.5)",
            "p % 2",
            "pmod(p, 2)",
            "pmod(p, -0.75)",
            "x % 1e300",
        ],
    ),
    *select_each(
        "modulo_by_zero",
        table("a INT, x DOUBLE", [[7, 7.5]]),
        {"int_mod": "a % 0", "int_pmod": "pmod(a, 0)", "double_pmod": "pmod(x, 0.0)"},
    ),
    select(
        "math_on_null_literal",
        ONE_ROW,
        ["abs(NULL)", "round(NULL, 1)", "sqrt(NULL)", "greatest(NULL, NULL)", "pmod(NULL, 2)"],
    ),
]
