"""SparkSession, as PySpark's: the entry point that makes DataFrames and runs queries, in this
process (master settings are accepted and ignored)."""

import atexit
import threading
import warnings
from typing import Any, Dict, Iterable, List, Optional, Union

import pyarrow as pa

from sluice import _native
from sluice.errors import PySparkException, PySparkTypeError, PySparkValueError
from sluice.sql._conversion import infer_schema, rows_to_table
from sluice.sql.dataframe import DataFrame
from sluice.sql.readwriter import DataFrameReader, to_option_string
from sluice.sql.types import DataType, StructField, StructType, _parse_datatype_string

__all__ = ["SparkSession", "RuntimeConfig"]

_NoValue = object()


class RuntimeConfig:
    """spark.conf: the session's settings."""

    def __init__(self, jss: "_native.SparkSession"):
        self._jss = jss

    def set(self, key: str, value: Any) -> None:
        self._jss.conf_set(key, to_option_string(value))

    def get(self, key: str, default: Any = _NoValue) -> Optional[str]:
        value = self._jss.conf_get(key)
        if value is not None:
            return value
        if default is _NoValue:
            from sluice.errors import SparkRuntimeException
            raise SparkRuntimeException("[SQL_CONF_NOT_FOUND] The SQL config \"%s\" cannot be "
                                        "found." % key, errorClass="SQL_CONF_NOT_FOUND")
        return default

    def unset(self, key: str) -> None:
        self._jss.conf_unset(key)

    def isModifiable(self, key: str) -> bool:
        return True


class _SparkContext:
    """The few SparkContext calls streaming jobs make, accepted for compatibility."""

    def __init__(self, jss: "_native.SparkSession"):
        self._jss = jss
        self.appName = jss.appName()
        self.master = "local[*]"

    @property
    def uiWebUrl(self) -> Optional[str]:
        """The web UI's address when the session was built with spark.ui.enabled=true."""
        return self._jss.uiWebUrl()

    def setLogLevel(self, logLevel: str) -> None:
        pass


class _BuilderDescriptor:
    def __get__(self, instance: Any, owner: Any) -> "SparkSession.Builder":
        return SparkSession.Builder()


class SparkSession:
    """The entry point: spark.read / readStream / createDataFrame / range / table, the
    session's settings (conf) and its streaming queries (streams)."""

    _lock = threading.RLock()
    _active: Optional["SparkSession"] = None

    class Builder:
        """SparkSession.builder.appName(...).master(...).config(...).getOrCreate()."""

        def __init__(self) -> None:
            self._options: Dict[str, str] = {}
            self._app_name = "sluice"

        def appName(self, name: str) -> "SparkSession.Builder":
            self._app_name = name
            return self

        def master(self, master: str) -> "SparkSession.Builder":
            """Accepted for compatibility: Sluice always runs in this process."""
            return self

        def remote(self, url: str) -> "SparkSession.Builder":
            return self

        def enableHiveSupport(self) -> "SparkSession.Builder":
            return self

        def config(self, key: Optional[str] = None, value: Any = None, conf: Any = None,
                   *, map: Optional[Dict[str, Any]] = None) -> "SparkSession.Builder":
            if key is not None:
                self._options[key] = to_option_string(value)
            for k, v in (map or {}).items():
                self._options[k] = to_option_string(v)
            if conf is not None:
                for k, v in conf.getAll():
                    self._options[k] = to_option_string(v)
            return self

        def getOrCreate(self) -> "SparkSession":
            """The active session, with this builder's settings applied, or a new one."""
            with SparkSession._lock:
                session = SparkSession._active
                if session is None:
                    return self.create()
                for key, value in self._options.items():
                    try:
                        session.conf.set(key, value)
                    except PySparkException as error:
                        # As Spark: an existing session keeps the settings it was built with.
                        if error.getErrorClass() != "CANNOT_MODIFY_CONFIG":
                            raise
                        warnings.warn("Using an existing session; the setting " + key +
                                      " only takes effect in a new one.")
                return session

        def create(self) -> "SparkSession":
            """A new session, which becomes the active one."""
            with SparkSession._lock:
                session = SparkSession(_native.SparkSession.create(self._app_name,
                                                                   dict(self._options)))
                SparkSession._active = session
                return session

    builder = _BuilderDescriptor()

    def __init__(self, jss: "_native.SparkSession"):
        self._jss = jss
        self._conf = RuntimeConfig(jss)
        self._streams: Any = None
        self._spark_context = _SparkContext(jss)
        _native_sessions.append(jss)

    @classmethod
    def getActiveSession(cls) -> Optional["SparkSession"]:
        return cls._active

    @classmethod
    def active(cls) -> "SparkSession":
        session = cls._active
        if session is None:
            raise PySparkValueError("No active SparkSession was found.",
                                    errorClass="NO_ACTIVE_OR_DEFAULT_SESSION")
        return session

    @property
    def version(self) -> str:
        import sluice
        return sluice.__version__

    @property
    def conf(self) -> RuntimeConfig:
        return self._conf

    @property
    def sparkContext(self) -> _SparkContext:
        return self._spark_context

    @property
    def read(self) -> DataFrameReader:
        return DataFrameReader(self)

    @property
    def readStream(self) -> "Any":
        from sluice.sql.streaming.readwriter import DataStreamReader
        return DataStreamReader(self)

    @property
    def streams(self) -> "Any":
        if self._streams is None:
            from sluice.sql.streaming.query import StreamingQueryManager
            self._streams = StreamingQueryManager(self._jss.streams(), self)
        return self._streams

    def newSession(self) -> "SparkSession":
        return SparkSession(_native.SparkSession.create(self._jss.appName(), {}))

    def range(self, start: int, end: Optional[int] = None, step: int = 1,
              numPartitions: Optional[int] = None) -> DataFrame:
        """Rows start, start + step, ... below end in one bigint column id; range(n) is 0..n-1."""
        if end is None:
            start, end = 0, start
        return DataFrame(self._jss.range(int(start), int(end), int(step)), self)

    def table(self, tableName: str) -> DataFrame:
        return DataFrame(self._jss.table(tableName), self)

    def sql(self, sqlQuery: str, args: Any = None, **kwargs: Any) -> DataFrame:
        """Runs one SQL statement: a query gives its DataFrame; a command (CREATE TEMP VIEW,
        INSERT, SET, ...) runs now. Named parameters (args) are not supported."""
        if args or kwargs:
            raise PySparkTypeError("spark.sql does not take parameters in Sluice",
                                   errorClass="UNSUPPORTED_OPERATION")
        return DataFrame(self._jss.sql(sqlQuery), self)

    def createDataFrame(self, data: Any, schema: Union[StructType, DataType, str, List[str],
                                                       None] = None,
                        samplingRatio: Optional[float] = None,
                        verifySchema: bool = True) -> DataFrame:
        """A DataFrame of a pyarrow Table, a pandas DataFrame, or rows (Row, tuple, dict, or
        single values with an atomic type), with a StructType, a DDL string, a list of column
        names, or an inferred schema."""
        if isinstance(data, DataFrame):
            raise PySparkTypeError("data is already a DataFrame",
                                   errorClass="INVALID_TYPE")
        if isinstance(schema, str):
            schema = _parse_datatype_string(schema)
        if isinstance(schema, DataType) and not isinstance(schema, StructType):
            schema = StructType([StructField("value", schema, True)])
        if _is_pandas(data):
            table = _pandas_to_arrow(data, schema)
        elif isinstance(data, (pa.Table, pa.RecordBatch, pa.RecordBatchReader)) or \
                hasattr(data, "__arrow_c_stream__"):
            table = data if not isinstance(data, pa.RecordBatch) else pa.Table.from_batches([data])
            if isinstance(schema, StructType):
                from sluice.sql.types import to_arrow_schema
                table = pa.table(table).rename_columns(schema.names).cast(to_arrow_schema(schema))
            elif isinstance(schema, list):
                table = pa.table(table).rename_columns(schema)
        else:
            rows = list(data) if isinstance(data, Iterable) else None
            if rows is None:
                raise PySparkTypeError("data should be an iterable of rows, a pandas DataFrame "
                                       "or a pyarrow Table", errorClass="INVALID_TYPE")
            if not isinstance(schema, StructType):
                schema = infer_schema(rows, schema)
            table = rows_to_table(rows, schema)
        return DataFrame(self._jss.createDataFrame(table), self)

    def stop(self) -> None:
        """Stops the session's active streaming queries; the session stops being active."""
        for query in self.streams.active:
            query.stop()
        self._jss.stop()
        with SparkSession._lock:
            if SparkSession._active is self:
                SparkSession._active = None

    def __enter__(self) -> "SparkSession":
        return self

    def __exit__(self, *args: Any) -> None:
        self.stop()


def _is_pandas(data: Any) -> bool:
    module = type(data).__module__
    return module.startswith("pandas.") and type(data).__name__ == "DataFrame"


def _pandas_to_arrow(data: Any, schema: Any) -> pa.Table:
    if isinstance(schema, list):
        data = data.set_axis(schema, axis=1)
        schema = None
    if isinstance(schema, StructType):
        from sluice.sql.types import to_arrow_schema
        data = data.set_axis(schema.names, axis=1)
        return pa.Table.from_pandas(data, schema=to_arrow_schema(schema), preserve_index=False)
    return pa.Table.from_pandas(data, preserve_index=False)


def _stop_all_queries() -> None:
    """Stops the queries of every session before the interpreter exits: their threads must
    not call into Python after it has gone. Then it waits until the engine's pools have no
    task left (a pool thread still ending a task as the process exits can crash it), and the
    engine lets go of the Python objects it holds (foreachBatch functions, listeners), which
    Python's garbage collector cannot see."""
    for jss in _native_sessions:
        for query in jss.streams().active():
            try:
                query.stop()
            except Exception:
                pass
    _native.wait_for_pools_idle()
    _native.release_python_references()


# The native sessions made in this process (each is small; its queries may outlive the
# Python objects that started them).
_native_sessions: List["_native.SparkSession"] = []
atexit.register(_stop_all_queries)
