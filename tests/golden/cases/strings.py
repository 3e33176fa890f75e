"""String functions: concat, concat_ws, substring, upper/lower, trim family, length, split,
regexp_extract, regexp_replace, lpad/rpad, instr, format_string."""

from _common import ONE_ROW, select, select_each, table

TEXTS = table(
    "s STRING",
    [
        ["Hello World"],
        [""],
        ["  padded  "],
        ["\ttabbed \n"],
        ["ünïcödé"],
        ["日本語テキスト"],
        ["a😀b"],
        ["straße"],
        ["İstanbul"],
        ["a,b,,c,"],
        [None],
    ],
)

PAIRS = table(
    "s STRING, u STRING, n INT",
    [
        ["abc", "x", 1],
        ["", "", 0],
        ["ünï", "日本", 2],
        [None, "y", 3],
        ["z", None, None],
        [None, None, -1],
    ],
)

SPLITTABLE = table(
    "s STRING",
    [["a,b,,c,,"], ["one"], [""], [",lead"], ["a1b22c333d"], ["x.y.z"], ["ü;ö,ä"], [None]],
)

CASES = [
    select(
        "concat",
        PAIRS,
        [
            "concat(s, u)",
            "concat(s, '-', u)",
            "concat(s)",
            "concat(s, NULL)",
            "concat(u, n)",
            "s || u",
            "concat('', '')",
        ],
    ),
    select(
        "concat_ws",
        PAIRS,
        [
            "concat_ws('-', s, u)",
            "concat_ws('', s, u, 'end')",
            "concat_ws(',', s, NULL, u)",
            "concat_ws(NULL, s, u)",
            "concat_ws('/', split('a,b', ','), s)",
            "concat_ws('|')",
            "concat_ws('→', u, u)",
        ],
    ),
    select(
        "substring_positive",
        TEXTS,
        [
            "substring(s, 1, 3)",
            "substring(s, 0, 3)",
            "substring(s, 2)",
            "substr(s, 3, 100)",
            "substring(s, 100, 2)",
            "substring(s, 2, 0)",
            "substring(s, 2, -1)",
        ],
    ),
    select(
        "substring_negative_position",
        TEXTS,
        [
            "substring(s, -3)",
            "substring(s, -3, 2)",
            "substring(s, -100, 3)",
            "substring(s, -100, 102)",
            "substring(s, -1, 5)",
            "substring(s, -5, 1)",
        ],
    ),
    select(
        "substring_column_arguments",
        table(
            "s STRING, p INT, l INT",
            [
                ["abcdef", 2, 3],
                ["abcdef", -2, 1],
                ["abcdef", None, 2],
                ["abcdef", 1, None],
                [None, 1, 1],
                ["日本語", 2, 5],
            ],
        ),
        ["substring(s, p, l)", "substring(s, p)", "substring(s, p, 2)"],
    ),
    select("upper_lower", TEXTS, ["upper(s)", "lower(s)", "ucase(s)", "lcase(s)"]),
    select(
        "trim_family",
        TEXTS,
        [
            "trim(s)",
            "ltrim(s)",
            "rtrim(s)",
            "trim(BOTH 'd' FROM s)",
            "trim(LEADING ' p' FROM s)",
            "trim(TRAILING 'e' FROM s)",
            "trim('Hd' FROM s)",
            "ltrim('ü', s)",
        ],
    ),
    select(
        "trim_only_spaces",
        table(
            "s STRING", [[" a "], ["\ta\t"], ["\na\n"], ["\u00a0a\u00a0"], ["   "], ["\u3000a\u3000"], [None]]
        ),
        ["trim(s)", "ltrim(s)", "rtrim(s)", "length(trim(s))"],
    ),
    select(
        "length",
        TEXTS,
        [
            "length(s)",
            "char_length(s)",
            "character_length(s)",
            "length(trim(s))",
            "length(cast(s AS BINARY))",
        ],
    ),
    select("length_of_binary", table("h STRING", [["00ff10"], [""], [None]]), ["length(unhex(h))"]),
    # length(replace(...)) with literal arguments is counted without building the replaced text.
    select(
        "length_of_replace",
        table(
            "s STRING, u STRING",
            [
                ["banana", "an"],
                ["aaaaa", "a"],
                ["ünïcödé über", "ü"],
                ["日本語の日本", "日本"],
                ["", ""],
                ["no match", "q"],
                [None, "a"],
                ["abc", None],
            ],
        ),
        [
            "length(s) - length(replace(s, 'a', ''))",
            "length(replace(s, 'aa', 'b'))",
            "length(replace(s, 'ü', 'ue'))",
            "char_length(replace(s, '日本', 'x'))",
            "octet_length(replace(s, 'ü', 'u'))",
            "bit_length(replace(s, 'an', ''))",
            "length(replace(s, '', 'x'))",
            "length(replace(s, 'a'))",
            "length(replace(s, 'a', NULL))",
            "length(replace(s, u, '--'))",
        ],
    ),
    select(
        "split_basic",
        SPLITTABLE,
        [
            "split(s, ',')",
            "split(s, ',', 2)",
            "split(s, ',', -1)",
            "split(s, ',', 0)",
            "split(s, ',', 1)",
            "split(s, ',', 10)",
        ],
    ),
    select(
        "split_regex",
        SPLITTABLE,
        [
            r"split(s, '[,;]')",
            r"split(s, '\\d+')",
            r"split(s, '\\.')",
            "split(s, '.')",
            "split(s, '')",
            "split(s, 'b|c')",
            r"split(s, '\\d+', 2)",
        ],
    ),
    select("split_null_pattern", SPLITTABLE, ["split(s, NULL)", "size(split(s, ','))"]),
    # One part of a split, which Sluice cuts from the text without making the array when the
    # separator, limit and index are literals; the array made and then indexed answers the rest.
    select(
        "split_element",
        SPLITTABLE,
        [
            "split(s, ',')[0]",
            "split(s, ',', 2)[0]",
            "element_at(split(s, ','), 1)",
            "element_at(split(s, ','), -1)",
            "element_at(split(s, ',', 2), -1)",
            "try_element_at(split(s, ','), 3)",
            "try_element_at(split(s, ','), -3)",
            "get(split(s, ','), 1)",
            "get(split(s, ','), 5)",
            "get(split(s, ','), -1)",
            "get(split(s, ';'), 1)",
            "get(split(s, ',', 0), 5)",
            "get(split(s, ',', 1), 1)",
            r"get(split(s, '\\d+'), 1)",
        ],
    ),
    select(
        "split_element_without_ansi",
        SPLITTABLE,
        [
            "split(s, ',')[1]",
            "split(s, ',')[5]",
            "split(s, ',', 3)[2]",
            "element_at(split(s, ','), 6)",
            "element_at(split(s, ','), -6)",
        ],
        {"spark.sql.ansi.enabled": "false"},
    ),
    *select_each(
        "split_element_out_of_range",
        table("s STRING", [["a,b"]]),
        {
            "subscript": "split(s, ',')[2]",
            "subscript_negative": "split(s, ',')[-1]",
            "element_at_past_end": "element_at(split(s, ','), 3)",
            "element_at_before_start": "element_at(split(s, ','), -3)",
            "element_at_zero": "element_at(split(s, ','), 0)",
            "try_element_at_zero": "try_element_at(split(s, ','), 0)",
        },
    ),
    select(
        "regexp_extract",
        table(
            "s STRING",
            [["John Smith 42"], ["jane doe"], ["no digits here"], [""], ["x9y88z"], ["ünï 7"], [None]],
        ),
        [
            r"regexp_extract(s, '(\\w+) (\\w+)', 2)",
            r"regexp_extract(s, '(\\d+)', 1)",
            r"regexp_extract(s, '(\\d+)', 0)",
            r"regexp_extract(s, '[a-z](\\d)?', 1)",
            r"regexp_extract(s, '^(\\S+)', 1)",
            "regexp_extract(s, '(x)|(y)', 2)",
            "regexp_extract(s, 'zzz', 0)",
            r"regexp_extract(s, '(\\d+)')",
        ],
    ),
    *select_each(
        "regexp_extract_invalid",
        table("s STRING", [["abc"]]),
        {
            "group_out_of_range": "regexp_extract(s, '(a)', 2)",
            "bad_pattern": "regexp_extract(s, '(a', 1)",
            "negative_group": "regexp_extract(s, '(a)', -1)",
        },
    ),
    select(
        "regexp_replace",
        table(
            "s STRING", [["Hello World"], ["aaa"], [""], ["2024-01-15"], ["tab\there"], ["ünïcödé"], [None]]
        ),
        [
            "regexp_replace(s, '[aeiou]', '*')",
            "regexp_replace(s, 'a', '')",
            "regexp_replace(s, '', '-')",
            r"regexp_replace(s, '(\\d+)-(\\d+)-(\\d+)', '$3/$2/$1')",
            r"regexp_replace(s, '\\s+', '_')",
            "regexp_replace(s, '^', '>')",
            "regexp_replace(s, 'l+', 'L', 4)",
            "regexp_replace(s, '[^a-z]', '')",
            "regexp_replace(s, 'ö', 'o')",
            "regexp_replace(s, NULL, 'x')",
        ],
    ),
    *select_each(
        "regexp_replace_invalid",
        table("s STRING", [["abc"]]),
        {
            "bad_group_reference": "regexp_replace(s, '(a)', '$2')",
            "bad_pattern": "regexp_replace(s, '[a', 'x')",
        },
    ),
    select(
        "lpad_rpad",
        PAIRS,
        [
            "lpad(s, 5, '*')",
            "rpad(s, 5, '*')",
            "lpad(s, 2, '*')",
            "rpad(s, 2, '*')",
            "lpad(s, 7, 'xy')",
            "rpad(s, 7, 'xy')",
            "lpad(s, 5, '')",
            "rpad(s, 5, '')",
            "lpad(s, -1, '*')",
            "lpad(s, 0, '*')",
            "lpad(s, n, u)",
            "rpad(s, 4)",
            "lpad(s, 4)",
            "lpad(s, 6, '日')",
        ],
    ),
    select(
        "instr",
        table(
            "s STRING, u STRING",
            [
                ["Hello World", "o"],
                ["Hello World", "World"],
                ["Hello World", ""],
                ["Hello", "z"],
                ["", ""],
                ["日本語", "語"],
                ["a😀b", "b"],
                [None, "a"],
                ["a", None],
            ],
        ),
        ["instr(s, u)", "instr(s, 'l')", "instr(u, s)", "instr(lower(s), 'hello')"],
    ),
    select(
        "format_string",
        table(
            "s STRING, i INT, d DOUBLE, l BIGINT",
            [
                ["abc", 42, 3.14159, 10000000000],
                ["", -7, -0.5, -1],
                [None, None, None, None],
                ["ü", 0, 1e10, 0],
            ],
        ),
        [
            "format_string('%s-%d', s, i)",
            "format_string('%05d', i)",
            "format_string('%.2f', d)",
            "format_string('%10.3f|', d)",
            "format_string('%-6s|', s)",
            "format_string('%6s|', s)",
            "format_string('%x', i)",
            "format_string('%e', d)",
            "format_string('%,d', l)",
            "format_string('%s and %s', s, d)",
            "format_string('%%')",
            "format_string('%2$s %1$s', s, i)",
            "format_string('%b', s)",
            "format_string('no args')",
            "printf('%s', i)",
        ],
    ),
    select(
        "string_functions_on_null_literal",
        ONE_ROW,
        ["upper(NULL)", "length(NULL)", "trim(NULL)", "concat_ws(',', NULL)", "split(NULL, ',')"],
    ),
]
