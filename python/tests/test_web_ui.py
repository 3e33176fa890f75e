"""The web UI against a running query: headless Chromium loads the page and the charts must show
the numbers of the query's progress reports; /metrics must parse as Prometheus' text format
and carry the same numbers."""

import json
import os
import shutil
import subprocess
import tempfile
import urllib.request
from html.parser import HTMLParser

import pytest
from prometheus_client.parser import text_string_to_metric_families

from sluice.sql import SparkSession
from sluice.sql import functions as F


@pytest.fixture(scope="module")
def ui_spark():
    previous = SparkSession.getActiveSession()
    session = (SparkSession.builder.appName("web-ui-tests")
               .config("spark.ui.enabled", "true").config("spark.ui.port", "0")
               .config("spark.sql.session.timeZone", "UTC")
               .config("spark.sql.shuffle.partitions", "2").create())
    yield session
    session.stop()
    SparkSession._active = previous


@pytest.fixture(scope="module")
def running_query(ui_spark, tmp_path_factory):
    """Windowed counts with a watermark over three files, one batch per file, left running."""
    folder = tmp_path_factory.mktemp("web-ui-input")
    for number, values in enumerate([[10, 11, 12], [25, 26], [40]]):
        (folder / f"{number}.json").write_text(
            "".join(json.dumps({"value": value}) + "\n" for value in values))
    counts = (ui_spark.readStream.schema("value INT").option("maxFilesPerTrigger", 1)
              .json(str(folder))
              .withColumn("eventTime", F.timestamp_seconds("value"))
              .withWatermark("eventTime", "10 seconds")
              .groupBy(F.window("eventTime", "5 seconds")).count())
    query = (counts.writeStream.format("memory").queryName("web_ui_windowed_counts")
             .option("checkpointLocation", str(tmp_path_factory.mktemp("web-ui-checkpoint")))
             .start())
    query.processAllAvailable()
    yield query
    query.stop()


class _ChartPoints(HTMLParser):
    """The points each chart of the page draws: {chart: {batch: value}}, and the run rows."""

    def __init__(self):
        super().__init__()
        self.charts = {}
        self.run_rows = []
        self._chart = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "figure" and "data-chart" in attributes:
            self._chart = self.charts.setdefault(attributes["data-chart"], {})
        elif tag in ("circle", "rect") and "data-batch" in attributes and self._chart is not None:
            key = int(attributes["data-batch"])
            if tag == "rect":
                key = (key, attributes["data-key"])
            self._chart[key] = float(attributes["data-value"])
        elif tag == "tr" and "data-run-id" in attributes:
            self.run_rows.append(attributes["data-run-id"])


def _render(url):
    """The DOM of `url` once its script has fetched and drawn, as headless Chromium sees it."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    assert chromium, "chromium is missing: scripts/install-system-packages.sh installs it"
    # The sanitizer build runs these tests with its runtime preloaded; the browser must not
    # inherit it (Chromium hangs under a preloaded ASan runtime).
    env = {key: value for key, value in os.environ.items() if key != "LD_PRELOAD"}
    with tempfile.TemporaryDirectory() as profile:
        result = subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--user-data-dir=" + profile, "--virtual-time-budget=3000", "--dump-dom", url],
            capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    parser = _ChartPoints()
    parser.feed(result.stdout)
    return parser, result.stdout


def _iso_ms(text):
    from datetime import datetime
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").timestamp() * 1000


def test_ui_is_off_by_default_and_on_the_loopback_address_when_enabled(spark, ui_spark):
    assert spark.sparkContext.uiWebUrl is None
    assert ui_spark.sparkContext.uiWebUrl.startswith("http://127.0.0.1:")


def test_the_charts_show_the_running_querys_numbers(ui_spark, running_query):
    url = ui_spark.sparkContext.uiWebUrl
    page, dom = _render(f"{url}/query?id={running_query.runId}")
    charts = page.charts
    assert running_query.isActive and "ACTIVE" in dom
    # The query may run a no-data batch (its watermark moved) after the page was drawn: compare
    # the batches the page shows, which must hold every row.
    shown = set(charts["inputRows"])
    progress = [p for p in running_query.recentProgress if p["batchId"] in shown]
    assert len(progress) == len(shown) >= 3

    assert charts["inputRows"] == {p["batchId"]: p["numInputRows"] for p in progress}, dom
    assert sum(charts["inputRows"].values()) == 6
    assert charts["batchDuration"] == {p["batchId"]: p["batchDuration"] for p in progress}
    assert charts["processRate"] == {p["batchId"]: p["processedRowsPerSecond"]
                                     for p in progress if "processedRowsPerSecond" in p}
    assert charts["inputRate"] == {p["batchId"]: p["inputRowsPerSecond"]
                                   for p in progress if "inputRowsPerSecond" in p}
    assert charts["stateRows"] == {
        p["batchId"]: sum(op["numRowsTotal"] for op in p["stateOperators"]) for p in progress}
    assert charts["updatedStateRows"] == {
        p["batchId"]: sum(op["numRowsUpdated"] for op in p["stateOperators"]) for p in progress}
    assert charts["stateMemory"] == {
        p["batchId"]: sum(op["memoryUsedBytes"] for op in p["stateOperators"]) for p in progress}
    assert charts["droppedByWatermark"] == {
        p["batchId"]: sum(op["numRowsDroppedByWatermark"] for op in p["stateOperators"])
        for p in progress}
    gaps = {p["batchId"]: (_iso_ms(p["timestamp"]) - _iso_ms(p["eventTime"]["watermark"])) / 1000
            for p in progress if "watermark" in p.get("eventTime", {})}
    assert gaps and charts["watermarkGap"] == pytest.approx(gaps)
    # The operation durations are stacked per batch, one bar part per phase.
    assert charts["operationDuration"] == {
        (p["batchId"], name): value for p in progress
        for name, value in p["durationMs"].items() if name != "triggerExecution"}
    assert "web_ui_windowed_counts" in dom
    assert '"batchId": %d' % progress[-1]["batchId"] in dom  # the last progress report


def test_the_list_shows_the_run_active_then_completed(ui_spark, running_query):
    page, dom = _render(ui_spark.sparkContext.uiWebUrl + "/")
    assert running_query.runId in page.run_rows
    assert "Active Streaming Queries (1)" in dom
    running_query.stop()
    page, dom = _render(ui_spark.sparkContext.uiWebUrl + "/")
    assert running_query.runId in page.run_rows
    assert "Active Streaming Queries (0)" in dom
    assert "Completed Streaming Queries (1)" in dom
    assert "FINISHED" in dom


def test_metrics_parse_as_prometheus_text_with_the_querys_numbers(ui_spark, running_query):
    running_query.stop()  # so that no batch runs between the scrape and the comparison
    with urllib.request.urlopen(ui_spark.sparkContext.uiWebUrl + "/metrics", timeout=10) as reply:
        assert reply.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        text = reply.read().decode("utf-8")
    samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.labels.get("run_id") == running_query.runId:
                samples[(sample.name, sample.labels.get("operator"))] = sample.value
    progress = running_query.recentProgress
    last = progress[-1]
    assert samples[("sluice_streaming_query_input_rows_total", None)] == 6
    assert samples[("sluice_streaming_query_batches_total", None)] == len(progress)
    assert samples[("sluice_streaming_query_active", None)] == 0
    assert samples[("sluice_streaming_query_last_batch_id", None)] == last["batchId"]
    assert samples[("sluice_streaming_state_rows", "0")] == \
        last["stateOperators"][0]["numRowsTotal"]
    assert samples[("sluice_streaming_query_batch_duration_seconds", None)] == \
        pytest.approx(last["batchDuration"] / 1000)


def test_ui_settings_are_fixed_when_the_session_is_built(ui_spark):
    from sluice.errors import AnalysisException
    with pytest.raises(AnalysisException, match="CANNOT_MODIFY_CONFIG"):
        ui_spark.conf.set("spark.ui.port", "4050")
    # As Spark: getOrCreate on an existing session warns that the setting needs a new one.
    with pytest.warns(UserWarning, match="spark.ui.port"):
        assert SparkSession.builder.config("spark.ui.port", "4050").getOrCreate() is ui_spark


def test_stopping_the_session_stops_its_ui():
    previous = SparkSession.getActiveSession()
    session = (SparkSession.builder.config("spark.ui.enabled", "true")
               .config("spark.ui.port", "0").create())
    url = session.sparkContext.uiWebUrl
    with urllib.request.urlopen(url + "/api/v1/queries", timeout=10) as reply:
        assert json.loads(reply.read()) == []
    session.stop()
    SparkSession._active = previous
    assert session.sparkContext.uiWebUrl is None
    with pytest.raises(OSError):
        urllib.request.urlopen(url + "/api/v1/queries", timeout=10)
