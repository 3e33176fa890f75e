# Seed 000's example ("Kafka to a Delta table"), run as written there; only the imports, what
# the seed assumes (the session, the orders' schema) and the wait that keeps a script's stream
# running are added. The test puts its broker's address in place of broker:9092 and a local
# folder in place of s3://chk/orders/, and stops this program when the batches it expects are
# committed.
from sluice.sql import SparkSession, functions as F, types as T

spark = SparkSession.builder.getOrCreate()

order_schema = T.StructType([
    T.StructField("order_id", T.LongType()),
    T.StructField("customer", T.StringType()),
    T.StructField("amount", T.DoubleType()),
])

raw = (spark.readStream
    .format("kafka")
    .option("kafka.bootstrap.servers", "broker:9092")
    .option("subscribe", "orders")
    .option("startingOffsets", "earliest")
    .load())

orders = (raw
    .select(F.from_json(F.col("value").cast("string"), order_schema).alias("o"))
    .select("o.*"))

query = (orders.writeStream
    .format("delta")
    .outputMode("append")
    .option("checkpointLocation", "s3://chk/orders/")
    .trigger(processingTime="1 minute")
    .toTable("bronze.orders"))

query.awaitTermination()
