import pandas as pd
import pyarrow as pa
import pytest

from sluice.errors import AnalysisException
from sluice.sql import Row
from sluice.sql import functions as F
from sluice.sql.types import LongType, StringType, StructField, StructType


@pytest.fixture
def people(spark):
    return spark.createDataFrame(
        [("ann", 34, "nl"), ("bob", 25, "fr"), ("cat", 41, "nl"), ("dan", None, "de")],
        "name STRING, age INT, country STRING")


def test_select_filter_with_column(people):
    df = (people.filter(F.col("age") > 30).withColumn("older", F.col("age") + 1)
          .select("name", "older"))
    assert df.collect() == [Row(name="ann", older=35), Row(name="cat", older=42)]
    assert people.where("age < 30").select(people.name).collect() == [Row(name="bob")]
    assert people.select(people["age"].alias("a")).columns == ["a"]
    assert people.selectExpr("name", "age * 2 AS twice").columns == ["name", "twice"]


def test_unknown_column_raises_at_once(people):
    with pytest.raises(AnalysisException) as error:
        people.select("nope")
    assert error.value.getErrorClass().startswith("UNRESOLVED_COLUMN")
    assert "nope" in str(error.value)


def test_schema_columns_dtypes(people):
    assert people.columns == ["name", "age", "country"]
    assert people.dtypes == [("name", "string"), ("age", "int"), ("country", "string")]
    assert people.schema["name"].dataType == StringType()
    assert not people.isStreaming


def test_print_schema_and_show(people, capsys):
    people.printSchema()
    assert capsys.readouterr().out == (
        "root\n"
        " |-- name: string (nullable = true)\n"
        " |-- age: integer (nullable = true)\n"
        " |-- country: string (nullable = true)\n")
    people.orderBy("name").show(2)
    assert capsys.readouterr().out == (
        "+----+---+-------+\n"
        "|name|age|country|\n"
        "+----+---+-------+\n"
        "| ann| 34|     nl|\n"
        "| bob| 25|     fr|\n"
        "+----+---+-------+\n"
        "only showing top 2 rows\n")


def test_group_by_and_agg(people):
    df = people.groupBy("country").agg(F.count("*").alias("n"), F.max("age").alias("oldest")) \
        .orderBy("country")
    assert df.collect() == [Row(country="de", n=1, oldest=None), Row(country="fr", n=1, oldest=25),
                            Row(country="nl", n=2, oldest=41)]
    assert people.groupBy("country").count().orderBy(F.desc("count"), "country").first() == \
        Row(country="nl", count=2)
    assert people.agg({"age": "max"}).collect() == [Row(**{"max(age)": 41})]


def test_order_by_limit_distinct(people):
    assert [r.name for r in people.orderBy(F.col("age").desc_nulls_last()).collect()] == \
        ["cat", "ann", "bob", "dan"]
    assert [r.name for r in people.sort("age", ascending=False).limit(2).collect()] == \
        ["cat", "ann"]
    assert people.select("country").distinct().count() == 3
    assert people.dropDuplicates(["country"]).count() == 3


def test_join_and_union(spark, people):
    codes = spark.createDataFrame([("nl", "Netherlands"), ("fr", "France")],
                                  "country STRING, full STRING")
    joined = people.join(codes, "country").orderBy("name").select("name", "full")
    assert joined.collect() == [Row(name="ann", full="Netherlands"),
                                Row(name="bob", full="France"),
                                Row(name="cat", full="Netherlands")]
    left = people.join(codes, people.country == codes.country, "left")
    assert left.count() == 4
    both = people.select("name").union(people.select("name"))
    assert both.count() == 8


def test_head_take_first_is_empty(people):
    assert people.head().name == "ann"
    assert len(people.take(2)) == 2
    assert people.filter(F.col("age") > 100).isEmpty()


def test_to_pandas_and_to_arrow(people):
    pdf = people.toPandas()
    assert isinstance(pdf, pd.DataFrame)
    assert list(pdf["name"]) == ["ann", "bob", "cat", "dan"]
    table = people.toArrow()
    assert isinstance(table, pa.Table)
    assert table.schema.field("age").type == pa.int32()


def test_write_and_read_back(spark, people, tmp_path):
    people.write.mode("overwrite").parquet(str(tmp_path / "pq"))
    assert spark.read.parquet(str(tmp_path / "pq")).count() == 4
    people.write.format("json").save(str(tmp_path / "js"))
    back = spark.read.schema("name STRING, age INT, country STRING").json(str(tmp_path / "js"))
    assert sorted(r.name for r in back.collect()) == ["ann", "bob", "cat", "dan"]
    people.write.csv(str(tmp_path / "csv"), header=True)
    csv = spark.read.csv(str(tmp_path / "csv"), header=True, inferSchema=True)
    assert csv.count() == 4
    assert spark.read.format("parquet").load(str(tmp_path / "pq")).columns == people.columns


def test_write_refuses_existing_path(people, tmp_path):
    people.write.parquet(str(tmp_path / "once"))
    with pytest.raises(AnalysisException) as error:
        people.write.parquet(str(tmp_path / "once"))
    assert error.value.getErrorClass() == "PATH_ALREADY_EXISTS"


def test_read_missing_path(spark, tmp_path):
    with pytest.raises(AnalysisException) as error:
        spark.read.json(str(tmp_path / "missing"))
    assert error.value.getErrorClass() == "PATH_NOT_FOUND"


def test_nested_values_collect_as_rows_and_dicts(spark):
    schema = StructType([StructField("s", StructType([StructField("x", LongType())]))])
    df = spark.createDataFrame([(Row(x=1),)], schema)
    row = df.collect()[0]
    assert row.s.x == 1
    assert row.asDict(recursive=True) == {"s": {"x": 1}}
    mapped = df.select(F.create_map(F.lit("k"), F.col("s.x")).alias("m")).collect()[0]
    assert mapped.m == {"k": 1}
