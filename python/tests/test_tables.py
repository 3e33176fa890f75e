"""Named tables of the warehouse, text files, and spark.sql."""

import pytest

from sluice.errors import AnalysisException, ParseException
from sluice.sql import Row


@pytest.fixture
def warehouse(spark, tmp_path):
    previous = spark.conf.get("spark.sql.warehouse.dir", None)
    spark.conf.set("spark.sql.warehouse.dir", str(tmp_path / "warehouse"))
    yield tmp_path / "warehouse"
    if previous is None:
        spark.conf.unset("spark.sql.warehouse.dir")
    else:
        spark.conf.set("spark.sql.warehouse.dir", previous)


def test_save_as_table_and_read_it_back(spark, warehouse):
    spark.createDataFrame([(1, "a"), (2, "b")], "id BIGINT, v STRING") \
        .write.saveAsTable("items")
    assert sorted(spark.table("items").collect()) == [Row(id=1, v="a"), Row(id=2, v="b")]
    assert spark.read.table("items").count() == 2
    with pytest.raises(AnalysisException) as error:
        spark.createDataFrame([(3, "c")], "id BIGINT, v STRING").write.saveAsTable("items")
    assert error.value.getErrorClass() == "TABLE_OR_VIEW_ALREADY_EXISTS"
    spark.createDataFrame([(3, "c")], "id BIGINT, v STRING").write.mode("append") \
        .saveAsTable("items")
    assert spark.table("items").count() == 3


def test_stream_to_table_and_from_table(spark, warehouse, tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.json").write_text('{"id": 1}\n{"id": 2}\n')
    (tmp_path / "in" / "b.json").write_text('{"id": 3}\n')
    source = spark.readStream.schema("id BIGINT").json(str(tmp_path / "in"))
    query = (source.writeStream.option("checkpointLocation", str(tmp_path / "c1"))
             .trigger(availableNow=True).toTable("ids"))
    query.awaitTermination()
    assert sorted(r.id for r in spark.table("ids").collect()) == [1, 2, 3]
    seen = []
    query = (spark.readStream.table("ids").writeStream
             .foreachBatch(lambda df, batch_id: seen.append(df.count()))
             .option("checkpointLocation", str(tmp_path / "c2"))
             .trigger(availableNow=True).start())
    query.awaitTermination()
    assert sum(seen) == 3


def test_text_files(spark, tmp_path):
    (tmp_path / "lines").mkdir()
    (tmp_path / "lines" / "a.txt").write_text("first\nsecond\n")
    df = spark.read.text(str(tmp_path / "lines"))
    assert df.columns == ["value"]
    assert [r.value for r in df.collect()] == ["first", "second"]
    stream = spark.readStream.text(str(tmp_path / "lines"))
    assert stream.isStreaming


def test_sql(spark):
    assert spark.sql("SELECT 1 + 1 AS two").collect() == [Row(two=2)]
    with pytest.raises(ParseException):
        spark.sql("SELEC 1")
