"""spark.readStream and df.writeStream, as PySpark's DataStreamReader and DataStreamWriter."""

import traceback
from typing import Any, Callable, Dict, List, Optional, Union, TYPE_CHECKING

from sluice import _native
from sluice.errors import PySparkTypeError, PySparkValueError
from sluice.sql.dataframe import DataFrame
from sluice.sql.readwriter import OptionsMixin, ReaderSettings
from sluice.sql.streaming.query import StreamingQuery
from sluice.sql.types import StructType

if TYPE_CHECKING:
    from sluice.sql.session import SparkSession

__all__ = ["DataStreamReader", "DataStreamWriter"]


class DataStreamReader(ReaderSettings):
    """spark.readStream: format(...).schema(...).option(...).load(path). Formats: json, csv,
    parquet, orc, text, rate, rate-micro-batch, socket, kafka, delta, nexmark."""

    def load(self, path: Optional[str] = None, format: Optional[str] = None,
             schema: Union[StructType, str, None] = None, **options: Any) -> DataFrame:
        self._load_arguments(format, schema, options)
        jdf = _native.read_stream_load(self._session._jss, self._format, self._options,
                                       self._schema, path)
        return DataFrame(jdf, self._session)

    def table(self, tableName: str) -> DataFrame:
        return DataFrame(_native.read_stream_table(self._session._jss, self._options, tableName),
                         self._session)

    def json(self, path: str, schema: Union[StructType, str, None] = None,
             **options: Any) -> DataFrame:
        return self.load(path, "json", schema, **options)

    def csv(self, path: str, schema: Union[StructType, str, None] = None,
            sep: Optional[str] = None, encoding: Optional[str] = None,
            quote: Optional[str] = None, escape: Optional[str] = None,
            comment: Optional[str] = None, header: Optional[Any] = None,
            inferSchema: Optional[Any] = None, **options: Any) -> DataFrame:
        return self.load(path, "csv", schema, sep=sep, encoding=encoding, quote=quote,
                         escape=escape, comment=comment, header=header, inferSchema=inferSchema,
                         **options)

    def parquet(self, path: str, **options: Any) -> DataFrame:
        return self.load(path, "parquet", None, **options)

    def orc(self, path: str, **options: Any) -> DataFrame:
        return self.load(path, "orc", None, **options)

    def text(self, path: str, wholetext: bool = False, lineSep: Optional[str] = None,
             **options: Any) -> DataFrame:
        return self.load(path, "text", None, wholetext=wholetext, lineSep=lineSep, **options)


def _foreach_batch_callback(function: Callable[[DataFrame, int], None],
                            session: "SparkSession") -> Callable[[Any, int], Optional[str]]:
    """What the engine calls for each micro-batch: the user's function with the batch as a
    DataFrame; returns None, or the exception with its traceback, which fails the query."""

    def callback(jdf: "_native.DataFrame", batch_id: int) -> Optional[str]:
        try:
            function(DataFrame(jdf, session), batch_id)
            return None
        except BaseException:
            return traceback.format_exc()

    return callback


def _foreach_function(writer: Any) -> Callable[[DataFrame, int], None]:
    """foreach's writer (a function of a row, or an object with process and optionally open
    and close) as a foreachBatch function: open(partition 0, batch id), process each row
    unless open returned False, then close(error)."""
    if callable(writer) and not hasattr(writer, "process"):
        def process_only(batch: DataFrame, batch_id: int) -> None:
            for row in batch.collect():
                writer(row)
        return process_only
    if not hasattr(writer, "process"):
        raise PySparkTypeError("foreach's writer must be a function or have a 'process' method",
                               errorClass="ATTRIBUTE_NOT_CALLABLE")

    def with_lifecycle(batch: DataFrame, batch_id: int) -> None:
        open_ = getattr(writer, "open", None)
        close = getattr(writer, "close", None)
        if open_ is not None and open_(0, batch_id) is False:
            if close is not None:
                close(None)
            return
        try:
            for row in batch.collect():
                writer.process(row)
        except BaseException as error:
            if close is not None:
                close(error)
            raise
        if close is not None:
            close(None)
    return with_lifecycle


class DataStreamWriter(OptionsMixin):
    """df.writeStream: format(...).outputMode(...).option(...).trigger(...).start(path)."""

    def __init__(self, df: DataFrame):
        self._df = df
        self._format: Optional[str] = None
        self._options: Dict[str, str] = {}
        self._output_mode = "append"
        self._partition_by: List[str] = []
        self._trigger: Optional[str] = None
        self._processing_time = ""
        self._query_name: Optional[str] = None
        self._foreach_batch: Optional[Callable[[DataFrame, int], None]] = None

    def outputMode(self, outputMode: str) -> "DataStreamWriter":
        if not isinstance(outputMode, str) or not outputMode.strip():
            raise PySparkValueError("The value for outputMode must be a non-empty string",
                                    errorClass="VALUE_NOT_NON_EMPTY_STR")
        self._output_mode = outputMode
        return self

    def partitionBy(self, *cols: str) -> "DataStreamWriter":
        if len(cols) == 1 and isinstance(cols[0], (list, tuple)):
            cols = tuple(cols[0])
        self._partition_by = list(cols)
        return self

    def queryName(self, queryName: str) -> "DataStreamWriter":
        if not isinstance(queryName, str) or not queryName.strip():
            raise PySparkValueError("The value for queryName must be a non-empty string",
                                    errorClass="VALUE_NOT_NON_EMPTY_STR")
        self._query_name = queryName
        return self

    def trigger(self, *, processingTime: Optional[str] = None, once: Optional[bool] = None,
                continuous: Optional[str] = None,
                availableNow: Optional[bool] = None) -> "DataStreamWriter":
        """One of processingTime="10 seconds", once=True, availableNow=True."""
        given = [p for p in (processingTime, once, continuous, availableNow) if p is not None]
        if len(given) != 1:
            raise PySparkValueError("Only one trigger can be set.",
                                    errorClass="ONLY_ALLOW_SINGLE_TRIGGER")
        if continuous is not None:
            raise PySparkValueError("Continuous processing is not supported by Sluice.",
                                    errorClass="UNSUPPORTED_OPERATION")
        if processingTime is not None:
            if not isinstance(processingTime, str) or not processingTime.strip():
                raise PySparkValueError("Value for processingTime must be a non empty string. "
                                        "Got: %s" % processingTime,
                                        errorClass="VALUE_NOT_NON_EMPTY_STR")
            self._trigger, self._processing_time = "processingTime", processingTime
        elif once is not None:
            if once is not True:
                raise PySparkValueError("Value for once must be True. Got: %s" % once,
                                        errorClass="VALUE_NOT_TRUE")
            self._trigger = "once"
        else:
            if availableNow is not True:
                raise PySparkValueError("Value for availableNow must be True. Got: %s"
                                        % availableNow, errorClass="VALUE_NOT_TRUE")
            self._trigger = "availableNow"
        return self

    def foreachBatch(self, func: Callable[[DataFrame, int], None]) -> "DataStreamWriter":
        """Calls func(batch_df, batch_id) for every micro-batch; an exception it raises fails
        the query, its traceback kept in the StreamingQueryException's message."""
        if not callable(func):
            raise PySparkTypeError("func should be callable", errorClass="NOT_CALLABLE")
        self._foreach_batch = func
        return self

    def foreach(self, f: Any) -> "DataStreamWriter":
        """Hands every row to f: a function of the row, or an object with process(row) and
        optionally open(partition_id, epoch_id) and close(error)."""
        self._foreach_batch = _foreach_function(f)
        return self

    def _configure(self, format: Optional[str], outputMode: Optional[str], partitionBy: Any,
                   queryName: Optional[str], options: Dict[str, Any]) -> None:
        if format is not None:
            self.format(format)
        if outputMode is not None:
            self.outputMode(outputMode)
        if partitionBy is not None:
            self.partitionBy(partitionBy)
        if queryName is not None:
            self.queryName(queryName)
        self._set_options(options)

    def _start(self, path: Optional[str], table: Optional[str]) -> StreamingQuery:
        session = self._df._session
        callback = None
        if self._foreach_batch is not None:
            callback = _foreach_batch_callback(self._foreach_batch, session)
        jq = _native.start_stream(self._df._jdf, self._format or None, self._output_mode,
                                  self._options, self._partition_by, self._trigger,
                                  self._processing_time, self._query_name, callback, path, table)
        return StreamingQuery(jq, session)

    def start(self, path: Optional[str] = None, format: Optional[str] = None,
              outputMode: Optional[str] = None, partitionBy: Any = None,
              queryName: Optional[str] = None, **options: Any) -> StreamingQuery:
        """Starts the query; it runs on a thread of its own until stopped, failed, or its
        trigger ends it."""
        self._configure(format, outputMode, partitionBy, queryName, options)
        return self._start(path, None)

    def toTable(self, tableName: str, format: Optional[str] = None,
                outputMode: Optional[str] = None, partitionBy: Any = None,
                queryName: Optional[str] = None, **options: Any) -> StreamingQuery:
        """Starts the query writing to the named (Delta) table of the warehouse."""
        self._configure(format, outputMode, partitionBy, queryName, options)
        return self._start(None, tableName)
