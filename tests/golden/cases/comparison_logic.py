"""Comparisons, three-valued logic, null-safe equality, IN, BETWEEN, LIKE, RLIKE,
CASE WHEN, coalesce / isnull / isnotnull / nvl / nanvl / if."""

from _common import ONE_ROW, case, select, select_each, table

BOOLS = table(
    "p BOOLEAN, q BOOLEAN",
    [[p, q] for p in (True, False, None) for q in (True, False, None)],
)

INTS = table(
    "a INT, b INT",
    [[1, 1], [1, 2], [2, 1], [None, 1], [1, None], [None, None], [-5, 3], [3, 3]],
)

DOUBLES = table(
    "x DOUBLE, y DOUBLE",
    [
        ["NaN", "NaN"],
        ["NaN", 1.0],
        [1.0, "NaN"],
        [0.0, -0.0],
        ["Infinity", "NaN"],
        ["-Infinity", -1e308],
        [1.5, 1.5],
        [None, "NaN"],
    ],
)

STRINGS = table(
    "s STRING",
    [
        ["abc"],
        ["aBc"],
        ["ab"],
        [""],
        ["a%c"],
        ["a_c"],
        ["xyz123"],
        ["ünïcödé"],
        ["line1\nline2"],
        ["Abc"],
        [None],
    ],
)

CASES = [
    select(
        "three_valued_and_or_not",
        BOOLS,
        [
            "p AND q",
            "p OR q",
            "NOT p",
            "p = q",
            "p <=> q",
            "p != q",
            "p AND NOT q",
            "(p OR q) AND NOT (p AND q)",
        ],
    ),
    select("boolean_ordering", BOOLS, ["p < q", "p >= q", "p IS TRUE", "p IS NOT FALSE", "p IS UNKNOWN"]),
    select(
        "integer_comparisons",
        INTS,
        [
            "a < b",
            "a <= b",
            "a > b",
            "a >= b",
            "a = b",
            "a == b",
            "a <> b",
            "a != b",
            "a <=> b",
            "NOT (a <=> b)",
        ],
    ),
    select(
        "in_lists",
        INTS,
        [
            "a IN (1, 2)",
            "a IN (1, NULL)",
            "a NOT IN (1, 2)",
            "a NOT IN (2, NULL)",
            "a IN (b, 3)",
            "a IN (-5)",
        ],
    ),
    select(
        "between",
        INTS,
        [
            "a BETWEEN 1 AND 2",
            "a NOT BETWEEN 1 AND 2",
            "a BETWEEN b AND 3",
            "a BETWEEN 3 AND 1",
            "b BETWEEN a AND NULL",
        ],
    ),
    select(
        "double_comparisons_nan_and_zero",
        DOUBLES,
        ["x = y", "x <=> y", "x < y", "x > y", "x >= y", "x IN (y)", "x = 'NaN'", "x BETWEEN -1.0 AND 'NaN'"],
    ),
    select(
        "string_comparisons",
        STRINGS,
        ["s < 'abc'", "s = 'abc'", "s > 'Z'", "s >= ''", "s <=> NULL", "s IN ('abc', 'ab', NULL)"],
    ),
    # Strings compare as unsigned bytes; equal ones of 4 to 16 bytes are compared in words, so
    # the pairs differ in their first, middle or last byte at every length up to 20, with
    # multi-byte characters, nulls and more rows than one 64-bit word of results.
    select(
        "string_comparisons_by_bytes",
        table(
            "s STRING, t STRING",
            [[None, "a"], ["a", None], ["", ""], ["", "a"]]
            + [
                [word, word[:at] + change + word[at + 1:]]
                for length in range(1, 21)
                for word in ["abcdefghijklmnopqrstu"[:length]]
                for at, change in [(0, "b"), (length // 2, "\u00e9"), (length - 1, "A"), (length - 1, word[-1])]
            ]
            + [["\u20ac1", "\u00e91"], ["apple", "baidu"], ["google", "google"], ["facebook", "faceboo"]],
        ),
        [
            "s = t",
            "s <> t",
            "s < t",
            "s <= t",
            "s > t",
            "s >= t",
            "s = 'abcde'",
            "'abcdefgh' < s",
            "s IN ('apple', 'abcdefghijklmnopq', 'abc')",
            "CAST(s AS BINARY) < CAST(t AS BINARY)",
            "CAST(s AS BINARY) = CAST(t AS BINARY)",
        ],
    ),
    # A string column compared with literals of every length up to 17 bytes (the empty one, one
    # word of 4 to 7, two of 8 to 16, longer), on either side: values sharing their first or
    # last bytes with a literal, multi-byte ones, and short rows last, with fewer bytes after
    # them than a literal has.
    select(
        "string_equality_with_literals",
        table(
            "s STRING",
            [[None], ["apple"], ["applf"], ["bpple"], ["Apple"], ["google"], ["facebook"],
             ["facebooc"], ["baidu"], ["channel-1234"], ["channel-1235"], [""], ["\u00e9t\u00e9"],
             ["abcdefghijklmnop"], ["abcdefghijklmnoP"], ["abcdefghijklmnopq"], ["abc"], ["ab"]],
        ),
        [
            "s = ''",
            "'' <> s",
            "s = 'abc'",
            "s = 'apple'",
            "s <> 'apple'",
            "'google' = s",
            "s = 'facebook'",
            "s = 'channel-1234'",
            "s <> 'abcdefghijklmnop'",
            "s = 'abcdefghijklmnopq'",
            "s = '\u00e9t\u00e9'",
            "s IN ('apple', 'google', 'facebook', 'baidu')",
            "s = CAST(NULL AS STRING)",
        ],
    ),
    # CASE with string results: literals, a column, NULL, an expression, with and without
    # ELSE, over more rows than a 64-row word, with null and multi-byte values.
    select(
        "case_when_strings",
        table(
            "v INT, s STRING",
            [[None if i % 13 == 0 else (i * 37) % 100, None if i % 9 == 0 else "r\u00e9" + str(i)]
             for i in range(150)],
        ),
        [
            "CASE WHEN v < 30 THEN 'low' WHEN v < 60 THEN s WHEN v < 70 THEN NULL "
            "ELSE concat(s, '!') END",
            "CASE WHEN v >= 8 AND v <= 18 THEN 'day' WHEN v <= 6 OR v >= 20 THEN 'night' "
            "ELSE 'other' END",
            "CASE WHEN v > 50 THEN s END",
            "CASE WHEN s IS NULL THEN 'none' WHEN v IS NULL THEN '' ELSE upper(s) END",
            "CASE WHEN v < 50 THEN CAST(s AS BINARY) ELSE CAST('x' AS BINARY) END",
        ],
    ),
    select(
        "like_patterns",
        STRINGS,
        [
            "s LIKE 'a%'",
            "s LIKE 'a_c'",
            "s LIKE '%c'",
            "s LIKE '%'",
            "s LIKE ''",
            r"s LIKE 'a\\%c'",
            r"s LIKE 'a\\_c'",
            "s LIKE 'a/%c' ESCAPE '/'",
            "s NOT LIKE 'ab%'",
            "s LIKE '%ö%'",
            "s LIKE 'line1%line2'",
            "s LIKE 'ABC'",
        ],
    ),
    select(
        "rlike_patterns",
        STRINGS,
        [
            "s RLIKE '^a.c$'",
            "s RLIKE 'b'",
            r"s RLIKE '\\d+'",
            "s RLIKE '(?i)^abc$'",
            "s RLIKE ''",
            "s RLIKE '^line1.line2$'",
            "s RLIKE '(?s)^line1.line2$'",
            "s RLIKE '[ü-ü]'",
            "s REGEXP '^[a-z]+$'",
            "regexp_like(s, 'c$')",
        ],
    ),
    select(
        "like_with_column_pattern",
        table(
            "s STRING, p STRING", [["abc", "a%"], ["abc", "b%"], ["abc", None], [None, "%"], ["a%", r"a\%"]]
        ),
        ["s LIKE p", "s RLIKE p"],
    ),
    *select_each("rlike_invalid_regex", ONE_ROW, {"unclosed_group": "'abc' RLIKE '(ab'"}),
    select(
        "case_when",
        INTS,
        [
            "CASE WHEN a > 1 THEN 'big' WHEN a IS NULL THEN 'none' ELSE 'small' END",
            "CASE WHEN a = b THEN a END",
            "CASE a WHEN 1 THEN 'one' WHEN 2 THEN 'two' END",
            "CASE a WHEN b THEN 'same' ELSE 'different' END",
            "CASE WHEN cast(NULL AS BOOLEAN) THEN 1 ELSE 2 END",
            "CASE WHEN a > 0 THEN 1 ELSE 2.5 END",
            "if(a > b, 'gt', 'not gt')",
            "if(a IS NULL, b, a)",
        ],
    ),
    # An untyped NULL is not accepted as a CASE condition.
    *select_each("case_when_untyped_null_condition", INTS, {"literal": "CASE WHEN NULL THEN 1 ELSE 2 END"}),
    select(
        "null_functions",
        INTS,
        [
            "coalesce(a, b)",
            "coalesce(a, b, 0)",
            "coalesce(NULL, a)",
            "isnull(a)",
            "isnotnull(a)",
            "a IS NULL",
            "a IS NOT NULL",
            "nvl(a, b)",
            "nvl(a, -1)",
            "nvl(a, 1.5)",
            "ifnull(a, 0)",
        ],
    ),
    select(
        "coalesce_all_null",
        table("a INT, s STRING", [[None, None]]),
        ["coalesce(a, NULL)", "coalesce(s, 'fallback')", "nvl(s, NULL)"],
    ),
    select(
        "nanvl",
        DOUBLES,
        [
            "nanvl(x, y)",
            "nanvl(x, 0.0)",
            "nanvl(x, NULL)",
            "nanvl(y, x)",
            "nanvl(cast(x AS FLOAT), cast(1.0 AS FLOAT))",
        ],
    ),
    select(
        "cross_type_comparisons",
        table(
            "a INT, l BIGINT, s STRING, d DATE, p DECIMAL(5,2)",
            [
                [1, 1, "1", "2024-01-01", "1.00"],
                [2, 3, " 2 ", "2024-02-29", "2.50"],
                [None, None, None, None, None],
            ],
        ),
        [
            "a = l",
            "a = s",
            "s = 1",
            "d = '2024-01-01'",
            "d < '2024-02-01'",
            "p = a",
            "p = 2.5",
            "p > 2.49",
            "a < 1.5",
        ],
    ),
    # Decimals compare as their unscaled integers: signs, values past 64 bits, nulls, and
    # more rows than one 64-bit word of results.
    select(
        "decimal_comparisons",
        table(
            "p DECIMAL(30,3), q DECIMAL(30,3)",
            [[None, "0.000"], ["1.000", None]]
            + [
                [f"{sign}{i * 123456789012345678:d}.{i % 1000:03d}",
                 f"{other}{(70 - i) * 123456789012345678:d}.{(i * 7) % 1000:03d}"]
                for i in range(70)
                for sign, other in [("-" if i % 3 == 0 else "", "-" if i % 5 == 0 else "")]
            ],
        ),
        [
            "p = q",
            "p <> q",
            "p < q",
            "p <= q",
            "p > q",
            "p >= q",
            "p > 1234567890123456789.5",
            "0.908 * p < -1000000",
            "p = p",
        ],
    ),
    *select_each(
        "cross_type_comparison_invalid_string",
        table("a INT, d DATE", [[1, "2024-01-01"]]),
        {"int_vs_word": "a = 'abc'", "int_vs_fraction": "a = '1.0'", "date_vs_word": "d = 'notadate'"},
    ),
    case(
        "logic_in_filter",
        INTS,
        [
            {"op": "filter", "condition": "a > 0 OR b IS NULL"},
            {"op": "selectExpr", "exprs": ["a", "b", "a <=> b AS same"]},
        ],
    ),
]
