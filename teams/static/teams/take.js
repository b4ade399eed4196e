// The candidate's assessment page: countdown from the server's deadline, autosave
// of written answers, and live status of coding submissions. The server enforces
// the deadline; this only shows it and saves early.
(() => {
  "use strict";

  function formatSeconds(total) {
    const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
    const pad = (n) => String(n).padStart(2, "0");
    return h ? `${h}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
  }

  function disableAnswers() {
    document.querySelectorAll(".answer-form textarea, .answer-form input, .answer-form button").forEach((el) => { el.disabled = true; });
  }

  function startCountdown() {
    const box = document.querySelector(".countdown");
    if (!box) return;
    const value = box.querySelector(".countdown-value");
    // Count from the server's "seconds left", so a wrong clock on this computer does not matter.
    const endsAt = performance.now() + Number(box.dataset.secondsLeft) * 1000;
    let announcedFiveMinutes = false;
    const tick = () => {
      const left = Math.max(0, Math.round((endsAt - performance.now()) / 1000));
      value.textContent = formatSeconds(left);
      if (left <= 300 && !announcedFiveMinutes) {
        announcedFiveMinutes = true;
        box.classList.add("countdown-low");
        value.setAttribute("aria-live", "polite");
      }
      if (left === 0) {
        clearInterval(timer);
        value.textContent = "Time is up";
        disableAnswers();
        setTimeout(() => { window.location.assign(box.dataset.expiredUrl); }, 1500);
      }
    };
    const timer = setInterval(tick, 1000);
    tick();
  }

  function setupAutosave(form) {
    const status = form.querySelector(".save-status");
    const field = form.querySelector("textarea, input[type=text]");
    let timer = null, dirty = false, inFlight = null;

    const save = (keepalive = false) => {
      if (!dirty) return inFlight;
      dirty = false;
      status.textContent = "Saving…";
      inFlight = fetch(form.action, {
        method: "POST", body: new FormData(form), credentials: "same-origin", keepalive,
        headers: { Accept: "application/json" },
      }).then(async (response) => {
        const data = await response.json().catch(() => ({}));
        if (response.ok && data.saved) {
          status.textContent = data.message ? `Saved. ${data.message}` : `Saved ${new Date(data.saved_at).toLocaleTimeString()}`;
        } else {
          status.textContent = data.error || "Could not save: check your connection.";
          if (response.status === 409) {
            disableAnswers();
            setTimeout(() => { window.location.reload(); }, 2500);
          } else {
            dirty = true;
          }
        }
      }).catch(() => {
        dirty = true;
        status.textContent = "Not saved: you seem to be offline. We will retry.";
      });
      return inFlight;
    };

    field.addEventListener("input", () => {
      dirty = true;
      status.textContent = "Unsaved changes";
      clearTimeout(timer);
      timer = setTimeout(save, 800);
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      dirty = true;
      save();
    });
    // Leaving the page (Next, Previous, closing the tab) saves what is pending.
    window.addEventListener("pagehide", () => { if (dirty) save(true); });
    setInterval(() => { if (dirty) save(); }, 10000);
  }

  // A coding question's code, kept as it is typed (the editor fires "input" on its
  // textarea), when the form is submitted and when the page is left.
  function setupCodeDraft(form) {
    const field = form.querySelector("textarea[name=code]");
    const status = form.querySelector(".save-status");
    let timer = null, dirty = false;
    const save = (keepalive = false) => {
      if (!dirty) return;
      dirty = false;
      const body = new FormData();
      body.append("text", field.value);
      body.append("csrfmiddlewaretoken", form.querySelector("[name=csrfmiddlewaretoken]").value);
      fetch(form.dataset.draftUrl, { method: "POST", body, credentials: "same-origin", keepalive, headers: { Accept: "application/json" } })
        .then(async (response) => {
          const data = await response.json().catch(() => ({}));
          if (response.ok && data.saved) {
            status.textContent = `Code kept ${new Date(data.saved_at).toLocaleTimeString()}`;
          } else {
            dirty = true;
            status.textContent = data.error || "Not kept: check your connection.";
          }
        })
        .catch(() => {
          dirty = true;
          status.textContent = "Not kept: you seem to be offline. We will retry.";
        });
    };
    field.addEventListener("input", () => {
      dirty = true;
      clearTimeout(timer);
      timer = setTimeout(save, 1000);
    });
    form.addEventListener("submit", () => { clearTimeout(timer); save(true); });
    window.addEventListener("pagehide", () => save(true));
  }

  function setupSubmissionPolling(section) {
    const poll = async () => {
      const pending = section.querySelector('tr[data-final="false"]');
      if (!pending) return;
      try {
        const response = await fetch(section.dataset.statusUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" });
        const data = await response.json();
        data.submissions.forEach((row) => {
          const tr = section.querySelector(`tr[data-submission="${row.id}"]`);
          if (!tr) return;
          tr.dataset.final = String(row.final);
          const verdict = tr.querySelector(".result span");
          verdict.className = row.verdict ? `verdict verdict-${row.verdict}` : "verdict"; // empty: the owner hides results
          verdict.textContent = row.verdict_label || row.status.charAt(0).toUpperCase() + row.status.slice(1);
          tr.querySelector(".speedup").textContent = row.speedup_label;
          tr.querySelector(".feedback").innerHTML = row.feedback_html; // rendered (and escaped) by the server
        });
      } catch (error) {
        // A dropped poll is retried on the next tick.
      }
      setTimeout(poll, 3000);
    };
    setTimeout(poll, 3000);
  }

  document.addEventListener("DOMContentLoaded", () => {
    startCountdown();
    document.querySelectorAll("form.autosave").forEach(setupAutosave);
    document.querySelectorAll("form.code-draft[data-draft-url]").forEach(setupCodeDraft);
    const submissions = document.querySelector("#submissions[data-status-url]");
    if (submissions) setupSubmissionPolling(submissions);
  });
})();
