"""DeltaTable and DeltaMergeBuilder, as ``delta.tables``. Conditions and values are SQL text
("t.id = s.id") or Columns."""

from typing import Any, Dict, Optional, Union

from sluice import _native
from sluice.sql.column import Column
from sluice.sql.dataframe import DataFrame
from sluice.sql.session import SparkSession

__all__ = ["DeltaTable", "DeltaMergeBuilder"]

ExpressionOrColumn = Union[str, Column]


def _expression(value: ExpressionOrColumn) -> Any:
    if isinstance(value, Column):
        return value._jc
    return _native.expr(value)


def _optional_expression(value: Optional[ExpressionOrColumn]) -> Any:
    return None if value is None else _expression(value)


def _assignments(values: Optional[Dict[str, ExpressionOrColumn]]) -> Dict[str, Any]:
    return {name: _expression(value) for name, value in (values or {}).items()}


class DeltaTable:
    """A Delta table: its rows (toDF), history, vacuum and MERGE."""

    def __init__(self, jdt: "_native.DeltaTable", session: SparkSession):
        self._jdt = jdt
        self._session = session

    @classmethod
    def forPath(cls, sparkSession: SparkSession, path: str,
                hadoopConf: Optional[Dict[str, str]] = None) -> "DeltaTable":
        return cls(_native.DeltaTable.forPath(sparkSession._jss, path), sparkSession)

    @classmethod
    def forName(cls, sparkSession: SparkSession, tableOrViewName: str) -> "DeltaTable":
        return cls(_native.DeltaTable.forName(sparkSession._jss, tableOrViewName), sparkSession)

    def toDF(self) -> DataFrame:
        return DataFrame(self._jdt.toDF(), self._session)

    def alias(self, aliasName: str) -> "DeltaTable":
        return DeltaTable(self._jdt.alias(aliasName), self._session)

    def history(self, limit: Optional[int] = None) -> DataFrame:
        return DataFrame(self._jdt.history(limit), self._session)

    def vacuum(self, retentionHours: Optional[float] = None) -> DataFrame:
        return DataFrame(self._jdt.vacuum(retentionHours), self._session)

    def merge(self, source: DataFrame, condition: ExpressionOrColumn) -> "DeltaMergeBuilder":
        return DeltaMergeBuilder(self._jdt.merge(source._jdf, _expression(condition)),
                                 self._session)


class DeltaMergeBuilder:
    """The clauses of a MERGE; execute() runs it as one commit."""

    def __init__(self, jbuilder: "_native.DeltaMergeBuilder", session: SparkSession):
        self._jbuilder = jbuilder
        self._session = session

    def _with(self, jbuilder: "_native.DeltaMergeBuilder") -> "DeltaMergeBuilder":
        return DeltaMergeBuilder(jbuilder, self._session)

    def whenMatchedUpdate(self, condition: Optional[ExpressionOrColumn] = None,
                          set: Optional[Dict[str, ExpressionOrColumn]] = None
                          ) -> "DeltaMergeBuilder":
        return self._with(self._jbuilder.whenMatchedUpdate(_assignments(set),
                                                           _optional_expression(condition)))

    def whenMatchedUpdateAll(self, condition: Optional[ExpressionOrColumn] = None
                             ) -> "DeltaMergeBuilder":
        return self._with(self._jbuilder.whenMatchedUpdateAll(_optional_expression(condition)))

    def whenMatchedDelete(self, condition: Optional[ExpressionOrColumn] = None
                          ) -> "DeltaMergeBuilder":
        return self._with(self._jbuilder.whenMatchedDelete(_optional_expression(condition)))

    def whenNotMatchedInsert(self, condition: Optional[ExpressionOrColumn] = None,
                             values: Optional[Dict[str, ExpressionOrColumn]] = None
                             ) -> "DeltaMergeBuilder":
        return self._with(self._jbuilder.whenNotMatchedInsert(_assignments(values),
                                                              _optional_expression(condition)))

    def whenNotMatchedInsertAll(self, condition: Optional[ExpressionOrColumn] = None
                                ) -> "DeltaMergeBuilder":
        return self._with(self._jbuilder.whenNotMatchedInsertAll(
            _optional_expression(condition)))

    def execute(self) -> DataFrame:
        return DataFrame(self._jbuilder.execute(), self._session)
