"""The seeds' Kafka examples (seeds 000 and 003) against a real broker, run with only their
imports changed: the ctest fixture kafka_broker runs the broker and names its state folder in
SLUICE_KAFKA_STATE_DIR (as for the C++ Kafka tests); without it these tests are skipped.

Each seed program is run as it stands in tests/seeds, its text changed only where the test puts
its broker's address, its own folders and a topic of its own in place of the seed's strings."""

import json
import os
import subprocess
import sys
import time
import uuid
from datetime import datetime, timezone

import pyarrow.parquet as pq
import pytest
from deltalake import DeltaTable

SEEDS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "seeds")


@pytest.fixture(scope="module")
def bootstrap():
    """The address of the fixture's broker, "127.0.0.1:<port>"."""
    state_dir = os.environ.get("SLUICE_KAFKA_STATE_DIR")
    if not state_dir:
        pytest.skip("needs the Kafka broker of the ctest fixture kafka_broker "
                    "(SLUICE_KAFKA_STATE_DIR is not set): run ctest -R python_kafka_tests")
    with open(os.path.join(state_dir, "bootstrap")) as f:
        return f.read().strip()


def seed_program(name, tmp_path, replacements):
    """Writes the seed program `name` into tmp_path with each string of `replacements`
    replaced (each must occur exactly once) and returns its path."""
    with open(os.path.join(SEEDS, name)) as f:
        text = f.read()
    for old, new in replacements.items():
        assert text.count(old) == 1, "%s should hold %r once" % (name, old)
        text = text.replace(old, new)
    program = tmp_path / name
    program.write_text(text)
    return program


def run_seed(program, cwd):
    """Starts the program in `cwd`; its output goes to <program>.log beside it."""
    with open(str(program) + ".log", "w") as log:
        return subprocess.Popen([sys.executable, str(program)], cwd=str(cwd), stdout=log,
                                stderr=subprocess.STDOUT, env=dict(os.environ, TZ="UTC"))


def stop(process):
    process.kill()
    process.wait()


def produce(spark, bootstrap, topic, records):
    """Writes `records` (dicts) to `topic` as JSON values, through Sluice's batch Kafka writer."""
    rows = [(json.dumps(record),) for record in records]
    (spark.createDataFrame(rows, "value STRING").write.format("kafka")
     .option("kafka.bootstrap.servers", bootstrap).option("topic", topic).save())


def wait_for(condition, process, seconds, what):
    """Polls condition() until it holds; fails when `process` ends first or time runs out."""
    deadline = time.monotonic() + seconds
    while not condition():
        if process.poll() is not None:
            pytest.fail("the seed program ended (exit code %d) before %s:\n%s"
                        % (process.returncode, what, program_output(process)))
        if time.monotonic() > deadline:
            stop(process)
            pytest.fail("no %s after %d s:\n%s" % (what, seconds, program_output(process)))
        time.sleep(0.2)


def program_output(process):
    with open(process.args[1] + ".log") as log:
        return log.read()


def test_seed_000_kafka_to_delta_table(spark, bootstrap, tmp_path):
    topic = "orders_" + uuid.uuid4().hex
    orders = [{"order_id": 1, "customer": "ada", "amount": 12.5},
              {"order_id": 2, "customer": "bob", "amount": 7.0},
              {"order_id": 3, "customer": "ada", "amount": 30.25}]
    produce(spark, bootstrap, topic, orders)
    program = seed_program("seed_000_kafka_to_delta.py", tmp_path, {
        '"broker:9092"': json.dumps(bootstrap),
        '"subscribe", "orders"': '"subscribe", %s' % json.dumps(topic),
        '"s3://chk/orders/"': json.dumps(str(tmp_path / "chk" / "orders")),
    })
    # The warehouse is spark-warehouse in the working folder, as in Spark; bronze.orders is
    # the Delta table <warehouse>/bronze.db/orders, read back by delta-rs.
    table_path = tmp_path / "spark-warehouse" / "bronze.db" / "orders"
    run_until_committed(program, tmp_path, tmp_path / "chk" / "orders", 0)
    table = DeltaTable(str(table_path))
    assert table.schema().to_arrow().names == ["order_id", "customer", "amount"]
    assert sorted_orders(table) == orders
    # "A Delta sink records the batch id with the commit."
    assert streaming_txn_versions(table_path) == [0]

    # The program was killed; run it again on the same checkpoint: the query goes on where it
    # stopped, so the table gets the new order once and none of the earlier ones again.
    later = {"order_id": 4, "customer": "cy", "amount": 1.75}
    produce(spark, bootstrap, topic, [later])
    run_until_committed(program, tmp_path, tmp_path / "chk" / "orders", 1)
    table = DeltaTable(str(table_path))
    assert sorted_orders(table) == orders + [later]
    assert streaming_txn_versions(table_path) == [0, 1]


def run_until_committed(program, cwd, checkpoint, batch_id):
    """Runs the seed program until its query commits `batch_id`, then kills it."""
    process = run_seed(program, cwd)
    try:
        wait_for(lambda: (checkpoint / "commits" / str(batch_id)).exists(), process, 60,
                 "batch %d committed" % batch_id)
    finally:
        stop(process)


def sorted_orders(table):
    return sorted(table.to_pyarrow_table().to_pylist(), key=lambda row: row["order_id"])


def streaming_txn_versions(table_path):
    """The batch ids (txn versions) that the table's commits record, in commit order."""
    versions = []
    for log in sorted((table_path / "_delta_log").glob("*.json")):
        for line in log.read_text().splitlines():
            action = json.loads(line)
            if "txn" in action:
                versions.append(action["txn"]["version"])
    return versions


def click(user, page, hhmm):
    return {"user_id": user, "page": page, "ts": "2026-03-02T%s:00" % hhmm}


def test_seed_003_windowed_click_counts(spark, bootstrap, tmp_path):
    topic = "clicks_" + uuid.uuid4().hex
    output = tmp_path / "data" / "clicks_per_page"
    checkpoint = tmp_path / "chk" / "clicks_per_page"
    # Before the query starts: startingOffsets "latest" leaves this one out.
    produce(spark, bootstrap, topic, [click("u0", "home", "12:01")])
    program = seed_program("seed_003_kafka_clicks.py", tmp_path, {
        '"localhost:9092"': json.dumps(bootstrap),
        '"subscribe", "clicks"': '"subscribe", %s' % json.dumps(topic),
        '"/data/clicks_per_page"': json.dumps(str(output)),
        '"/chk/clicks_per_page"': json.dumps(str(checkpoint)),
    })
    process = run_seed(program, tmp_path)
    try:
        # The first batch runs when the query starts and fixes the latest offsets.
        wait_for(lambda: (checkpoint / "commits" / "0").exists(), process, 60, "first batch")
        # The seed's walk-through: the latest event time seen is 12:17, so once the batch
        # holding these ends, the watermark is 12:07.
        produce(spark, bootstrap, topic, [
            click("u1", "home", "12:01"), click("u2", "cart", "12:02"),
            click("u1", "home", "12:03"), click("u3", "home", "12:06"),
            click("u2", "cart", "12:17"),
        ])
        # (the trigger's next tick, at most a minute later)
        wait_for(lambda: (checkpoint / "commits" / "1").exists(), process, 90, "batch 1")
        # A late event stamped 12:08 is counted in the open window 12:05-12:10. The window
        # 12:00-12:05, final, is written; 12:21 moves the watermark to 12:11.
        produce(spark, bootstrap, topic, [click("u4", "home", "12:08"),
                                          click("u5", "cart", "12:21")])
        wait_for(lambda: (checkpoint / "commits" / "2").exists(), process, 90, "batch 2")
        # An event stamped 12:03 is older than the watermark and dropped (Spark drops the rows
        # late by the previous batch's watermark, 12:07 here); the window 12:05-12:10 is final.
        produce(spark, bootstrap, topic, [click("u6", "home", "12:03")])
        wait_for(lambda: (checkpoint / "commits" / "3").exists(), process, 90, "batch 3")
    finally:
        stop(process)

    rows = pq.read_table(str(output)).to_pylist()
    got = sorted((row["window"]["start"], row["window"]["end"], row["page"], row["count"])
                 for row in rows)
    at = [datetime(2026, 3, 2, 12, minute, tzinfo=timezone.utc) for minute in (0, 5, 10)]
    # Each final window once; 12:15-12:20 (cart) is still open.
    assert got == [(at[0], at[1], "cart", 1), (at[0], at[1], "home", 2),
                   (at[1], at[2], "home", 2)]
