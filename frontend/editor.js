// Hotpath's code editor: turns <textarea id="code-editor"> into a CodeMirror 6 editor.
//
// The textarea stays in the form (hidden) and is kept in sync on every change, so the form
// posts the code exactly as it would without JavaScript. Keyboard shortcuts press the form's
// buttons marked data-action="submit" (grade) and data-action="check" (quick check). A button
// marked data-action="reset-starter" puts back the code of <script id="starter-code"> (JSON)
// after a confirmation, as one change the editor's undo (Ctrl+Z) takes back.
import { basicSetup, EditorView } from "codemirror";
import { indentWithTab } from "@codemirror/commands";
import { indentUnit } from "@codemirror/language";
import { Compartment, EditorState, Prec } from "@codemirror/state";
import { keymap } from "@codemirror/view";
import { oneDark } from "@codemirror/theme-one-dark";
import { pythonAndCuda } from "./cuda_in_python.js";

const IS_MAC = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
const MOD = IS_MAC ? "⌘" : "Ctrl";

function pressFormButton(form, action) {
  const button = form && form.querySelector(`[data-action="${action}"]`);
  if (!button || button.disabled) return false;
  if (typeof form.requestSubmit === "function") {
    form.requestSubmit(button); // runs validation and submit listeners, and sends the button's name/value
  } else {
    button.click();
  }
  return true;
}

function labelledBy(textarea) {
  const label = textarea.id && document.querySelector(`label[for="${textarea.id}"]`);
  if (!label) return null;
  if (!label.id) label.id = `${textarea.id}-label`;
  return label;
}

function describeShortcuts(textarea, form) {
  const lines = [];
  if (form && form.querySelector('[data-action="submit"]')) lines.push(`${MOD}+Enter submits for grading.`);
  if (form && form.querySelector('[data-action="check"]')) lines.push(`${MOD}+Shift+Enter runs the quick check.`);
  lines.push("Tab indents; press Esc then Tab to move focus out of the editor.");
  const help = document.createElement("p");
  help.className = "help code-editor-help";
  help.id = `${textarea.id}-keys`;
  help.textContent = lines.join(" ");
  return help;
}

// Dark pages get One Dark (colours and syntax highlighting); static/js/theme.js sets
// <html data-theme> and announces each change with a "hotpath:themechange" event.
const colourScheme = new Compartment();
const isDark = () => document.documentElement.dataset.theme === "dark";
const schemeFor = (dark) => (dark ? oneDark : []);

function mountEditor(textarea) {
  const form = textarea.form;
  const label = labelledBy(textarea);
  const help = describeShortcuts(textarea, form);
  const described = [textarea.getAttribute("aria-describedby"), help.id].filter(Boolean).join(" ");
  const accessibility = label
    ? { "aria-labelledby": label.id, "aria-describedby": described }
    : { "aria-label": textarea.getAttribute("aria-label") || "Code editor", "aria-describedby": described };

  const shortcuts = Prec.highest(
    keymap.of([
      { key: "Mod-Enter", run: () => pressFormButton(form, "submit") },
      { key: "Mod-Shift-Enter", run: () => pressFormButton(form, "check") },
    ]),
  );
  const syncTextarea = EditorView.updateListener.of((update) => {
    if (!update.docChanged) return;
    textarea.value = update.state.doc.toString();
    // Listeners on the textarea (draft autosave, say) keep working.
    textarea.dispatchEvent(new Event("input", { bubbles: true }));
  });

  const view = new EditorView({
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        shortcuts,
        basicSetup,
        keymap.of([indentWithTab]),
        pythonAndCuda(), // Python, and CUDA C++ inside a RawKernel's source string
        indentUnit.of("    "), // PEP 8, and what the starter code uses: mixing in 2-space blocks breaks Python
        syncTextarea,
        EditorState.readOnly.of(textarea.readOnly || textarea.disabled),
        EditorView.contentAttributes.of(accessibility),
        colourScheme.of(schemeFor(isDark())),
        EditorView.theme({
          "&": { border: "1px solid var(--input-line, #c7ccd8)", borderRadius: "8px", backgroundColor: "var(--input-bg, #fff)", fontSize: "0.92rem" },
          "&.cm-focused": { outline: "3px solid var(--accent, #c2410c)", outlineOffset: "2px" },
          ".cm-scroller": { fontFamily: "var(--mono, monospace)", minHeight: "18rem", maxHeight: "70vh" },
        }),
      ],
    }),
  });

  textarea.insertAdjacentElement("afterend", view.dom);
  view.dom.insertAdjacentElement("afterend", help);
  textarea.hidden = true; // hidden controls are still submitted with the form
  textarea.addEventListener("invalid", () => view.focus()); // e.g. `required` and empty
  if (form) form.addEventListener("submit", () => { textarea.value = view.state.doc.toString(); });
  if (label) label.addEventListener("click", (event) => { event.preventDefault(); view.focus(); });

  document.addEventListener("hotpath:themechange", () => {
    view.dispatch({ effects: colourScheme.reconfigure(schemeFor(isDark())) });
  });

  setupResetToStarter(form, view);
  textarea.hotpathEditor = view;
  textarea.dispatchEvent(new CustomEvent("hotpath:editor-ready", { bubbles: true, detail: { view } }));
  return view;
}

function setupResetToStarter(form, view) {
  const button = form && form.querySelector('[data-action="reset-starter"]');
  const source = document.getElementById("starter-code");
  if (!button || !source) return;
  const starter = JSON.parse(source.textContent);
  const status = form.querySelector(".draft-status");
  const say = (text) => { if (status) status.textContent = text; };
  button.hidden = false;
  button.addEventListener("click", () => {
    if (view.state.doc.toString() === starter) {
      say("This is already the starter code.");
      return;
    }
    if (!window.confirm(`Replace your code with the starter code? ${MOD}+Z in the editor brings yours back.`)) return;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: starter }, userEvent: "input.reset" });
    view.focus();
    say(`Starter code back. ${MOD}+Z brings your code back.`);
  });
}

function init() {
  const textarea = document.querySelector("textarea#code-editor");
  if (textarea && !textarea.hotpathEditor) mountEditor(textarea);
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", init);
} else {
  init();
}
