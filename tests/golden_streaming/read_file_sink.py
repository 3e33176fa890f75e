#!/usr/bin/env python3
"""Reads the file sink folders that tests/sinks/file_sink_spark_read_test.cc writes with real
Apache Spark, and prints the rows Spark sees as JSON (file_sink_spark_rows.json).

Run it through scripts/generate-file-sink-golden.sh. Usage:

    read_file_sink.py FIXTURE_DIR > file_sink_spark_rows.json

FIXTURE_DIR holds "parquet" (a Parquet sink folder) and "json" (a JSON sink folder
partitioned by "kind"), each with its _spark_metadata manifest: Spark reads only the files
the manifest lists. Output:

    {"generated_with": "pyspark X.Y.Z",
     "outputs": {NAME: {"columns": [...], "types": [Spark simpleString, ...],
                        "rows": [[value, ...], ...]}}}

Rows are sorted by their first column, "id". Values use the canonical encoding of
tests/golden/README.md (only bigint, double and string occur here).
"""
import json
import math
import os
import sys

import pyspark
from pyspark.sql import SparkSession
from pyspark.sql import types as T

PINNED_PYSPARK = "4.0.1"
OUTPUTS = ("parquet", "json")


def encode(value, dtype):
    if value is None:
        return None
    if isinstance(dtype, (T.IntegerType, T.LongType)):
        return int(value)
    if isinstance(dtype, T.DoubleType):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return float(value)
    if isinstance(dtype, T.StringType):
        return str(value)
    raise ValueError(f"type {dtype.simpleString()} has no encoding here")


def read_output(spark, name, folder):
    df = spark.read.format(name).load(folder)
    fields = df.schema.fields
    rows = [[encode(row[i], f.dataType) for i, f in enumerate(fields)] for row in df.collect()]
    rows.sort(key=lambda row: row[0])
    return {
        "columns": [f.name for f in fields],
        "types": [f.dataType.simpleString() for f in fields],
        "rows": rows,
    }


def main(argv):
    if len(argv) != 1:
        sys.exit("usage: read_file_sink.py FIXTURE_DIR")
    if pyspark.__version__ != PINNED_PYSPARK:
        sys.exit(f"expected pyspark {PINNED_PYSPARK}, found {pyspark.__version__}")
    spark = (
        SparkSession.builder.master("local[1]")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("OFF")
    outputs = {name: read_output(spark, name, os.path.join(argv[0], name)) for name in OUTPUTS}
    spark.stop()
    sys.stdout.write(render({"generated_with": f"pyspark {pyspark.__version__}", "outputs": outputs}))


def render(document):
    """JSON text with one row per line, so that diffs of the golden file show rows."""
    lines = ["{", f' "generated_with": {json.dumps(document["generated_with"])},', ' "outputs": {']
    outputs = list(document["outputs"].items())
    for n, (name, output) in enumerate(outputs):
        lines.append(f"  {json.dumps(name)}: {{")
        lines.append(f'   "columns": {json.dumps(output["columns"])},')
        lines.append(f'   "types": {json.dumps(output["types"])},')
        lines.append('   "rows": [')
        rows = [f"    {json.dumps(row)}" for row in output["rows"]]
        lines.append(",\n".join(rows))
        lines.append("   ]")
        lines.append("  }" + ("," if n + 1 < len(outputs) else ""))
    lines.append(" }")
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main(sys.argv[1:])
