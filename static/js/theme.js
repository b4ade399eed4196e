// Light or dark pages: the visitor's own choice (the toggle in the menu, remembered in
// localStorage), else the system's (prefers-color-scheme), followed live as it changes.
// Loaded in <head> without defer, so <html data-theme> is set before the first paint.
// static/css/theme-dark.css styles [data-theme=dark]; the code editor and Chart.js charts
// follow the "hotpath:themechange" event and Chart.defaults set here.
(function () {
  "use strict";
  var KEY = "hotpath-theme";
  var root = document.documentElement;
  var system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  var CHART_COLOURS = {
    light: { text: "#666", grid: "rgba(0, 0, 0, 0.1)" },
    dark: { text: "#c9ced8", grid: "rgba(255, 255, 255, 0.16)" },
  };

  function chosen() {
    try {
      var value = window.localStorage.getItem(KEY);
      return value === "dark" || value === "light" ? value : null;
    } catch (error) {
      return null; // storage blocked: follow the system
    }
  }

  function remember(theme) {
    try {
      window.localStorage.setItem(KEY, theme);
    } catch (error) {
      // storage blocked: the choice lasts for this page only
    }
  }

  function styleCharts(theme) {
    if (!window.Chart) return;
    window.Chart.defaults.color = CHART_COLOURS[theme].text;
    window.Chart.defaults.borderColor = CHART_COLOURS[theme].grid;
    Object.values(window.Chart.instances).forEach(function (chart) { chart.update("none"); });
  }

  function apply() {
    var theme = chosen() || (system && system.matches ? "dark" : "light");
    var changed = root.dataset.theme !== theme;
    root.dataset.theme = theme;
    root.style.colorScheme = theme;
    document.querySelectorAll("[data-theme-toggle]").forEach(function (button) {
      button.setAttribute("aria-pressed", theme === "dark" ? "true" : "false");
    });
    styleCharts(theme);
    if (changed) document.dispatchEvent(new CustomEvent("hotpath:themechange", { detail: { theme: theme } }));
  }

  apply();
  if (system && system.addEventListener) system.addEventListener("change", apply);
  document.addEventListener("DOMContentLoaded", apply);
  window.addEventListener("load", apply); // charts drawn by deferred scripts take the theme's colours
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-theme-toggle]");
    if (!button) return;
    remember(root.dataset.theme === "dark" ? "light" : "dark");
    apply();
  });
})();
