// Typeset the maths the server left as escaped TeX in .math elements (see questions/rendering.py).
// Only those elements are scanned, so a stray "\(" elsewhere on the page stays text.
(function () {
  const DELIMITERS = [
    { left: "\\[", right: "\\]", display: true },
    { left: "\\(", right: "\\)", display: false },
  ];

  function renderMath(root) {
    if (typeof renderMathInElement !== "function") return;
    root.querySelectorAll(".math").forEach((element) => {
      renderMathInElement(element, { delimiters: DELIMITERS, throwOnError: false });
    });
  }

  window.hotpathRenderMath = renderMath;
  document.addEventListener("DOMContentLoaded", () => renderMath(document));
})();
