// Calibration chart: mean score per confidence level beside the calibrated line.
document.addEventListener("DOMContentLoaded", () => {
  const canvas = document.getElementById("calibration-chart");
  const source = document.getElementById("calibration-data");
  if (!canvas || !source || typeof Chart === "undefined") return;
  const data = JSON.parse(source.textContent);
  const asPercent = (values) => values.map((value) => (value === null ? null : Math.round(value * 100)));
  new Chart(canvas, {
    data: {
      labels: data.labels,
      datasets: [
        { type: "bar", label: "Your mean score (%)", data: asPercent(data.mean_scores), backgroundColor: "#fb923c" },
        { type: "line", label: "Perfectly calibrated (%)", data: asPercent(data.expected), borderColor: "#1d4ed8", pointRadius: 3 },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      scales: {
        x: { title: { display: true, text: "Confidence" } },
        y: { min: 0, max: 100, title: { display: true, text: "Score (%)" } },
      },
      plugins: {
        tooltip: {
          callbacks: {
            afterLabel: (item) => (item.datasetIndex === 0 ? data.counts[item.dataIndex] + " answer(s)" : ""),
          },
        },
      },
    },
  });
});
