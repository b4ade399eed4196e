// A mock interview's answer form: choosing a confidence counts as a change to the
// answer, so the autosave (teams/take.js, which watches the answer field) keeps it too.
(() => {
  "use strict";
  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("form.autosave select[name=confidence]").forEach((select) => {
      const field = select.form.querySelector("textarea, input[type=text]");
      select.addEventListener("change", () => field.dispatchEvent(new Event("input")));
    });
  });
})();
