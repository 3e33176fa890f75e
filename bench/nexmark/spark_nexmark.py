"""The Nexmark queries of nexmark_queries.cc on Apache Spark Structured Streaming, for the
side-by-side comparison (scripts/bench-nexmark-vs-spark.sh).

Reads the events nexmark_runner --write-events wrote (Parquet, one file per micro-batch:
maxFilesPerTrigger 1) with the file source, runs each query with Trigger.AvailableNow into the
noop sink with a checkpoint, as the Sluice runner does, in local mode (an 8 GB heap by default).

The JVM stays up between runs, so that the comparison script can alternate the engines query by
query on a machine whose speed drifts: each query runs once untimed first, as a long-running
job's code is compiled ("FAILED <query> <error>" for one that failed), then "READY" is printed,
and each query named on a line of standard input is run and timed, printing
"RESULT <query> <seconds> <JVM CPU seconds> <JVM peak resident kB> <batches>". The JVM's CPU
time and peak memory are read from /proc; the JVM's start is not timed.

    python spark_nexmark.py --files DIR [--queries q0,q1] [--cores N]

Run with the PySpark of scripts/golden-spark-env.sh (the script above prepares it).
"""
import argparse
import os
import shutil
import sys
import tempfile
import time

from pyspark.sql import SparkSession, functions as F

EVENT_SCHEMA = (
    "event_type INT, "
    "person STRUCT<id: BIGINT, name: STRING, emailAddress: STRING, creditCard: STRING, "
    "city: STRING, state: STRING, dateTime: TIMESTAMP, extra: STRING>, "
    "auction STRUCT<id: BIGINT, itemName: STRING, description: STRING, initialBid: BIGINT, "
    "reserve: BIGINT, dateTime: TIMESTAMP, expires: TIMESTAMP, seller: BIGINT, "
    "category: BIGINT, extra: STRING>, "
    "bid STRUCT<auction: BIGINT, bidder: BIGINT, price: BIGINT, channel: STRING, url: STRING, "
    "dateTime: TIMESTAMP, extra: STRING>, "
    "dateTime TIMESTAMP")


def person(events):
    return (events.where("event_type = 0")
            .select("person.id", "person.name", "person.emailAddress", "person.creditCard",
                    "person.city", "person.state", "dateTime", "person.extra")
            .withWatermark("dateTime", "4 seconds"))


def auction(events):
    return (events.where("event_type = 1")
            .select("auction.id", "auction.itemName", "auction.description",
                    "auction.initialBid", "auction.reserve", "dateTime", "auction.expires",
                    "auction.seller", "auction.category", "auction.extra")
            .withWatermark("dateTime", "4 seconds"))


def bid(events):
    return (events.where("event_type = 2")
            .select("bid.auction", "bid.bidder", "bid.price", "bid.channel", "bid.url",
                    "dateTime", "bid.extra")
            .withWatermark("dateTime", "4 seconds"))


def q0(events):
    return bid(events).select("auction", "bidder", "price", "dateTime", "extra")


def q1(events):
    return bid(events).select("auction", "bidder", F.expr("0.908 * price").alias("price"),
                              "dateTime", "extra")


def q2(events):
    return bid(events).where("auction % 123 = 0").select("auction", "price")


def q3(events):
    auctions = auction(events).where("category = 10").select(
        F.col("id").alias("a_id"), "seller")
    persons = person(events).where(F.col("state").isin("OR", "ID", "CA")).select(
        F.col("id").alias("p_id"), "name", "city", "state")
    return (auctions.join(persons, F.col("seller") == F.col("p_id"))
            .select("name", "city", "state", F.col("a_id").alias("id")))


def q5(events):
    counts = (bid(events).groupBy("auction", F.window("dateTime", "10 seconds", "2 seconds"))
              .agg(F.count(F.lit(1)).alias("num")))
    return (counts.groupBy("window").agg(F.max(F.struct("num", "auction")).alias("hot"))
            .select(F.col("hot.auction").alias("auction"), F.col("hot.num").alias("num"),
                    F.col("window.start").alias("starttime"),
                    F.col("window.end").alias("endtime")))


def q7(events):
    bids = bid(events)
    maxima = (bids.groupBy(F.window("dateTime", "10 seconds"))
              .agg(F.max("price").alias("maxprice"))
              .select("maxprice", F.window_time("window").alias("w_time")))
    return (bids.join(maxima, (F.col("price") == F.col("maxprice")) &
                      F.expr("dateTime BETWEEN w_time - INTERVAL 10 SECONDS AND w_time"))
            .select("auction", "price", "bidder", "dateTime", "extra"))


def q8(events):
    persons = person(events).select("id", "name",
                                    F.window("dateTime", "10 seconds").alias("p_window"))
    auctions = auction(events).select("seller",
                                      F.window("dateTime", "10 seconds").alias("a_window"))
    return (persons.join(auctions, (F.col("id") == F.col("seller")) &
                         (F.col("p_window") == F.col("a_window")))
            .select("id", "name", F.col("p_window.start").alias("starttime")))


def q11(events):
    return (bid(events).groupBy("bidder", F.session_window("dateTime", "10 seconds"))
            .agg(F.count(F.lit(1)).alias("bid_count"))
            .select("bidder", "bid_count", F.col("session_window.start").alias("starttime"),
                    F.col("session_window.end").alias("endtime")))


def q12(events):
    return (bid(events).groupBy("bidder", F.window(F.current_timestamp(), "10 seconds"))
            .agg(F.count(F.lit(1)).alias("bid_count"))
            .select("bidder", "bid_count", F.col("window.start").alias("starttime"),
                    F.col("window.end").alias("endtime")))


def q14(events):
    return (bid(events).where("0.908 * price > 1000000 AND 0.908 * price < 50000000")
            .select("auction", "bidder", F.expr("0.908 * price").alias("price"),
                    F.expr("CASE WHEN hour(dateTime) >= 8 AND hour(dateTime) <= 18 "
                           "THEN 'dayTime' WHEN hour(dateTime) <= 6 OR hour(dateTime) >= 20 "
                           "THEN 'nightTime' ELSE 'otherTime' END").alias("bidTimeType"),
                    "dateTime", "extra",
                    F.expr("CAST(length(extra) - length(replace(extra, 'c', '')) AS BIGINT)")
                    .alias("c_counts")))


def q20(events):
    bids = bid(events).select("auction", "bidder", "price", "channel", "url",
                              F.col("dateTime").alias("bid_dateTime"),
                              F.col("extra").alias("bid_extra"))
    auctions = auction(events).where("category = 10")
    return (bids.join(auctions, F.col("auction") == F.col("id"))
            .select("auction", "bidder", "price", "channel", "url", "bid_dateTime",
                    "bid_extra", "itemName", "description", "initialBid", "reserve",
                    F.col("dateTime").alias("auction_dateTime"), "expires", "seller",
                    "category", F.col("extra").alias("auction_extra")))


def q21(events):
    from_url = "regexp_extract(url, '(&|^)channel_id=([^&]*)', 2)"
    return (bid(events)
            .where(from_url + " <> '' OR lower(channel) IN "
                   "('apple', 'google', 'facebook', 'baidu')")
            .select("auction", "bidder", "price", "channel",
                    F.expr("CASE WHEN lower(channel) = 'apple' THEN '0' "
                           "WHEN lower(channel) = 'google' THEN '1' "
                           "WHEN lower(channel) = 'facebook' THEN '2' "
                           "WHEN lower(channel) = 'baidu' THEN '3' ELSE " + from_url + " END")
                    .alias("channel_id")))


def q22(events):
    return bid(events).select("auction", "bidder", "price", "channel",
                              F.expr("split(url, '/')[3]").alias("dir1"),
                              F.expr("split(url, '/')[4]").alias("dir2"),
                              F.expr("split(url, '/')[5]").alias("dir3"))


def q17(events):
    return (bid(events).groupBy("auction", F.date_format("dateTime", "yyyy-MM-dd").alias("day"))
            .agg(F.count(F.lit(1)).alias("total_bids"),
                 F.count_if(F.col("price") < 10000).alias("rank1_bids"),
                 F.count_if((F.col("price") >= 10000) & (F.col("price") < 1000000))
                 .alias("rank2_bids"),
                 F.count_if(F.col("price") >= 1000000).alias("rank3_bids"),
                 F.min("price").alias("min_price"), F.max("price").alias("max_price"),
                 F.avg("price").alias("avg_price"), F.sum("price").alias("sum_price")))


# The output mode of each query that does not run in append mode.
OUTPUT_MODES = {"q12": "update", "q17": "update"}

QUERIES = {"q0": q0, "q1": q1, "q2": q2, "q3": q3, "q5": q5, "q7": q7, "q8": q8, "q11": q11,
           "q12": q12, "q14": q14, "q17": q17, "q20": q20, "q21": q21, "q22": q22}


def jvm_cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime, stime


def jvm_peak_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def run(spark, name, files):
    """Runs query `name` over the events in `files` to the end; its number of batches."""
    events = spark.readStream.schema(EVENT_SCHEMA).option("maxFilesPerTrigger", 1).parquet(files)
    checkpoint = tempfile.mkdtemp(prefix="spark-nexmark-")
    query = (QUERIES[name](events).writeStream.format("noop")
             .outputMode(OUTPUT_MODES.get(name, "append"))
             .option("checkpointLocation", checkpoint)
             .trigger(availableNow=True).start())
    query.awaitTermination()
    shutil.rmtree(checkpoint, ignore_errors=True)
    return len(query.recentProgress)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", required=True)
    parser.add_argument("--queries", default=",".join(QUERIES))
    parser.add_argument("--cores", type=int, default=os.cpu_count())
    parser.add_argument("--memory", default="8g", help="the JVM's heap (spark.driver.memory)")
    args = parser.parse_args()

    spark = (SparkSession.builder.master(f"local[{args.cores}]")
             .config("spark.driver.memory", args.memory)
             .config("spark.sql.shuffle.partitions", 1)
             .config("spark.sql.session.timeZone", "UTC")
             .config("spark.ui.enabled", "false")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    pid = spark.sparkContext._gateway.proc.pid
    # A long-running Spark job runs compiled code: warm the JVM up with each query once.
    failed = set()
    for name in args.queries.split(","):
        try:
            run(spark, name, args.files)
        except Exception as error:  # the query's failure is reported, the others still run
            failed.add(name)
            print(f"FAILED {name} {str(error).splitlines()[0][:200]}", flush=True)
    warm = [name for name in args.queries.split(",") if name not in failed]
    print("READY", flush=True)
    for line in sys.stdin:
        name = line.strip()
        if name not in warm:
            print(f"FAILED {name} is not among the queries run once to warm up", flush=True)
            continue
        cpu_before = jvm_cpu_seconds(pid)
        start = time.monotonic()
        batches = run(spark, name, args.files)
        seconds = time.monotonic() - start
        cpu = jvm_cpu_seconds(pid) - cpu_before
        print(f"RESULT {name} {seconds:.3f} {cpu:.3f} {jvm_peak_kb(pid)} {batches}", flush=True)
    spark.stop()


if __name__ == "__main__":
    sys.exit(main())
