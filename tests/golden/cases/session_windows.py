"""Session windows: session_window(time, gap) grouped with other keys or alone, static gaps and
gaps per row (a CASE expression, a string column), sessions that overlap, touch (merge) or
leave a hole (do not), null times and keys, gaps that are null, unparsable, zero or negative
(rows dropped), calendar gaps (a month; a day across a daylight saving change), the session
column in select / withColumn (a row's own session, not merged), timestamp_ntz and string times,
a window column as the time, and the errors Spark gives."""

from _common import LOS_ANGELES, case, select, table

# Key 1: 10:00:00 and 10:00:05 touch with a 5 second gap, 10:00:11 stands alone, 10:00:20 and
# 10:00:22 overlap. Key 2: two rows 3 seconds apart. A null key, a null time and a time before
# the epoch.
EVENTS = table(
    "k INT, ts TIMESTAMP, a INT, g STRING",
    [
        [1, "2024-01-01T10:00:00Z", 1, "5 seconds"],
        [1, "2024-01-01T10:00:05Z", 2, "10 seconds"],
        [1, "2024-01-01T10:00:11Z", 3, None],
        [1, "2024-01-01T10:00:20Z", 4, "0 seconds"],
        [1, "2024-01-01T10:00:22Z", 5, "-3 seconds"],
        [2, "2024-01-01T10:00:00Z", 6, "2 seconds"],
        [2, "2024-01-01T10:00:03Z", 7, "interval 1 minute"],
        [2, None, 8, "5 seconds"],
        [None, "2024-01-01T10:00:01Z", 9, "abc"],
        [3, "1969-12-31T23:59:58Z", 10, "3 seconds"],
    ],
)

EVENTS_NTZ = table(
    "k INT, ts TIMESTAMP_NTZ, a INT",
    [[1, "2024-01-01T10:00:00", 1], [1, "2024-01-01T10:00:04", 2], [1, "2024-01-01T10:00:30", 3],
     [2, None, 4]],
)

EVENTS_STRING_TIME = table(
    "k INT, ts STRING, a INT",
    [[1, "2024-01-01 10:00:00", 1], [1, "2024-01-01 10:00:04", 2], [2, None, 3],
     [2, "2024-01-01", 4]],
)

# Los Angeles moves to daylight saving time on 2024-03-10: a one day gap from 10:00 PST on the
# 9th ends at 10:00 PDT on the 10th, 23 hours later, before the second row.
AROUND_DST = table(
    "k INT, ts TIMESTAMP, a INT",
    [[1, "2024-03-09T18:00:00Z", 1], [1, "2024-03-10T17:30:00Z", 2]],
)


def grouped(name, t, keys, aggs, conf=None):
    return case(name, t, [{"op": "groupBy", "keys": keys, "aggs": aggs}], conf)


def errors():
    bad = {
        "int_time_column": ["session_window(a, '5 seconds')"],
        "int_gap": ["session_window(ts, 5)"],
        "two_session_windows": ["session_window(ts, '5 seconds')", "session_window(ts, '6 seconds')"],
        "with_time_window": ["session_window(ts, '5 seconds')", "window(ts, '5 seconds')"],
        "one_argument": ["session_window(ts)"],
    }
    return [grouped(f"session_window_error_{name}", EVENTS, keys, ["count(1) AS count"])
            for name, keys in bad.items()]


CASES = [
    grouped("session_window_by_key", EVENTS, ["k", "session_window(ts, '5 seconds')"],
            ["count(1) AS count", "sum(a)"]),
    grouped("session_window_alone", EVENTS, ["session_window(ts, '5 seconds')"],
            ["count(1) AS count", "collect_list(a) AS a"]),
    grouped("session_window_hole_between_sessions", EVENTS,
            ["k", "session_window(ts, '4 seconds')"], ["count(1) AS count"]),
    grouped("session_window_other_aggregates", EVENTS,
            ["k", "session_window(ts, '10 seconds') AS s"],
            ["min(a)", "max(ts)", "avg(a)", "count(DISTINCT a % 2) AS parities"]),
    grouped("session_window_key_expression", EVENTS,
            ["k % 2 AS parity", "session_window(ts, '3 seconds')"], ["count(1) AS count"]),
    grouped("session_window_gap_per_key", EVENTS,
            ["k", "session_window(ts, CASE WHEN k = 1 THEN '10 seconds' ELSE '2 seconds' END)"],
            ["count(1) AS count", "sum(a)"]),
    grouped("session_window_gap_column", EVENTS, ["k", "session_window(ts, g)"],
            ["count(1) AS count", "collect_list(a) AS a"]),
    grouped("session_window_gap_zero", EVENTS, ["k", "session_window(ts, '0 seconds')"],
            ["count(1) AS count"]),
    grouped("session_window_gap_negative", EVENTS, ["k", "session_window(ts, '-5 seconds')"],
            ["count(1) AS count"]),
    grouped("session_window_gap_unparsable", EVENTS, ["k", "session_window(ts, 'soon')"],
            ["count(1) AS count"]),
    grouped("session_window_gap_month", EVENTS, ["k", "session_window(ts, '1 month')"],
            ["count(1) AS count"]),
    grouped("session_window_gap_day_across_dst", AROUND_DST, ["k", "session_window(ts, '1 day')"],
            ["count(1) AS count"], LOS_ANGELES),
    grouped("session_window_by_start_field", EVENTS,
            ["k", "session_window(ts, '5 seconds').start AS start"], ["count(1) AS count"]),
    grouped("session_window_ntz", EVENTS_NTZ, ["k", "session_window(ts, '5 seconds')"],
            ["count(1) AS count"]),
    grouped("session_window_string_time", EVENTS_STRING_TIME,
            ["session_window(ts, '5 seconds')"], ["count(1) AS count"]),
    case("session_window_fields_after_grouping", EVENTS, [
        {"op": "groupBy", "keys": ["k", "session_window(ts, '5 seconds')"],
         "aggs": ["count(1) AS count"]},
        {"op": "selectExpr",
         "exprs": ["k", "session_window.start", "session_window.end", "count"]},
    ]),
    case("session_window_of_time_window", EVENTS, [
        {"op": "groupBy", "keys": ["k", "window(ts, '10 seconds')"], "aggs": ["sum(a) AS a"]},
        {"op": "groupBy", "keys": ["k", "session_window(window, '10 seconds')"],
         "aggs": ["count(1) AS count", "sum(a)"]},
    ]),
    select("session_window_select", EVENTS, ["session_window(ts, '5 seconds')", "a"]),
    select("session_window_select_fields", EVENTS,
           ["session_window(ts, g).start AS s", "session_window(ts, g).end AS e", "a"]),
    select("session_window_select_star", EVENTS_NTZ, ["*", "session_window(ts, '1 minute') AS w"]),
    case("session_window_with_column", EVENTS,
         [{"op": "withColumn", "name": "s", "expr": "session_window(ts, '5 seconds')"}]),
] + errors()
