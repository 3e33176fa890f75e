"""Figures of the Python package (issue 8), printed, not asserted.

1. foreachBatch overhead: the same file stream (one small file per batch) run to the end with
   the noop sink and with a Python foreachBatch whose function does nothing; the difference
   per batch is what the Python binding adds (the batch handed over as a DataFrame, the GIL
   taken, the function called through the wrapper that keeps tracebacks).
2. toPandas of 10M rows of numbers against pyarrow's own Table.to_pandas() of the same rows.

Run with the venv's Python after a build: .venv/bin/python bench/python_bench.py
"""

import json
import os
import statistics
import sys
import tempfile
import time

import numpy as np
import pyarrow as pa

from sluice.sql import SparkSession


def stream_run(spark, landing, checkpoint, foreach_batch):
    """Runs the stream to its end; returns (wall seconds, mean addBatch ms per batch)."""
    reader = (spark.readStream.schema("k STRING, v BIGINT").option("maxFilesPerTrigger", 1)
              .json(landing))
    writer = reader.writeStream.option("checkpointLocation", checkpoint)
    writer = writer.foreachBatch(foreach_batch) if foreach_batch else writer.format("noop")
    start = time.perf_counter()
    query = writer.trigger(availableNow=True).start()
    query.awaitTermination()
    elapsed = time.perf_counter() - start
    add_batch = [p["durationMs"]["addBatch"] for p in query.recentProgress
                 if p["numInputRows"] > 0]
    return elapsed, statistics.mean(add_batch)


def foreach_batch_overhead(spark, batches=200, rounds=5):
    root = tempfile.mkdtemp(prefix="sluice-bench-")
    landing = os.path.join(root, "landing")
    os.makedirs(landing)
    for i in range(batches):
        with open(os.path.join(landing, "part-%04d.json" % i), "w") as f:
            f.writelines(json.dumps({"k": "key%d" % (j % 7), "v": j}) + "\n" for j in range(100))
    spark.conf.set("spark.sql.streaming.numRecentProgressUpdates", str(batches + 10))
    runs = {"noop": [], "python": []}
    for r in range(rounds):
        runs["noop"].append(stream_run(spark, landing, os.path.join(root, "n%d" % r), None))
        runs["python"].append(stream_run(spark, landing, os.path.join(root, "p%d" % r),
                                         lambda df, batch_id: None))
    wall = {k: statistics.median(v[0] for v in runs[k]) * 1000 / batches for k in runs}
    sink = {k: statistics.median(v[1] for v in runs[k]) for k in runs}
    print("foreachBatch: %d batches of 100 rows (one JSON file each), median of %d runs"
          % (batches, rounds))
    print("  sink time per batch (progress durationMs.addBatch, mean over the batches):")
    print("    noop sink                      %.3f ms" % sink["noop"])
    print("    Python foreachBatch (no-op fn) %.3f ms" % sink["python"])
    print("    overhead                       %.3f ms (target <= 1 ms)"
          % (sink["python"] - sink["noop"]))
    print("  wall time per batch, whole batch loop: noop %.3f ms, Python %.3f ms"
          % (wall["noop"], wall["python"]))


def best_of(function, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def to_pandas(spark, rows=10_000_000, runs=5):
    table = pa.table({"id": pa.array(np.arange(rows, dtype=np.int64)),
                      "x": pa.array(np.random.default_rng(1).random(rows))})
    df = spark.createDataFrame(table)
    table.to_pandas()  # warm-up: imports pandas' conversion modules
    arrow_best, arrow_median = best_of(table.to_pandas, runs)
    sluice_best, sluice_median = best_of(df.toPandas, runs)
    ranged = spark.range(rows)
    range_best, range_median = best_of(ranged.toPandas, runs)
    range_table = ranged.toArrow()
    range_arrow_best, range_arrow_median = best_of(range_table.to_pandas, runs)
    print("toPandas: %d rows (bigint, double), best / median of %d runs" % (rows, runs))
    print("  pyarrow Table.to_pandas       %7.1f / %7.1f ms" % (arrow_best * 1e3,
                                                             arrow_median * 1e3))
    print("  sluice df.toPandas            %7.1f / %7.1f ms  (%.2fx of pyarrow, target <= 2x)"
          % (sluice_best * 1e3, sluice_median * 1e3, sluice_median / arrow_median))
    print("  spark.range(n): to_pandas     %7.1f / %7.1f ms  (one bigint column)"
          % (range_arrow_best * 1e3, range_arrow_median * 1e3))
    print("  spark.range(n).toPandas       %7.1f / %7.1f ms  (%.2fx)"
          % (range_best * 1e3, range_median * 1e3, range_median / range_arrow_median))


def main():
    spark = SparkSession.builder.appName("python-bench").getOrCreate()
    what = sys.argv[1:] or ["foreachBatch", "toPandas"]
    if "foreachBatch" in what:
        foreach_batch_overhead(spark)
    if "toPandas" in what:
        to_pandas(spark)
    spark.stop()


if __name__ == "__main__":
    main()
