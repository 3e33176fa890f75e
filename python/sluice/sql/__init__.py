"""PySpark's ``pyspark.sql`` over the Sluice engine."""

from sluice.sql.column import Column
from sluice.sql.dataframe import DataFrame, GroupedData
from sluice.sql.readwriter import DataFrameReader, DataFrameWriter
from sluice.sql.session import RuntimeConfig, SparkSession
from sluice.sql.types import Row
from sluice.sql.window import Window, WindowSpec
from sluice.sql import functions, types, streaming

__all__ = ["SparkSession", "DataFrame", "Column", "Row", "GroupedData", "DataFrameReader",
           "DataFrameWriter", "RuntimeConfig", "Window", "WindowSpec", "functions", "types",
           "streaming"]
