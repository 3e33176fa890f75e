"""Window functions: Window, WindowSpec, Column.over() and the ranking and offset functions.
Expected names and values come from PySpark 4.0.1 running the same calls."""

import pytest

from sluice.errors import AnalysisException
from sluice.sql import Window
from sluice.sql import functions as F


@pytest.fixture
def clicks(spark):
    return spark.createDataFrame(
        [("u1", "/home", 1), ("u1", "/docs", 3), ("u2", "/home", 2), ("u1", "/home", 3)],
        "user STRING, page STRING, t INT")


def test_latest_row_per_key(clicks):
    w = Window.partitionBy("user").orderBy(F.col("t").desc(), "page")
    latest = clicks.withColumn("rn", F.row_number().over(w)).where("rn = 1").drop("rn")
    assert latest.columns == ["user", "page", "t"]
    assert sorted(tuple(r) for r in latest.collect()) == [("u1", "/docs", 3), ("u2", "/home", 2)]


def test_ranking_and_offsets(clicks):
    w = Window.partitionBy("user").orderBy("t", "page")
    rows = clicks.select("user", "t", "page", F.rank().over(w), F.dense_rank().over(w),
                         F.lag("t").over(w), F.lead("t", 1, 0).over(w),
                         F.ntile(2).over(w)).orderBy("user", "t", "page").collect()
    assert [tuple(r) for r in rows] == [
        ("u1", 1, "/home", 1, 1, None, 3, 1), ("u1", 3, "/docs", 2, 2, 1, 3, 1),
        ("u1", 3, "/home", 3, 3, 3, 0, 2), ("u2", 2, "/home", 1, 1, None, 0, 1)]


def test_frames_and_names(clicks):
    running = F.sum("t").over(Window.partitionBy("user").orderBy("page", "t")
                              .rowsBetween(Window.unboundedPreceding, Window.currentRow))
    total = F.count("*").over()
    df = clicks.select("user", "page", "t", running.alias("running"), total.alias("n"))
    assert [tuple(r) for r in df.orderBy("user", "page", "t").collect()] == [
        ("u1", "/docs", 3, 3, 4), ("u1", "/home", 1, 4, 4), ("u1", "/home", 3, 7, 4),
        ("u2", "/home", 2, 2, 4)]
    named = clicks.select(F.avg("t").over(Window.orderBy("t").rangeBetween(-1, 1)))
    assert named.columns == [
        "avg(t) OVER (ORDER BY t ASC NULLS FIRST RANGE BETWEEN -1 FOLLOWING AND 1 FOLLOWING)"]
    assert sorted(r[0] for r in named.collect()) == [1.5, 2.25, 2.6666666666666665,
                                                     2.6666666666666665]


def test_sql_over_clause(spark, clicks):
    clicks.createOrReplaceTempView("window_clicks")
    rows = spark.sql("SELECT user, t, row_number() OVER w AS rn FROM window_clicks "
                     "WINDOW w AS (PARTITION BY user ORDER BY t DESC, page)").collect()
    assert sorted(tuple(r) for r in rows) == [("u1", 1, 3), ("u1", 3, 1), ("u1", 3, 2),
                                              ("u2", 2, 1)]


def test_errors(spark, clicks):
    with pytest.raises(AnalysisException, match="requires window to be ordered"):
        clicks.select(F.row_number().over(Window.partitionBy("user"))).collect()
    stream = spark.readStream.format("rate").load()
    with pytest.raises(AnalysisException) as error:
        (stream.select(F.row_number().over(Window.orderBy("value")))
         .writeStream.format("memory").queryName("window_refused").start())
    assert error.value.getErrorClass() == "NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING"


def test_first_and_last_value(clicks):
    w = Window.partitionBy("user").orderBy("t", "page")
    rows = clicks.select("user", "t", "page", F.first_value("page").over(w),
                         F.last_value("page", True).over(w)).orderBy("user", "t", "page").collect()
    assert [tuple(r)[3:] for r in rows] == [("/home", "/home"), ("/home", "/docs"),
                                            ("/home", "/home"), ("/home", "/home")]
