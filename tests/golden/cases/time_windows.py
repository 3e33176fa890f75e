"""Time windows: window(time, duration[, slide[, start]]) and window_time(window), tumbling and
sliding, with start offsets, null times (rows dropped), timestamp_ntz, grouping by a window and
the argument errors. Times include one before the epoch (windows align by floor, not
truncation) and ones on window boundaries ([start, end) is half open)."""

from _common import case, select, table

EVENTS = table(
    "ts TIMESTAMP, a INT",
    [
        ["2024-01-01T10:03:00Z", 1],
        ["2024-01-01T10:12:30Z", 2],
        ["2024-01-01T10:10:00Z", 3],
        ["2024-01-01T10:19:59.999999Z", 4],
        ["1969-12-31T23:58:30Z", 5],
        [None, 6],
    ],
)

EVENTS_NTZ = table(
    "ts TIMESTAMP_NTZ, a INT",
    [
        ["2024-01-01T10:03:00", 1],
        ["2024-01-01T10:12:30", 2],
        ["1969-12-31T23:58:30", 3],
        [None, 4],
    ],
)


def errors():
    bad = {
        "unparsable_duration": "window(ts, 'abc')",
        "zero_duration": "window(ts, '0 seconds')",
        "negative_duration": "window(ts, '-5 seconds')",
        "slide_longer_than_window": "window(ts, '5 minutes', '10 minutes')",
        "start_equal_to_slide": "window(ts, '10 minutes', '5 minutes', '5 minutes')",
        "negative_start_beyond_slide": "window(ts, '10 minutes', '5 minutes', '-6 minutes')",
        "int_time_column": "window(a, '10 minutes')",
        "window_time_of_int": "window_time(a)",
    }
    return [select(f"time_window_error_{name}", EVENTS, [e]) for name, e in bad.items()]


CASES = [
    select("time_window_tumbling", EVENTS, ["window(ts, '10 minutes')", "a"]),
    select("time_window_tumbling_seconds_fields", EVENTS,
           ["window(ts, '10 seconds').start AS s", "window(ts, '10 seconds').end AS e", "a"]),
    select("time_window_tumbling_alias", EVENTS, ["window(ts, '1 hour 30 minutes') AS w", "a"]),
    select("time_window_sliding", EVENTS, ["window(ts, '10 minutes', '3 minutes')", "a"]),
    select("time_window_sliding_even", EVENTS, ["window(ts, '10 minutes', '5 minutes')", "a"]),
    select("time_window_start_positive", EVENTS,
           ["window(ts, '10 minutes', '10 minutes', '3 minutes')", "a"]),
    select("time_window_start_negative", EVENTS,
           ["window(ts, '10 minutes', '5 minutes', '-2 minutes')", "a"]),
    select("time_window_ntz", EVENTS_NTZ, ["window(ts, '10 minutes', '5 minutes')", "a"]),
    select("time_window_ntz_tumbling", EVENTS_NTZ, ["window(ts, '1 day')", "a"]),
    select("time_window_star", EVENTS, ["*", "window(ts, '10 minutes')"]),
    select("time_window_window_time", EVENTS,
           ["window_time(window(ts, '10 minutes', '5 minutes'))", "a"]),
    select("time_window_window_time_ntz", EVENTS_NTZ, ["window_time(window(ts, '1 hour'))"]),
    case("time_window_window_time_of_column", EVENTS, [
        {"op": "selectExpr", "exprs": ["window(ts, '10 minutes') AS w", "a"]},
        {"op": "selectExpr", "exprs": ["window_time(w)", "a"]},
    ]),
    case("time_window_with_column", EVENTS,
         [{"op": "withColumn", "name": "w", "expr": "window(ts, '10 minutes')"}]),
    case("time_window_group_by_tumbling", EVENTS, [
        {"op": "groupBy", "keys": ["window(ts, '10 minutes')"],
         "aggs": ["count(1) AS count", "sum(a)"]},
    ]),
    case("time_window_group_by_sliding", EVENTS, [
        {"op": "groupBy", "keys": ["window(ts, '10 minutes', '4 minutes')"],
         "aggs": ["count(1) AS count"]},
    ]),
    case("time_window_group_by_window_and_start", EVENTS, [
        {"op": "groupBy", "keys": ["window(ts, '20 minutes', '10 minutes', '-5 minutes')"],
         "aggs": ["max(a)"]},
        {"op": "selectExpr", "exprs": ["window.start", "window_time(window)", "`max(a)`"]},
    ]),
] + errors()
