# Seed 004's examples ("Spark Structured Streaming: A Practical PySpark Guide"), run as written
# there; only the imports change, BASE is the folder given as the first argument (the seed uses
# /tmp/lake), and what the seed does by hand or does not show is added between the steps: the
# landing of the clicks, printing the table and the progress lines it quotes, creating the
# upsert's target table, and availableNow in place of the 30-second trigger for the upsert (as
# the seed's author ran it, so the script ends) and a queryName, as the seed advises.
import os
import sys

# ---- Step 1: Set up a local session ----
from sluice.delta import configure_spark_with_delta_pip
from sluice.sql import SparkSession
from sluice.sql.functions import window, count, sum as sum_
from sluice.sql.types import StructType, StructField, StringType, TimestampType, DoubleType

builder = (SparkSession.builder.master("local[2]").appName("ss-guide")
    .config("spark.sql.session.timeZone", "UTC")
    .config("spark.sql.shuffle.partitions", "4")
    .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
    .config("spark.sql.catalog.spark_catalog",
            "org.apache.spark.sql.delta.catalog.DeltaCatalog"))
spark = configure_spark_with_delta_pip(builder).getOrCreate()

BASE = sys.argv[1]
LANDING = f"{BASE}/landing/clicks"

# ---- Landing the first run's sixteen clicks, between 10:00 and 10:30 ----
CLICKS = [
    ("u1", "/home", "10:01:00", 12.5), ("u2", "/pricing", "10:02:30", 30.0),
    ("u3", "/pricing", "10:04:10", 8.25), ("u1", "/home", "10:06:00", 4.0),
    ("u2", "/pricing", "10:08:45", 17.5), ("u4", "/home", "10:11:00", 3.0),
    ("u5", "/home", "10:13:20", 6.75), ("u3", "/pricing", "10:14:59", 21.0),
    ("u1", "/home", "10:16:00", 9.0), ("u6", "/pricing", "10:18:30", 14.0),
    ("u2", "/home", "10:21:00", 2.5), ("u7", "/docs", "10:22:10", 40.0),
    ("u4", "/pricing", "10:24:00", 11.0), ("u5", "/home", "10:26:40", 5.5),
    ("u8", "/docs", "10:28:00", None), ("u1", "/pricing", "10:30:00", 7.0),
]


def land(name, clicks):
    os.makedirs(LANDING, exist_ok=True)
    lines = []
    for user, page, time, duration in clicks:
        lines.append('{"user_id":"%s","page":"%s","event_time":"2026-06-10T%sZ","duration_s":%s}'
                     % (user, page, time, "null" if duration is None else duration))
    with open(f"{LANDING}/{name}.tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.rename(f"{LANDING}/{name}.tmp", f"{LANDING}/{name}")


land("clicks-0001.json", CLICKS)

# ---- Step 2: Define the streaming query ----
schema = StructType([
    StructField("user_id", StringType()),
    StructField("page", StringType()),
    StructField("event_time", TimestampType()),
    StructField("duration_s", DoubleType()),
])

clicks = (spark.readStream
    .schema(schema)                     # file sources need an explicit schema
    .option("maxFilesPerTrigger", 10)   # cap the size of each micro-batch
    .json(LANDING))

per_page = (clicks
    .withWatermark("event_time", "10 minutes")
    .groupBy(window("event_time", "5 minutes"), "page")
    .agg(count("*").alias("views"),
         sum_("duration_s").alias("total_duration_s")))


def run_query():
    query = (per_page.writeStream
        .format("delta")
        .outputMode("append")
        .option("checkpointLocation", f"{BASE}/_checkpoints/page_views_5m")
        .trigger(availableNow=True)
        .start(f"{BASE}/page_views_5m"))
    query.awaitTermination()
    return query


# ---- Step 4: Watch the watermark work ----
run1 = run_query()
print("run1 watermark:", run1.lastProgress["eventTime"]["watermark"])
from sluice.sql.functions import date_format, col
(spark.read.format("delta").load(f"{BASE}/page_views_5m")
    .select(date_format(col("window.start"), "HH:mm").alias("start"),
            date_format(col("window.end"), "HH:mm").alias("end"), "page", "views")
    .orderBy("start", "page")
    .show())

land("clicks-0002.json", [("u9", "/home", "10:03:00", 1.0), ("u3", "/docs", "10:40:00", 25.0)])
run2 = run_query()
for p in run2.recentProgress:
    print("run2 batch", p["batchId"], "rows", p["numInputRows"], "watermark",
          p["eventTime"]["watermark"], "droppedByWatermark",
          [s["numRowsDroppedByWatermark"] for s in p["stateOperators"]])

# ---- Step 7: Monitor the query ----
from sluice.sql.streaming import StreamingQueryListener

class ProgressLogger(StreamingQueryListener):
    def onQueryStarted(self, event):
        print(f"started {event.name} {event.id}")

    def onQueryProgress(self, event):
        p = event.progress
        print(p.name, p.batchId, p.numInputRows,
              p.inputRowsPerSecond, p.processedRowsPerSecond)

    def onQueryIdle(self, event):
        pass

    def onQueryTerminated(self, event):
        print(f"terminated {event.id} exception={event.exception}")

spark.streams.addListener(ProgressLogger())

# ---- Step 6: Upserts with foreachBatch ----
# "Create the target table once before starting the stream."
spark.createDataFrame([], schema).write.format("delta").save(f"{BASE}/user_last_page")

from sluice.delta.tables import DeltaTable
from sluice.sql import Window
from sluice.sql.functions import row_number, col

def upsert_latest(batch_df, batch_id):
    w = Window.partitionBy("user_id").orderBy(col("event_time").desc())
    latest = (batch_df.withColumn("rn", row_number().over(w))
                      .where("rn = 1").drop("rn"))
    target = DeltaTable.forPath(spark, f"{BASE}/user_last_page")
    (target.alias("t")
        .merge(latest.alias("s"), "t.user_id = s.user_id")
        .whenMatchedUpdateAll(condition="s.event_time > t.event_time")
        .whenNotMatchedInsertAll()
        .execute())

(clicks.writeStream
    .foreachBatch(upsert_latest)
    .queryName("user_last_page")
    .option("checkpointLocation", f"{BASE}/_checkpoints/user_last_page")
    .trigger(availableNow=True)
    .start()).awaitTermination()

(spark.read.format("delta").load(f"{BASE}/user_last_page")
    .select("user_id", "page", date_format(col("event_time"), "HH:mm:ss").alias("at"))
    .orderBy("user_id")
    .show())
