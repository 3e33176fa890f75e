#!/usr/bin/env python3
"""Produces the golden answers in tests/golden/expected/ by running the cases in
tests/golden/cases/ on real Apache Spark (PySpark, pinned version below).

Run it through scripts/generate-golden.sh, which prepares a venv with the pinned
PySpark; developers run it by hand, CI never does. Usage:

    generate.py [AREA ...]      regenerate all areas, or only the named ones

Case format (tests/golden/cases/<area>.py defines CASES, a list of dicts):
    name     unique snake_case name (unique across all areas)
    conf     optional {spark conf key: value}, set for this case only
    tables   {table name: {"schema": DDL string, "rows": [[JSON scalars], ...]}}
             timestamps are ISO 8601 strings with Z or an offset, timestamp_ntz
             and dates ISO strings without a zone, decimals strings; doubles and
             floats may also be "NaN", "Infinity", "-Infinity"
    ops      operations applied in order to table "t":
             {"op": "selectExpr", "exprs": [...]}, {"op": "filter", "condition": ...},
             {"op": "groupBy", "keys": [...], "aggs": [...]} (no keys: global aggregate),
             {"op": "orderBy", "keys": ["a DESC NULLS LAST", "b"]}, {"op": "limit", "n": N},
             {"op": "distinct"}, {"op": "union", "table": T},
             {"op": "unionByName", "table": T, "allowMissingColumns": bool},
             {"op": "join", "table": T, "on": COND, "how": HOW} (the left input is
             aliased "t", the right one by its table name; "on" may be omitted for
             how="cross"), {"op": "withColumn", "name": N, "expr": E},
             {"op": "drop", "columns": [...]},
             {"op": "sql", "query": Q} (every table registered as a temporary view
             of its name; the result of spark.sql(Q) replaces the input)
    ordered  optional bool (default false): true when a final orderBy defines the
             row order; otherwise rows compare as a multiset

Expected file (tests/golden/expected/<area>.json):
    {"generated_with": "pyspark X.Y.Z", "cases": [case]}, where each case holds the
    fields above (conf and ordered always present) plus either
    "schema": [{"name", "type" (Spark simpleString), "nullable"}] and "rows", or
    "error": the Spark error condition (e.g. "DIVIDE_BY_ZERO", possibly with a
    sub-condition such as "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE").
    Rows of ordered cases are in Spark's order; rows of unordered cases are sorted by
    their JSON text (Spark's order is not stable across runs), compare them as a multiset.

Canonical value encoding in "rows":
    null                  null
    boolean               true / false
    tinyint..bigint       JSON integer
    float, double         JSON number (Python float repr; a float is widened to
                          double first) when finite, else "NaN", "Infinity", "-Infinity"
    decimal(p,s)          string in plain notation with exactly s fraction digits, "1.50"
    string                JSON string
    binary                lowercase hex string
    date                  "YYYY-MM-DD" (proleptic Gregorian; a year outside 0000..9999
                          is written with its sign, "+10000-01-01", "-0001-01-01")
    timestamp             "YYYY-MM-DDTHH:MM:SS.ffffffZ" in UTC, always 6 fraction digits
    timestamp_ntz         "YYYY-MM-DDTHH:MM:SS.ffffff" (years 0001..9999 only)
    array                 JSON array
    struct                JSON array of the field values in field order
    map                   JSON array of [key, value] pairs in Spark's order
    void (NULL literal)   null
"""

import datetime
import decimal
import importlib.util
import json
import math
import os
import re
import sys
import time

PINNED_PYSPARK = "4.0.1"

GOLDEN_DIR = os.path.dirname(os.path.abspath(__file__))
CASES_DIR = os.path.join(GOLDEN_DIR, "cases")
EXPECTED_DIR = os.path.join(GOLDEN_DIR, "expected")

# Collected timestamps are converted to Python datetimes in the process time zone.
os.environ["TZ"] = "UTC"
time.tzset()
os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

import pyspark  # noqa: E402
from py4j.protocol import Py4JJavaError  # noqa: E402
from pyspark.errors import PySparkException  # noqa: E402
from pyspark.logger import PySparkLogger  # noqa: E402
from pyspark.sql import SparkSession  # noqa: E402
from pyspark.sql import functions as F  # noqa: E402
from pyspark.sql import types as T  # noqa: E402

BASE_CONF = {
    "spark.master": "local[1]",
    "spark.app.name": "sluice-golden",
    "spark.sql.shuffle.partitions": "1",
    "spark.default.parallelism": "1",
    "spark.sql.session.timeZone": "UTC",
    "spark.driver.extraJavaOptions": "-Duser.timezone=UTC",
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
}

CASE_KEYS = {"name", "conf", "tables", "ops", "ordered"}
OP_KEYS = {
    "selectExpr": {"exprs"},
    "filter": {"condition"},
    "groupBy": {"keys", "aggs"},
    "orderBy": {"keys"},
    "limit": {"n"},
    "distinct": set(),
    "union": {"table"},
    "unionByName": {"table", "allowMissingColumns"},
    "join": {"table", "on", "how"},
    "withColumn": {"name", "expr"},
    "drop": {"columns"},
    "sql": {"query"},
}
JOIN_TYPES = {"inner", "left", "right", "full", "left_semi", "left_anti", "cross"}
NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")
SORT_KEY_RE = re.compile(
    r"^(?P<expr>.*?)(?:\s+(?P<dir>ASC|DESC))?(?:\s+NULLS\s+(?P<nulls>FIRST|LAST))?\s*$",
    re.IGNORECASE | re.DOTALL,
)


class CaseError(Exception):
    """A case file is malformed, or Spark failed in a way that is not a Spark error condition."""


# ---------------------------------------------------------------------------
# Loading and validating case files


def load_area(area):
    path = os.path.join(CASES_DIR, area + ".py")
    spec = importlib.util.spec_from_file_location("golden_cases_" + area, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cases = getattr(module, "CASES", None)
    if not isinstance(cases, list):
        raise CaseError(f"{area}.py must define CASES as a list")
    return cases


def validate_case(area, case):
    where = f"{area}: {case.get('name', '<unnamed>')}"
    unknown = set(case) - CASE_KEYS
    if unknown:
        raise CaseError(f"{where}: unknown case keys {sorted(unknown)}")
    if not NAME_RE.match(case.get("name", "")):
        raise CaseError(f"{where}: name must be snake_case")
    tables = case.get("tables")
    if not isinstance(tables, dict) or "t" not in tables:
        raise CaseError(f"{where}: tables must contain table 't'")
    for table_name, table in tables.items():
        if set(table) != {"schema", "rows"}:
            raise CaseError(f"{where}: table {table_name} needs exactly schema and rows")
        for row in table["rows"]:
            for value in row:
                if value is not None and not isinstance(value, (bool, int, float, str)):
                    raise CaseError(f"{where}: table {table_name} holds a non-scalar {value!r}")
    ops = case.get("ops")
    if not isinstance(ops, list) or not ops:
        raise CaseError(f"{where}: ops must be a non-empty list")
    for op in ops:
        kind = op.get("op")
        if kind not in OP_KEYS:
            raise CaseError(f"{where}: unknown op {kind!r}")
        keys = set(op) - {"op"}
        allowed = OP_KEYS[kind]
        required = allowed - ({"on"} if kind == "join" and op.get("how") == "cross" else set())
        required -= {"allowMissingColumns"}
        if not required <= keys <= allowed:
            raise CaseError(f"{where}: op {kind} needs keys {sorted(required)}, has {sorted(keys)}")
        if kind == "join" and op["how"] not in JOIN_TYPES:
            raise CaseError(f"{where}: unknown join type {op['how']!r}")
        if kind in ("union", "unionByName", "join") and op["table"] not in tables:
            raise CaseError(f"{where}: op {kind} names missing table {op['table']!r}")


# ---------------------------------------------------------------------------
# Input conversion: JSON scalars to the Python values PySpark expects per type


def parse_input(value, dtype, where):
    if value is None:
        return None
    if isinstance(dtype, (T.FloatType, T.DoubleType)):
        if isinstance(value, str):
            specials = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
            if value not in specials:
                raise CaseError(f"{where}: bad floating point input {value!r}")
            return specials[value]
        return float(value)
    if isinstance(dtype, T.DecimalType):
        if not isinstance(value, str):
            raise CaseError(f"{where}: decimal inputs are strings, got {value!r}")
        parsed = decimal.Decimal(value)
        exponent = parsed.as_tuple().exponent
        integer_digits = max(parsed.adjusted() + 1, 0)
        if -exponent > dtype.scale or integer_digits > dtype.precision - dtype.scale:
            raise CaseError(f"{where}: {value!r} does not fit {dtype.simpleString()}")
        return parsed
    if isinstance(dtype, T.TimestampType):
        parsed = datetime.datetime.fromisoformat(value)
        if parsed.tzinfo is None:
            raise CaseError(f"{where}: timestamp input {value!r} needs Z or an offset")
        return parsed
    if isinstance(dtype, T.TimestampNTZType):
        parsed = datetime.datetime.fromisoformat(value)
        if parsed.tzinfo is not None:
            raise CaseError(f"{where}: timestamp_ntz input {value!r} must not have a zone")
        return parsed
    if isinstance(dtype, T.DateType):
        return datetime.date.fromisoformat(value)
    if isinstance(
        dtype,
        (T.BooleanType, T.ByteType, T.ShortType, T.IntegerType, T.LongType, T.StringType),
    ):
        return value
    raise CaseError(f"{where}: input type {dtype.simpleString()} is not supported")


def create_table(spark, name, table, where):
    schema = T._parse_datatype_string(table["schema"])
    if not isinstance(schema, T.StructType):
        raise CaseError(f"{where}: schema of {name} is not a struct")
    rows = []
    for row in table["rows"]:
        if len(row) != len(schema.fields):
            raise CaseError(f"{where}: row {row!r} of {name} does not match its schema")
        rows.append(
            tuple(parse_input(v, f.dataType, f"{where}: {name}.{f.name}") for v, f in zip(row, schema.fields))
        )
    return spark.createDataFrame(rows, schema=schema).alias(name)


# ---------------------------------------------------------------------------
# Running a case


def sort_column(key):
    match = SORT_KEY_RE.match(key)
    column = F.expr(match.group("expr"))
    descending = (match.group("dir") or "ASC").upper() == "DESC"
    nulls = (match.group("nulls") or ("LAST" if descending else "FIRST")).upper()
    if descending:
        return column.desc_nulls_first() if nulls == "FIRST" else column.desc_nulls_last()
    return column.asc_nulls_first() if nulls == "FIRST" else column.asc_nulls_last()


def apply_op(df, op, tables):
    kind = op["op"]
    if kind == "selectExpr":
        return df.selectExpr(*op["exprs"])
    if kind == "filter":
        return df.filter(op["condition"])
    if kind == "groupBy":
        return df.groupBy(*[F.expr(k) for k in op["keys"]]).agg(*[F.expr(a) for a in op["aggs"]])
    if kind == "orderBy":
        return df.orderBy(*[sort_column(k) for k in op["keys"]])
    if kind == "limit":
        return df.limit(op["n"])
    if kind == "distinct":
        return df.distinct()
    if kind == "union":
        return df.union(tables[op["table"]])
    if kind == "unionByName":
        return df.unionByName(tables[op["table"]], allowMissingColumns=op.get("allowMissingColumns", False))
    if kind == "join":
        right = tables[op["table"]]
        if "on" in op:
            return df.alias("t").join(right, F.expr(op["on"]), op["how"])
        return df.alias("t").crossJoin(right)
    if kind == "withColumn":
        return df.withColumn(op["name"], F.expr(op["expr"]))
    if kind == "drop":
        return df.drop(*op["columns"])
    if kind == "sql":
        for name, table in tables.items():
            table.createOrReplaceTempView(name)
        return df.sparkSession.sql(op["query"])
    raise CaseError(f"unknown op {kind}")


def needs_rewrite(dtype):
    if isinstance(dtype, (T.MapType, T.DateType, T.TimestampType)):
        return True
    if isinstance(dtype, T.ArrayType):
        return needs_rewrite(dtype.elementType)
    if isinstance(dtype, T.StructType):
        return any(needs_rewrite(f.dataType) for f in dtype.fields)
    return False


def collectable(column, dtype):
    """Rewrites a result column (at any depth) so that collect() returns exact values:
    dates become days since the epoch and timestamps microseconds since the epoch
    (Python's datetime cannot hold every year Spark can), and maps become arrays of
    (key, value) structs (collect() builds dicts from a Java HashMap, losing Spark's
    entry order)."""
    if not needs_rewrite(dtype):
        return column
    if isinstance(dtype, T.DateType):
        return F.unix_date(column)
    if isinstance(dtype, T.TimestampType):
        return F.unix_micros(column)
    if isinstance(dtype, T.MapType):
        return F.transform(
            F.map_entries(column),
            lambda e: F.struct(
                collectable(e.getField("key"), dtype.keyType).alias("key"),
                collectable(e.getField("value"), dtype.valueType).alias("value"),
            ),
        )
    if isinstance(dtype, T.ArrayType):
        return F.transform(column, lambda e: collectable(e, dtype.elementType))
    fields = [
        collectable(column.getField(f.name), f.dataType).alias(f"f{i}") for i, f in enumerate(dtype.fields)
    ]
    return F.when(column.isNull(), F.lit(None)).otherwise(F.struct(*fields))


def collect(df):
    schema = df.schema
    if not any(needs_rewrite(f.dataType) for f in schema.fields):
        return schema, df.collect()
    renamed = df.toDF(*[f"c{i}" for i in range(len(schema.fields))])
    columns = [collectable(F.col(f"c{i}"), f.dataType) for i, f in enumerate(schema.fields)]
    return schema, renamed.select(*columns).collect()


def error_condition(exc):
    condition = exc.getCondition() if isinstance(exc, PySparkException) else None
    if condition:
        return condition
    java = exc.java_exception if isinstance(exc, Py4JJavaError) else getattr(exc, "_origin", None)
    while java is not None:
        try:
            condition = java.getCondition()
        except Exception:  # not a SparkThrowable
            condition = None
        if condition:
            return condition
        java = java.getCause()
    return None


def run_case(spark, area, case):
    where = f"{area}: {case['name']}"
    result = {
        "name": case["name"],
        "conf": case.get("conf", {}),
        "tables": case["tables"],
        "ops": case["ops"],
        "ordered": case.get("ordered", False),
    }
    for key, value in result["conf"].items():
        spark.conf.set(key, value)
    try:
        tables = {n: create_table(spark, n, t, where) for n, t in case["tables"].items()}
        try:
            df = tables["t"]
            for op in case["ops"]:
                df = apply_op(df, op, tables)
            schema, rows = collect(df)
        except (PySparkException, Py4JJavaError) as exc:
            # A plain org.apache.spark.SparkException reaches Python as a Py4JJavaError.
            condition = error_condition(exc)
            if condition is None:
                raise CaseError(f"{where}: Spark raised an error without a condition: {exc}") from exc
            result["error"] = condition
            return result
    finally:
        for key in result["conf"]:
            if key in BASE_CONF:
                spark.conf.set(key, BASE_CONF[key])
            else:
                spark.conf.unset(key)
    result["schema"] = [
        {"name": f.name, "type": f.dataType.simpleString(), "nullable": f.nullable} for f in schema.fields
    ]
    encoded = [encode_row(row, schema, where) for row in rows]
    if not result["ordered"]:
        # Spark's order is not stable across runs (e.g. the output of a hash join), so
        # unordered results are sorted by their JSON text for deterministic files.
        encoded.sort(key=lambda row: json.dumps(row, ensure_ascii=False))
    result["rows"] = encoded
    return result


# ---------------------------------------------------------------------------
# Output encoding (see the module docstring)


def civil_from_days(days):
    """Proleptic Gregorian (year, month, day) of a count of days since 1970-01-01."""
    days += 719468
    era = days // 146097
    day_of_era = days - era * 146097
    year_of_era = (day_of_era - day_of_era // 1460 + day_of_era // 36524 - day_of_era // 146096) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    shifted_month = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * shifted_month + 2) // 5 + 1
    month = shifted_month + 3 if shifted_month < 10 else shifted_month - 9
    year = year_of_era + era * 400 + (1 if month <= 2 else 0)
    return year, month, day


def format_date(days):
    year, month, day = civil_from_days(days)
    year_text = f"{year:04d}" if 0 <= year <= 9999 else f"{year:+05d}"
    return f"{year_text}-{month:02d}-{day:02d}"


def format_micros(micros):
    days, micros_of_day = divmod(micros, 86_400_000_000)
    seconds, micro = divmod(micros_of_day, 1_000_000)
    return (
        f"{format_date(days)}T{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}.{micro:06d}"
    )


def encode_value(value, dtype, where):
    if value is None or isinstance(dtype, T.NullType):
        return None
    if isinstance(dtype, T.BooleanType):
        return bool(value)
    if isinstance(dtype, (T.ByteType, T.ShortType, T.IntegerType, T.LongType)):
        return int(value)
    if isinstance(dtype, (T.FloatType, T.DoubleType)):
        value = float(value)
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return value
    if isinstance(dtype, T.DecimalType):
        context = decimal.Context(prec=100)
        return format(value.quantize(decimal.Decimal(1).scaleb(-dtype.scale), context=context), "f")
    if isinstance(dtype, (T.StringType, T.CharType, T.VarcharType)):
        return str(value)
    if isinstance(dtype, T.BinaryType):
        return bytes(value).hex()
    if isinstance(dtype, T.DateType):
        return format_date(value)  # collected as days since the epoch
    if isinstance(dtype, T.TimestampType):
        return format_micros(value) + "Z"  # collected as microseconds since the epoch
    if isinstance(dtype, T.TimestampNTZType):
        delta = value - datetime.datetime(1970, 1, 1)
        return format_micros((delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds)
    if isinstance(dtype, T.DayTimeIntervalType):
        # Collected as a timedelta; encoded as its microseconds.
        return (value.days * 86_400 + value.seconds) * 1_000_000 + value.microseconds
    if isinstance(dtype, T.ArrayType):
        return [encode_value(v, dtype.elementType, where) for v in value]
    if isinstance(dtype, T.StructType):
        return [encode_value(value[i], f.dataType, where) for i, f in enumerate(dtype.fields)]
    if isinstance(dtype, T.MapType):
        # Collected through collectable(): a list of (key, value) structs.
        return [
            [encode_value(e[0], dtype.keyType, where), encode_value(e[1], dtype.valueType, where)]
            for e in value
        ]
    raise CaseError(f"{where}: result type {dtype.simpleString()} has no canonical encoding")


def encode_row(row, schema, where):
    return [encode_value(row[i], f.dataType, where) for i, f in enumerate(schema.fields)]


# ---------------------------------------------------------------------------


def make_session():
    builder = SparkSession.builder
    for key, value in BASE_CONF.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("OFF")
    for logger_name in ("SQLQueryContextLogger", "DataFrameQueryContextLogger"):
        PySparkLogger.getLogger(logger_name).disabled = True
    return spark


def main(argv):
    if pyspark.__version__ != PINNED_PYSPARK:
        sys.exit(
            f"expected pyspark {PINNED_PYSPARK}, found {pyspark.__version__}; use scripts/generate-golden.sh"
        )
    areas = sorted(f[:-3] for f in os.listdir(CASES_DIR) if f.endswith(".py") and not f.startswith("_"))
    selected = argv or areas
    for area in selected:
        if area not in areas:
            sys.exit(f"unknown area {area!r}; areas: {', '.join(areas)}")

    sys.dont_write_bytecode = True  # keep __pycache__ out of the case folder
    sys.path.append(CASES_DIR)  # for the cases' shared helpers; appended so no case file shadows a module
    loaded = {area: load_area(area) for area in areas}
    seen = {}
    for area, cases in loaded.items():
        for case in cases:
            validate_case(area, case)
            if case["name"] in seen:
                raise CaseError(f"case name {case['name']} used in {seen[case['name']]} and {area}")
            seen[case["name"]] = area

    started = time.monotonic()
    spark = make_session()
    os.makedirs(EXPECTED_DIR, exist_ok=True)
    for area in selected:
        area_started = time.monotonic()
        results = [run_case(spark, area, case) for case in loaded[area]]
        document = {"generated_with": f"pyspark {pyspark.__version__}", "cases": results}
        path = os.path.join(EXPECTED_DIR, area + ".json")
        with open(path, "w", encoding="utf-8") as out:
            json.dump(document, out, indent=1, sort_keys=False, ensure_ascii=False)
            out.write("\n")
        errors = sum(1 for r in results if "error" in r)
        print(
            f"{area}: {len(results)} cases ({errors} expect an error) "
            f"in {time.monotonic() - area_started:.1f}s",
            flush=True,
        )
    spark.stop()
    print(f"done in {time.monotonic() - started:.1f}s")


if __name__ == "__main__":
    main(sys.argv[1:])
