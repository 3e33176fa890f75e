"""Shorthands for writing cases; every helper returns plain case dicts (see generate.py)."""

UTC = {"spark.sql.session.timeZone": "UTC"}
LOS_ANGELES = {"spark.sql.session.timeZone": "America/Los_Angeles"}

# A one-row table for expressions over literals only.
ONE_ROW = {"schema": "id INT", "rows": [[1]]}


def table(schema, rows):
    return {"schema": schema, "rows": rows}


def case(name, t, ops, conf=None, ordered=False, **other_tables):
    result = {"name": name, "tables": {"t": t, **other_tables}, "ops": ops}
    if conf:
        result["conf"] = conf
    if ordered:
        result["ordered"] = True
    return result


def select(name, t, exprs, conf=None):
    """One case evaluating several expressions that cannot raise an error."""
    return case(name, t, [{"op": "selectExpr", "exprs": list(exprs)}], conf)


def select_each(prefix, t, named_exprs, conf=None):
    """One case per expression, for expressions that may raise an error."""
    return [select(f"{prefix}_{suffix}", t, [expr], conf) for suffix, expr in named_exprs.items()]


def in_both_zones(name, t, exprs):
    """The same selection under session time zones UTC and America/Los_Angeles."""
    return [
        select(f"{name}_utc", t, exprs, UTC),
        select(f"{name}_la", t, exprs, LOS_ANGELES),
    ]
