import json

import deltalake

from sluice.delta import DeltaTable, configure_spark_with_delta_pip
from sluice.sql import Row, SparkSession


def test_configure_spark_with_delta_pip_returns_the_builder():
    builder = SparkSession.builder.appName("delta")
    assert configure_spark_with_delta_pip(builder) is builder


def test_stream_to_delta_then_merge_in_foreach_batch(spark, tmp_path):
    landing = tmp_path / "landing"
    landing.mkdir()
    (landing / "a.json").write_text(
        "".join(json.dumps(r) + "\n" for r in [{"user_id": "u1", "page": "/a", "ts": 1},
                                                {"user_id": "u2", "page": "/b", "ts": 2}]))
    (landing / "b.json").write_text(json.dumps({"user_id": "u1", "page": "/c", "ts": 3}) + "\n")
    clicks = (spark.readStream.schema("user_id STRING, page STRING, ts BIGINT")
              .option("maxFilesPerTrigger", 1).json(str(landing)))

    raw = str(tmp_path / "raw")
    query = (clicks.writeStream.format("delta")
             .option("checkpointLocation", str(tmp_path / "c1"))
             .trigger(availableNow=True).start(raw))
    query.awaitTermination()
    assert DeltaTable.forPath(spark, raw).toDF().count() == 3
    assert deltalake.DeltaTable(raw).to_pyarrow_table().num_rows == 3

    latest = str(tmp_path / "latest")
    spark.createDataFrame([], "user_id STRING, page STRING, ts BIGINT") \
        .write.format("delta").save(latest)

    def upsert(batch_df, batch_id):
        target = DeltaTable.forPath(spark, latest)
        (target.alias("t").merge(batch_df.alias("s"), "t.user_id = s.user_id")
         .whenMatchedUpdateAll(condition="s.ts > t.ts")
         .whenNotMatchedInsertAll()
         .execute())

    query = (clicks.writeStream.foreachBatch(upsert)
             .option("checkpointLocation", str(tmp_path / "c2"))
             .trigger(availableNow=True).start())
    query.awaitTermination()
    rows = DeltaTable.forPath(spark, latest).toDF().orderBy("user_id").collect()
    assert rows == [Row(user_id="u1", page="/c", ts=3), Row(user_id="u2", page="/b", ts=2)]
    assert DeltaTable.forPath(spark, latest).history().count() >= 3
