"""Structured Streaming, as ``pyspark.sql.streaming``."""

from sluice.sql.streaming.listener import StreamingQueryListener
from sluice.sql.streaming.query import StreamingQuery, StreamingQueryManager
from sluice.sql.streaming.readwriter import DataStreamReader, DataStreamWriter
from sluice.sql.streaming.state import GroupState, GroupStateTimeout
from sluice.sql.streaming.stateful_processor import StatefulProcessor, StatefulProcessorHandle

__all__ = ["DataStreamReader", "DataStreamWriter", "StreamingQuery", "StreamingQueryManager",
           "StreamingQueryListener", "GroupState", "GroupStateTimeout", "StatefulProcessor",
           "StatefulProcessorHandle"]
