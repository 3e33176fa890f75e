"""The state of applyInPandasWithState, as ``pyspark.sql.streaming.state``."""

import datetime
from typing import Any, Optional, Tuple

import pyarrow as pa

from sluice.errors import PySparkValueError
from sluice.sql._conversion import import_table


class GroupStateTimeout:
    """When a key without new rows is called again: never, after a duration of processing time
    (set with setTimeoutDuration), or once the watermark passes a time (setTimeoutTimestamp)."""
    NoTimeout = "NoTimeout"
    ProcessingTimeTimeout = "ProcessingTimeTimeout"
    EventTimeTimeout = "EventTimeTimeout"


class GroupState:
    """One key's state during one call of the function: a tuple of the state schema's fields,
    and the key's timeout. Valid only during the call it is given to."""

    def __init__(self, handle: Any, schema: pa.Schema):
        self._handle = handle
        self._schema = schema

    @property
    def exists(self) -> bool:
        return self._handle.exists()

    @property
    def get(self) -> Tuple:
        state = self.getOption
        if state is None:
            raise PySparkValueError(
                "State is either not defined or has already been removed", "STATE_NOT_EXISTS")
        return state

    @property
    def getOption(self) -> Optional[Tuple]:
        capsule = self._handle.get()
        if capsule is None:
            return None
        return tuple(import_table(capsule).to_pylist()[0].values())

    @property
    def hasTimedOut(self) -> bool:
        return self._handle.has_timed_out()

    def update(self, newValue: Tuple) -> None:
        if newValue is None:
            raise PySparkValueError("'null' is not a valid state value", "ILLEGAL_ARGUMENT")
        values = tuple(newValue)
        if len(values) != len(self._schema):
            raise PySparkValueError(
                "The state has %d fields, the state schema %d: %s"
                % (len(values), len(self._schema), self._schema), "ILLEGAL_ARGUMENT")
        row = dict(zip(self._schema.names, values))
        self._handle.update(pa.Table.from_pylist([row], schema=self._schema))

    def remove(self) -> None:
        self._handle.remove()

    def setTimeoutDuration(self, durationMs: Any) -> None:
        if isinstance(durationMs, str):
            self._handle.set_timeout_duration_text(durationMs)
        else:
            self._handle.set_timeout_duration(int(durationMs))

    def setTimeoutTimestamp(self, timestampMs: Any) -> None:
        if isinstance(timestampMs, datetime.datetime):
            timestampMs = int(timestampMs.timestamp() * 1000)
        self._handle.set_timeout_timestamp(int(timestampMs))

    def getCurrentWatermarkMs(self) -> int:
        return self._handle.watermark_ms()

    def getCurrentProcessingTimeMs(self) -> int:
        return self._handle.processing_time_ms()

    def __str__(self) -> str:
        return "GroupState(%s)" % (self.getOption,)
