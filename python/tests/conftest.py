"""Fixtures of the Python package's tests: one session for the whole run."""

import pytest

from sluice.sql import SparkSession


@pytest.fixture(scope="session")
def spark():
    session = (SparkSession.builder.master("local[2]").appName("sluice-python-tests")
               .config("spark.sql.session.timeZone", "UTC").getOrCreate())
    yield session
    session.stop()
