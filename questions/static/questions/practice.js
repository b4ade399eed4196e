// Drafts (a concept answer, or an exercise's code through the editor's textarea): saved a
// moment after typing stops, when the box loses focus, and when the page is left.
(function () {
  const SAVE_DELAY_MS = 1500;

  function csrfToken(form) {
    const input = form.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function setUp(form) {
    const url = form.dataset.draftUrl;
    const textarea = form.querySelector("textarea");
    const status = form.querySelector(".draft-status");
    if (!url || !textarea) return;
    let lastSaved = textarea.value;
    let timer = null;

    // keepalive: a save started as the page is left still reaches the server.
    async function save(keepalive = false) {
      clearTimeout(timer);
      const text = textarea.value;
      if (text === lastSaved) return;
      const body = new URLSearchParams({ text });
      try {
        const response = await fetch(url, {
          method: "POST",
          body,
          headers: { "X-CSRFToken": csrfToken(form) },
          credentials: "same-origin",
          keepalive,
        });
        const reply = await response.json();
        if (!response.ok) throw new Error(reply.error || "Could not save the draft.");
        lastSaved = text;
        if (status) status.textContent = "Draft saved " + new Date().toLocaleTimeString() + ".";
      } catch (error) {
        if (status) status.textContent = error.message || "Could not save the draft.";
      }
    }

    textarea.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(save, SAVE_DELAY_MS);
    });
    textarea.addEventListener("blur", () => save());
    // Submitting sends the text itself (the server keeps a coding draft from it).
    let submitting = false;
    form.addEventListener("submit", () => { submitting = true; clearTimeout(timer); });
    window.addEventListener("pagehide", () => { if (!submitting) save(true); });
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("form[data-draft-url]").forEach(setUp);
  });
})();
