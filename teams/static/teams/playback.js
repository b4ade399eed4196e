// The candidate report's code playback: each slider steps through one question's code
// snapshots (teams.services.integrity.playback, in the page as JSON); a paste's button
// jumps to the snapshot taken at it.
(() => {
  "use strict";

  function setup(box, frames) {
    const slider = box.querySelector(".playback-slider");
    const code = box.querySelector(".playback-code");
    const position = box.querySelector(".playback-position");
    const show = () => {
      const index = Number(slider.value);
      const frame = frames[index];
      code.textContent = frame.code;
      position.textContent = `${index + 1} of ${frames.length}, +${frame.t} s${frame.paste ? ", after a paste" : ""}`;
      box.classList.toggle("playback-at-paste", frame.paste);
    };
    slider.addEventListener("input", show);
    box.querySelectorAll(".playback-paste").forEach((button) => {
      button.addEventListener("click", () => { slider.value = button.dataset.frame; show(); });
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    const data = document.getElementById("playback-frames");
    if (!data) return;
    const tracks = new Map(JSON.parse(data.textContent).map((track) => [String(track.question), track.frames]));
    document.querySelectorAll(".playback[data-question]").forEach((box) => {
      const frames = tracks.get(box.dataset.question);
      if (frames) setup(box, frames);
    });
  });
})();
