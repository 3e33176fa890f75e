"""Batch reads and writes, as PySpark's DataFrameReader and DataFrameWriter. The builders keep
their settings here and hand them to the engine in one call when they run."""

from typing import Any, Dict, List, Optional, Union, TYPE_CHECKING

import pyarrow as pa

from sluice import _native
from sluice.errors import PySparkTypeError
from sluice.sql.dataframe import DataFrame
from sluice.sql.types import StructType, to_arrow_schema

if TYPE_CHECKING:
    from sluice.sql.session import SparkSession

__all__ = ["DataFrameReader", "DataFrameWriter"]


def to_option_string(value: Any) -> str:
    """An option value as PySpark passes it to Spark: booleans lower-cased, others str()."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def native_schema(schema: Union[StructType, str, None]) -> Any:
    """A schema as the engine takes it: None, a DDL string or a pyarrow schema."""
    if schema is None or isinstance(schema, str):
        return schema
    if isinstance(schema, StructType):
        return to_arrow_schema(schema)
    if isinstance(schema, pa.Schema):
        return schema
    raise PySparkTypeError("schema should be StructType or string, got %s"
                           % type(schema).__name__, errorClass="NOT_STR_OR_STRUCT")


class OptionsMixin:
    """format(), option() and options() of the four builders."""

    _format: str
    _options: Dict[str, str]

    def format(self, source: str):
        self._format = source
        return self

    def option(self, key: str, value: Any):
        # Keys are case-insensitive: a later key replaces an earlier one in any case.
        for existing in [k for k in self._options if k.lower() == key.lower()]:
            del self._options[existing]
        self._options[key] = to_option_string(value)
        return self

    def options(self, **options: Any):
        for key, value in options.items():
            self.option(key, value)
        return self

    def _set_options(self, options: Dict[str, Any]) -> None:
        for key, value in options.items():
            if value is not None:
                self.option(key, value)


class ReaderSettings(OptionsMixin):
    """What spark.read and spark.readStream keep before load(): format, options, schema."""

    def __init__(self, session: "SparkSession"):
        self._session = session
        self._format = ""
        self._options: Dict[str, str] = {}
        self._schema: Any = None

    def schema(self, schema: Union[StructType, str]):
        self._schema = native_schema(schema)
        return self

    def _load_arguments(self, format: Optional[str], schema: Union[StructType, str, None],
                        options: Dict[str, Any]) -> None:
        """load()'s own format, schema and options, which override the builder's."""
        if format is not None:
            self.format(format)
        if schema is not None:
            self.schema(schema)
        self._set_options(options)


class DataFrameReader(ReaderSettings):
    """spark.read: format(...).option(...).schema(...).load(path)."""

    def load(self, path: Optional[str] = None, format: Optional[str] = None,
             schema: Union[StructType, str, None] = None, **options: Any) -> DataFrame:
        self._load_arguments(format, schema, options)
        if isinstance(path, (list, tuple)):
            if len(path) != 1:
                raise PySparkTypeError("Sluice reads one path per load()",
                                       errorClass="UNSUPPORTED")
            path = path[0]
        jdf = _native.read_load(self._session._jss, self._format, self._options, self._schema,
                                path)
        return DataFrame(jdf, self._session)

    def table(self, tableName: str) -> DataFrame:
        return DataFrame(_native.read_table(self._session._jss, self._options, tableName),
                         self._session)

    def json(self, path: str, schema: Union[StructType, str, None] = None,
             **options: Any) -> DataFrame:
        return self.load(path, "json", schema, **options)

    def csv(self, path: str, schema: Union[StructType, str, None] = None, sep: Optional[str] = None,
            encoding: Optional[str] = None, quote: Optional[str] = None,
            escape: Optional[str] = None, comment: Optional[str] = None,
            header: Optional[Any] = None, inferSchema: Optional[Any] = None,
            **options: Any) -> DataFrame:
        return self.load(path, "csv", schema, sep=sep, encoding=encoding, quote=quote,
                         escape=escape, comment=comment, header=header, inferSchema=inferSchema,
                         **options)

    def parquet(self, *paths: str, **options: Any) -> DataFrame:
        return self.load(list(paths), "parquet", None, **options)

    def orc(self, path: str, **options: Any) -> DataFrame:
        return self.load(path, "orc", None, **options)

    def text(self, paths: str, wholetext: bool = False, lineSep: Optional[str] = None,
             **options: Any) -> DataFrame:
        return self.load(paths, "text", None, wholetext=wholetext, lineSep=lineSep, **options)


class DataFrameWriter(OptionsMixin):
    """df.write: format(...).mode(...).option(...).partitionBy(...).save(path)."""

    def __init__(self, df: DataFrame):
        self._df = df
        self._format = ""
        self._mode = "errorifexists"
        self._options: Dict[str, str] = {}
        self._partition_by: List[str] = []

    def mode(self, saveMode: Optional[str]) -> "DataFrameWriter":
        if saveMode is not None:
            self._mode = saveMode
        return self

    def partitionBy(self, *cols: str) -> "DataFrameWriter":
        if len(cols) == 1 and isinstance(cols[0], (list, tuple)):
            cols = tuple(cols[0])
        self._partition_by = list(cols)
        return self

    def _configure(self, format: Optional[str], mode: Optional[str],
                   partitionBy: Any, options: Dict[str, Any]) -> None:
        if format is not None:
            self.format(format)
        self.mode(mode)
        if partitionBy is not None:
            self.partitionBy(partitionBy)
        self._set_options(options)

    def save(self, path: Optional[str] = None, format: Optional[str] = None,
             mode: Optional[str] = None, partitionBy: Any = None, **options: Any) -> None:
        self._configure(format, mode, partitionBy, options)
        self._df._jdf.write_save(self._format, self._mode, self._options, self._partition_by,
                                 path)

    def saveAsTable(self, name: str, format: Optional[str] = None, mode: Optional[str] = None,
                    partitionBy: Any = None, **options: Any) -> None:
        self._configure(format, mode, partitionBy, options)
        self._df._jdf.write_save_as_table(self._format or None, self._mode, self._options,
                                          self._partition_by, name)

    def json(self, path: str, mode: Optional[str] = None, **options: Any) -> None:
        self.save(path, "json", mode, **options)

    def csv(self, path: str, mode: Optional[str] = None, **options: Any) -> None:
        self.save(path, "csv", mode, **options)

    def parquet(self, path: str, mode: Optional[str] = None, partitionBy: Any = None,
                **options: Any) -> None:
        self.save(path, "parquet", mode, partitionBy, **options)

    def orc(self, path: str, mode: Optional[str] = None, partitionBy: Any = None,
            **options: Any) -> None:
        self.save(path, "orc", mode, partitionBy, **options)

    def text(self, path: str, **options: Any) -> None:
        self.save(path, "text", None, **options)
