// "Run on small inputs" on an exercise's page: the quick check is sent from the page and its
// result shown under the editor (#quick-check-result), polled from the submission's status
// endpoint, instead of leaving the editor for the submission's page. "Submit for grading"
// still opens the grading's page. Without JavaScript the form posts as before.
(() => {
  "use strict";

  const POLL_MS = 1000;

  async function pollUntilFinal(statusUrl, result, link) {
    try {
      const response = await fetch(statusUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (response.ok) {
        const data = await response.json();
        if (data.is_final) {
          result.innerHTML = data.report_html; // rendered (and escaped) by the server
          result.append(link);
          return;
        }
        result.querySelector(".quick-check-status").textContent = `Quick check: ${data.status_label.toLowerCase()}…`;
      }
    } catch (error) {
      // A dropped poll is retried on the next tick.
    }
    window.setTimeout(() => pollUntilFinal(statusUrl, result, link), POLL_MS);
  }

  function showMessage(result, text) {
    const message = document.createElement("p");
    message.className = "message message-error";
    message.setAttribute("role", "alert");
    message.textContent = text;
    result.replaceChildren(message);
  }

  async function runQuickCheck(form, button, result) {
    const body = new FormData(form);
    body.set(button.name, button.value);
    result.hidden = false;
    const status = document.createElement("p");
    status.className = "quick-check-status muted";
    status.textContent = "Quick check: sending…";
    result.replaceChildren(status);
    button.disabled = true;
    try {
      const response = await fetch(form.action, {
        method: "POST", body, credentials: "same-origin", headers: { Accept: "application/json" },
      });
      const data = await response.json().catch(() => ({}));
      if (!response.ok) {
        showMessage(result, data.error || "The quick check was not sent: try again.");
        return;
      }
      const link = document.createElement("p");
      const anchor = document.createElement("a");
      anchor.href = data.url;
      anchor.textContent = "Open this quick check's page";
      link.append(anchor);
      pollUntilFinal(data.status_url, result, link);
    } catch (error) {
      showMessage(result, "Could not reach Hotpath: check your connection, then try again.");
    } finally {
      button.disabled = false;
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    const result = document.getElementById("quick-check-result");
    const form = result && result.closest("form");
    if (!form) return;
    form.addEventListener("submit", (event) => {
      const button = event.submitter;
      if (!button || button.dataset.action !== "check") return;
      event.preventDefault();
      runQuickCheck(form, button, result);
    });
  });
})();
