import datetime
import decimal

import pandas as pd
import pyarrow as pa
import pytest

from sluice.errors import AnalysisException, IllegalArgumentException, ParseException
from sluice.sql import Row, SparkSession
from sluice.sql.types import (ArrayType, DoubleType, IntegerType, LongType, MapType, StringType,
                              StructField, StructType, TimestampType)


def test_get_or_create_returns_the_active_session(spark):
    again = SparkSession.builder.appName("other").config("spark.sql.shuffle.partitions", 4) \
        .getOrCreate()
    assert again is spark
    assert SparkSession.getActiveSession() is spark


def test_conf_set_get_unset(spark):
    spark.conf.set("spark.sql.session.timeZone", "America/New_York")
    assert spark.conf.get("spark.sql.session.timeZone") == "America/New_York"
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    assert spark.conf.get("spark.sluice.test.missing", "fallback") == "fallback"
    spark.conf.set("spark.sluice.test.key", True)
    assert spark.conf.get("spark.sluice.test.key") == "true"
    spark.conf.unset("spark.sluice.test.key")
    assert spark.conf.get("spark.sluice.test.key", None) is None


def test_conf_rejects_a_bad_value(spark):
    with pytest.raises(IllegalArgumentException) as error:
        spark.conf.set("spark.sql.ansi.enabled", "maybe")
    assert error.value.getErrorClass().startswith("INVALID_CONF_VALUE")


def test_range(spark):
    assert [r.id for r in spark.range(3).collect()] == [0, 1, 2]
    assert [r.id for r in spark.range(2, 10, 3).collect()] == [2, 5, 8]
    assert spark.range(5).columns == ["id"]


def test_create_from_arrow_without_copying(spark):
    table = pa.table({"a": pa.array([1, 2, 3], pa.int64()), "b": ["x", "y", None]})
    df = spark.createDataFrame(table)
    assert df.collect() == [Row(a=1, b="x"), Row(a=2, b="y"), Row(a=3, b=None)]
    out = df.toArrow()
    assert out.equals(table)
    assert out.column("a").chunk(0).buffers()[1].address == \
        table.column("a").chunk(0).buffers()[1].address


def test_create_from_arrow_normalizes_types(spark):
    table = pa.table({"s": pa.array(["a"], pa.large_string()),
                      "t": pa.array([1_000_000_000], pa.timestamp("ns", "UTC")),
                      "u": pa.array([7], pa.uint32())})
    df = spark.createDataFrame(table)
    assert df.dtypes == [("s", "string"), ("t", "timestamp"), ("u", "bigint")]


def test_create_from_pandas(spark):
    pdf = pd.DataFrame({"name": ["a", "b"], "score": [1.5, 2.5], "n": [1, 2]})
    df = spark.createDataFrame(pdf)
    assert df.dtypes == [("name", "string"), ("score", "double"), ("n", "bigint")]
    assert df.collect() == [Row(name="a", score=1.5, n=1), Row(name="b", score=2.5, n=2)]


def test_create_from_pandas_with_schema(spark):
    pdf = pd.DataFrame({"x": [1, 2]})
    df = spark.createDataFrame(pdf, "v INT")
    assert df.dtypes == [("v", "int")]
    assert [r.v for r in df.collect()] == [1, 2]


def test_create_from_rows_with_struct_type(spark):
    schema = StructType([StructField("name", StringType()), StructField("age", IntegerType()),
                         StructField("tags", ArrayType(StringType())),
                         StructField("attrs", MapType(StringType(), LongType()))])
    df = spark.createDataFrame([("ann", 30, ["a"], {"k": 1}), ("bob", None, [], {})], schema)
    assert df.schema == schema
    rows = df.collect()
    assert rows[0] == Row(name="ann", age=30, tags=["a"], attrs={"k": 1})
    assert rows[1].age is None


def test_create_from_rows_with_ddl_string(spark):
    df = spark.createDataFrame([(1, "a"), (2, "b")], "id INT, label STRING")
    assert df.dtypes == [("id", "int"), ("label", "string")]
    assert df.count() == 2


def test_create_with_inferred_schema(spark):
    ts = datetime.datetime(2026, 6, 10, 10, 0, 0)
    df = spark.createDataFrame([{"b": 1, "a": "x", "t": ts, "d": decimal.Decimal("1.5")}])
    assert df.dtypes == [("a", "string"), ("b", "bigint"), ("d", "decimal(38,18)"),
                         ("t", "timestamp")]
    assert df.collect()[0].t == ts
    rows = spark.createDataFrame([Row(x=1, y=2.0), Row(x=2, y=3.5)]).collect()
    assert rows == [Row(x=1, y=2.0), Row(x=2, y=3.5)]
    tuples = spark.createDataFrame([(1, "a")])
    assert tuples.columns == ["_1", "_2"]
    named = spark.createDataFrame([(1, "a")], ["num", "letter"])
    assert named.dtypes == [("num", "bigint"), ("letter", "string")]


def test_create_from_single_values_with_atomic_type(spark):
    df = spark.createDataFrame([1.0, 2.0], DoubleType())
    assert df.columns == ["value"]
    assert df.collect() == [Row(value=1.0), Row(value=2.0)]


def test_timestamps_come_back_as_naive_local_datetimes(spark):
    ts = datetime.datetime(2026, 1, 2, 3, 4, 5, 600000)
    df = spark.createDataFrame([(ts,)], StructType([StructField("t", TimestampType())]))
    assert df.collect()[0].t == ts


def test_bad_ddl_is_a_parse_exception(spark):
    with pytest.raises(ParseException):
        spark.createDataFrame([(1,)], "a INT,, b")


def test_table_not_found(spark):
    with pytest.raises(AnalysisException) as error:
        spark.table("no_such_table_anywhere")
    assert error.value.getErrorClass() == "TABLE_OR_VIEW_NOT_FOUND"
