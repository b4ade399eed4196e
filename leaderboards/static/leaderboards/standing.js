// Draws the "faster than N%" distribution: one bar per speedup bin, this submission's bin highlighted.
// The table beside the canvas carries the same numbers for screen readers and for browsers without JS.
(function () {
  function draw(canvas) {
    if (typeof Chart === "undefined" || canvas.dataset.drawn) return;
    var source = document.getElementById(canvas.dataset.standingChart);
    if (!source) return;
    var bins = JSON.parse(source.textContent);
    canvas.dataset.drawn = "1";
    var accent = getComputedStyle(document.documentElement).getPropertyValue("--accent").trim() || "#c2410c";
    new Chart(canvas, {
      type: "bar",
      data: {
        labels: bins.map(function (bin) { return bin.label; }),
        datasets: [{
          label: "People whose best is in this range",
          data: bins.map(function (bin) { return bin.count; }),
          backgroundColor: bins.map(function (bin) { return bin.highlight ? accent : "#94a3b8"; }),
        }],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: { legend: { display: false } },
        scales: {
          // Labels that do not fit are skipped, never drawn over each other.
          x: { title: { display: true, text: "Speedup over the reference" }, ticks: { autoSkip: true, autoSkipPadding: 8, maxRotation: 0 } },
          y: { beginAtZero: true, ticks: { precision: 0 }, title: { display: true, text: "People" } },
        },
      },
    });
  }
  function drawAll() {
    document.querySelectorAll("canvas[data-standing-chart]").forEach(draw);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", drawAll);
  } else {
    drawAll();
  }
  window.addEventListener("load", drawAll);
  // The submission page inserts this fragment when grading finishes, then calls drawAll.
  window.HotpathStanding = { drawAll: drawAll };
})();
