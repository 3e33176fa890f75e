"""StreamingQueryListener and its events, as PySpark's."""

import uuid
from typing import Optional

from sluice.sql.streaming.query import StreamingQueryProgress

__all__ = ["StreamingQueryListener", "QueryStartedEvent", "QueryProgressEvent",
           "QueryIdleEvent", "QueryTerminatedEvent"]


class QueryStartedEvent:
    def __init__(self, id: str, runId: str, name: Optional[str], timestamp: str):
        self.id = uuid.UUID(id)
        self.runId = uuid.UUID(runId)
        self.name = name
        self.timestamp = timestamp


class QueryProgressEvent:
    def __init__(self, progress: StreamingQueryProgress):
        self.progress = progress


class QueryIdleEvent:
    def __init__(self, id: str, runId: str, timestamp: str):
        self.id = uuid.UUID(id)
        self.runId = uuid.UUID(runId)
        self.timestamp = timestamp


class QueryTerminatedEvent:
    def __init__(self, id: str, runId: str, exception: Optional[str],
                 errorClassOnException: Optional[str]):
        self.id = uuid.UUID(id)
        self.runId = uuid.UUID(runId)
        self.exception = exception
        self.errorClassOnException = errorClassOnException


class StreamingQueryListener:
    """Subclass it and register an instance with spark.streams.addListener: the methods are
    called for every query of the session, in order per query (started, then progress and
    idle events, then terminated), from the query's own thread."""

    def onQueryStarted(self, event: QueryStartedEvent) -> None:
        pass

    def onQueryProgress(self, event: QueryProgressEvent) -> None:
        pass

    def onQueryIdle(self, event: QueryIdleEvent) -> None:
        pass

    def onQueryTerminated(self, event: QueryTerminatedEvent) -> None:
        pass


class _ListenerAdapter:
    """What the engine calls: builds the event objects and calls the user's listener."""

    def __init__(self, listener: StreamingQueryListener):
        self._listener = listener

    def started(self, id: str, run_id: str, name: Optional[str], timestamp: str) -> None:
        self._listener.onQueryStarted(QueryStartedEvent(id, run_id, name, timestamp))

    def progress(self, json_text: str) -> None:
        self._listener.onQueryProgress(QueryProgressEvent(StreamingQueryProgress(json_text)))

    def idle(self, id: str, run_id: str, timestamp: str) -> None:
        self._listener.onQueryIdle(QueryIdleEvent(id, run_id, timestamp))

    def terminated(self, id: str, run_id: str, exception: Optional[str],
                   error_class: Optional[str]) -> None:
        self._listener.onQueryTerminated(QueryTerminatedEvent(id, run_id, exception, error_class))
