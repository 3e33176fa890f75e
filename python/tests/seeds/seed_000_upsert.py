# Seed 000's second example ("Upsert every batch"), run as written there; only the imports,
# what the seed assumes (the session, the silver.customers table, the `updates` stream, here
# customer changes landing as JSON files in the folder given as the first argument), a local
# folder in place of s3://chk/customers/, and the wait for the stream to take in what has
# landed are added. The test runs it once per landed file, on the same checkpoint.
import sys

from sluice.delta.tables import DeltaTable
from sluice.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
BASE = sys.argv[1]
spark.sql("CREATE TABLE IF NOT EXISTS silver.customers (id INT, name STRING, tier STRING) "
          "USING delta")
updates = spark.readStream.schema("id INT, name STRING, tier STRING").json(f"{BASE}/updates")

def upsert(batch_df, batch_id):
    (DeltaTable.forName(spark, "silver.customers").alias("t")
        .merge(batch_df.alias("s"), "t.id = s.id")
        .whenMatchedUpdateAll().whenNotMatchedInsertAll()
        .execute())

updates.writeStream.foreachBatch(upsert) \
    .option("checkpointLocation", f"{BASE}/chk/customers/").start()

for query in spark.streams.active:
    query.processAllAvailable()
    query.stop()
spark.table("silver.customers").orderBy("id").show()
