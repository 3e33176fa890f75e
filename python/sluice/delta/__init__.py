"""Delta Lake's Python API (``delta``) over the Sluice engine: ``from delta import ...``
becomes ``from sluice.delta import ...``."""

from sluice.delta.tables import DeltaMergeBuilder, DeltaTable


def configure_spark_with_delta_pip(spark_session_builder, extra_packages=None):
    """Delta needs no extra packages in Sluice: the builder is returned as it is."""
    return spark_session_builder


__all__ = ["DeltaTable", "DeltaMergeBuilder", "configure_spark_with_delta_pip"]
