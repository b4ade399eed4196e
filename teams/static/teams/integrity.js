// What the candidate's start page says is recorded, and nothing more: pastes (their
// size), leaving the page (how long), and snapshots of the code at most one every
// five seconds while it changes, and one at each paste, for the team's playback. No
// keystrokes, webcam or screen. The server validates and caps all of it
// (teams.services.integrity).
(() => {
  "use strict";

  const SNAPSHOT_EVERY_MS = 5000;

  function setup(article) {
    const url = article.dataset.signalsUrl;
    const question = Number(article.dataset.question);
    const token = document.querySelector("[name=csrfmiddlewaretoken]").value;
    const code = document.querySelector("textarea#code-editor");

    const send = (events) => fetch(url, {
      method: "POST", credentials: "same-origin", keepalive: true,
      headers: { "Content-Type": "application/json", "X-CSRFToken": token, Accept: "application/json" },
      body: JSON.stringify({ events }),
    }).catch(() => { /* a lost signal is lost: the sitting goes on */ });

    let lastSnapshotAt = -Infinity, lastSnapshot = null, snapshotTimer = null;
    const snapshot = (paste = false) => {
      clearTimeout(snapshotTimer);
      snapshotTimer = null;
      if (code.value === lastSnapshot) return;
      lastSnapshot = code.value;
      lastSnapshotAt = performance.now();
      send([{ kind: "snapshot", question, code: code.value, paste }]);
    };
    if (code) {
      snapshot(); // where the playback starts: the starter, or the code kept so far
      code.addEventListener("input", () => {
        if (snapshotTimer) return;
        const wait = Math.max(0, lastSnapshotAt + SNAPSHOT_EVERY_MS - performance.now());
        snapshotTimer = setTimeout(() => snapshot(), wait);
      });
    }

    document.addEventListener("paste", (event) => {
      const text = event.clipboardData ? event.clipboardData.getData("text") : "";
      send([{ kind: "paste", question, chars: text.length }]);
      // The editor applies the paste after this event: take the snapshot once it has.
      if (code) setTimeout(() => snapshot(true), 50);
    }, true);

    // Away from when the page is hidden or loses focus until it is back; moving to
    // another question of the sitting (pagehide) is not leaving.
    let awaySince = null;
    const leave = () => { if (awaySince === null) awaySince = performance.now(); };
    const back = () => {
      if (awaySince === null) return;
      const seconds = Math.round((performance.now() - awaySince) / 1000);
      awaySince = null;
      if (seconds >= 1) send([{ kind: "left_page", seconds }]);
    };
    document.addEventListener("visibilitychange", () => (document.hidden ? leave() : back()));
    window.addEventListener("blur", leave);
    window.addEventListener("focus", back);
    window.addEventListener("pagehide", () => { awaySince = null; });
  }

  document.addEventListener("DOMContentLoaded", () => {
    const article = document.querySelector("article.question[data-signals-url]");
    if (article) setup(article);
  });
})();
