// A button marked data-copy="<id of a read-only field>" copies the field's text, and says so
// (its data-copied text, or "Copied.") in the .copy-status of its .copy-group, or else of
// its parent. The Clipboard API needs a secure context and may be
// refused; then the text is selected and copied the old way, and failing that left
// selected for Ctrl+C / ⌘C.
(() => {
  "use strict";

  async function copyField(field) {
    field.focus();
    field.select();
    if (navigator.clipboard && window.isSecureContext) {
      try {
        await navigator.clipboard.writeText(field.value);
        return true;
      } catch (error) {
        field.select(); // refused (no permission): fall back below
      }
    }
    try {
      return document.execCommand("copy");
    } catch (error) {
      return false;
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("button[data-copy]").forEach((button) => {
      const field = document.getElementById(button.dataset.copy);
      const status = (button.closest(".copy-group") || button.parentElement).querySelector(".copy-status");
      if (!field || !status) return;
      button.addEventListener("click", async () => {
        status.textContent = (await copyField(field))
          ? button.dataset.copied || "Copied."
          : "The text is selected: press Ctrl+C (⌘C on a Mac) to copy it.";
      });
    });
  });
})();
