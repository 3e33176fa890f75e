#!/usr/bin/env python3
"""The independent Delta reader and writer of the Delta tests: delta-rs (the `deltalake`
package), driven from C++ tests through tests/support/delta_rs.h.

    delta_rs_tool.py read TABLE [VERSION]   rows of the table, one compact JSON array per
                                            line, sorted, after a first line
                                            {"version":V,"columns":[...]}
    delta_rs_tool.py txn TABLE APP_ID        the table's transaction version of APP_ID, or null
    delta_rs_tool.py fixture TABLE           writes the fixture table the tests read back

Values print as JSON: numbers, strings, null; dates and timestamps as ISO strings
(timestamps in UTC with microseconds).
"""
import datetime
import json
import os
import sys

import pyarrow as pa
from deltalake import DeltaTable, write_deltalake


def plain(value):
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return value.isoformat(timespec="microseconds")
    if isinstance(value, datetime.date):
        return value.isoformat()
    return value


def read(table, version=None):
    dt = DeltaTable(table, version=int(version) if version is not None else None)
    data = dt.to_pyarrow_table()
    print(json.dumps({"version": dt.version(), "columns": data.column_names},
                     separators=(",", ":")))
    rows = [json.dumps([plain(v) for v in row.values()], separators=(",", ":"))
            for row in data.to_pylist()]
    for row in sorted(rows):
        print(row)


def txn(table, app_id):
    dt = DeltaTable(table)
    print(json.dumps(dt.transaction_version(app_id)))


def fixture(table):
    """Three versions: a partitioned create, an append, and an overwrite of one partition's
    rows by a delete; then a checkpoint, and one more append after it."""
    first = pa.table({
        "id": pa.array([1, 2, 3], pa.int64()),
        "name": pa.array(["a", "b", None], pa.string()),
        "day": pa.array(["2024-01-01", "2024-01-02", None], pa.string()),
    })
    write_deltalake(table, first, partition_by=["day"])
    write_deltalake(table, pa.table({
        "id": pa.array([4], pa.int64()),
        "name": pa.array(["d"], pa.string()),
        "day": pa.array(["2024-01-01"], pa.string()),
    }), mode="append")
    DeltaTable(table).delete("id = 2")
    DeltaTable(table).create_checkpoint()
    write_deltalake(table, pa.table({
        "id": pa.array([5], pa.int64()),
        "name": pa.array(["e"], pa.string()),
        "day": pa.array(["2024-01-03"], pa.string()),
    }), mode="append")


def main(argv):
    if len(argv) >= 3 and argv[1] == "read":
        read(argv[2], argv[3] if len(argv) > 3 else None)
    elif len(argv) == 4 and argv[1] == "txn":
        txn(argv[2], argv[3])
    elif len(argv) == 3 and argv[1] == "fixture":
        fixture(argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
    # delta-rs's runtime threads can abort the interpreter's shutdown after the work is done
    # and printed: leave without it.
    sys.stdout.flush()
    os._exit(0)
