"""Window and WindowSpec, as PySpark's ``pyspark.sql.window``: the partitioning, ordering and
frame of window functions (``row_number().over(Window.partitionBy("k").orderBy("t"))``)."""

import sys
from typing import Any

from sluice import _native
from sluice.sql.column import _flatten, _to_java_column

__all__ = ["Window", "WindowSpec"]

_JAVA_MIN_LONG = -(1 << 63)
_JAVA_MAX_LONG = (1 << 63) - 1
_PRECEDING_THRESHOLD = max(-sys.maxsize, _JAVA_MIN_LONG)
_FOLLOWING_THRESHOLD = min(sys.maxsize, _JAVA_MAX_LONG)


def _frame_bounds(start: int, end: int) -> tuple:
    """PySpark's reading of frame boundaries: anything beyond the thresholds is unbounded."""
    if start <= _PRECEDING_THRESHOLD:
        start = _JAVA_MIN_LONG
    if end >= _FOLLOWING_THRESHOLD:
        end = _JAVA_MAX_LONG
    return start, end


class WindowSpec:
    """A window specification; each method returns a new one."""

    def __init__(self, jspec: Any) -> None:
        self._jspec = jspec

    def partitionBy(self, *cols: Any) -> "WindowSpec":
        return WindowSpec(self._jspec.partitionBy([_to_java_column(c) for c in _flatten(cols)]))

    def orderBy(self, *cols: Any) -> "WindowSpec":
        return WindowSpec(self._jspec.orderBy([_to_java_column(c) for c in _flatten(cols)]))

    def rowsBetween(self, start: int, end: int) -> "WindowSpec":
        return WindowSpec(self._jspec.rowsBetween(*_frame_bounds(start, end)))

    def rangeBetween(self, start: int, end: int) -> "WindowSpec":
        return WindowSpec(self._jspec.rangeBetween(*_frame_bounds(start, end)))


class Window:
    """Where window specifications start, as PySpark's Window."""

    unboundedPreceding: int = _JAVA_MIN_LONG
    unboundedFollowing: int = _JAVA_MAX_LONG
    currentRow: int = 0

    @staticmethod
    def partitionBy(*cols: Any) -> WindowSpec:
        return WindowSpec(_native.WindowSpec()).partitionBy(*cols)

    @staticmethod
    def orderBy(*cols: Any) -> WindowSpec:
        return WindowSpec(_native.WindowSpec()).orderBy(*cols)

    @staticmethod
    def rowsBetween(start: int, end: int) -> WindowSpec:
        return WindowSpec(_native.WindowSpec()).rowsBetween(start, end)

    @staticmethod
    def rangeBetween(start: int, end: int) -> WindowSpec:
        return WindowSpec(_native.WindowSpec()).rangeBetween(start, end)
