"""Produces the golden answers in tests/golden_nexmark/expected/: what Apache Spark returns for
each Nexmark query of bench/nexmark/spark_nexmark.py over a small run of events that Sluice's
generator wrote to Parquet files (one file per micro-batch, as the source's batches).

Each expected/<query>.json holds {"query", "events", "perBatch", "eventsPerSecond", "columns",
"rows"}, the rows
of every batch together in canonical JSON (tests/golden/README.md), sorted by their JSON text.
Run it through scripts/generate-nexmark-golden.sh; developers run it by hand, CI never does.
"""
import argparse
import importlib.util
import json
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED_DIR = os.path.join(HERE, "expected")
sys.dont_write_bytecode = True  # keep __pycache__ out of the source folders


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The value conversion of the batch golden tests, and the queries the benchmark runs on Spark.
golden = load("golden_generate", os.path.join(HERE, "..", "golden", "generate.py"))
queries = load("spark_nexmark", os.path.join(HERE, "..", "..", "bench", "nexmark",
                                             "spark_nexmark.py"))

from pyspark.sql import SparkSession  # noqa: E402


# Queries over processing time (windows of current_timestamp()): which window a row falls in
# depends on the wall clock, so their expected rows are what does not, each bidder's bids over
# all its windows ([bidder, bids]: the last count of each of its windows, summed).
PROCESSING_TIME = {"q12"}


def bids_per_bidder(rows):
    last = {}
    for bidder, count, start, _ in rows:
        last[(bidder, start)] = max(count, last.get((bidder, start), 0))
    totals = {}
    for (bidder, _), count in last.items():
        totals[bidder] = totals.get(bidder, 0) + count
    return [[bidder, count] for bidder, count in sorted(totals.items())]


def run(spark, name, files):
    rows = []
    schema = None

    def collect(batch, batch_id):
        nonlocal schema
        batch_schema, batch_rows = golden.collect(batch)
        schema = batch_schema
        rows.extend(golden.encode_row(row, batch_schema, name) for row in batch_rows)

    events = (spark.readStream.schema(queries.EVENT_SCHEMA).option("maxFilesPerTrigger", 1)
              .parquet(files))
    df = queries.QUERIES[name](events)
    checkpoint = tempfile.mkdtemp(prefix="nexmark-golden-")
    query = (df.writeStream.foreachBatch(collect)
             .outputMode(queries.OUTPUT_MODES.get(name, "append"))
             .option("checkpointLocation", checkpoint)
             .trigger(availableNow=True).start())
    query.awaitTermination()
    shutil.rmtree(checkpoint, ignore_errors=True)
    rows.sort(key=lambda row: json.dumps(row, ensure_ascii=False))
    return {"query": name,
            "columns": [{"name": f.name, "type": f.dataType.simpleString()}
                        for f in df.schema.fields],
            "rows": rows}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", required=True, help="the events, as nexmark_runner wrote them")
    parser.add_argument("--events", type=int, required=True)
    parser.add_argument("--per-batch", type=int, required=True)
    parser.add_argument("--rate", type=int, required=True, help="events per second")
    parser.add_argument("--queries", required=True, help="comma-separated")
    args = parser.parse_args()
    spark = (SparkSession.builder.master("local[1]")
             .config("spark.sql.shuffle.partitions", 1)
             .config("spark.sql.session.timeZone", "UTC")
             .config("spark.ui.enabled", "false")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    os.makedirs(EXPECTED_DIR, exist_ok=True)
    for name in args.queries.split(","):
        result = run(spark, name, args.files)
        result = {"query": name, "events": args.events, "perBatch": args.per_batch,
                  "eventsPerSecond": args.rate, "columns": result["columns"],
                  "rows": result["rows"]}
        if name in PROCESSING_TIME:
            result["processingTime"] = True
            result["rows"] = bids_per_bidder(result["rows"])
        with open(os.path.join(EXPECTED_DIR, name + ".json"), "w", encoding="utf-8") as out:
            json.dump(result, out, ensure_ascii=False, indent=1)
            out.write("\n")
        print(f"{name}: {len(result['rows'])} rows")
    spark.stop()


if __name__ == "__main__":
    main()
