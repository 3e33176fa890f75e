"""Date and time functions, each under session time zones UTC and America/Los_Angeles.
The timestamps straddle the 2024 DST changes of Los Angeles (2024-03-10 02:00 PST -> 03:00 PDT,
i.e. 10:00Z; 2024-11-03 02:00 PDT -> 01:00 PST, i.e. 09:00Z), a leap day and a year end."""

from _common import LOS_ANGELES, UTC, in_both_zones, select, table

TIMESTAMPS = table(
    "ts TIMESTAMP",
    [
        ["2024-01-01T10:00:00Z"],
        ["2024-03-10T09:59:59.999999Z"],
        ["2024-03-10T10:00:00Z"],
        ["2024-11-03T08:30:00Z"],
        ["2024-11-03T09:30:00Z"],
        ["2024-02-29T23:59:59.999999Z"],
        ["2024-12-31T23:30:00Z"],
        ["2025-01-01T07:59:59Z"],
        ["1969-12-31T23:59:59.5Z"],
        ["2020-06-15T12:34:56.789012Z"],
        ["2021-01-03T12:00:00Z"],
        [None],
    ],
)

DATES = table(
    "d DATE",
    [
        ["2024-02-29"],
        ["2024-03-01"],
        ["2023-12-31"],
        ["2024-01-01"],
        ["2021-01-03"],
        ["2020-12-31"],
        ["1970-01-01"],
        ["1969-12-31"],
        ["2024-03-10"],
        ["0001-01-01"],
        [None],
    ],
)

TIMESTAMP_TEXTS = table(
    "s STRING",
    [
        ["2024-01-01 10:00:00"],
        ["2024-01-01T10:00:00Z"],
        ["2024-03-10 02:30:00"],
        ["2024-11-03 01:30:00"],
        ["2024-02-29 23:59:59.123"],
        ["2024-01-01"],
        [None],
    ],
)

DATE_TRUNC_UNITS = [
    "YEAR",
    "YYYY",
    "YY",
    "QUARTER",
    "MONTH",
    "MM",
    "MON",
    "WEEK",
    "DAY",
    "DD",
    "HOUR",
    "MINUTE",
    "SECOND",
    "MILLISECOND",
    "MICROSECOND",
    "year",
    "bogus",
]

CASES = [
    *in_both_zones(
        "timestamp_fields",
        TIMESTAMPS,
        [
            "year(ts)",
            "month(ts)",
            "dayofmonth(ts)",
            "day(ts)",
            "hour(ts)",
            "minute(ts)",
            "second(ts)",
            "dayofweek(ts)",
            "dayofyear(ts)",
            "weekofyear(ts)",
            "quarter(ts)",
        ],
    ),
    *in_both_zones(
        "date_fields",
        DATES,
        [
            "year(d)",
            "month(d)",
            "dayofmonth(d)",
            "dayofweek(d)",
            "dayofyear(d)",
            "weekofyear(d)",
            "quarter(d)",
            "hour(d)",
        ],
    ),
    *in_both_zones(
        "date_format_timestamp",
        TIMESTAMPS,
        [
            "date_format(ts, 'yyyy-MM-dd HH:mm:ss')",
            "date_format(ts, \"yyyy-MM-dd'T'HH:mm:ss.SSSXXX\")",
            "date_format(ts, 'yyyy-MM-dd HH:mm:ss.SSSSSS')",
            "date_format(ts, 'yy/M/d H:m:s')",
            "date_format(ts, 'EEE, d MMM yyyy hh:mm a')",
            "date_format(ts, 'EEEE MMMM')",
            "date_format(ts, 'D')",
            "date_format(ts, 'Q')",
            "date_format(ts, 'z')",
            "date_format(ts, 'Z')",
            "date_format(ts, 'VV')",
            "date_format(ts, 'yyyyMMddHHmmss')",
            "date_format(ts, 'k K')",
            "date_format(ts, 'S')",
        ],
    ),
    *in_both_zones(
        "date_format_date",
        DATES,
        [
            "date_format(d, 'yyyy-MM-dd')",
            "date_format(d, 'dd/MM/yyyy')",
            "date_format(d, 'E')",
            "date_format(d, 'MMM d, y')",
            "date_format(d, 'HH:mm')",
        ],
    ),
    *in_both_zones("to_timestamp_default", TIMESTAMP_TEXTS, ["to_timestamp(s)", "to_date(s)"]),
    *in_both_zones(
        "unix_timestamp_default_pattern",
        table(
            "s STRING",
            [
                ["2024-01-01 10:00:00"],
                ["2024-03-10 02:30:00"],
                ["2024-11-03 01:30:00"],
                ["1969-12-31 23:59:59"],
                [None],
            ],
        ),
        ["unix_timestamp(s)"],
    ),
    *in_both_zones(
        "to_timestamp_with_pattern",
        table(
            "s STRING, d STRING, e STRING",
            [
                ["2024-01-01 10:00", "01/02/2024", "1/2/2024"],
                ["2024-03-10 02:30", "12/31/1999", "12/31/1999"],
                ["2024-11-03 01:30", "02/29/2024", "2/29/2024"],
                ["1969-12-31 23:59", "03/10/2024", "3/10/2024"],
                [None, None, None],
            ],
        ),
        [
            "to_timestamp(s, 'yyyy-MM-dd HH:mm')",
            "to_date(d, 'MM/dd/yyyy')",
            "to_date(e, 'M/d/yyyy')",
            "to_date(d, 'M/d/yyyy')",
            "to_timestamp(d, 'MM/dd/yyyy')",
            "unix_timestamp(s, 'yyyy-MM-dd HH:mm')",
            "unix_timestamp(d, 'MM/dd/yyyy')",
            "to_date(s, 'yyyy-MM-dd HH:mm')",
        ],
    ),
    *in_both_zones(
        "to_timestamp_offsets_and_fractions",
        table(
            "s STRING",
            [
                ["2024-01-01T10:00:00.123+02:00"],
                ["2024-06-01T00:00:00.5-07:00"],
                ["2024-01-01T00:00:00.000Z"],
                [None],
            ],
        ),
        ["to_timestamp(s, \"yyyy-MM-dd'T'HH:mm:ss.SSSXXX\")", "to_timestamp(s)"],
    ),
    *[
        select(f"{name}_{zone}", table("s STRING", [[text]]), [expr], conf)
        for name, text, expr in (
            ("to_timestamp_malformed", "not a time", "to_timestamp(s)"),
            ("to_timestamp_pattern_mismatch", "2024-01-01", "to_timestamp(s, 'dd/MM/yyyy')"),
            ("to_date_malformed", "2024-13-45", "to_date(s)"),
            ("to_date_pattern_mismatch", "2024-01-01", "to_date(s, 'MM/dd/yyyy')"),
            ("to_date_two_digit_month_required", "1/2/2024", "to_date(s, 'MM/dd/yyyy')"),
            ("unix_timestamp_default_pattern_mismatch", "2024-01-01", "unix_timestamp(s)"),
            ("unix_timestamp_malformed", "garbage", "unix_timestamp(s, 'yyyy-MM-dd')"),
            (
                "to_timestamp_nonexistent_local_time",
                "2024-03-10 02:30",
                "to_timestamp(s, 'yyyy-MM-dd HH:mm')",
            ),
            ("to_timestamp_trailing_text", "2024-01-01 10:00 extra", "to_timestamp(s, 'yyyy-MM-dd HH:mm')"),
        )
        for zone, conf in (("utc", UTC), ("la", LOS_ANGELES))
    ],
    *in_both_zones(
        "date_trunc_units",
        TIMESTAMPS,
        [f"date_trunc('{unit}', ts)" for unit in DATE_TRUNC_UNITS],
    ),
    *in_both_zones(
        "date_trunc_on_dates",
        DATES,
        [
            "date_trunc('MONTH', d)",
            "date_trunc('WEEK', d)",
            "date_trunc('QUARTER', d)",
            "date_trunc('HOUR', d)",
        ],
    ),
    select(
        "date_add_sub",
        table(
            "d DATE, n INT",
            [
                ["2024-02-28", 1],
                ["2024-02-29", 365],
                ["2023-02-28", 1],
                ["2024-03-01", -1],
                ["2024-12-31", 1],
                ["1970-01-01", -1],
                ["2024-01-31", 30],
                ["2024-01-01", None],
                [None, 5],
            ],
        ),
        [
            "date_add(d, n)",
            "date_sub(d, n)",
            "date_add(d, 1)",
            "date_sub(d, 30)",
            "date_add(d, -366)",
            "d + n",
            "dateadd(d, 2)",
        ],
    ),
    *in_both_zones(
        "date_add_on_timestamps_and_strings",
        table(
            "ts TIMESTAMP, s STRING",
            [
                ["2024-03-10T07:30:00Z", "2024-02-29"],
                ["2024-11-03T08:30:00Z", "2024-12-31 23:59:59"],
                [None, None],
            ],
        ),
        ["date_add(ts, 1)", "date_sub(ts, 1)", "date_add(s, 1)", "datediff(ts, s)"],
    ),
    select(
        "datediff",
        table(
            "a DATE, b DATE",
            [
                ["2024-03-01", "2024-02-28"],
                ["2024-02-28", "2024-03-01"],
                ["2024-01-01", "2023-01-01"],
                ["2025-01-01", "2024-01-01"],
                ["1969-12-31", "1970-01-01"],
                ["2024-01-01", "2024-01-01"],
                ["2024-01-01", None],
                [None, "2024-01-01"],
            ],
        ),
        ["datediff(a, b)", "datediff(b, a)", "datediff(a, '2024-01-01')", "date_diff(a, b)"],
    ),
    *in_both_zones(
        "datediff_timestamps",
        table(
            "x TIMESTAMP, y TIMESTAMP",
            [
                ["2024-01-02T07:00:00Z", "2024-01-01T09:00:00Z"],
                ["2024-03-11T06:00:00Z", "2024-03-10T06:00:00Z"],
                ["2024-11-04T07:30:00Z", "2024-11-03T07:30:00Z"],
                [None, "2024-01-01T00:00:00Z"],
            ],
        ),
        ["datediff(x, y)"],
    ),
    *in_both_zones(
        "unix_timestamp_and_back",
        TIMESTAMPS,
        [
            "unix_timestamp(ts)",
            "unix_timestamp(date_format(ts, 'yyyy-MM-dd HH:mm:ss'))",
            "from_unixtime(unix_timestamp(ts))",
            "to_timestamp(from_unixtime(unix_timestamp(ts)))",
        ],
    ),
    *in_both_zones(
        "from_unixtime",
        table(
            "l BIGINT",
            [[0], [1704103200], [1710064800], [1730626200], [-1], [-86401], [253402300799], [None]],
        ),
        [
            "from_unixtime(l)",
            "from_unixtime(l, 'yyyy-MM-dd')",
            "from_unixtime(l, 'HH:mm:ss XXX')",
            "from_unixtime(l, 'EEE')",
        ],
    ),
    *in_both_zones(
        "timestamp_seconds",
        table(
            "l BIGINT, d DOUBLE, p DECIMAL(16,6)",
            [
                [0, 0.0, "0.000000"],
                [1704103200, 1.5, "1704103200.123456"],
                [-1, -0.5, "-0.000001"],
                [1710064800, 1e-7, "1.000000"],
                [None, None, None],
            ],
        ),
        [
            "timestamp_seconds(l)",
            "timestamp_seconds(d)",
            "timestamp_seconds(p)",
            "date_format(timestamp_seconds(l), 'yyyy-MM-dd HH:mm')",
        ],
    ),
    *in_both_zones(
        "timestamp_seconds_nonfinite",
        table("d DOUBLE", [["NaN"], ["Infinity"], [None]]),
        ["timestamp_seconds(d)"],
    ),
    *in_both_zones(
        "timestamp_ntz_fields",
        table(
            "n TIMESTAMP_NTZ",
            [
                ["2024-03-10T02:30:00"],
                ["2024-11-03T01:30:00"],
                ["2024-02-29T23:59:59.999999"],
                ["1969-12-31T23:59:59.5"],
                [None],
            ],
        ),
        [
            "year(n)",
            "hour(n)",
            "date_format(n, 'yyyy-MM-dd HH:mm:ss.SSS')",
            "date_trunc('HOUR', n)",
            "to_date(n)",
            "unix_timestamp(n)",
        ],
    ),
    *in_both_zones(
        "null_pattern_and_unit_arguments",
        table(
            "ts TIMESTAMP, s STRING, f STRING, n INT", [["2024-01-01T10:00:00Z", "2024-01-01", None, None]]
        ),
        [
            "date_format(ts, f)",
            "date_trunc(f, ts)",
            "to_timestamp(s, f)",
            "to_date(s, f)",
            "unix_timestamp(s, f)",
            "from_unixtime(0, f)",
            "date_add(ts, n)",
            "timestamp_seconds(n)",
        ],
    ),
    *in_both_zones(
        "date_and_timestamp_literals",
        table("id INT", [[1]]),
        [
            "DATE'2024-02-29'",
            "TIMESTAMP'2024-03-10 02:30:00'",
            "TIMESTAMP'2024-11-03 01:30:00'",
            "TIMESTAMP'2024-01-01 00:00:00+05:30'",
            "TIMESTAMP_NTZ'2024-03-10 02:30:00'",
        ],
    ),
]
