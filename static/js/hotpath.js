// Site-wide behaviour: the phone menu toggle (Escape closes it and gives focus back to
// the button), charts that do not animate for people who ask for reduced motion, and
// buttons marked data-confirm="question" that ask before an action that cannot be undone.
document.addEventListener("DOMContentLoaded", () => {
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
