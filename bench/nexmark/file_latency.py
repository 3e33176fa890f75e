"""Micro-batch latency, Sluice against Spark: the same PySpark code on either engine (Sluice's
Python package mirrors PySpark's API). One-row JSON files are renamed one at a time into the
folder a file stream reads with the default trigger and a checkpoint; the latency of a file is
the time from its rename to its row reaching foreachBatch, in this process. Prints
"LATENCY <engine> <p50 ms> <p90 ms> <p99 ms>".

    python file_latency.py --engine sluice|spark [--files 100]

Run Sluice with the project's virtual environment (.venv, the built package on its path) and
Spark with the PySpark of scripts/golden-spark-env.sh (scripts/bench-file-latency.sh does both).
"""
import argparse
import json
import os
import shutil
import tempfile
import threading
import time


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", choices=["sluice", "spark"], required=True)
    parser.add_argument("--files", type=int, default=100)
    args = parser.parse_args()

    if args.engine == "sluice":
        from sluice.sql import SparkSession
        spark = SparkSession.builder.getOrCreate()
    else:
        from pyspark.sql import SparkSession
        spark = (SparkSession.builder.master("local[*]")
                 .config("spark.sql.shuffle.partitions", 1)
                 .config("spark.ui.enabled", "false").getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")

    work = tempfile.mkdtemp(prefix="file-latency-")
    landing, staging = os.path.join(work, "landing"), os.path.join(work, "staging")
    os.makedirs(landing)
    os.makedirs(staging)
    seen = {}
    arrived = threading.Condition()

    def record(batch, batch_id):
        rows = batch.collect()
        now = time.monotonic()
        with arrived:
            for row in rows:
                seen[row["id"]] = now
            arrived.notify_all()

    query = (spark.readStream.schema("id INT, page STRING").json(landing)
             .writeStream.foreachBatch(record)
             .option("checkpointLocation", os.path.join(work, "checkpoint")).start())
    latencies = []
    # The first files warm the engine up; they are not counted.
    warmup = 5
    for i in range(args.files + warmup):
        staged = os.path.join(staging, f"{i}.json")
        with open(staged, "w") as out:
            out.write(json.dumps({"id": i, "page": "/p"}) + "\n")
        sent = time.monotonic()
        os.rename(staged, os.path.join(landing, f"{i}.json"))
        with arrived:
            if not arrived.wait_for(lambda: i in seen, timeout=60):
                raise SystemExit(f"file {i} never arrived")
        if i >= warmup:
            latencies.append((seen[i] - sent) * 1000)
        time.sleep(0.02)  # each file its own batch
    query.stop()
    shutil.rmtree(work, ignore_errors=True)
    print(f"LATENCY {args.engine} {percentile(latencies, 0.5):.1f} "
          f"{percentile(latencies, 0.9):.1f} {percentile(latencies, 0.99):.1f}", flush=True)


if __name__ == "__main__":
    main()
