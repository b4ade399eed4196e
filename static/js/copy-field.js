// A button marked data-copy="<id of a read-only field>" copies the field's text, and says so
// in the .copy-status next to it. The Clipboard API needs a secure context and may be
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
      const status = button.parentElement.querySelector(".copy-status");
      if (!field || !status) return;
      button.addEventListener("click", async () => {
        status.textContent = (await copyField(field))
          ? "Copied."
          : "The text is selected: press Ctrl+C (⌘C on a Mac) to copy it.";
      });
    });
  });
})();
