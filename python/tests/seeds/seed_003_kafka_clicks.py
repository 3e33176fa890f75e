# Seed 003's worked example ("Kafka to Parquet"), run as written there with only its import
# changed. The test puts its broker's address in place of localhost:9092 and folders of its own
# in place of /data/clicks_per_page and /chk/clicks_per_page, produces the clicks once the query
# runs, and stops this program when the windows it expects are written.
from sluice.sql import SparkSession, functions as F, types as T

spark = SparkSession.builder.appName("clicks").getOrCreate()

schema = T.StructType([
    T.StructField("user_id", T.StringType()),
    T.StructField("page",    T.StringType()),
    T.StructField("ts",      T.TimestampType()),
])

raw = (spark.readStream.format("kafka")
       .option("kafka.bootstrap.servers", "localhost:9092")
       .option("subscribe", "clicks")
       .option("startingOffsets", "latest")
       .load())

events = (raw.select(F.from_json(F.col("value").cast("string"), schema).alias("e"))
             .select("e.*"))

counts = (events
          .withWatermark("ts", "10 minutes")                 # tolerate 10 min lateness
          .groupBy(F.window("ts", "5 minutes"), "page")
          .count())

query = (counts.writeStream
         .outputMode("append")                                # emit each window once, when final
         .format("parquet")
         .option("path", "/data/clicks_per_page")
         .option("checkpointLocation", "/chk/clicks_per_page")
         .trigger(processingTime="1 minute")
         .start())

query.awaitTermination()
