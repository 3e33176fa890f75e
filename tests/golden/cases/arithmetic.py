"""Arithmetic operators: + - * / div %, unary minus, type widening, integer and decimal
overflow, division by zero (ANSI mode raises)."""

from _common import ONE_ROW, select, select_each, table

INTS = table(
    "i INT, j INT, l BIGINT, s SMALLINT, b TINYINT",
    [
        [7, 2, 10000000000, 300, 10],
        [-7, 2, -10000000000, -300, -10],
        [7, -3, 0, 0, 0],
        [0, 5, 1, 1, 1],
        [2147483646, 1, 9000000000000000000, 32000, 11],
        [-2147483647, -1, -9000000000000000000, -32000, -11],
        [None, 4, None, None, None],
        [3, None, 5, 2, -1],
    ],
)

DOUBLES = table(
    "x DOUBLE, y DOUBLE, f FLOAT",
    [
        [1.5, 2.0, 1.5],
        [-0.5, 0.25, -0.5],
        [0.1, 0.2, 0.1],
        [1e308, 10.0, 3.4e38],
        ["NaN", 1.0, "NaN"],
        ["Infinity", "-Infinity", "Infinity"],
        [-0.0, 3.0, -0.0],
        [0.0, -2.0, 0.0],
        [None, 1.0, None],
    ],
)

DECIMALS = table(
    "p DECIMAL(10,2), q DECIMAL(10,2), r DECIMAL(38,18), w DECIMAL(5,0)",
    [
        ["1.50", "2.25", "1.000000000000000001", "12345"],
        ["-1.50", "0.01", "-0.5", "-99999"],
        ["99999999.99", "99999999.99", "12345678901234567890.123456789012345678", "99999"],
        ["0.00", "3.00", "0", "0"],
        [None, "1.00", None, None],
    ],
)

CASES = [
    select(
        "integer_add_sub_mul",
        INTS,
        ["i + j", "i - j", "j * i", "l + i", "s + b", "b * b", "s - i", "i + 1", "l - 1"],
    ),
    select("integer_negate", INTS, ["-i", "+i", "-l", "-s", "-b", "negative(i)", "positive(i)"]),
    select(
        "integer_divide_nonzero",
        table(
            "i INT, j INT, l BIGINT",
            [[7, 2, 7], [-7, 2, -7], [7, -2, 3], [0, 5, 0], [None, 3, None], [1, None, 1]],
        ),
        ["i / j", "i div j", "i % j", "l / j", "l div j", "l % j", "i / 2.0", "-i / j"],
    ),
    select(
        "integer_mixed_with_literals",
        table(
            "i INT, j INT, l BIGINT, s SMALLINT, b TINYINT",
            [[7, 2, 3, 4, 5], [-7, -2, -3, -4, -5], [None, None, None, None, None]],
        ),
        ["i + 1.5", "i * 2.5", "i + 1e0", "i * l", "j - 0.25", "b + 1", "s * 2"],
    ),
    select(
        "double_arithmetic",
        DOUBLES,
        ["x + y", "x - y", "x * y", "x / y", "x % y", "-x", "f + 1", "f * y", "x + f"],
    ),
    select(
        "double_division_special_values",
        table(
            "x DOUBLE, y DOUBLE",
            [
                [1.0, "Infinity"],
                ["Infinity", "Infinity"],
                ["NaN", 2.0],
                [-1.0, "-Infinity"],
                [1e-300, 1e300],
                [None, 1.0],
            ],
        ),
        ["x / 3.0", "x / -0.5", "x / y", "y / x"],
    ),
    select(
        "decimal_add_sub",
        DECIMALS,
        ["p + q", "p - q", "p + w", "p + 1", "p + r", "p - 0.005", "-p"],
    ),
    select(
        "decimal_multiply_divide",
        table(
            "p DECIMAL(10,2), q DECIMAL(10,2)",
            [["1.50", "2.25"], ["-1.50", "0.07"], ["10.00", "3.00"], [None, "1.00"]],
        ),
        ["p * q", "p / q", "p * 2", "p / 3", "p % q", "p div q", "p * 1.5", "p / 0.7"],
    ),
    select(
        "decimal_high_precision_multiply",
        table(
            "r DECIMAL(38,18), e DECIMAL(38,18)",
            [
                ["1.000000000000000001", "2.5"],
                ["12345.678901234567890123", "0.000000000000000001"],
                ["-3.3", "3.3"],
            ],
        ),
        ["r * e", "r / e", "r + e"],
    ),
    # Products whose factors fit 64 bits (multiplied in one instruction) and those that do
    # not, at the ends of bigint, with nulls and negatives.
    select(
        "decimal_multiply_at_64_bits",
        table(
            "b BIGINT, d DECIMAL(30,0)",
            [
                [9223372036854775807, "9223372036854775807"],
                [-9223372036854775808, "-9223372036854775808"],
                [3, "9223372036854775808"],
                [None, "-18446744073709551616"],
                [-5, None],
            ],
        ),
        [
            "0.908 * b",
            "b * 2.5",
            "d * 3",
            "d * -0.5",
            "CAST(b AS DECIMAL(19,0)) * CAST(b AS DECIMAL(19,0))",
        ],
    ),
    select("decimal_with_double", DECIMALS, ["p + 1.5e0", "p * cast(2 AS DOUBLE)", "p / cast(4 AS DOUBLE)"]),
    select(
        "string_operand_coercion",
        table("s STRING, i INT", [["10", 3], [" 7 ", 2], [None, 1]]),
        ["s + i", "s * 2", "i - s"],
    ),
    select("null_literal_arithmetic", INTS, ["i + NULL", "NULL * j", "cast(NULL AS INT) / j"]),
    select("null_dividend_zero_divisor", table("i INT", [[None]]), ["i / 0", "i div 0", "i % 0"]),
    # Each of the following raises an error in ANSI mode.
    *select_each(
        "divide_by_zero",
        table("i INT, l BIGINT, x DOUBLE, p DECIMAL(10,2)", [[1, 1, 1.0, "1.00"]]),
        {
            "int": "i / 0",
            "int_div": "i div 0",
            "int_mod": "i % 0",
            "bigint": "l / 0",
            "double": "x / 0.0",
            "double_mod": "x % 0.0",
            "decimal": "p / 0",
            "decimal_mod": "p % cast(0 AS DECIMAL(10,2))",
        },
    ),
    *select_each(
        "integer_overflow",
        table(
            "i INT, l BIGINT, s SMALLINT, b TINYINT, mi INT, ml BIGINT",
            [[2147483647, 9223372036854775807, 32767, 127, -2147483648, -9223372036854775808]],
        ),
        {
            "int_add": "i + 1",
            "int_sub": "mi - 1",
            "int_mul": "i * 2",
            "int_negate": "-mi",
            "bigint_add": "l + 1",
            "bigint_mul": "l * 2",
            "bigint_negate": "-ml",
            "bigint_div_minus_one": "ml div -1",
            "smallint_add": "s + s",
            "tinyint_add": "b + b",
            "tinyint_mul": "b * cast(2 AS TINYINT)",
            "int_plus_bigint_widens": "i + cast(1 AS BIGINT)",
        },
    ),
    # Integers divided by literals: every width, both signs, the ends of each range, multiples
    # and their neighbours, and divisors of one, powers of two, large ones and negative ones.
    select(
        "integer_division_by_literals",
        table(
            "b TINYINT, s SMALLINT, i INT, l BIGINT",
            [[None, None, None, None], [0, 0, 0, 0], [1, 1, 1, 1], [-1, -1, -1, -1],
             [127, 32767, 2147483647, 9223372036854775807],
             [-128, -32768, -2147483648, -9223372036854775808],
             [123, 246, 123 * 45678, 123 * 987654321],
             [-124, -247, -123 * 45678 - 1, -123 * 987654321 + 1],
             [7, 1000, 86400000, 86400000000], [-7, -1000, -86399999, -86400000001],
             [64, 4096, 1 << 30, 1 << 62], [100, -12345, 987654321, -1234567890123456789]],
        ),
        [
            "b % 7", "b div 3", "pmod(b, 5)", "b % -7", "pmod(b, cast(-5 AS TINYINT))",
            "s % 123", "s div -10", "pmod(s, 64)", "s % 1",
            "i % 123", "i div 123", "pmod(i, 123)", "i % -123", "pmod(i, -123)", "i div 1",
            "i % 1073741824", "i div 2147483647",
            "l % 123", "l div 123", "pmod(l, 123)", "l % -123", "pmod(l, -123)", "l div -2",
            "l % 86400000000", "l div 86400000000", "l % 4611686018427387904",
            "l div 9223372036854775807", "l % -9223372036854775807", "pmod(l, 1000000007)",
        ],
    ),
    *select_each(
        "decimal_overflow",
        table(
            "w DECIMAL(38,0), p DECIMAL(10,2)", [["99999999999999999999999999999999999999", "99999999.99"]]
        ),
        {
            "add": "w + 1",
            "multiply": "w * 10",
            "fits_in_wider_result": "p * p",
        },
    ),
    select(
        "double_overflow_is_infinity",
        ONE_ROW,
        ["1e308 * 10", "-1e308 * 10", "cast(3.4e38 AS FLOAT) * cast(10 AS FLOAT)"],
    ),
    *select_each(
        "string_operand_invalid",
        ONE_ROW,
        {"not_a_number": "'abc' + 1", "fractional_string": "'1.5' + 1"},
    ),
    # try_*: the operator with null where ANSI would fail, whatever the ANSI setting.
    select(
        "try_operators",
        INTS,
        ["try_add(i, j)", "try_add(l, l)", "try_subtract(i, l)", "try_multiply(l, 3)",
         "try_divide(i, j)", "try_divide(i, 0)", "try_divide(l, s)", "try_multiply(i, 2)"],
    ),
    select(
        "try_operators_decimals_and_dates",
        DECIMALS,
        ["try_divide(p, 0)", "try_add(p, 1)", "try_add(DATE '2024-01-31', 1)"],
    ),
]
