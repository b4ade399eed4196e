// Site-wide behaviour: the phone menu toggle (Escape closes it and gives focus back to
// the button), charts that do not animate for people who ask for reduced motion,
// buttons marked data-confirm="question" that ask before an action that cannot be undone,
// and wide tables that say they scroll.

// A .table-wrap whose table is wider than it gets data-overflow (left, right or both: where
// more columns are hidden), which hotpath.css draws as a shadow on that edge, and a tab stop
// so the keyboard can scroll it too. Tables added later (a report arriving) are marked by
// window.HotpathTables.markAll().
function markTableOverflow(wrap) {
  const hidden = wrap.scrollWidth - wrap.clientWidth;
  const left = wrap.scrollLeft > 1;
  const right = wrap.scrollLeft < hidden - 1;
  const side = left && right ? "both" : left ? "left" : right ? "right" : "";
  if (side) {
    wrap.dataset.overflow = side;
    wrap.tabIndex = 0;
  } else {
    delete wrap.dataset.overflow;
    wrap.removeAttribute("tabindex");
  }
}

function markAllTables() {
  document.querySelectorAll(".table-wrap").forEach((wrap) => {
    if (!wrap.dataset.overflowWatched) {
      wrap.dataset.overflowWatched = "true";
      wrap.addEventListener("scroll", () => markTableOverflow(wrap), { passive: true });
    }
    markTableOverflow(wrap);
  });
}

window.HotpathTables = { markAll: markAllTables };
window.addEventListener("resize", markAllTables);

document.addEventListener("DOMContentLoaded", () => {
  markAllTables();

  document.querySelectorAll("button[data-confirm]").forEach((button) => {
    button.addEventListener("click", (event) => {
      if (!window.confirm(button.dataset.confirm)) event.preventDefault();
    });
  });

  // Registered before any page script's listener, so it runs before charts drawn on DOMContentLoaded.
  if (window.Chart && window.matchMedia("(prefers-reduced-motion: reduce)").matches) {
    window.Chart.defaults.animation = false;
  }

  const toggle = document.querySelector(".nav-toggle");
  const links = document.getElementById("nav-links");
  if (!toggle || !links) return;

  const setOpen = (open) => {
    links.classList.toggle("open", open);
    toggle.setAttribute("aria-expanded", String(open));
  };
  toggle.addEventListener("click", () => setOpen(!links.classList.contains("open")));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && links.classList.contains("open")) {
      setOpen(false);
      toggle.focus();
    }
  });
});
