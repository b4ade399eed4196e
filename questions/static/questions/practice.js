// Answer drafts: saved a few seconds after typing stops and when the box loses focus.
(function () {
  const SAVE_DELAY_MS = 3000;

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

    async function save() {
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
    textarea.addEventListener("blur", save);
    form.addEventListener("submit", () => clearTimeout(timer));
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("form[data-draft-url]").forEach(setUp);
  });
})();
