// Submission page: poll grader:status every second until the row is final (showing
// the grading's live progress meanwhile), then swap in the re-rendered report and
// draw the log-log scaling chart.
(function () {
  "use strict";
  const POLL_MS = 1000;

  // Log axes label only powers of ten (or, on a range without one, its two ends),
  // so labels never crowd at any width.
  const isPowerOfTen = (value) => Math.abs(Math.log10(value) - Math.round(Math.log10(value))) < 1e-9;
  function secondsLabel(value) {
    if (value < 1e-3) return `${+(value * 1e6).toPrecision(3)} µs`;
    if (value < 1) return `${+(value * 1e3).toPrecision(3)} ms`;
    return `${+value.toPrecision(3)} s`;
  }
  const logTicks = (format) => ({
    autoSkip: true,
    maxRotation: 0,
    callback: (value, index, ticks) => {
      const decades = ticks.some((tick) => isPowerOfTen(tick.value));
      const end = index === 0 || index === ticks.length - 1;
      return isPowerOfTen(value) || (!decades && end) ? format(value) : "";
    },
  });

  function drawChart() {
    const canvas = document.getElementById("scaling-chart");
    const dataNode = document.getElementById("scaling-data");
    if (!canvas || !dataNode || typeof window.Chart === "undefined") return;
    const sizes = JSON.parse(dataNode.textContent);
    const points = (key) => sizes
      .filter((row) => row[key] > 0 && row.size > 0)
      .map((row) => ({ x: row.size, y: row[key] }));
    new window.Chart(canvas, {
      type: "line",
      data: {
        datasets: [
          { label: "Your code", data: points("time_s"), borderColor: "#c2410c", backgroundColor: "#c2410c" },
          { label: "Reference", data: points("reference_time_s"), borderColor: "#1d4ed8", backgroundColor: "#1d4ed8", borderDash: [6, 4] },
        ],
      },
      options: {
        animation: false,
        scales: {
          x: { type: "logarithmic", title: { display: true, text: "input size" }, ticks: logTicks((value) => value.toLocaleString("en")) },
          y: { type: "logarithmic", title: { display: true, text: "time per call" }, ticks: logTicks(secondsLabel) },
        },
      },
    });
  }

  // The grading's phase, elapsed time and estimate of the time left, as the worker
  // last reported them (submissions.progress.describe builds the label on the server).
  function showProgress(progress) {
    const setText = (id, text) => {
      const node = document.getElementById(id);
      if (node) node.textContent = text;
    };
    setText("progress-label", progress.label);
    setText("progress-elapsed", progress.elapsed_s == null ? "" : `${Math.round(progress.elapsed_s)} s elapsed`);
    setText("progress-eta", progress.time_left || "");
    const bar = document.getElementById("progress-bar");
    if (bar) {
      if (progress.fraction == null) bar.removeAttribute("value");
      else bar.value = progress.fraction;
    }
  }

  // The roofline: GFLOP/s against flops per byte, log-log, under the machine's measured
  // bandwidth roof (slope) and compute roof (flat), with a point per size for each side.
  function drawRoofline() {
    const canvas = document.getElementById("roofline-chart");
    const dataNode = document.getElementById("roofline-data");
    if (!canvas || !dataNode || typeof window.Chart === "undefined") return;
    const roof = JSON.parse(dataNode.textContent);
    const bandwidth = roof.host.bandwidth_gbs;
    const peak = roof.host.compute_gflops;
    const ridge = peak / bandwidth;
    const rows = roof.sizes.filter((row) => row.flops_per_byte > 0);
    if (!rows.length) return;
    const points = (side) => rows
      .filter((row) => row[side] && row[side].gflops > 0)
      .map((row) => ({ x: row.flops_per_byte, y: row[side].gflops, size: row.size, share: row[side].bandwidth_fraction }));
    const submission = points("submission");
    const reference = points("reference");
    const lowest = Math.min(...submission.concat(reference).map((point) => point.y), bandwidth * Math.min(...rows.map((row) => row.flops_per_byte)) / 4);
    const intensities = rows.map((row) => row.flops_per_byte).concat([ridge]);
    const low = Math.min(...intensities) / 4;
    const high = Math.max(...intensities) * 4;
    const roofLine = [{ x: low, y: bandwidth * low }, { x: ridge, y: peak }, { x: high, y: peak }];
    const label = (context) => {
      const point = context.raw;
      if (point.size === undefined) return `roof: ${+point.y.toPrecision(3)} GFLOP/s`;
      return `${context.dataset.label}, size ${point.size.toLocaleString("en")}: ${+point.y.toPrecision(3)} GFLOP/s, ${Math.round(point.share * 100)}% of bandwidth`;
    };
    new window.Chart(canvas, {
      type: "scatter",
      data: {
        datasets: [
          // Drawn last to first (`order`): the reference's hollow squares over your filled dots, so a
          // point of each at the same place both show; the roofs under both.
          { label: `Roofs: ${+bandwidth.toPrecision(3)} GB/s, ${+peak.toPrecision(3)} GFLOP/s`, data: roofLine, order: 2,
            showLine: true, pointRadius: 0, borderColor: "#6b7280", backgroundColor: "#6b7280", borderWidth: 2 },
          { label: "Your code", data: submission, order: 1, clip: false, borderColor: "#c2410c", backgroundColor: "#c2410c", pointRadius: 5 },
          { label: "Reference", data: reference, order: 0, clip: false, borderColor: "#1d4ed8", backgroundColor: "transparent",
            borderWidth: 2, pointRadius: 8, pointStyle: "rect" },
        ],
      },
      options: {
        animation: false,
        maintainAspectRatio: false, // the box (.chart-area) sets the height, so a phone gets a chart, not a strip
        layout: { padding: 10 }, // room for a point's radius at the frame, where the datasets' clip is off
        plugins: { tooltip: { callbacks: { label } }, legend: { position: "bottom", labels: { boxWidth: 14 } } },
        scales: {
          x: { type: "logarithmic", title: { display: true, text: "operations per byte moved" }, ticks: logTicks((value) => `${+value.toPrecision(2)}`) },
          // Headroom above the compute roof, so the flat line is not drawn on the frame, and
          // below the lowest point, so no point sits on the bottom edge.
          y: { type: "logarithmic", suggestedMax: peak * 3, suggestedMin: lowest / 3, title: { display: true, text: "GFLOP/s" }, ticks: logTicks((value) => `${+value.toPrecision(2)}`) },
        },
      },
    });
  }

  async function showStanding(url) {
    try {
      const response = await fetch(url, { credentials: "same-origin" });
      if (!response.ok) return;
      const holder = document.createElement("div");
      holder.innerHTML = await response.text();
      // The page has already loaded the fragment's scripts; its chart data (a JSON
      // <script type="application/json">) must stay, or the chart has nothing to draw.
      holder.querySelectorAll("script[src]").forEach((node) => node.remove());
      document.getElementById("submission").after(holder);
      if (window.HotpathStanding) window.HotpathStanding.drawAll();
    } catch (error) {
      // The standing is extra information; the report above is already complete.
    }
  }

  function start() {
    const root = document.getElementById("submission");
    if (!root) return;
    const report = () => document.getElementById("submission-report");
    drawChart();
    drawRoofline();
    if (!report() || report().dataset.final === "true") return;

    async function poll() {
      try {
        const response = await fetch(root.dataset.statusUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" });
        if (response.ok) {
          const data = await response.json();
          if (data.is_final && data.report_html) {
            report().outerHTML = data.report_html;
            drawChart();
            drawRoofline();
            if (window.HotpathTables) window.HotpathTables.markAll();
            // Where this result stands among others is rendered server-side with its chart:
            // fetch the fragment once the row is final.
            if (root.dataset.standingUrl) showStanding(root.dataset.standingUrl);
            return;
          }
          const status = document.getElementById("submission-status");
          if (status) status.textContent = data.status_label;
          if (data.progress) showProgress(data.progress);
          const gpuNote = document.getElementById("gpu-waiting");
          if (gpuNote) gpuNote.hidden = !data.waiting_for_gpu;
        }
      } catch (error) {
        // A dropped connection is not fatal: keep polling.
      }
      window.setTimeout(poll, POLL_MS);
    }
    window.setTimeout(poll, POLL_MS);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
