# Prints the offsets JSON that Spark's JsonUtils.partitionOffsets writes for the cases of
# kafka_offset_json_test.cc: the same sorted insertions into Scala mutable.HashMaps, serialized
# by Jackson with DefaultScalaModule, run inside a real Spark 4 JVM through pyspark.
# Usage: python generate_offsets_json_golden.py (needs pyspark and Java 17).
from pyspark.sql import SparkSession
spark = SparkSession.builder.master("local[1]").getOrCreate()
jvm = spark._jvm
mapper = jvm.com.fasterxml.jackson.databind.ObjectMapper()
mapper.registerModule(jvm.com.fasterxml.jackson.module.scala.DefaultScalaModule())
def spark_json(entries):  # entries sorted (topic, partition, offset)
    result = jvm.scala.collection.mutable.HashMap()
    inner = {}
    for t, p, o in sorted(entries):
        if t not in inner:
            inner[t] = jvm.scala.collection.mutable.HashMap()
        inner[t].update(jvm.java.lang.Integer(p), jvm.java.lang.Long(o))
        result.update(t, inner[t])
    return mapper.writeValueAsString(result)
cases = [
  [("t",0,1),("t",1,2)],
  [("t",1,3),("t",16,5)],
  [("a",0,2),("p",0,1)],
  [("t",p,p*10) for p in range(40)],
  [("topic%d"%i,0,i) for i in range(14)],
  [("t",p,7) for p in (3, 100, 17, 33, 64, 65)],
  [("orders",0,5),("clicks",2,-1),("clicks",0,-2)],
]
for c in cases: print(spark_json(c))
