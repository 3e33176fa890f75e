"""Rows between Python and Arrow: collect()'s Row objects from an Arrow table, and the Arrow
table createDataFrame builds from Python rows."""

import datetime
from typing import Any, Callable, List, Optional

import pyarrow as pa

from sluice.errors import PySparkTypeError, PySparkValueError
from sluice.sql.types import (ArrayType, DataType, MapType, NullType, Row, StructField,
                              StructType, TimestampType, _infer_type, _create_row,
                              to_arrow_schema)


def import_table(capsule: Any) -> pa.Table:
    """The pyarrow Table of an Arrow C stream capsule made by the extension module."""
    return pa.RecordBatchReader._import_from_c_capsule(capsule).read_all()


def import_schema(capsule: Any) -> pa.Schema:
    return pa.Schema._import_from_c_capsule(capsule)


# ---- Arrow -> Python rows ----

def _from_arrow_converter(arrow_type: pa.DataType) -> Optional[Callable[[Any], Any]]:
    """How a value pyarrow's to_pylist gives becomes the value PySpark gives (None: as is)."""
    if pa.types.is_struct(arrow_type):
        names = [arrow_type.field(i).name for i in range(arrow_type.num_fields)]
        converters = [_from_arrow_converter(arrow_type.field(i).type)
                      for i in range(arrow_type.num_fields)]

        def struct(value: Any) -> Any:
            if value is None:
                return None
            values = [value[n] if c is None or value[n] is None else c(value[n])
                      for n, c in zip(names, converters)]
            return _create_row(names, values)
        return struct
    if pa.types.is_map(arrow_type):
        key = _from_arrow_converter(arrow_type.key_type)
        item = _from_arrow_converter(arrow_type.item_type)

        def mapping(value: Any) -> Any:
            if value is None:
                return None
            return {(k if key is None or k is None else key(k)):
                    (v if item is None or v is None else item(v)) for k, v in value}
        return mapping
    if pa.types.is_list(arrow_type) or pa.types.is_large_list(arrow_type):
        element = _from_arrow_converter(arrow_type.value_type)
        if element is None:
            return None
        return lambda value: None if value is None else [
            None if v is None else element(v) for v in value]
    if pa.types.is_timestamp(arrow_type) and arrow_type.tz is not None:
        # PySpark gives TIMESTAMP values as naive datetimes in the local time zone.
        return lambda value: None if value is None else value.astimezone().replace(tzinfo=None)
    return None


def table_to_rows(table: pa.Table) -> List[Row]:
    """The rows of `table` as Row objects, values as PySpark gives them."""
    names = table.schema.names
    columns = []
    for field, chunked in zip(table.schema, table.columns):
        values = chunked.to_pylist()
        converter = _from_arrow_converter(field.type)
        if converter is not None:
            values = [converter(v) for v in values]
        columns.append(values)
    return [_create_row(names, values) for values in zip(*columns)] if columns else \
        [_create_row([], []) for _ in range(table.num_rows)]


# ---- Python rows -> Arrow ----

def _to_arrow_value(data_type: DataType, value: Any) -> Any:
    """A Python value in the shape pyarrow takes for the Arrow type of `data_type`."""
    if value is None:
        return None
    if isinstance(data_type, StructType):
        if isinstance(value, dict):
            return {f.name: _to_arrow_value(f.dataType, value.get(f.name)) for f in data_type}
        if isinstance(value, Row) and hasattr(value, "__fields__"):
            return {f.name: _to_arrow_value(f.dataType, value[f.name]) for f in data_type}
        return {f.name: _to_arrow_value(f.dataType, v) for f, v in zip(data_type.fields, value)}
    if isinstance(data_type, ArrayType):
        return [_to_arrow_value(data_type.elementType, v) for v in value]
    if isinstance(data_type, MapType):
        return [(_to_arrow_value(data_type.keyType, k), _to_arrow_value(data_type.valueType, v))
                for k, v in value.items()]
    if isinstance(data_type, TimestampType) and isinstance(value, datetime.datetime) \
            and value.tzinfo is None:
        # PySpark reads a naive datetime as local time.
        return value.astimezone()
    return value


def _row_values(row: Any, schema: StructType) -> List[Any]:
    """The values of one input row (Row, dict, tuple, list or a single value) in the order of
    the schema's fields."""
    if isinstance(row, dict):
        return [row.get(name) for name in schema.names]
    if isinstance(row, Row) and hasattr(row, "__fields__"):
        if set(row.__fields__) >= set(schema.names):
            return [row[name] for name in schema.names]
        return list(row)
    if isinstance(row, (tuple, list)):
        if len(row) != len(schema.fields):
            raise PySparkValueError(
                "Length of object (%d) does not match with length of fields (%d)"
                % (len(row), len(schema.fields)), errorClass="LENGTH_SHOULD_BE_THE_SAME")
        return list(row)
    return [row]


def _names_of(row: Any) -> List[str]:
    if isinstance(row, dict):
        return sorted(row.keys())
    if isinstance(row, Row) and hasattr(row, "__fields__"):
        return list(row.__fields__)
    if isinstance(row, (tuple, list)):
        return ["_%d" % (i + 1) for i in range(len(row))]
    raise PySparkTypeError("Can not infer schema for type: %s" % type(row).__name__,
                           errorClass="CANNOT_INFER_SCHEMA_FOR_TYPE")


def infer_schema(rows: List[Any], names: Optional[List[str]] = None) -> StructType:
    """PySpark's schema inference: field names from the first row (dict keys sorted, Row
    fields, _1, _2, ... for tuples) or `names`; each type from the column's first non-null
    value."""
    if not rows:
        raise PySparkValueError("can not infer schema from empty dataset",
                                errorClass="CANNOT_INFER_EMPTY_SCHEMA")
    inferred_names = _names_of(rows[0])
    if names:
        inferred_names = list(names) + inferred_names[len(names):]
    provisional = StructType([StructField(n, NullType()) for n in inferred_names])
    fields = []
    for i, name in enumerate(inferred_names):
        data_type: DataType = NullType()
        for row in rows:
            value = _row_values(row, provisional)[i]
            if value is not None:
                data_type = _infer_type(value)
                break
        if isinstance(data_type, NullType):
            raise PySparkValueError(
                "Some of types cannot be determined after inferring, a StructType Schema is "
                "required in this case: column %s" % name, errorClass="CANNOT_DETERMINE_TYPE")
        fields.append(StructField(name, data_type, True))
    return StructType(fields)


def rows_to_table(rows: List[Any], schema: StructType) -> pa.Table:
    """An Arrow table of the rows, typed by `schema`."""
    arrow_schema = to_arrow_schema(schema)
    columns: List[List[Any]] = [[] for _ in schema.fields]
    for row in rows:
        for column, field, value in zip(columns, schema.fields, _row_values(row, schema)):
            column.append(_to_arrow_value(field.dataType, value))
    arrays = [pa.array(values, type=field.type) for values, field in zip(columns, arrow_schema)]
    return pa.Table.from_arrays(arrays, schema=arrow_schema)

