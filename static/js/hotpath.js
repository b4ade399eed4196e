// Site-wide behaviour: the phone menu toggle (Escape closes it and gives focus back to
// the button), and charts that do not animate for people who ask for reduced motion.
document.addEventListener("DOMContentLoaded", () => {
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
