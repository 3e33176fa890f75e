#!/usr/bin/env python3
"""Produces the golden answers in tests/golden_stateful/expected/ by running the scenarios of
scenarios.py as streaming queries on real Apache Spark (PySpark, the pinned version of
tests/golden/generate.py), micro-batch by micro-batch.

Run it through scripts/generate-stateful-golden.sh; developers run it by hand, CI never does.

    generate.py [--work-dir DIR] [NAME ...]    all scenarios, or only the named ones

How a scenario runs: a file source over a fresh folder (JSON lines, the scenario's schema,
maxFilesPerTrigger 1, the default trigger) feeds the query, written with foreachBatch, which
records each batch's rows. Step i is written as file i; then the generator waits until the
query has read it and is quiescent (no trigger active and no new progress for QUIET_SECONDS),
so the no-data batch Spark may run after it has run too. A query Spark rejects (when the
DataFrame is built, at start, or in a batch) records the error instead.

Expected file (expected/<name>.json):
    {"generated_with": "pyspark X.Y.Z", "name", "schema", "mode", "conf", "steps",
     "columns": [{"name", "type" (simpleString), "nullable"}],
     "batches": [{"batchId", "afterStep", "numInputRows",
                  "watermark": eventTime.watermark as Spark prints it, or null without one,
                  "rows": canonical JSON rows (tests/golden/README.md), sorted by JSON text,
                  "stateOperators": [{"operatorName", "numRowsTotal", "numRowsUpdated",
                                      "numRowsRemoved", "numRowsDroppedByWatermark",
                                      "numShufflePartitions", "numStateStoreInstances"}]}]}
    or, for a rejected query, in place of columns and batches:
    "errorClass" (the Spark error condition), "message" (its text without the "[CLASS] "
    prefix, the SQLSTATE and the plan Spark appends), "phase" ("analysis", "start", "batch").
    afterStep is the index of the last step written when the batch ran: the batches with
    afterStep i are the data batch of step i and the no-data batch that may follow it.
    "inputRowsComparable": false (only then present) when Spark's numInputRows leaves out rows
    its JSON reader dropped by a filter pushed into it, which a memory source cannot do.
    "stateReads" (for a scenario with read_state): what each state data source read of the
    checkpoint returned once the query stopped: {"format", "options", "columns", "rows"},
    partition_id included.
"""

import argparse
import importlib.util
import json
import os
import re
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED_DIR = os.path.join(HERE, "expected")
GOLDEN_GENERATE = os.path.join(HERE, "..", "golden", "generate.py")

# How long a query must stay idle after a step before it counts as quiescent: longer than the
# gap between a batch and the no-data batch Spark runs right after it.
QUIET_SECONDS = 1.5
STEP_TIMEOUT_SECONDS = 120

sys.dont_write_bytecode = True  # keep __pycache__ out of the test folders

# The value conversion, error condition lookup and session settings of the batch golden tests.
_spec = importlib.util.spec_from_file_location("golden_generate", GOLDEN_GENERATE)
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)

import pyspark  # noqa: E402
from py4j.protocol import Py4JJavaError  # noqa: E402
from pyspark.errors import PySparkException  # noqa: E402
from pyspark.sql import types as T  # noqa: E402

# Two shuffle partitions so every keyed operator splits its state over more than one store.
SESSION_CONF = dict(golden.BASE_CONF, **{
    "spark.app.name": "sluice-golden-stateful",
    "spark.sql.shuffle.partitions": "2",
})

SCENARIO_KEYS = {"name", "schema", "steps", "mode", "conf", "query", "input_rows_comparable",
                 "read_state"}
REQUIRED_KEYS = SCENARIO_KEYS - {"conf", "input_rows_comparable", "read_state"}
MODES = {"append", "update", "complete"}
STATE_OPERATOR_KEYS = ("operatorName", "numRowsTotal", "numRowsUpdated", "numRowsRemoved",
                       "numRowsDroppedByWatermark", "numShufflePartitions", "numStateStoreInstances")
TIMESTAMP_RE = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")


class ScenarioError(Exception):
    """A scenario is malformed, or Spark behaved in a way the generator cannot record."""


def load_scenarios():
    spec = importlib.util.spec_from_file_location("stateful_scenarios", os.path.join(HERE, "scenarios.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    scenarios = module.SCENARIOS
    seen = set()
    for scenario in scenarios:
        validate(scenario)
        if scenario["name"] in seen:
            raise ScenarioError(f"scenario name {scenario['name']} is used twice")
        seen.add(scenario["name"])
    return scenarios


def validate(scenario):
    where = scenario.get("name", "<unnamed>")
    if set(scenario) - SCENARIO_KEYS or not REQUIRED_KEYS <= set(scenario):
        raise ScenarioError(f"{where}: keys must be {sorted(REQUIRED_KEYS)} and optionally conf, "
                            "input_rows_comparable and read_state")
    if not golden.NAME_RE.match(scenario["name"]):
        raise ScenarioError(f"{where}: name must be snake_case")
    if scenario["mode"] not in MODES:
        raise ScenarioError(f"{where}: unknown output mode {scenario['mode']!r}")
    if not callable(scenario["query"]):
        raise ScenarioError(f"{where}: query must be a function of the input DataFrame")
    schema = T._parse_datatype_string(scenario["schema"])
    if not isinstance(schema, T.StructType) or not scenario["steps"]:
        raise ScenarioError(f"{where}: needs a struct schema and at least one step")
    for step in scenario["steps"]:
        for row in step:
            if len(row) != len(schema.fields):
                raise ScenarioError(f"{where}: row {row!r} does not match the schema")
            for value, field in zip(row, schema.fields):
                if isinstance(field.dataType, T.TimestampType) and value is not None:
                    if not TIMESTAMP_RE.match(value):
                        raise ScenarioError(f"{where}: timestamp {value!r} is not YYYY-MM-DD HH:MM:SS")


def error_of(exc, phase):
    """The recorded form of a Spark error: its condition and its message without decoration."""
    condition = golden.error_condition(exc)
    if condition is None:
        raise ScenarioError(f"Spark raised an error without a condition: {exc}") from exc
    java = exc.java_exception if isinstance(exc, Py4JJavaError) else getattr(exc, "_origin", None)
    message = None
    # The innermost exception carrying the condition has the plain message (a batch failure
    # arrives wrapped in STREAM_FAILED).
    while java is not None:
        try:
            if java.getCondition() == condition:
                message = java.getMessage()
        except Exception:  # not a SparkThrowable
            pass
        java = java.getCause()
    if message is None:
        message = exc.getMessage() if isinstance(exc, PySparkException) else str(exc)
    message = message.split(";\n", 1)[0]  # the plan the unsupported-operation checker appends
    message = re.sub(r"^\[[A-Z0-9_.]+\] ", "", message)
    message = re.sub(r" SQLSTATE: \w+\.?$", "", message.strip())
    return {"errorClass": condition, "message": message, "phase": phase}


def write_step(folder, index, columns, rows):
    name = f"step-{index:03d}.json"
    # Written under a hidden name (the file source skips names starting with a dot) and renamed:
    # the source must never list a half-written file.
    hidden = os.path.join(folder, "." + name + ".tmp")
    with open(hidden, "w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(dict(zip(columns, row))) + "\n")
    os.rename(hidden, os.path.join(folder, name))


def source_log_offsets(progress):
    offsets = []
    for source in progress["sources"]:
        end = source.get("endOffset")
        offsets.append(json.loads(end)["logOffset"] if isinstance(end, str) else (end or {}).get("logOffset", -1))
    return offsets


def wait_until_quiescent(query, step, where):
    """Waits until every source has read file `step` and the query has been idle for
    QUIET_SECONDS (so a following no-data batch has run)."""
    deadline = time.monotonic() + STEP_TIMEOUT_SECONDS
    # The newest report, by batch and time: recentProgress keeps only the last reports, so its
    # length stops growing.
    newest = lambda reports: (reports[-1]["batchId"], reports[-1]["timestamp"]) if reports else None
    seen = newest(query.recentProgress)
    quiet_since = time.monotonic()
    while True:
        time.sleep(0.05)
        if query.exception() is not None or not query.isActive:
            return
        if time.monotonic() > deadline:
            raise ScenarioError(f"{where}: the query did not finish step {step} in time")
        progress = query.recentProgress
        if newest(progress) != seen:
            seen, quiet_since = newest(progress), time.monotonic()
            continue
        read = any(p["durationMs"].get("addBatch") is not None and min(source_log_offsets(p), default=-1) >= step
                   for p in progress)
        if read and not query.status["isTriggerActive"] and time.monotonic() - quiet_since >= QUIET_SECONDS:
            return


def run_scenario(spark, scenario, work_dir):
    name = scenario["name"]
    folder = os.path.join(work_dir, name)
    shutil.rmtree(folder, ignore_errors=True)
    source_dir, checkpoint = os.path.join(folder, "input"), os.path.join(folder, "checkpoint")
    os.makedirs(source_dir)
    schema = T._parse_datatype_string(scenario["schema"])
    conf = scenario.get("conf", {})
    result = {"generated_with": f"pyspark {pyspark.__version__}", "name": name,
              "schema": scenario["schema"], "mode": scenario["mode"], "conf": conf,
              "steps": scenario["steps"]}
    if not scenario.get("input_rows_comparable", True):
        result["inputRowsComparable"] = False
    for key, value in conf.items():
        spark.conf.set(key, value)
    try:
        return run_query(spark, scenario, schema, source_dir, checkpoint, result)
    finally:
        for key in conf:
            if key in SESSION_CONF:
                spark.conf.set(key, SESSION_CONF[key])
            else:
                spark.conf.unset(key)


def run_query(spark, scenario, schema, source_dir, checkpoint, result):
    name = scenario["name"]
    try:
        input_df = spark.readStream.schema(schema).option("maxFilesPerTrigger", 1).json(source_dir)
        output = scenario["query"](input_df)
        output_schema = output.schema
    except (PySparkException, Py4JJavaError) as exc:
        result.update(error_of(exc, "analysis"))
        return result

    recorded = {}  # batch id -> encoded rows
    current_step = [0]
    after_step = {}

    def record(batch, batch_id):
        rows_schema, rows = golden.collect(batch)
        encoded = [golden.encode_row(row, rows_schema, name) for row in rows]
        encoded.sort(key=lambda row: json.dumps(row, ensure_ascii=False))
        recorded[batch_id] = encoded
        after_step[batch_id] = current_step[0]

    try:
        query = (output.writeStream.outputMode(scenario["mode"])
                 .option("checkpointLocation", checkpoint).foreachBatch(record).start())
    except (PySparkException, Py4JJavaError) as exc:
        result.update(error_of(exc, "start"))
        return result
    try:
        for index, rows in enumerate(scenario["steps"]):
            current_step[0] = index
            write_step(source_dir, index, schema.fieldNames(), rows)
            wait_until_quiescent(query, index, name)
            if query.exception() is not None:
                break
        error = query.exception()
        progress = [p for p in query.recentProgress if p["durationMs"].get("addBatch") is not None]
    finally:
        query.stop()
    if error is not None:
        result.update(error_of(error, "batch"))
        return result

    # Idle reports (no batch ran: no addBatch duration) repeat the last batch's figures under
    # the next batch id; only the batches foreachBatch saw count.
    by_id = {p["batchId"]: p for p in progress}
    if sorted(by_id) != sorted(recorded):
        raise ScenarioError(f"{name}: progress for batches {sorted(by_id)}, foreachBatch saw {sorted(recorded)}")
    result["columns"] = [{"name": f.name, "type": f.dataType.simpleString(), "nullable": f.nullable}
                         for f in output_schema.fields]
    result["batches"] = []
    for batch_id in sorted(by_id):
        p = by_id[batch_id]
        result["batches"].append({
            "batchId": batch_id,
            "afterStep": after_step[batch_id],
            "numInputRows": p["numInputRows"],
            "watermark": (p.get("eventTime") or {}).get("watermark"),
            "rows": recorded[batch_id],
            "stateOperators": [{key: op[key] for key in STATE_OPERATOR_KEYS} for op in p["stateOperators"]],
        })
    if "read_state" in scenario:
        result["stateReads"] = [read_state(spark, checkpoint, read, name)
                                for read in scenario["read_state"]]
    return result


def read_state(spark, checkpoint, read, name):
    """What a state data source read of the stopped query's checkpoint returns, partition_id
    included (Spark's hash partitioning of the key row)."""
    options = {k: v for k, v in read.items() if k != "format"}
    df = spark.read.format(read.get("format", "statestore")).options(**options).load(checkpoint)
    rows_schema, rows = golden.collect(df)
    encoded = [golden.encode_row(row, rows_schema, name) for row in rows]
    encoded.sort(key=lambda row: json.dumps(row, ensure_ascii=False))
    return {"format": read.get("format", "statestore"), "options": options,
            "columns": [{"name": f.name, "type": f.dataType.simpleString(), "nullable": f.nullable}
                        for f in df.schema.fields],
            "rows": encoded}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work-dir", help="where sources and checkpoints go (default: a temporary folder)")
    parser.add_argument("names", nargs="*", help="scenarios to regenerate (default: all)")
    args = parser.parse_args(argv)
    if pyspark.__version__ != golden.PINNED_PYSPARK:
        sys.exit(f"expected pyspark {golden.PINNED_PYSPARK}, found {pyspark.__version__}; "
                 "use scripts/generate-stateful-golden.sh")
    builder = golden.SparkSession.builder
    for key, value in SESSION_CONF.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()  # first: parsing the scenarios' DDL schemas needs a session
    spark.sparkContext.setLogLevel("OFF")
    scenarios = load_scenarios()
    known = {s["name"] for s in scenarios}
    unknown = [n for n in args.names if n not in known]
    if unknown:
        spark.stop()
        sys.exit(f"unknown scenarios: {', '.join(unknown)}")
    selected = [s for s in scenarios if not args.names or s["name"] in args.names]

    work_dir = args.work_dir or tempfile.mkdtemp(prefix="sluice-golden-stateful-")
    os.makedirs(work_dir, exist_ok=True)
    os.makedirs(EXPECTED_DIR, exist_ok=True)
    started = time.monotonic()
    try:
        for scenario in selected:
            scenario_started = time.monotonic()
            result = run_scenario(spark, scenario, work_dir)
            with open(os.path.join(EXPECTED_DIR, scenario["name"] + ".json"), "w", encoding="utf-8") as out:
                json.dump(result, out, indent=1, ensure_ascii=False)
                out.write("\n")
            outcome = result["errorClass"] if "errorClass" in result else f"{len(result['batches'])} batches"
            print(f"{scenario['name']}: {outcome} in {time.monotonic() - scenario_started:.1f}s", flush=True)
    finally:
        spark.stop()
        if not args.work_dir:
            shutil.rmtree(work_dir, ignore_errors=True)
    print(f"done in {time.monotonic() - started:.1f}s")


if __name__ == "__main__":
    main(sys.argv[1:])
