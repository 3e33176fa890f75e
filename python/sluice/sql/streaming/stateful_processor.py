"""transformWithStateInPandas's processors, as ``pyspark.sql.streaming.stateful_processor``:
StatefulProcessor to subclass, and the handle and state variables it works with. State rows
are tuples of the variable's schema."""

from abc import ABC, abstractmethod
from typing import Any, Iterator, List, Optional, Tuple, Union

import pyarrow as pa

from sluice.sql._conversion import import_table


def _schema(schema: Any) -> pa.Schema:
    from sluice.sql.types import StructType, _parse_datatype_string, to_arrow_schema
    if isinstance(schema, str):
        schema = _parse_datatype_string(schema)
    if not isinstance(schema, StructType):
        raise TypeError("a state schema is a StructType or a DDL string, not %r" % (schema,))
    return to_arrow_schema(schema)


def _table(rows: List[Tuple], schema: pa.Schema) -> pa.Table:
    return pa.Table.from_pylist([dict(zip(schema.names, tuple(row))) for row in rows],
                                schema=schema)


def _tuples(capsule: Any) -> List[Tuple]:
    if capsule is None:
        return []
    return [tuple(row.values()) for row in import_table(capsule).to_pylist()]


class ValueState:
    """One value per grouping key, for the key of the current call."""

    def __init__(self, native: Any, schema: pa.Schema):
        self._native, self._schema = native, schema

    def exists(self) -> bool:
        return self._native.exists()

    def get(self) -> Optional[Tuple]:
        rows = _tuples(self._native.get())
        return rows[0] if rows else None

    def update(self, newValue: Tuple) -> None:
        self._native.update(_table([newValue], self._schema))

    def clear(self) -> None:
        self._native.clear()


class ListState:
    """A list of values per grouping key."""

    def __init__(self, native: Any, schema: pa.Schema):
        self._native, self._schema = native, schema

    def exists(self) -> bool:
        return self._native.exists()

    def get(self) -> Iterator[Tuple]:
        return iter(_tuples(self._native.get(self._schema)))

    def put(self, newState: List[Tuple]) -> None:
        self._native.put(_table(list(newState), self._schema))

    def appendValue(self, newState: Tuple) -> None:
        self._native.append_list(_table([newState], self._schema))

    def appendList(self, newState: List[Tuple]) -> None:
        self._native.append_list(_table(list(newState), self._schema))

    def clear(self) -> None:
        self._native.clear()


class MapState:
    """A map of user keys to values per grouping key."""

    def __init__(self, native: Any, key_schema: pa.Schema, value_schema: pa.Schema):
        self._native, self._key_schema, self._value_schema = native, key_schema, value_schema

    def exists(self) -> bool:
        return self._native.exists()

    def getValue(self, key: Tuple) -> Optional[Tuple]:
        rows = _tuples(self._native.get_value(_table([key], self._key_schema)))
        return rows[0] if rows else None

    def containsKey(self, key: Tuple) -> bool:
        return self._native.contains_key(_table([key], self._key_schema))

    def updateValue(self, key: Tuple, value: Tuple) -> None:
        self._native.update_value(_table([key], self._key_schema),
                                  _table([value], self._value_schema))

    def iterator(self) -> Iterator[Tuple[Tuple, Tuple]]:
        keys, values = self._native.entries(self._key_schema, self._value_schema)
        return iter(zip(_tuples(keys), _tuples(values)))

    def keys(self) -> Iterator[Tuple]:
        return (key for key, _ in self.iterator())

    def values(self) -> Iterator[Tuple]:
        return (value for _, value in self.iterator())

    def removeKey(self, key: Tuple) -> None:
        self._native.remove_key(_table([key], self._key_schema))

    def clear(self) -> None:
        self._native.clear()


class TimerValues:
    """The times of the batch a call runs in."""

    def __init__(self, processing_time_ms: int, watermark_ms: Optional[int]):
        self._processing_time_ms, self._watermark_ms = processing_time_ms, watermark_ms

    def getCurrentProcessingTimeInMs(self) -> int:
        return self._processing_time_ms

    def getCurrentWatermarkInMs(self) -> int:
        return -1 if self._watermark_ms is None else self._watermark_ms


class ExpiredTimerInfo:
    """The timer a handleExpiredTimer call is for."""

    def __init__(self, expiry_ms: int):
        self._expiry_ms = expiry_ms

    def getExpiryTimeInMs(self) -> int:
        return self._expiry_ms


class StatefulProcessorHandle:
    """What init() declares state variables with and sets the current key's timers through."""

    def __init__(self, native: Any):
        self._native = native

    def getValueState(self, stateName: str, schema: Any,
                      ttlDurationMs: Optional[int] = None) -> ValueState:
        arrow_schema = _schema(schema)
        return ValueState(self._native.get_value_state(stateName, arrow_schema, ttlDurationMs),
                          arrow_schema)

    def getListState(self, stateName: str, schema: Any,
                     ttlDurationMs: Optional[int] = None) -> ListState:
        arrow_schema = _schema(schema)
        return ListState(self._native.get_list_state(stateName, arrow_schema, ttlDurationMs),
                         arrow_schema)

    def getMapState(self, stateName: str, userKeySchema: Any, valueSchema: Any,
                    ttlDurationMs: Optional[int] = None) -> MapState:
        key_schema, value_schema = _schema(userKeySchema), _schema(valueSchema)
        native = self._native.get_map_state(stateName, key_schema, value_schema, ttlDurationMs)
        return MapState(native, key_schema, value_schema)

    def registerTimer(self, expiryTimestampMs: int) -> None:
        self._native.register_timer(int(expiryTimestampMs))

    def deleteTimer(self, expiryTimestampMs: int) -> None:
        self._native.delete_timer(int(expiryTimestampMs))

    def listTimers(self) -> Iterator[int]:
        return iter(self._native.list_timers())


class StatefulProcessor(ABC):
    """The user's logic: init() declares the state variables (each micro-batch), then
    handleInitialState(key, initialState, timerValues) runs in the first batch for each key of
    an initial state, handleInputRows(key, rows, timerValues) yields pandas DataFrames for
    each key with rows, and handleExpiredTimer(key, timerValues, expiredTimerInfo) for each
    timer due."""

    @abstractmethod
    def init(self, handle: StatefulProcessorHandle) -> None:
        ...

    @abstractmethod
    def handleInputRows(self, key: Any, rows: Iterator[Any], timerValues: TimerValues) -> Any:
        ...

    def handleExpiredTimer(self, key: Any, timerValues: TimerValues,
                           expiredTimerInfo: ExpiredTimerInfo) -> Any:
        return iter([])

    def handleInitialState(self, key: Any, initialState: Any, timerValues: TimerValues) -> None:
        """The key's rows of the initial state (a pandas DataFrame), in the first batch."""

    def close(self) -> None:
        ...


class _Bridge:
    """What the engine calls: converts keys, rows and outputs between Arrow and pandas."""

    def __init__(self, processor: StatefulProcessor, output_schema: pa.Schema):
        self._processor, self._output_schema = processor, output_schema

    def init(self, native_handle: Any) -> None:
        self._processor.init(StatefulProcessorHandle(native_handle))

    def _output(self, frames: Any) -> Optional[pa.Table]:
        import pandas as pd
        kept = [pdf for pdf in (frames or []) if len(pdf)]
        if not kept:
            return None
        return pa.Table.from_pandas(pd.concat(kept, ignore_index=True),
                                    schema=self._output_schema, preserve_index=False)

    def handle_input_rows(self, key: Any, rows: Any, processing_ms: int,
                          watermark_ms: Optional[int]) -> Optional[pa.Table]:
        pdf = import_table(rows).to_pandas()
        return self._output(self._processor.handleInputRows(
            _tuples(key)[0], iter([pdf]), TimerValues(processing_ms, watermark_ms)))

    def handle_initial_state(self, key: Any, rows: Any, processing_ms: int,
                             watermark_ms: Optional[int]) -> None:
        self._processor.handleInitialState(_tuples(key)[0], import_table(rows).to_pandas(),
                                           TimerValues(processing_ms, watermark_ms))

    def handle_expired_timer(self, key: Any, processing_ms: int, watermark_ms: Optional[int],
                             expiry_ms: int) -> Optional[pa.Table]:
        return self._output(self._processor.handleExpiredTimer(
            _tuples(key)[0], TimerValues(processing_ms, watermark_ms),
            ExpiredTimerInfo(expiry_ms)))

    def close(self) -> None:
        self._processor.close()
