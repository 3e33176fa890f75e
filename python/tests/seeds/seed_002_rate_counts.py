# Seed 002's example ("A tiny streaming aggregation"), run as written there; only the imports
# (and the session the seed assumes) are added.
from sluice.sql import SparkSession, functions as F

spark = SparkSession.builder.getOrCreate()

import time
q = (spark.readStream.format("rate").option("rowsPerSecond", 20).load()
     .withColumn("bucket", F.col("value") % 3)
     .groupBy("bucket").count()
     .writeStream.outputMode("complete").format("memory").queryName("rates")
     .trigger(processingTime="1 second").start())

time.sleep(5)
spark.sql("SELECT bucket, count FROM rates ORDER BY bucket").show()
q.stop()
