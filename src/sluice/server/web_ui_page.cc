#include "sluice/server/web_ui_page.h"

namespace sluice::server {

namespace {

// Charts are SVG drawn by the script. Every point carries data-batch and data-value (and a
// <title> tooltip), so what a chart shows can be checked from the DOM.
constexpr std::string_view kPage = R"html(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Sluice Structured Streaming</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #222; }
header { background: #1f3b57; color: #fff; padding: 10px 20px; }
header a { color: #fff; text-decoration: none; font-weight: 600; }
main { padding: 10px 20px; }
table { border-collapse: collapse; margin: 8px 0 20px; }
th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f0f3f6; }
td.number { text-align: right; }
.FAILED { color: #b00020; font-weight: 600; }
.ACTIVE { color: #1b7f3b; font-weight: 600; }
.FINISHED { color: #555; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(460px, 1fr)); gap: 12px; }
figure.chart { margin: 0; border: 1px solid #ddd; padding: 6px; }
figcaption { font-weight: 600; margin-bottom: 4px; }
svg.plot { width: 100%; max-height: 260px; }
svg text { font-size: 11px; fill: #555; }
.legend span { margin-right: 10px; font-size: 12px; }
pre { background: #f7f7f7; border: 1px solid #ddd; padding: 8px; overflow: auto; }
.error { white-space: pre-wrap; color: #b00020; }
</style>
</head>
<body>
<header><a href="/">Sluice &middot; Structured Streaming</a></header>
<main id="main">Loading&hellip;</main>
<script>
"use strict";
const REFRESH_MS = 2000;
const SVG = "http://www.w3.org/2000/svg";
const COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2"];

function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
  for (const child of children) {
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function svg(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
  return node;
}

function formatNumber(value) {
  if (value === null || value === undefined) return "";
  if (Number.isInteger(value)) return value.toLocaleString("en-US");
  return value.toLocaleString("en-US", {maximumFractionDigits: 1});
}

function formatDuration(ms) {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return seconds + " s";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return minutes + " min " + (seconds % 60) + " s";
  return Math.floor(minutes / 60) + " h " + (minutes % 60) + " min";
}

// Axis labels stay short: 5,158,722 becomes 5.2M.
function formatAxis(value) {
  return value.toLocaleString("en-US", {notation: "compact", maximumFractionDigits: 1});
}

function sum(values) { return values.reduce((a, b) => a + b, 0); }

// The series each chart plots, in the order of Spark's streaming tab. `value` gives a number,
// or undefined when the report has none (a rate over no time, no watermark yet).
const CHARTS = [
  {key: "inputRate", title: "Input Rate", unit: "records/sec", value: p => p.inputRowsPerSecond},
  {key: "processRate", title: "Process Rate", unit: "records/sec",
   value: p => p.processedRowsPerSecond},
  {key: "inputRows", title: "Input Rows", unit: "records", value: p => p.numInputRows},
  {key: "batchDuration", title: "Batch Duration", unit: "ms", value: p => p.batchDuration},
  {key: "operationDuration", title: "Operation Duration", unit: "ms", stacked: true,
   value: p => Object.fromEntries(Object.entries(p.durationMs || {})
                                       .filter(([name]) => name !== "triggerExecution"))},
  {key: "watermarkGap", title: "Global Watermark Gap", unit: "seconds",
   value: p => p.eventTime && p.eventTime.watermark !== undefined
       ? (Date.parse(p.timestamp) - Date.parse(p.eventTime.watermark)) / 1000 : undefined},
  {key: "stateRows", title: "Aggregated Number Of Total State Rows", unit: "records",
   state: true, value: p => sum(p.stateOperators.map(op => op.numRowsTotal))},
  {key: "updatedStateRows", title: "Aggregated Number Of Updated State Rows", unit: "records",
   state: true, value: p => sum(p.stateOperators.map(op => op.numRowsUpdated))},
  {key: "stateMemory", title: "Aggregated State Memory Used In Bytes", unit: "bytes",
   state: true, value: p => sum(p.stateOperators.map(op => op.memoryUsedBytes))},
  {key: "droppedByWatermark", title: "Aggregated Number Of Rows Dropped By Watermark",
   unit: "records", state: true,
   value: p => sum(p.stateOperators.map(op => op.numRowsDroppedByWatermark))},
];

const WIDTH = 440, HEIGHT = 170, LEFT = 48, RIGHT = 10, TOP = 10, BOTTOM = 24, PAD = 8;

function axes(chart, maxValue, firstBatch, lastBatch) {
  chart.append(svg("line", {x1: LEFT, y1: TOP, x2: LEFT, y2: HEIGHT - BOTTOM, stroke: "#999"}));
  chart.append(svg("line", {x1: LEFT, y1: HEIGHT - BOTTOM, x2: WIDTH - RIGHT,
                            y2: HEIGHT - BOTTOM, stroke: "#999"}));
  const labels = [[LEFT - 4, TOP + 8, "end", formatAxis(maxValue)],
                  [LEFT - 4, HEIGHT - BOTTOM, "end", "0"],
                  [LEFT, HEIGHT - 6, "start", "batch " + firstBatch],
                  [WIDTH - RIGHT, HEIGHT - 6, "end", "batch " + lastBatch]];
  for (const [x, y, anchor, text] of labels) {
    const label = svg("text", {x, y, "text-anchor": anchor});
    label.textContent = text;
    chart.append(label);
  }
}

function drawChart(spec, progress) {
  const figure = el("figure", {class: "chart", "data-chart": spec.key},
                    el("figcaption", {}, spec.title + " (" + spec.unit + ")"));
  const chart = svg("svg", {viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "plot"});
  figure.append(chart);
  const points = progress.map(p => ({batch: p.batchId, value: spec.value(p)}))
                         .filter(point => point.value !== undefined && point.value !== null);
  if (points.length === 0) {
    figure.append(el("div", {class: "empty"}, "No data yet"));
    return figure;
  }
  const first = points[0].batch, last = points[points.length - 1].batch;
  const span = WIDTH - LEFT - RIGHT - 2 * PAD;
  const x = batch => LEFT + PAD + (last === first ? span / 2
      : (batch - first) * span / (last - first));
  if (spec.stacked) {
    const names = [...new Set(points.flatMap(point => Object.keys(point.value)))].sort();
    const totals = points.map(point => sum(Object.values(point.value)));
    const maxValue = Math.max(1, ...totals);
    const y = value => HEIGHT - BOTTOM - value * (HEIGHT - TOP - BOTTOM) / maxValue;
    axes(chart, maxValue, first, last);
    const barWidth = Math.max(2, Math.min(2 * PAD, span / points.length - 2));
    for (const point of points) {
      let base = 0;
      names.forEach((name, i) => {
        const value = point.value[name] || 0;
        const rect = svg("rect", {x: x(point.batch) - barWidth / 2, y: y(base + value),
                                  width: barWidth, height: y(base) - y(base + value),
                                  fill: COLORS[i % COLORS.length], "data-batch": point.batch,
                                  "data-key": name, "data-value": value});
        const title = svg("title");
        title.textContent = `batch ${point.batch}: ${name} ${value} ms`;
        rect.append(title);
        chart.append(rect);
        base += value;
      });
    }
    const legend = el("div", {class: "legend"});
    names.forEach((name, i) => legend.append(
        el("span", {style: "color:" + COLORS[i % COLORS.length]}, "\u25a0 " + name)));
    figure.append(legend);
    return figure;
  }
  const maxValue = Math.max(...points.map(point => point.value));
  const minValue = Math.min(0, ...points.map(point => point.value));
  const range = maxValue - minValue || 1;
  const y = value => HEIGHT - BOTTOM - (value - minValue) * (HEIGHT - TOP - BOTTOM) / range;
  axes(chart, maxValue, first, last);
  chart.append(svg("polyline", {fill: "none", stroke: COLORS[0], "stroke-width": 1.5,
      points: points.map(point => `${x(point.batch)},${y(point.value)}`).join(" ")}));
  for (const point of points) {
    const circle = svg("circle", {cx: x(point.batch), cy: y(point.value), r: 3,
                                  fill: COLORS[0], "data-batch": point.batch,
                                  "data-value": point.value});
    const title = svg("title");
    title.textContent = `batch ${point.batch}: ${formatNumber(point.value)} ${spec.unit}`;
    circle.append(title);
    chart.append(circle);
  }
  return figure;
}

function runsTable(runs) {
  const table = el("table", {},
      el("tr", {}, ...["Name", "Status", "Id", "Run ID", "Start Time", "Duration",
                       "Avg Input /sec", "Avg Process /sec", "Latest Batch", "Error"]
                           .map(text => el("th", {}, text))));
  for (const run of runs) {
    const last = run.lastProgress;
    const end = run.endTimestamp ? Date.parse(run.endTimestamp) : Date.now();
    table.append(el("tr", {"data-run-id": run.runId},
        el("td", {}, el("a", {href: "/query?id=" + encodeURIComponent(run.runId)},
                        run.name === null ? "<no name>" : run.name)),
        el("td", {class: run.status}, run.status),
        el("td", {}, run.id), el("td", {}, run.runId),
        el("td", {}, run.startTimestamp),
        el("td", {}, formatDuration(end - Date.parse(run.startTimestamp))),
        el("td", {class: "number"}, formatNumber(run.avgInputRowsPerSecond)),
        el("td", {class: "number"}, formatNumber(run.avgProcessedRowsPerSecond)),
        el("td", {class: "number"}, last ? last.batchId : ""),
        el("td", {class: "error"}, run.exception || "")));
  }
  return table;
}

async function showRuns(main) {
  const runs = await (await fetch("/api/v1/queries")).json();
  const active = runs.filter(run => run.status === "ACTIVE");
  const done = runs.filter(run => run.status !== "ACTIVE");
  main.replaceChildren(
      el("h2", {}, `Active Streaming Queries (${active.length})`), runsTable(active),
      el("h2", {}, `Completed Streaming Queries (${done.length})`), runsTable(done));
}

async function showRun(main, runId) {
  const response = await fetch("/api/v1/queries/" + encodeURIComponent(runId));
  if (!response.ok) {
    main.replaceChildren(el("p", {class: "error"}, "No query run " + runId + " is known."));
    return;
  }
  const run = await response.json();
  const progress = run.recentProgress;
  const hasState = progress.some(p => p.stateOperators.length > 0);
  const summary = el("table", {id: "summary"});
  const rows = [["Name", run.name === null ? "<no name>" : run.name], ["Status", run.status],
                ["Id", run.id], ["Run ID", run.runId], ["Start Time", run.startTimestamp],
                ["Batches", formatNumber(run.numBatches)],
                ["Input Rows", formatNumber(run.numInputRows)]];
  if (run.exception) rows.push(["Error", run.exception]);
  for (const [name, value] of rows) {
    summary.append(el("tr", {}, el("th", {}, name),
                      el("td", {class: name === "Status" ? run.status : ""}, value)));
  }
  const charts = el("div", {class: "charts"});
  for (const spec of CHARTS) {
    if (spec.state && !hasState) continue;
    charts.append(drawChart(spec, progress));
  }
  const last = progress.length ? JSON.stringify(progress[progress.length - 1], null, 2) : "none";
  main.replaceChildren(el("h2", {}, "Streaming Query"), summary, charts,
                       el("h3", {}, "Last Progress"), el("pre", {id: "last-progress"}, last));
}

async function refresh() {
  const main = document.getElementById("main");
  try {
    if (location.pathname === "/query") {
      await showRun(main, new URLSearchParams(location.search).get("id") || "");
    } else {
      await showRuns(main);
    }
  } catch (error) {
    main.replaceChildren(el("p", {class: "error"}, "The engine does not answer: " + error));
  }
  setTimeout(refresh, REFRESH_MS);
}
refresh();
</script>
</body>
</html>
)html";

}  // namespace

std::string_view WebUiPage() { return kPage; }

}  // namespace sluice::server
