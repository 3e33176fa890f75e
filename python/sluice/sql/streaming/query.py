"""StreamingQuery, StreamingQueryManager and the progress reports, as PySpark's."""

import json
import uuid
from typing import Any, Dict, List, Optional, TYPE_CHECKING

from sluice import _native
from sluice.errors import PySparkTypeError, PySparkValueError, StreamingQueryException, \
    _from_native

if TYPE_CHECKING:
    from sluice.sql.session import SparkSession
    from sluice.sql.streaming.listener import StreamingQueryListener

__all__ = ["StreamingQuery", "StreamingQueryManager", "StreamingQueryProgress"]


class _JsonObject(dict):
    """A JSON object of a progress report: a dict whose keys are also attributes
    (``progress["batchId"]`` and ``progress.batchId``), nested objects alike."""

    _defaults: Dict[str, Any] = {}

    def __init__(self, values: Dict[str, Any]):
        super().__init__({k: _wrap(v) for k, v in values.items()})

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if name in self:
            return self[name]
        if name in self._defaults:
            return self._defaults[name]
        raise AttributeError(name)


def _wrap(value: Any) -> Any:
    if isinstance(value, dict) and not isinstance(value, _JsonObject):
        return _JsonObject(value)
    if isinstance(value, list):
        return [_wrap(v) for v in value]
    return value


class StreamingQueryProgress(_JsonObject):
    """One trigger's report, shaped as Spark's JSON: id, runId, name, timestamp, batchId,
    batchDuration, numInputRows, inputRowsPerSecond, processedRowsPerSecond, durationMs,
    eventTime, stateOperators, sources, sink, observedMetrics. As a dict it is what PySpark's
    lastProgress returns; as an object, what a listener's event.progress is (id and runId are
    then UUIDs, as there)."""

    _defaults = {"name": None, "numInputRows": 0, "inputRowsPerSecond": float("nan"),
                 "processedRowsPerSecond": float("nan"), "eventTime": {},
                 "stateOperators": [], "observedMetrics": {}}

    def __init__(self, json_text: str):
        super().__init__(json.loads(json_text))
        self._json = json_text

    def __getattr__(self, name: str) -> Any:
        if name in ("id", "runId"):
            return uuid.UUID(self[name])
        return super().__getattr__(name)

    @property
    def json(self) -> str:
        """The report as Spark's compact JSON text."""
        return self._json

    @property
    def prettyJson(self) -> str:
        return json.dumps(self, indent=2, separators=(",", " : "))


def _seconds_to_ms(timeout: Any) -> Optional[int]:
    if timeout is None:
        return None
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or timeout < 0:
        raise PySparkValueError("timeout must be a positive integer or float. Got %s" % timeout,
                                errorClass="VALUE_NOT_POSITIVE")
    return int(timeout * 1000)


def _wait_interruptibly(wait: Any) -> None:
    """Waits with `wait(timeout_ms)` until it returns True, in slices, so that Ctrl-C (a
    KeyboardInterrupt, raised between slices) ends the wait."""
    while not wait(_WAIT_SLICE_MS):
        pass


# How long a wait without timeout blocks in the engine before Python checks for signals.
_WAIT_SLICE_MS = 200


class StreamingQuery:
    """A running streaming query's handle: its ids, state and progress, and the calls that
    wait for it or stop it. The query runs on a thread of its own."""

    def __init__(self, jq: "_native.StreamingQuery", session: "SparkSession"):
        self._jq = jq
        self._session = session

    @property
    def id(self) -> str:
        """Stable across restarts from the same checkpoint."""
        return self._jq.id()

    @property
    def runId(self) -> str:
        """New at every start."""
        return self._jq.runId()

    @property
    def name(self) -> Optional[str]:
        return self._jq.name()

    @property
    def isActive(self) -> bool:
        return self._jq.isActive()

    @property
    def sparkSession(self) -> "SparkSession":
        return self._session

    @property
    def status(self) -> Dict[str, Any]:
        """message, isDataAvailable, isTriggerActive."""
        return json.loads(self._jq.status_json())

    @property
    def lastProgress(self) -> Optional[StreamingQueryProgress]:
        text = self._jq.last_progress_json()
        return None if text is None else StreamingQueryProgress(text)

    @property
    def recentProgress(self) -> List[StreamingQueryProgress]:
        return [StreamingQueryProgress(t) for t in self._jq.recent_progress_json()]

    def awaitTermination(self, timeout: Optional[float] = None) -> Optional[bool]:
        """Waits until the query stops (at most `timeout` seconds: returns whether it did).
        Raises StreamingQueryException if it failed."""
        timeout_ms = _seconds_to_ms(timeout)
        if timeout_ms is None:
            _wait_interruptibly(self._jq.awaitTermination)
            return None
        return self._jq.awaitTermination(timeout_ms)

    def processAllAvailable(self) -> None:
        """Waits until all data available now is processed and committed (for tests)."""
        self._jq.processAllAvailable()

    def stop(self) -> None:
        """Stops the query; a batch in flight finishes first."""
        self._jq.stop()

    def exception(self) -> Optional[StreamingQueryException]:
        info = self._jq.exception_info()
        return None if info is None else _from_native(*info)

    def explain(self, extended: bool = False) -> None:
        print(self._jq.explainString(extended))

    def __repr__(self) -> str:
        return "<StreamingQuery id=%s runId=%s name=%s>" % (self.id, self.runId, self.name)


class StreamingQueryManager:
    """spark.streams: the session's active queries and its listeners."""

    def __init__(self, jsqm: "_native.StreamingQueryManager", session: "SparkSession"):
        self._jsqm = jsqm
        self._session = session
        self._listeners: Dict[int, Any] = {}

    @property
    def active(self) -> List[StreamingQuery]:
        return [StreamingQuery(jq, self._session) for jq in self._jsqm.active()]

    def get(self, id: str) -> Optional[StreamingQuery]:
        jq = self._jsqm.get(str(id))
        return None if jq is None else StreamingQuery(jq, self._session)

    def awaitAnyTermination(self, timeout: Optional[float] = None) -> Optional[bool]:
        timeout_ms = _seconds_to_ms(timeout)
        if timeout_ms is None:
            _wait_interruptibly(self._jsqm.awaitAnyTermination)
            return None
        return self._jsqm.awaitAnyTermination(timeout_ms)

    def resetTerminated(self) -> None:
        self._jsqm.resetTerminated()

    def addListener(self, listener: "StreamingQueryListener") -> None:
        """Calls the listener's onQueryStarted/Progress/Idle/Terminated for every query of the
        session, from the query's thread."""
        from sluice.sql.streaming.listener import StreamingQueryListener, _ListenerAdapter
        if not isinstance(listener, StreamingQueryListener):
            raise PySparkTypeError("listener should be a StreamingQueryListener",
                                   errorClass="NOT_STREAMING_QUERY_LISTENER")
        if id(listener) in self._listeners:
            return
        self._listeners[id(listener)] = (listener,
                                         self._jsqm.add_listener(_ListenerAdapter(listener)))

    def removeListener(self, listener: "StreamingQueryListener") -> None:
        entry = self._listeners.pop(id(listener), None)
        if entry is not None:
            self._jsqm.remove_listener(entry[1])
