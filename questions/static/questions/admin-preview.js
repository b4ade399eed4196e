// Question admin: "Preview" buttons under the Markdown fields render the current
// text through questions:preview (sanitised server-side) and typeset its maths.
document.addEventListener("DOMContentLoaded", () => {
  const config = document.getElementById("markdown-preview-config");
  if (!config) return;
  const url = config.dataset.url;
  const form = document.querySelector("#question_form");
  const token = form && form.querySelector("input[name=csrfmiddlewaretoken]");

  ["prompt", "sample_answer", "explanation", "hints"].forEach((name) => {
    const textarea = document.getElementById("id_" + name);
    if (!textarea) return;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button";
    button.textContent = "Preview";
    const output = document.createElement("div");
    output.className = "markdown markdown-preview";
    output.setAttribute("aria-live", "polite");
    textarea.after(button, output);
    button.addEventListener("click", async () => {
      const response = await fetch(url, {
        method: "POST",
        body: new URLSearchParams({ text: textarea.value }),
        headers: { "X-CSRFToken": token ? token.value : "" },
        credentials: "same-origin",
      });
      output.innerHTML = response.ok ? await response.text() : "<p>Preview failed.</p>";
      if (window.hotpathRenderMath) window.hotpathRenderMath(output);
    });
  });
});
