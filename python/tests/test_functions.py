import datetime

import pytest

from sluice.sql import Row
from sluice.sql import functions as F


@pytest.fixture
def df(spark):
    return spark.createDataFrame(
        [("Hello World", 3, -2.5, datetime.datetime(2026, 6, 10, 10, 7, 30), '{"a": 1}')],
        "s STRING, n INT, x DOUBLE, t TIMESTAMP, j STRING")


def one(df, *cols):
    return tuple(df.select(*cols).collect()[0])


def test_string_functions(df):
    assert one(df, F.upper("s"), F.lower(F.col("s")), F.length("s"),
               F.substring("s", 1, 5), F.concat_ws("-", "s", F.lit("x")),
               F.regexp_replace("s", "o", "0"), F.regexp_extract("s", r"(\w+) (\w+)", 2),
               F.split("s", " "), F.lpad(F.lit("7"), 3, "0"), F.trim(F.lit("  a ")),
               F.initcap(F.lit("ab cd")), F.reverse(F.lit("abc"))) == (
        "HELLO WORLD", "hello world", 11, "Hello", "Hello World-x", "Hell0 W0rld", "World",
        ["Hello", "World"], "007", "a", "Ab Cd", "cba")


def test_math_functions(df):
    assert one(df, F.abs("x"), F.round(F.lit(2.345), 2), F.floor("x"), F.ceil("x"),
               F.sqrt(F.lit(16.0)), F.pow("n", 2), F.greatest("n", F.lit(5)),
               F.coalesce(F.lit(None), "n"), F.pmod(F.lit(-7), F.lit(3))) == (
        2.5, 2.35, -3, -2, 4.0, 9.0, 5, 3, 2)


def test_datetime_functions(df):
    assert one(df, F.year("t"), F.month("t"), F.dayofmonth("t"), F.hour("t"), F.minute("t"),
               F.to_date("t"), F.date_format("t", "yyyy-MM-dd HH:mm"),
               F.date_add(F.to_date("t"), 1)) == (
        2026, 6, 10, 10, 7, datetime.date(2026, 6, 10), "2026-06-10 10:07",
        datetime.date(2026, 6, 11))


def test_window_function(df):
    row = df.select(F.window("t", "5 minutes").alias("w")).collect()[0]
    assert row.w == Row(start=datetime.datetime(2026, 6, 10, 10, 5),
                        end=datetime.datetime(2026, 6, 10, 10, 10))


def test_json_functions(df):
    parsed = df.select(F.from_json("j", "a INT").alias("p")).collect()[0]
    assert parsed.p.a == 1
    assert one(df, F.get_json_object("j", "$.a"), F.to_json(F.struct("n"))) == ("1", '{"n":3}')


def test_aggregates(spark):
    data = spark.createDataFrame([(1, "a"), (2, "a"), (3, "b"), (3, None)], "v INT, k STRING")
    row = data.agg(F.sum("v").alias("s"), F.avg("v").alias("m"), F.min("v"), F.max("v"),
                   F.count("k"), F.countDistinct("v"), F.collect_set("k"),
                   F.first("v")).collect()[0]
    assert row.s == 9 and row.m == 2.25
    assert tuple(row)[2:6] == (1, 3, 3, 3)
    assert sorted(row[6]) == ["a", "b"]
    assert row[7] == 1


def test_max_by_and_min_by(spark):
    data = spark.createDataFrame([("x", 1.0), ("y", 5.0), ("z", None)], "v STRING, score DOUBLE")
    row = data.agg(F.max_by("v", "score").alias("top"), F.min_by("v", "score")).collect()[0]
    assert row.top == "y" and row[1] == "x"
    assert data.agg(F.max_by("v", "score")).columns == ["max_by(v, score)"]


def test_expr_and_call_function(df):
    assert one(df, F.expr("n * 2 AS twice"), F.call_function("upper", "s")) == (6, "HELLO WORLD")
    assert df.select(F.expr("n + 1 AS m")).columns == ["m"]


def test_collection_functions(spark):
    df = spark.createDataFrame([([3, 1, 2],)], "a ARRAY<INT>")
    assert one(df, F.size("a"), F.array_contains("a", 2), F.sort_array("a"),
               F.element_at("a", 1), F.array_max("a")) == (3, True, [1, 2, 3], 3, 3)
    assert [r.col for r in df.select(F.explode("a")).collect()] == [3, 1, 2]


def test_try_arithmetic_and_typeof(spark):
    df = spark.createDataFrame([(1, 0), (2147483647, 2)], "a INT, b INT")
    rows = df.select(F.try_divide("a", "b"), F.try_add("a", "a"), F.try_multiply("a", "b"),
                     F.try_subtract(F.lit(-2147483647), "a"), F.typeof("a")).collect()
    assert [tuple(r) for r in rows] == [(None, 2, 0, -2147483648, "int"),
                                        (1073741823.5, None, None, None, "int")]
