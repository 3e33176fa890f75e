"""The exceptions of PySpark's ``pyspark.errors``, each carrying Spark's error class.

The engine reports errors with Spark's error classes; ``_from_native`` picks the exception
PySpark raises for each class.
"""

from typing import Dict, Optional

__all__ = [
    "PySparkException",
    "PySparkValueError",
    "PySparkTypeError",
    "PySparkRuntimeError",
    "CapturedException",
    "AnalysisException",
    "ParseException",
    "IllegalArgumentException",
    "StreamingQueryException",
    "ArithmeticException",
    "NumberFormatException",
    "DateTimeException",
    "SparkRuntimeException",
    "SparkUpgradeException",
    "UnknownException",
]


class PySparkException(Exception):
    """Base of every exception Sluice raises, as in PySpark: the message, the error class and
    its message parameters."""

    def __init__(
        self,
        message: Optional[str] = None,
        errorClass: Optional[str] = None,
        messageParameters: Optional[Dict[str, str]] = None,
    ):
        self._message = message if message is not None else ""
        self._errorClass = errorClass
        self._messageParameters = messageParameters or {}
        if message is None and errorClass is not None:
            self._message = "[%s] %s" % (errorClass, ", ".join(
                "%s=%s" % item for item in self._messageParameters.items()))
        super().__init__(self._message)

    def getErrorClass(self) -> Optional[str]:
        """Spark's error class, e.g. ``UNRESOLVED_COLUMN.WITH_SUGGESTION``."""
        return self._errorClass

    def getCondition(self) -> Optional[str]:
        return self._errorClass

    def getMessageParameters(self) -> Dict[str, str]:
        return dict(self._messageParameters)

    def getMessage(self) -> str:
        return self._message

    def getSqlState(self) -> Optional[str]:
        return None

    def __str__(self) -> str:
        return self._message


class PySparkValueError(PySparkException, ValueError):
    """A bad argument value found by the Python layer."""


class PySparkTypeError(PySparkException, TypeError):
    """A bad argument type found by the Python layer."""


class PySparkRuntimeError(PySparkException, RuntimeError):
    """A failure of the Python layer."""


class CapturedException(PySparkException):
    """An error raised by the engine."""


class AnalysisException(CapturedException):
    """The query cannot be analyzed: an unknown column or table, wrong types, an operation
    the output mode does not allow."""


class ParseException(AnalysisException):
    """SQL text, an expression or a DDL string that does not parse."""


class IllegalArgumentException(CapturedException):
    """A bad argument or setting value."""


class StreamingQueryException(CapturedException):
    """The error that stopped a streaming query."""


class ArithmeticException(CapturedException):
    """Overflow or division by zero under ANSI mode."""


class NumberFormatException(IllegalArgumentException):
    """A string that does not cast to a number."""


class DateTimeException(CapturedException):
    """A date or time that does not parse or is out of range."""


class SparkRuntimeException(CapturedException):
    """A failure while running a query."""


class SparkUpgradeException(CapturedException):
    """Behaviour that changed between Spark versions."""


class UnknownException(CapturedException):
    """An engine error without a Spark error class."""


_BY_CLASS = {
    "STREAM_FAILED": StreamingQueryException,
    "PARSE_SYNTAX_ERROR": ParseException,
    "PARSE_EMPTY_STATEMENT": ParseException,
    "INVALID_SQL_SYNTAX": ParseException,
    "FAILED_PARSE_STRUCT_TYPE": ParseException,
    "ARITHMETIC_OVERFLOW": ArithmeticException,
    "BINARY_ARITHMETIC_OVERFLOW": ArithmeticException,
    "CAST_OVERFLOW": ArithmeticException,
    "DIVIDE_BY_ZERO": ArithmeticException,
    "NUMERIC_VALUE_OUT_OF_RANGE": ArithmeticException,
    "DATETIME_OVERFLOW": ArithmeticException,
    "CAST_INVALID_INPUT": NumberFormatException,
    "CANNOT_PARSE_TIMESTAMP": DateTimeException,
    "DATETIME_FIELD_OUT_OF_BOUNDS": DateTimeException,
    "INCONSISTENT_BEHAVIOR_CROSS_VERSION": SparkUpgradeException,
    "INVALID_PARAMETER_VALUE": IllegalArgumentException,
    "INVALID_CONF_VALUE": IllegalArgumentException,
    "INVALID_INTERVAL_FORMAT": IllegalArgumentException,
    "CANNOT_PARSE_INTERVAL": IllegalArgumentException,
    "INVALID_TIMEZONE": IllegalArgumentException,
    "INVALID_SAVE_MODE": IllegalArgumentException,
    "INVALID_OPTION_VALUE": IllegalArgumentException,
    "ILLEGAL_DAY_OF_WEEK": IllegalArgumentException,
    "INCORRECT_RAMP_UP_RATE": IllegalArgumentException,
    "DUPLICATE_QUERY_NAME": IllegalArgumentException,
    "CONCURRENT_QUERY": SparkRuntimeException,
    "INTERNAL_ERROR": SparkRuntimeException,
    "FAILED_READ_FILE": SparkRuntimeException,
    "MALFORMED_RECORD_IN_PARSING": SparkRuntimeException,
    "ROW_VALUE_IS_NULL": SparkRuntimeException,
    "FOREACH_BATCH_USER_FUNCTION_ERROR": SparkRuntimeException,
    "FOREACH_USER_FUNCTION_ERROR": SparkRuntimeException,
}

# Error class prefixes of failures at run time rather than at analysis.
_RUNTIME_PREFIXES = ("CANNOT_LOAD_STATE_STORE", "CANNOT_WRITE_STATE_STORE", "KAFKA_",
                     "DELTA_CONCURRENT", "CONCURRENT_STREAM_LOG_UPDATE", "STATE_STORE_",
                     "_LEGACY_ERROR_TEMP_2")


def _exception_class(error_class: Optional[str], code: str) -> type:
    if error_class is None:
        return IllegalArgumentException if code == "Invalid" else UnknownException
    main = error_class.split(".", 1)[0]
    if main in _BY_CLASS:
        return _BY_CLASS[main]
    if error_class.startswith(_RUNTIME_PREFIXES):
        return SparkRuntimeException
    return AnalysisException


def _from_native(error_class: Optional[str], message: str, code: str) -> CapturedException:
    """The exception PySpark raises for an engine error: its class from the error class (or,
    without one, the Arrow status code), its message the engine's."""
    return _exception_class(error_class, code)(message, errorClass=error_class)
