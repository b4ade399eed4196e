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
  // last reported them (grader.progress.describe builds the label on the server).
  function showProgress(progress) {
    const setText = (id, text) => {
      const node = document.getElementById(id);
      if (node) node.textContent = text;
    };
    setText("progress-label", progress.label);
    setText("progress-elapsed", progress.elapsed_s == null ? "" : `${Math.round(progress.elapsed_s)} s elapsed`);
    setText("progress-eta", progress.eta_s == null ? "" : `, about ${Math.round(progress.eta_s)} s left`);
    const bar = document.getElementById("progress-bar");
    if (bar) {
      if (progress.fraction == null) bar.removeAttribute("value");
      else bar.value = progress.fraction;
    }
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
    if (!report() || report().dataset.final === "true") return;

    async function poll() {
      try {
        const response = await fetch(root.dataset.statusUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" });
        if (response.ok) {
          const data = await response.json();
          if (data.is_final && data.report_html) {
            report().outerHTML = data.report_html;
            drawChart();
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
