"""Hash functions: hash (Murmur3, seed 42), xxhash64, md5, sha1, sha2, crc32."""

from _common import LOS_ANGELES, UTC, select, select_each, table

SCALARS = table(
    "i INT, l BIGINT, s STRING, d DOUBLE, f FLOAT, b BOOLEAN",
    [
        [0, 0, "", 0.0, 0.0, False],
        [1, 1, "a", 1.0, 1.0, True],
        [-1, -1, "abc", -0.0, -0.0, None],
        [2147483647, 9223372036854775807, "Hello World", 1.5, 1.5, True],
        [-2147483648, -9223372036854775808, "ünïcödé 日本", "NaN", "NaN", False],
        [42, 4294967296, "a" * 100, "Infinity", "-Infinity", True],
        [None, None, None, None, None, None],
    ],
)

TEXTS = table(
    "s STRING",
    [[""], ["a"], ["abc"], ["The quick brown fox jumps over the lazy dog"], ["ünïcödé"], ["😀"], [None]],
)

CASES = [
    select(
        "murmur3_hash_scalars",
        SCALARS,
        [
            "hash(i)",
            "hash(l)",
            "hash(s)",
            "hash(d)",
            "hash(f)",
            "hash(b)",
            "hash(i, s)",
            "hash(s, i)",
            "hash(i, l, s, d, f, b)",
            "hash(NULL)",
            "hash(cast(i AS BIGINT))",
            "hash(cast(l AS DOUBLE))",
            "hash(cast(d AS FLOAT))",
        ],
    ),
    select(
        "xxhash64_scalars",
        SCALARS,
        [
            "xxhash64(i)",
            "xxhash64(l)",
            "xxhash64(s)",
            "xxhash64(d)",
            "xxhash64(f)",
            "xxhash64(b)",
            "xxhash64(i, s)",
            "xxhash64(i, l, s, d, f, b)",
            "xxhash64(NULL)",
            "xxhash64(cast(i AS BIGINT))",
        ],
    ),
    select(
        "hash_small_integral_types",
        table("s SMALLINT, b TINYINT", [[0, 0], [-1, -1], [32767, 127], [-32768, -128], [None, None]]),
        ["hash(s)", "hash(b)", "xxhash64(s)", "xxhash64(b)", "hash(cast(s AS INT))"],
    ),
    select(
        "hash_decimals",
        table(
            "p DECIMAL(10,2), q DECIMAL(38,10)",
            [
                ["1.50", "1.5000000000"],
                ["0.00", "0"],
                ["-99999999.99", "-12345678901234567890.1234567890"],
                [None, None],
            ],
        ),
        ["hash(p)", "hash(q)", "xxhash64(p)", "xxhash64(q)", "hash(cast(p AS DECIMAL(18,2)))"],
    ),
    *[
        select(
            f"hash_dates_and_timestamps_{zone}",
            table(
                "d DATE, ts TIMESTAMP",
                [
                    ["2024-02-29", "2024-02-29T12:00:00.123456Z"],
                    ["1970-01-01", "1970-01-01T00:00:00Z"],
                    ["1969-12-31", "1969-12-31T23:59:59.5Z"],
                    [None, None],
                ],
            ),
            ["hash(d)", "hash(ts)", "xxhash64(d)", "xxhash64(ts)", "hash(d, ts)"],
            conf,
        )
        for zone, conf in (("utc", UTC), ("la", LOS_ANGELES))
    ],
    select(
        "hash_nested_values",
        table("i INT, s STRING", [[1, "a"], [None, "b"], [2, None], [None, None]]),
        [
            "hash(array(i, 2))",
            "hash(array())",
            "hash(array(s))",
            "hash(named_struct('x', i, 'y', s))",
            "xxhash64(array(i, 2))",
            "xxhash64(named_struct('x', i, 'y', s))",
            "hash(unhex('00ff'))",
            "xxhash64(unhex('00ff'))",
        ],
    ),
    *select_each(
        "hash_of_map_not_allowed",
        table("i INT", [[1]]),
        {"murmur3": "hash(map('k', i))", "xxhash64": "xxhash64(map('k', i))"},
    ),
    select(
        "digests_of_strings",
        TEXTS,
        [
            "md5(s)",
            "sha1(s)",
            "sha(s)",
            "sha2(s, 224)",
            "sha2(s, 256)",
            "sha2(s, 384)",
            "sha2(s, 512)",
            "sha2(s, 0)",
            "sha2(s, 100)",
            "crc32(s)",
        ],
    ),
    select(
        "digests_of_binary",
        table("h STRING", [[""], ["00"], ["00ff10"], ["deadbeef"], [None]]),
        [
            "md5(unhex(h))",
            "sha1(unhex(h))",
            "sha2(unhex(h), 256)",
            "crc32(unhex(h))",
            "md5(cast(h AS BINARY))",
        ],
    ),
    select(
        "sha2_bit_length_column",
        table("s STRING, n INT", [["abc", 224], ["abc", 256], ["abc", 1], ["abc", None], [None, 256]]),
        ["sha2(s, n)"],
    ),
]
