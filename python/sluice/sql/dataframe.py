"""DataFrame and GroupedData, as PySpark's. Transformations raise AnalysisException at once
for an unknown column or a type error; actions run the query with the GIL released."""

from typing import Any, Dict, List, Optional, Union, TYPE_CHECKING

import pyarrow as pa

from sluice import _native
from sluice.errors import PySparkTypeError
from sluice.sql._conversion import import_schema, import_table, table_to_rows
from sluice.sql.column import Column, _flatten, _to_java_column
from sluice.sql.types import Row, StructType, from_arrow_schema

if TYPE_CHECKING:
    from sluice.sql.readwriter import DataFrameWriter
    from sluice.sql.session import SparkSession
    from sluice.sql.streaming.readwriter import DataStreamWriter

__all__ = ["DataFrame", "GroupedData"]

ColumnOrName = Union[Column, str]


def _sort_keys(cols: List[Any], ascending: Any) -> List[Any]:
    keys = [_to_java_column(c) for c in _flatten(cols)]
    if ascending is None or ascending is True:
        return keys
    if ascending is False:
        return [k.desc() for k in keys]
    if isinstance(ascending, list):
        return [k if up else k.desc() for k, up in zip(keys, ascending)]
    raise PySparkTypeError("ascending can only be boolean or list, but got %s"
                           % type(ascending).__name__, errorClass="NOT_BOOL_OR_LIST")


def _aggregate_exprs(exprs: Any) -> List[Any]:
    """agg()'s arguments: Columns, or one dict of column name -> function name."""
    if len(exprs) == 1 and isinstance(exprs[0], dict):
        from sluice.sql import functions as F
        return [getattr(F, "avg" if f == "mean" else f)(c)._jc for c, f in exprs[0].items()]
    exprs = _flatten(exprs)
    for e in exprs:
        if not isinstance(e, Column):
            raise PySparkTypeError("all exprs should be Column", errorClass="NOT_COLUMN")
    return [e._jc for e in exprs]


class DataFrame:
    """A query's result as a table: transformations return new DataFrames, actions (collect,
    count, show, toPandas, write) run it."""

    def __init__(self, jdf: "_native.DataFrame", session: "SparkSession"):
        self._jdf = jdf
        self._session = session

    @property
    def sparkSession(self) -> "SparkSession":
        return self._session

    # ---- Schema ----

    @property
    def schema(self) -> StructType:
        return from_arrow_schema(import_schema(self._jdf.schema()))

    @property
    def columns(self) -> List[str]:
        return list(self._jdf.columns())

    @property
    def dtypes(self) -> List[tuple]:
        return [(f.name, f.dataType.simpleString()) for f in self.schema]

    @property
    def isStreaming(self) -> bool:
        return self._jdf.isStreaming()

    def printSchema(self, level: Optional[int] = None) -> None:
        print(self._jdf.treeString(level or 0), end="")

    def explain(self, extended: Optional[Union[bool, str]] = None,
                mode: Optional[str] = None) -> None:
        if isinstance(extended, str):
            mode, extended = extended, None
        print(self._jdf.explainString(bool(extended) or mode == "extended"))

    def __getitem__(self, item: Any) -> Any:
        if isinstance(item, str):
            return Column(self._jdf.column(item))
        if isinstance(item, Column):
            return self.filter(item)
        if isinstance(item, (list, tuple)):
            return self.select(*item)
        if isinstance(item, int):
            return Column(self._jdf.column(self.columns[item]))
        raise PySparkTypeError("unexpected item type: %s" % type(item).__name__,
                               errorClass="NOT_COLUMN_OR_INT_OR_LIST_OR_STR")

    def __getattr__(self, name: str) -> Column:
        if name.startswith("_") or name not in self.columns:
            raise AttributeError("'DataFrame' object has no attribute '%s'" % name)
        return Column(self._jdf.column(name))

    def __repr__(self) -> str:
        return "DataFrame[%s]" % ", ".join("%s: %s" % d for d in self.dtypes)

    def _with(self, jdf: "_native.DataFrame") -> "DataFrame":
        return DataFrame(jdf, self._session)

    # ---- Transformations ----

    def select(self, *cols: Any) -> "DataFrame":
        return self._with(self._jdf.select([_to_java_column(c) for c in _flatten(cols)]))

    def selectExpr(self, *expr: str) -> "DataFrame":
        return self._with(self._jdf.selectExpr(_flatten(expr)))

    def filter(self, condition: ColumnOrName) -> "DataFrame":
        if isinstance(condition, str):
            return self._with(self._jdf.filter_sql(condition))
        if isinstance(condition, Column):
            return self._with(self._jdf.filter(condition._jc))
        raise PySparkTypeError("condition should be string or Column",
                               errorClass="NOT_COLUMN_OR_STR")

    where = filter

    def withColumn(self, colName: str, col: Column) -> "DataFrame":
        if not isinstance(col, Column):
            raise PySparkTypeError("col should be Column", errorClass="NOT_COLUMN")
        return self._with(self._jdf.withColumn(colName, col._jc))

    def withColumns(self, *colsMap: Dict[str, Column]) -> "DataFrame":
        df = self
        for name, col in colsMap[0].items():
            df = df.withColumn(name, col)
        return df

    def withColumnRenamed(self, existing: str, new: str) -> "DataFrame":
        return self._with(self._jdf.withColumnRenamed(existing, new))

    def withColumnsRenamed(self, colsMap: Dict[str, str]) -> "DataFrame":
        df = self
        for existing, new in colsMap.items():
            df = df.withColumnRenamed(existing, new)
        return df

    def drop(self, *cols: ColumnOrName) -> "DataFrame":
        names = [c if isinstance(c, str) else str(c) for c in cols]
        return self._with(self._jdf.drop(names))

    def alias(self, alias: str) -> "DataFrame":
        return self._with(self._jdf.alias(alias))

    def toDF(self, *cols: str) -> "DataFrame":
        return self._with(self._jdf.toDF(list(cols)))

    def withWatermark(self, eventTime: str, delayThreshold: str) -> "DataFrame":
        return self._with(self._jdf.withWatermark(eventTime, delayThreshold))

    def orderBy(self, *cols: Any, **kwargs: Any) -> "DataFrame":
        return self._with(self._jdf.orderBy(_sort_keys(list(cols), kwargs.get("ascending"))))

    sort = orderBy

    def limit(self, num: int) -> "DataFrame":
        return self._with(self._jdf.limit(num))

    def distinct(self) -> "DataFrame":
        return self._with(self._jdf.distinct())

    def dropDuplicates(self, subset: Optional[List[str]] = None) -> "DataFrame":
        return self._with(self._jdf.dropDuplicates(list(subset or [])))

    drop_duplicates = dropDuplicates

    def dropDuplicatesWithinWatermark(self, subset: Optional[List[str]] = None) -> "DataFrame":
        return self._with(self._jdf.dropDuplicatesWithinWatermark(list(subset or [])))

    def union(self, other: "DataFrame") -> "DataFrame":
        return self._with(self._jdf.union(other._jdf))

    unionAll = union

    def unionByName(self, other: "DataFrame", allowMissingColumns: bool = False) -> "DataFrame":
        return self._with(self._jdf.unionByName(other._jdf, allowMissingColumns))

    def join(self, other: "DataFrame", on: Any = None, how: Optional[str] = None) -> "DataFrame":
        how = how or "inner"
        if on is None:
            return self._with(self._jdf.crossJoin(other._jdf)) if how == "cross" else \
                self._with(self._jdf.join_using(other._jdf, [], how))
        if isinstance(on, str):
            return self._with(self._jdf.join_using(other._jdf, [on], how))
        if isinstance(on, Column):
            return self._with(self._jdf.join(other._jdf, on._jc, how))
        if isinstance(on, (list, tuple)) and on and all(isinstance(o, str) for o in on):
            return self._with(self._jdf.join_using(other._jdf, list(on), how))
        if isinstance(on, (list, tuple)) and on and all(isinstance(o, Column) for o in on):
            condition = on[0]
            for o in on[1:]:
                condition = condition & o
            return self._with(self._jdf.join(other._jdf, condition._jc, how))
        raise PySparkTypeError("on should be Column or list of Column or str",
                               errorClass="NOT_COLUMN_OR_LIST_OR_STR")

    def crossJoin(self, other: "DataFrame") -> "DataFrame":
        return self._with(self._jdf.crossJoin(other._jdf))

    def groupBy(self, *cols: Any) -> "GroupedData":
        return GroupedData(self._jdf.groupBy([_to_java_column(c) for c in _flatten(cols)]),
                           self._session)

    groupby = groupBy

    def agg(self, *exprs: Any) -> "DataFrame":
        return self._with(self._jdf.agg(_aggregate_exprs(exprs)))

    def transform(self, func: Any, *args: Any, **kwargs: Any) -> "DataFrame":
        return func(self, *args, **kwargs)

    def cache(self) -> "DataFrame":
        """Accepted for compatibility: the DataFrame is returned unchanged."""
        return self

    persist = cache

    def unpersist(self, blocking: bool = False) -> "DataFrame":
        return self

    # ---- Actions ----

    def toArrow(self) -> pa.Table:
        """The rows as a pyarrow Table, sharing the engine's buffers."""
        return import_table(self._jdf.collect())

    def toPandas(self) -> Any:
        """The rows as a pandas DataFrame, converted by pyarrow."""
        return self.toArrow().to_pandas()

    def collect(self) -> List[Row]:
        return table_to_rows(self.toArrow())

    def toLocalIterator(self, prefetchPartitions: bool = False):
        return iter(self.collect())

    def count(self) -> int:
        return self._jdf.count()

    def createOrReplaceTempView(self, name: str) -> None:
        """Registers this DataFrame as a temporary view for spark.sql and spark.table."""
        self._jdf.createOrReplaceTempView(name)

    def createTempView(self, name: str) -> None:
        """As createOrReplaceTempView; a view of that name already existing is an error."""
        self._jdf.createTempView(name)

    def take(self, num: int) -> List[Row]:
        return self.limit(num).collect()

    def head(self, n: Optional[int] = None) -> Any:
        if n is None:
            rows = self.take(1)
            return rows[0] if rows else None
        return self.take(n)

    def first(self) -> Optional[Row]:
        return self.head()

    def tail(self, num: int) -> List[Row]:
        rows = self.collect()
        return rows[-num:] if num else []

    def isEmpty(self) -> bool:
        return len(self.take(1)) == 0

    def show(self, n: int = 20, truncate: Union[bool, int] = True, vertical: bool = False) -> None:
        """Prints the first n rows as Spark's show() does."""
        if not isinstance(n, int) or isinstance(n, bool):
            raise PySparkTypeError("Parameter 'n' must be an int", errorClass="NOT_INT")
        if isinstance(truncate, bool):
            truncate_to = 20 if truncate else 0
        else:
            truncate_to = int(truncate)
        print(self._jdf.showString(n, truncate_to, vertical), end="")

    # ---- Output ----

    @property
    def write(self) -> "DataFrameWriter":
        from sluice.sql.readwriter import DataFrameWriter
        return DataFrameWriter(self)

    @property
    def writeStream(self) -> "DataStreamWriter":
        from sluice.sql.streaming.readwriter import DataStreamWriter
        return DataStreamWriter(self)


class GroupedData:
    """df.groupBy(...): aggregates per group."""

    def __init__(self, jgd: "_native.GroupedData", session: "SparkSession"):
        self._jgd = jgd
        self._session = session

    def agg(self, *exprs: Any) -> DataFrame:
        return DataFrame(self._jgd.agg(_aggregate_exprs(exprs)), self._session)

    def count(self) -> DataFrame:
        return DataFrame(self._jgd.count(), self._session)

    def sum(self, *cols: str) -> DataFrame:
        return DataFrame(self._jgd.sum(list(cols)), self._session)

    def avg(self, *cols: str) -> DataFrame:
        return DataFrame(self._jgd.avg(list(cols)), self._session)

    mean = avg

    def min(self, *cols: str) -> DataFrame:
        return DataFrame(self._jgd.min(list(cols)), self._session)

    def max(self, *cols: str) -> DataFrame:
        return DataFrame(self._jgd.max(list(cols)), self._session)

    def applyInPandasWithState(self, func: Any, outputStructType: Union[StructType, str],
                               stateStructType: Union[StructType, str], outputMode: str,
                               timeoutConf: str) -> DataFrame:
        """Calls ``func(key, pdfs, state)`` for each key with rows in a micro-batch (``pdfs``
        an iterator of pandas DataFrames of its rows) and for each key whose timeout passed
        (no rows, ``state.hasTimedOut``); ``state`` is the key's GroupState, kept across
        batches. ``func`` yields pandas DataFrames of ``outputStructType``; ``outputMode`` is
        "append" or "update", ``timeoutConf`` a GroupStateTimeout."""
        import pandas as pd
        from sluice.sql.streaming.state import GroupState
        from sluice.sql.types import _parse_datatype_string, to_arrow_schema

        def as_schema(struct: Union[StructType, str]) -> pa.Schema:
            if isinstance(struct, str):
                struct = _parse_datatype_string(struct)
            return to_arrow_schema(struct)

        output_schema = as_schema(outputStructType)
        state_schema = as_schema(stateStructType)

        def call(key_capsule: Any, rows_capsule: Any, handle: Any) -> Optional[pa.Table]:
            key = tuple(import_table(key_capsule).to_pylist()[0].values())
            rows = import_table(rows_capsule)
            pdfs = iter([rows.to_pandas()]) if rows.num_rows else iter([])
            frames = [pdf for pdf in func(key, pdfs, GroupState(handle, state_schema))
                      if len(pdf)]
            if not frames:
                return None
            pdf = pd.concat(frames, ignore_index=True)
            return pa.Table.from_pandas(pdf, schema=output_schema, preserve_index=False)

        return DataFrame(self._jgd.apply_with_state(call, output_schema, state_schema,
                                                    outputMode, timeoutConf), self._session)

    def transformWithStateInPandas(self, statefulProcessor: Any,
                                   outputStructType: Union[StructType, str], outputMode: str,
                                   timeMode: str, initialState: Any = None,
                                   eventTimeColumnName: str = "") -> DataFrame:
        """Runs ``statefulProcessor`` (a sluice.sql.streaming.stateful_processor
        StatefulProcessor) per key: its state variables, timers ("None", "ProcessingTime" or
        "EventTime") and output rows of ``outputStructType``; ``initialState``, a grouped batch
        DataFrame, seeds the state in the first batch."""
        from sluice.sql.streaming.stateful_processor import _Bridge
        from sluice.sql.types import _parse_datatype_string, to_arrow_schema
        if isinstance(outputStructType, str):
            outputStructType = _parse_datatype_string(outputStructType)
        output_schema = to_arrow_schema(outputStructType)
        bridge = _Bridge(statefulProcessor, output_schema)
        initial = initialState._jgd if initialState is not None else None
        return DataFrame(self._jgd.transform_with_state(bridge, output_schema, outputMode,
                                                        timeMode, initial), self._session)
