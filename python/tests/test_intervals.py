"""Interval literals and arithmetic from Python: day-time intervals collect as timedelta, and
the schema names the interval's fields as PySpark does."""

import datetime

import pytest

from sluice.errors import AnalysisException
from sluice.sql.types import DayTimeIntervalType, YearMonthIntervalType


def test_day_time_intervals_collect_as_timedelta(spark):
    df = spark.sql("SELECT INTERVAL '1 02:03:04.5' DAY TO SECOND AS a, INTERVAL 90 MINUTES AS b, "
                   "TIMESTAMP '2024-03-01 10:00:00' - TIMESTAMP '2024-01-31 09:30:00' AS c")
    assert [f.dataType for f in df.schema.fields] == [
        DayTimeIntervalType(0, 3), DayTimeIntervalType(2, 2), DayTimeIntervalType(0, 3)]
    assert df.schema.fields[1].dataType.simpleString() == "interval minute"
    assert tuple(df.collect()[0]) == (
        datetime.timedelta(days=1, hours=2, minutes=3, seconds=4.5),
        datetime.timedelta(minutes=90), datetime.timedelta(days=30, minutes=30))


def test_interval_arithmetic_with_timestamps(spark):
    row = spark.sql("SELECT TIMESTAMP '2024-01-31 10:00:00' + INTERVAL 1 MONTH AS m, "
                    "DATE '2024-01-31' - INTERVAL 1 DAY AS d, "
                    "CAST(INTERVAL '2-3' YEAR TO MONTH AS STRING) AS s").collect()[0]
    assert row.m == datetime.datetime(2024, 2, 29, 10, 0)
    assert row.d == datetime.date(2024, 1, 30)
    assert row.s == "INTERVAL '2-3' YEAR TO MONTH"
    ym = spark.sql("SELECT INTERVAL 1 YEAR AS y").schema.fields[0].dataType
    assert ym == YearMonthIntervalType(0, 0)
    nested = spark.sql("SELECT array(INTERVAL 10 MINUTES) AS a, map('k', INTERVAL 1 HOUR) AS m, "
                       "named_struct('s', INTERVAL 2 SECONDS) AS s").schema
    assert [f.dataType.simpleString() for f in nested.fields] == [
        "array<interval minute>", "map<string,interval hour>", "struct<s:interval second>"]


def test_files_refuse_interval_columns(spark, tmp_path):
    df = spark.sql("SELECT 1 AS id, INTERVAL 10 MINUTES AS wait")
    with pytest.raises(AnalysisException, match="column `wait` of the type \"INTERVAL MINUTE\""):
        df.write.parquet(str(tmp_path / "out"))
