"""Spark SQL data types and Row, as in ``pyspark.sql.types``.

Each type maps to one Arrow type (the engine's mapping): ``to_arrow_type`` and
``from_arrow_type`` convert between them.
"""

import datetime
import decimal
from typing import Any, Dict, Iterator, List, Optional, Union

import pyarrow as pa

from sluice.errors import PySparkRuntimeError, PySparkTypeError, PySparkValueError

__all__ = [
    "DataType", "NullType", "StringType", "BinaryType", "BooleanType", "DateType",
    "TimestampType", "TimestampNTZType", "DecimalType", "DoubleType", "FloatType", "ByteType",
    "IntegerType", "LongType", "ShortType", "ArrayType", "MapType", "StructField", "StructType",
    "DayTimeIntervalType", "YearMonthIntervalType", "Row",
]


class DataType:
    """Base of the Spark SQL types."""

    def __repr__(self) -> str:
        return self.__class__.__name__ + "()"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, self.__class__) and self.__dict__ == other.__dict__

    def __ne__(self, other: Any) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(str(self))

    @classmethod
    def typeName(cls) -> str:
        return cls.__name__[:-4].lower()

    def simpleString(self) -> str:
        return self.typeName()

    def jsonValue(self) -> Any:
        return self.typeName()

    def needConversion(self) -> bool:
        return False


class _Atomic(DataType):
    """A type without parameters: one shared instance per class."""

    _instance = None

    def __new__(cls):
        if cls.__dict__.get("_instance") is None:
            cls._instance = super().__new__(cls)
        return cls._instance


class NullType(_Atomic):
    @classmethod
    def typeName(cls) -> str:
        return "void"


class StringType(_Atomic):
    pass


class BinaryType(_Atomic):
    pass


class BooleanType(_Atomic):
    pass


class DateType(_Atomic):
    pass


class TimestampType(_Atomic):
    pass


class TimestampNTZType(_Atomic):
    @classmethod
    def typeName(cls) -> str:
        return "timestamp_ntz"


class DoubleType(_Atomic):
    pass


class FloatType(_Atomic):
    pass


class ByteType(_Atomic):
    def simpleString(self) -> str:
        return "tinyint"


class ShortType(_Atomic):
    def simpleString(self) -> str:
        return "smallint"


class IntegerType(_Atomic):
    def simpleString(self) -> str:
        return "int"


class LongType(_Atomic):
    def simpleString(self) -> str:
        return "bigint"


class DecimalType(DataType):
    def __init__(self, precision: int = 10, scale: int = 0):
        self.precision = precision
        self.scale = scale

    def simpleString(self) -> str:
        return "decimal(%d,%d)" % (self.precision, self.scale)

    def jsonValue(self) -> str:
        return self.simpleString()

    def __repr__(self) -> str:
        return "DecimalType(%d,%d)" % (self.precision, self.scale)


class _IntervalType(DataType):
    """An ANSI interval type, named by its start and end fields."""

    _fields: Dict[int, str] = {}

    def __init__(self, startField: int, endField: int):
        self.startField = startField
        self.endField = endField

    def simpleString(self) -> str:
        start, end = self._fields[self.startField], self._fields[self.endField]
        return "interval %s" % (start if start == end else "%s to %s" % (start, end))

    typeName = simpleString  # type: ignore[assignment]
    jsonValue = simpleString  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "%s(%d, %d)" % (self.__class__.__name__, self.startField, self.endField)


class DayTimeIntervalType(_IntervalType):
    """Spark's interval day/hour/minute/second [to ...]: a timedelta in Python."""

    DAY, HOUR, MINUTE, SECOND = 0, 1, 2, 3
    _fields = {DAY: "day", HOUR: "hour", MINUTE: "minute", SECOND: "second"}

    def __init__(self, startField: int = DAY, endField: int = SECOND):
        super().__init__(startField, endField)


class YearMonthIntervalType(_IntervalType):
    """Spark's interval year/month [to month]."""

    YEAR, MONTH = 0, 1
    _fields = {YEAR: "year", MONTH: "month"}

    def __init__(self, startField: int = YEAR, endField: int = MONTH):
        super().__init__(startField, endField)


def _interval_type(name: str) -> DataType:
    """The interval type Spark names `name` ("interval minute", "interval day to second")."""
    words = name.split()[1:]
    start, end = words[0], words[-1]
    for cls in (DayTimeIntervalType, YearMonthIntervalType):
        by_name = {v: k for k, v in cls._fields.items()}
        if start in by_name and end in by_name:
            return cls(by_name[start], by_name[end])
    raise PySparkTypeError("Unsupported interval type %s" % name,
                           errorClass="UNSUPPORTED_DATA_TYPE")


class ArrayType(DataType):
    def __init__(self, elementType: DataType, containsNull: bool = True):
        self.elementType = elementType
        self.containsNull = containsNull

    def simpleString(self) -> str:
        return "array<%s>" % self.elementType.simpleString()

    def __repr__(self) -> str:
        return "ArrayType(%r, %s)" % (self.elementType, self.containsNull)


class MapType(DataType):
    def __init__(self, keyType: DataType, valueType: DataType, valueContainsNull: bool = True):
        self.keyType = keyType
        self.valueType = valueType
        self.valueContainsNull = valueContainsNull

    def simpleString(self) -> str:
        return "map<%s,%s>" % (self.keyType.simpleString(), self.valueType.simpleString())

    def __repr__(self) -> str:
        return "MapType(%r, %r, %s)" % (self.keyType, self.valueType, self.valueContainsNull)


class StructField(DataType):
    def __init__(self, name: str, dataType: DataType, nullable: bool = True,
                 metadata: Optional[Dict[str, Any]] = None):
        if not isinstance(dataType, DataType):
            raise PySparkTypeError(
                "dataType %r should be an instance of DataType" % (dataType,),
                errorClass="NOT_DATATYPE")
        self.name = name
        self.dataType = dataType
        self.nullable = nullable
        self.metadata = metadata or {}

    def simpleString(self) -> str:
        return "%s:%s" % (self.name, self.dataType.simpleString())

    def __repr__(self) -> str:
        return "StructField(%r, %r, %s)" % (self.name, self.dataType, self.nullable)


class StructType(DataType):
    def __init__(self, fields: Optional[List[StructField]] = None):
        self.fields = list(fields or [])
        self.names = [f.name for f in self.fields]

    def add(self, field: Union[str, StructField], data_type: Union[str, DataType, None] = None,
            nullable: bool = True, metadata: Optional[Dict[str, Any]] = None) -> "StructType":
        """Appends a field (a StructField, or a name with a type or DDL type name); returns
        self, for chaining."""
        if isinstance(field, StructField):
            self.fields.append(field)
        else:
            if data_type is None:
                raise PySparkValueError("Must specify DataType if passing name of struct_field",
                                        errorClass="ARGUMENT_REQUIRED")
            if isinstance(data_type, str):
                data_type = _parse_datatype_string(data_type)
            self.fields.append(StructField(field, data_type, nullable, metadata))
        self.names = [f.name for f in self.fields]
        return self

    def fieldNames(self) -> List[str]:
        return list(self.names)

    def __iter__(self) -> Iterator[StructField]:
        return iter(self.fields)

    def __len__(self) -> int:
        return len(self.fields)

    def __getitem__(self, key: Union[str, int, slice]) -> Any:
        if isinstance(key, str):
            for field in self.fields:
                if field.name == key:
                    return field
            raise KeyError("No StructField named {0}".format(key))
        if isinstance(key, int):
            return self.fields[key]
        if isinstance(key, slice):
            return StructType(self.fields[key])
        raise PySparkTypeError("StructType keys should be strings, integers or slices",
                               errorClass="NOT_INT_OR_SLICE_OR_STR")

    def simpleString(self) -> str:
        return "struct<%s>" % ",".join(f.simpleString() for f in self.fields)

    def treeString(self, level: Optional[int] = None) -> str:
        from sluice import _native
        return _native.tree_string(to_arrow_schema(self), level or 0)

    def __repr__(self) -> str:
        return "StructType([%s])" % ", ".join(repr(f) for f in self.fields)


_ATOMIC_TO_ARROW = {
    NullType: pa.null(),
    StringType: pa.string(),
    BinaryType: pa.binary(),
    BooleanType: pa.bool_(),
    DateType: pa.date32(),
    TimestampType: pa.timestamp("us", tz="UTC"),
    TimestampNTZType: pa.timestamp("us"),
    DoubleType: pa.float64(),
    FloatType: pa.float32(),
    ByteType: pa.int8(),
    ShortType: pa.int16(),
    IntegerType: pa.int32(),
    LongType: pa.int64(),
}


def to_arrow_type(data_type: DataType) -> pa.DataType:
    """The Arrow type the engine uses for a Spark type."""
    if type(data_type) in _ATOMIC_TO_ARROW:
        return _ATOMIC_TO_ARROW[type(data_type)]
    if isinstance(data_type, DecimalType):
        return pa.decimal128(data_type.precision, data_type.scale)
    if isinstance(data_type, ArrayType):
        return pa.list_(pa.field("element", to_arrow_type(data_type.elementType),
                                 data_type.containsNull))
    if isinstance(data_type, MapType):
        return pa.map_(pa.field("key", to_arrow_type(data_type.keyType), False),
                       pa.field("value", to_arrow_type(data_type.valueType),
                                data_type.valueContainsNull))
    if isinstance(data_type, StructType):
        return pa.struct([_to_arrow_field(f) for f in data_type.fields])
    if isinstance(data_type, DayTimeIntervalType):
        return pa.duration("us")
    raise PySparkTypeError("Unsupported type %r" % (data_type,),
                           errorClass="UNSUPPORTED_DATA_TYPE")


def _to_arrow_field(field: StructField) -> pa.Field:
    metadata = {k: str(v) for k, v in field.metadata.items()} or None
    return pa.field(field.name, to_arrow_type(field.dataType), field.nullable, metadata)


def to_arrow_schema(schema: StructType) -> pa.Schema:
    return pa.schema([_to_arrow_field(f) for f in schema.fields])


def from_arrow_type(arrow_type: pa.DataType) -> DataType:
    """The Spark type of an Arrow type of the engine's mapping (also large and view strings
    and binaries, other timestamp units and list flavours)."""
    for spark_class, candidate in _ATOMIC_TO_ARROW.items():
        if arrow_type == candidate:
            return spark_class()
    if pa.types.is_string(arrow_type) or pa.types.is_large_string(arrow_type):
        return StringType()
    if pa.types.is_binary(arrow_type) or pa.types.is_large_binary(arrow_type):
        return BinaryType()
    if pa.types.is_timestamp(arrow_type):
        return TimestampType() if arrow_type.tz else TimestampNTZType()
    if pa.types.is_decimal(arrow_type):
        return DecimalType(arrow_type.precision, arrow_type.scale)
    # Child types are read through their fields, whose metadata may name interval fields.
    if pa.types.is_map(arrow_type):
        return MapType(_from_arrow_field(arrow_type.key_field).dataType,
                       _from_arrow_field(arrow_type.item_field).dataType,
                       arrow_type.item_field.nullable)
    if pa.types.is_list(arrow_type) or pa.types.is_large_list(arrow_type):
        return ArrayType(_from_arrow_field(arrow_type.value_field).dataType,
                         arrow_type.value_field.nullable)
    if pa.types.is_struct(arrow_type):
        return StructType([_from_arrow_field(arrow_type.field(i))
                           for i in range(arrow_type.num_fields)])
    if pa.types.is_duration(arrow_type):
        return DayTimeIntervalType()
    if arrow_type.id == pa.lib.Type_INTERVAL_MONTHS:
        return YearMonthIntervalType()
    raise PySparkTypeError("Unsupported Arrow type %s" % arrow_type,
                           errorClass="UNSUPPORTED_DATA_TYPE")


_INTERVAL_METADATA_KEY = "sluice.interval_type"


def _from_arrow_field(field: pa.Field) -> StructField:
    metadata = {k.decode(): v.decode() for k, v in (field.metadata or {}).items()}
    # The engine names the fields of an interval type, which Arrow's types cannot hold.
    interval = metadata.pop(_INTERVAL_METADATA_KEY, None)
    data_type = _interval_type(interval) if interval else from_arrow_type(field.type)
    return StructField(field.name, data_type, field.nullable, metadata)


def from_arrow_schema(schema: pa.Schema) -> StructType:
    return StructType([_from_arrow_field(f) for f in schema])


def _parse_datatype_string(ddl: str) -> DataType:
    """A DDL type ('int', 'array<string>') or schema ('a INT, b STRING') string as a type; a
    schema becomes a StructType."""
    from sluice import _native
    try:
        return from_arrow_schema(pa.Schema._import_from_c_capsule(_native.parse_schema(ddl)))
    except Exception as schema_error:
        try:
            schema = pa.Schema._import_from_c_capsule(_native.parse_type(ddl))
        except Exception:
            raise schema_error from None
        return from_arrow_type(schema.field(0).type)


def _infer_type(value: Any) -> DataType:
    """The Spark type PySpark infers for a Python value."""
    if value is None:
        return NullType()
    if isinstance(value, bool):
        return BooleanType()
    if isinstance(value, int):
        return LongType()
    if isinstance(value, float):
        return DoubleType()
    if isinstance(value, str):
        return StringType()
    if isinstance(value, (bytes, bytearray)):
        return BinaryType()
    if isinstance(value, decimal.Decimal):
        return DecimalType(38, 18)
    if isinstance(value, datetime.datetime):
        return TimestampType()
    if isinstance(value, datetime.date):
        return DateType()
    if isinstance(value, Row) and hasattr(value, "__fields__"):
        return StructType([StructField(k, _infer_type(v)) for k, v in zip(value.__fields__, value)])
    if isinstance(value, dict):
        key = next((k for k in value if k is not None), None)
        item = next((v for v in value.values() if v is not None), None)
        return MapType(_infer_type(key), _infer_type(item), True)
    if isinstance(value, (list, tuple)):
        element = next((v for v in value if v is not None), None)
        return ArrayType(_infer_type(element), True)
    raise PySparkTypeError("not supported type: %s" % type(value).__name__,
                           errorClass="CANNOT_INFER_TYPE_FOR_FIELD")


def _create_row(fields: List[str], values: Any) -> "Row":
    row = Row(*values)
    row.__fields__ = list(fields)
    return row


class Row(tuple):
    """A row of a DataFrame, as PySpark's Row: a tuple whose fields are also reachable by name
    (``row.key``, ``row["key"]``).

    ``Row(name="Alice", age=11)`` makes a row; ``Row("name", "age")`` makes a row class that is
    called with the values: ``Person = Row("name", "age"); Person("Alice", 11)``.
    """

    def __new__(cls, *args: Any, **kwargs: Any) -> "Row":
        if args and kwargs:
            raise PySparkValueError("Can not use both args and kwargs to create Row",
                                    errorClass="CANNOT_SET_TOGETHER")
        if kwargs:
            row = tuple.__new__(cls, list(kwargs.values()))
            row.__fields__ = list(kwargs.keys())
            return row
        return tuple.__new__(cls, args)

    def asDict(self, recursive: bool = False) -> Dict[str, Any]:
        if not hasattr(self, "__fields__"):
            raise PySparkTypeError("Cannot convert a Row class into dict",
                                   errorClass="CANNOT_CONVERT_TYPE")
        if not recursive:
            return dict(zip(self.__fields__, self))

        def convert(value: Any) -> Any:
            if isinstance(value, Row):
                return value.asDict(True)
            if isinstance(value, list):
                return [convert(v) for v in value]
            if isinstance(value, dict):
                return {k: convert(v) for k, v in value.items()}
            return value

        return {k: convert(v) for k, v in zip(self.__fields__, self)}

    def __contains__(self, item: Any) -> bool:
        if hasattr(self, "__fields__"):
            return item in self.__fields__
        return super().__contains__(item)

    def __call__(self, *args: Any) -> "Row":
        """A row of this row class (made by Row("a", "b")) with these values."""
        if len(args) > len(self):
            raise PySparkValueError("Can not create Row with fields %s, expected %d values but "
                                    "got %s" % (self, len(self), args),
                                    errorClass="WRONG_NUM_ARGS_FOR_HIGHER_ORDER_FUNCTION")
        return _create_row(list(self), args)

    def __getitem__(self, item: Any) -> Any:
        if isinstance(item, (int, slice)):
            return super().__getitem__(item)
        try:
            return super().__getitem__(self.__fields__.index(item))
        except (IndexError, ValueError, AttributeError):
            raise PySparkValueError(item, errorClass="KEY_NOT_EXISTS") from None

    def __getattr__(self, item: str) -> Any:
        if item.startswith("__"):
            raise AttributeError(item)
        try:
            return self[self.__fields__.index(item)]
        except (IndexError, ValueError, AttributeError):
            raise AttributeError(item) from None

    def __setattr__(self, key: str, value: Any) -> None:
        if key != "__fields__":
            raise PySparkRuntimeError("Row is read-only", errorClass="READ_ONLY")
        self.__dict__[key] = value

    def __reduce__(self) -> Any:
        if hasattr(self, "__fields__"):
            return (_create_row, (self.__fields__, tuple(self)))
        return tuple.__reduce__(self)

    def __repr__(self) -> str:
        if hasattr(self, "__fields__"):
            return "Row(%s)" % ", ".join("%s=%r" % (k, v) for k, v in zip(self.__fields__, self))
        return "<Row(%s)>" % ", ".join(repr(field) for field in self)

