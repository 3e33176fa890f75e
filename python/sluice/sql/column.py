"""Column, as PySpark's: expressions built with col(), lit() and the functions, combined with
Python operators. In operators, a value that is not a Column is a literal (``col("a") == "x"``
compares with the string "x"); in functions, a string names a column."""

import datetime
import decimal
from typing import Any, Iterable, Union

from sluice import _native
from sluice.errors import PySparkTypeError, PySparkValueError
from sluice.sql.types import DataType

__all__ = ["Column"]


def _literal(value: Any) -> "_native.Column":
    """The native column of a Python value used as a literal (a Column stays itself)."""
    if isinstance(value, Column):
        return value._jc
    if value is None:
        return _native.lit_null("void")
    if isinstance(value, (bool, int, float, str)):
        return _native.lit(value)
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.astimezone()
        utc = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return _native.lit(utc.isoformat(sep=" ")).cast("timestamp")
    if isinstance(value, datetime.date):
        return _native.lit(value.isoformat()).cast("date")
    if isinstance(value, decimal.Decimal):
        sign, digits, exponent = value.as_tuple()
        scale = max(0, -exponent)
        precision = max(len(digits), scale, 1)
        return _native.lit(str(value)).cast("decimal(%d,%d)" % (precision, scale))
    if isinstance(value, (bytes, bytearray)):
        return _native.call_function("unhex", [_native.lit(bytes(value).hex())])
    if isinstance(value, (list, tuple)):
        return _native.call_function("array", [_literal(v) for v in value])
    if isinstance(value, dict):
        items = []
        for k, v in value.items():
            items += [_literal(k), _literal(v)]
        return _native.call_function("map", items)
    raise PySparkTypeError("Unsupported literal type %s" % type(value).__name__,
                           errorClass="UNSUPPORTED_LITERAL")


def _to_java_column(value: Union["Column", str]) -> "_native.Column":
    """A column argument of a function: a Column, or a column name."""
    if isinstance(value, Column):
        return value._jc
    if isinstance(value, str):
        return _native.col(value)
    raise PySparkTypeError(
        "Argument `col` should be a Column or str, got %s." % type(value).__name__,
        errorClass="NOT_COLUMN_OR_STR")


def _type_name(data_type: Union[DataType, str]) -> str:
    if isinstance(data_type, DataType):
        return data_type.simpleString()
    if isinstance(data_type, str):
        return data_type
    raise PySparkTypeError("dataType should be DataType or str, got %s" % type(data_type).__name__,
                           errorClass="NOT_DATATYPE_OR_STR")


def _flatten(values: Iterable[Any]) -> list:
    """PySpark's varargs that also take one list: f(a, b) or f([a, b])."""
    values = list(values)
    if len(values) == 1 and isinstance(values[0], (list, tuple, set)):
        return list(values[0])
    return values


def _binary(method: str, reverse: bool = False):
    def operator(self: "Column", other: Any) -> "Column":
        other = _literal(other)
        if reverse:
            return Column(getattr(other, method)(self._jc))
        return Column(getattr(self._jc, method)(other))
    return operator


class Column:
    """A column expression. Cheap and immutable; resolved when a DataFrame uses it."""

    def __init__(self, jc: "_native.Column"):
        self._jc = jc

    __add__ = _binary("add")
    __radd__ = _binary("add", reverse=True)
    __sub__ = _binary("sub")
    __rsub__ = _binary("sub", reverse=True)
    __mul__ = _binary("mul")
    __rmul__ = _binary("mul", reverse=True)
    __truediv__ = _binary("div")
    __rtruediv__ = _binary("div", reverse=True)
    __div__ = __truediv__
    __mod__ = _binary("mod")
    __rmod__ = _binary("mod", reverse=True)
    __eq__ = _binary("eq")  # type: ignore[assignment]
    __ne__ = _binary("ne")  # type: ignore[assignment]
    __lt__ = _binary("lt")
    __le__ = _binary("le")
    __gt__ = _binary("gt")
    __ge__ = _binary("ge")
    __and__ = _binary("and_")
    __rand__ = _binary("and_", reverse=True)
    __or__ = _binary("or_")
    __ror__ = _binary("or_", reverse=True)

    def __pow__(self, other: Any) -> "Column":
        return Column(_native.call_function("power", [self._jc, _literal(other)]))

    def __rpow__(self, other: Any) -> "Column":
        return Column(_native.call_function("power", [_literal(other), self._jc]))

    def __neg__(self) -> "Column":
        return Column(self._jc.neg())

    def __invert__(self) -> "Column":
        return Column(self._jc.not_())

    def __bool__(self) -> bool:
        raise PySparkValueError(
            "Cannot convert column into bool: please use '&' for 'and', '|' for 'or', '~' for "
            "'not' when building DataFrame boolean expressions.",
            errorClass="CANNOT_CONVERT_COLUMN_INTO_BOOL")

    __nonzero__ = __bool__

    def __contains__(self, item: Any) -> bool:
        raise PySparkValueError("Cannot apply 'in' operator against a column: please use "
                                "'contains' in a string column or 'array_contains' function "
                                "for an array column.", errorClass="CANNOT_APPLY_IN_FOR_COLUMN")

    def __iter__(self):
        raise PySparkTypeError("Column is not iterable", errorClass="NOT_ITERABLE")

    __hash__ = None  # type: ignore[assignment]

    def __getitem__(self, key: Any) -> "Column":
        if isinstance(key, slice):
            if key.step is not None:
                raise PySparkValueError("slice with step is not supported.",
                                        errorClass="SLICE_WITH_STEP")
            return self.substr(key.start, key.stop)
        return self.getItem(key)

    def __getattr__(self, item: str) -> "Column":
        if item.startswith("__"):
            raise AttributeError(item)
        return self.getField(item)

    def __repr__(self) -> str:
        return "Column<'%s'>" % str(self._jc)

    def __str__(self) -> str:
        return str(self._jc)

    def alias(self, *alias: str, **kwargs: Any) -> "Column":
        if len(alias) != 1:
            raise PySparkValueError("Sluice supports one alias per column",
                                    errorClass="UNSUPPORTED")
        return Column(self._jc.alias(alias[0]))

    name = alias

    def cast(self, dataType: Union[DataType, str]) -> "Column":
        return Column(self._jc.cast(_type_name(dataType)))

    astype = cast

    def try_cast(self, dataType: Union[DataType, str]) -> "Column":
        return Column(self._jc.try_cast(_type_name(dataType)))

    def isNull(self) -> "Column":
        return Column(self._jc.isNull())

    def isNotNull(self) -> "Column":
        return Column(self._jc.isNotNull())

    def isNaN(self) -> "Column":
        return Column(self._jc.isNaN())

    def isin(self, *cols: Any) -> "Column":
        return Column(self._jc.isin([_literal(c) for c in _flatten(cols)]))

    def between(self, lowerBound: Any, upperBound: Any) -> "Column":
        return Column(self._jc.between(_literal(lowerBound), _literal(upperBound)))

    def like(self, other: str) -> "Column":
        return Column(self._jc.like(other))

    def ilike(self, other: str) -> "Column":
        return Column(self._jc.ilike(other))

    def rlike(self, other: str) -> "Column":
        return Column(self._jc.rlike(other))

    def startswith(self, other: Any) -> "Column":
        return Column(self._jc.startswith(_literal(other)))

    def endswith(self, other: Any) -> "Column":
        return Column(self._jc.endswith(_literal(other)))

    def contains(self, other: Any) -> "Column":
        return Column(self._jc.contains(_literal(other)))

    def substr(self, startPos: Any, length: Any) -> "Column":
        if type(startPos) != type(length):
            raise PySparkTypeError("startPos and length must be the same type",
                                   errorClass="NOT_SAME_TYPE")
        return Column(self._jc.substr(_literal(startPos), _literal(length)))

    def eqNullSafe(self, other: Any) -> "Column":
        return Column(self._jc.eqNullSafe(_literal(other)))

    def getItem(self, key: Any) -> "Column":
        return Column(self._jc.getItem(_literal(key)))

    def getField(self, name: str) -> "Column":
        return Column(self._jc.getField(name))

    def when(self, condition: "Column", value: Any) -> "Column":
        if not isinstance(condition, Column):
            raise PySparkTypeError("condition should be a Column", errorClass="NOT_COLUMN")
        return Column(self._jc.when(condition._jc, _literal(value)))

    def otherwise(self, value: Any) -> "Column":
        return Column(self._jc.otherwise(_literal(value)))

    def asc(self) -> "Column":
        return Column(self._jc.asc())

    def asc_nulls_first(self) -> "Column":
        return Column(self._jc.asc_nulls_first())

    def asc_nulls_last(self) -> "Column":
        return Column(self._jc.asc_nulls_last())

    def desc(self) -> "Column":
        return Column(self._jc.desc())

    def desc_nulls_first(self) -> "Column":
        return Column(self._jc.desc_nulls_first())

    def desc_nulls_last(self) -> "Column":
        return Column(self._jc.desc_nulls_last())

    def bitwiseAND(self, other: Any) -> "Column":
        return Column(self._jc.bitwiseAND(_literal(other)))

    def bitwiseOR(self, other: Any) -> "Column":
        return Column(self._jc.bitwiseOR(_literal(other)))

    def bitwiseXOR(self, other: Any) -> "Column":
        return Column(self._jc.bitwiseXOR(_literal(other)))

    def over(self, window: Any = None) -> "Column":
        """This ranking, offset or aggregate function over `window` (a WindowSpec); without
        one, over all rows as one partition."""
        if window is None:
            return Column(self._jc.over(_native.WindowSpec()))
        return Column(self._jc.over(window._jspec))
