// Hotpath's interview room: one program edited by two people over a websocket.
//
// The server keeps the authoritative step log (rooms/services.py, push): this editor sends
// its unconfirmed steps on top of the version it has, takes every accepted step from the
// room (its own come back as confirmations), and rebases what it has not sent yet on steps
// it missed (@codemirror/collab). After a dropped connection or a reload it asks for the
// steps since its version, so no accepted text is lost. Cursors, gradings, notes, rubric
// marks, a move to the next question (its reset of the code is a step like any other) and the
// end of the interview (or, in a peer interview, the swap of roles that moves both people to
// its second half) travel over the same socket.
import { basicSetup, EditorView } from "codemirror";
import { collab, getClientID, getSyncedVersion, receiveUpdates, sendableUpdates } from "@codemirror/collab";
import { indentWithTab } from "@codemirror/commands";
import { indentUnit } from "@codemirror/language";
import { python } from "@codemirror/lang-python";
import { ChangeSet, Compartment, EditorState, StateEffect, StateField } from "@codemirror/state";
import { Decoration, WidgetType, keymap } from "@codemirror/view";
import { oneDark } from "@codemirror/theme-one-dark";

const RECONNECT_MS = 1000;
const POLL_MS = 1000;
const NOTES_DELAY_MS = 600;
const CLOSE_REFUSED = 4403;

// Other people's cursors: a named caret per person, moved along with every change.
const setRemoteCursor = StateEffect.define();

class CursorWidget extends WidgetType {
  constructor(name) {
    super();
    this.name = name;
  }
  eq(other) {
    return other.name === this.name;
  }
  toDOM() {
    const caret = document.createElement("span");
    caret.className = "room-cursor";
    caret.setAttribute("aria-hidden", "true");
    const label = document.createElement("span");
    label.className = "room-cursor-name";
    label.textContent = this.name;
    caret.appendChild(label);
    return caret;
  }
}

const remoteCursors = StateField.define({
  create: () => ({ positions: new Map(), decorations: Decoration.none }),
  update(value, transaction) {
    let positions = value.positions;
    if (transaction.docChanged) {
      positions = new Map([...positions].map(([key, cursor]) => [key, { ...cursor, head: transaction.changes.mapPos(cursor.head) }]));
    }
    for (const effect of transaction.effects) {
      if (effect.is(setRemoteCursor)) {
        positions = new Map(positions);
        positions.set(effect.value.key, { name: effect.value.name, head: Math.min(effect.value.head, transaction.newDoc.length) });
      }
    }
    if (positions === value.positions) return value;
    const ranges = [...positions.values()]
      .sort((a, b) => a.head - b.head)
      .map((cursor) => Decoration.widget({ widget: new CursorWidget(cursor.name), side: 1 }).range(cursor.head));
    return { positions, decorations: Decoration.set(ranges) };
  },
  provide: (field) => EditorView.decorations.from(field, (value) => value.decorations),
});

const colourScheme = new Compartment();
const isDark = () => document.documentElement.dataset.theme === "dark";
const schemeFor = (dark) => (dark ? oneDark : []);
const readOnly = new Compartment();

function setText(id, text) {
  const node = document.getElementById(id);
  if (node) node.textContent = text;
}

function showError(message) {
  const node = document.getElementById("room-error");
  if (!node) return;
  node.textContent = message;
  node.hidden = !message;
}

class Room {
  constructor(holder) {
    this.holder = holder;
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/rooms/${holder.dataset.room}/`;
    this.view = null;
    this.socket = null;
    this.pushing = false;
    this.polled = new Set();
    this.connect();
  }

  connect() {
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener("message", (event) => this.receive(JSON.parse(event.data)));
    socket.addEventListener("close", (event) => {
      this.pushing = false;
      this.setControls(false);
      if (event.code === CLOSE_REFUSED) {
        setText("room-connection", "This room is not open to you.");
        return;
      }
      setText("room-connection", "Connection lost: reconnecting…");
      setTimeout(() => this.connect(), RECONNECT_MS);
    });
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  receive(message) {
    const handler = {
      hello: () => this.hello(message),
      steps: () => this.steps(message),
      cursor: () => this.cursor(message),
      grading: () => this.grading(message),
      graded: () => this.grading(message),
      joined: () => setText("room-candidate", message.name),
      notes_saved: () => setText("room-notes-status", "Notes saved."),
      mark_saved: () => setText("room-marks-status", "Mark saved."),
      ended: () => { location.href = message.report_url; },
      swapped: () => { location.href = message.room_url; },
      // The reset step came just before: reloading shows the new question's prompt and rubric.
      moved: () => { location.reload(); },
      error: () => { this.pushing = false; showError(message.message); },
    }[message.event];
    if (handler) handler();
  }

  hello(message) {
    setText("room-connection", `Connected as ${message.me}.`);
    if (message.candidate) setText("room-candidate", message.candidate);
    if (!message.open) {
      location.reload(); // an ended room's page is its report
      return;
    }
    if (!this.view) {
      this.mount(message.doc, message.version);
    } else {
      this.send({ type: "pull", version: getSyncedVersion(this.view.state) }); // what was missed while away
    }
    this.setControls(true);
    this.flush();
  }

  mount(doc, version) {
    const shareSelection = EditorView.updateListener.of((update) => {
      if (update.selectionSet || update.docChanged) this.cursorMoved = true;
      if (update.docChanged) this.flush();
      this.shareCursor();
    });
    this.view = new EditorView({
      parent: this.holder,
      state: EditorState.create({
        doc,
        extensions: [
          basicSetup,
          keymap.of([indentWithTab]),
          python(),
          indentUnit.of("    "),
          collab({ startVersion: version }),
          remoteCursors,
          shareSelection,
          // Long lines wrap and the editor grows with the code: no scrolling region the keyboard cannot reach.
          EditorView.lineWrapping,
          readOnly.of(EditorState.readOnly.of(false)),
          EditorView.contentAttributes.of({ "aria-label": "Shared code" }),
          colourScheme.of(schemeFor(isDark())),
          EditorView.theme({
            "&": { border: "1px solid var(--input-line, #c7ccd8)", borderRadius: "8px", backgroundColor: "var(--input-bg, #fff)", fontSize: "0.92rem" },
            "&.cm-focused": { outline: "3px solid var(--accent, #c2410c)", outlineOffset: "2px" },
            ".cm-scroller": { fontFamily: "var(--mono, monospace)", minHeight: "22rem" },
          }),
        ],
      }),
    });
    document.addEventListener("hotpath:themechange", () => {
      this.view.dispatch({ effects: colourScheme.reconfigure(schemeFor(isDark())) });
    });
  }

  // Send the steps not yet confirmed, one push at a time: the reply is either their
  // confirmation (they come back in the room's steps) or the steps missed first.
  flush() {
    if (!this.view || this.pushing || !this.socket || this.socket.readyState !== WebSocket.OPEN) return;
    const updates = sendableUpdates(this.view.state);
    if (!updates.length) return;
    this.pushing = true;
    this.send({
      type: "push",
      version: getSyncedVersion(this.view.state),
      updates: updates.map((update) => ({ clientID: update.clientID, changes: update.changes.toJSON() })),
    });
  }

  // The cursor is sent only when all this editor's steps are confirmed, so its position is one
  // in the document the others have (or are about to have), never ahead of it by unsent typing.
  shareCursor() {
    if (!this.view || !this.cursorMoved || sendableUpdates(this.view.state).length) return;
    this.cursorMoved = false;
    const { anchor, head } = this.view.state.selection.main;
    this.send({ type: "cursor", anchor, head, clientID: getClientID(this.view.state) });
  }

  steps(message) {
    if (!this.view) return;
    const synced = getSyncedVersion(this.view.state);
    if (message.version > synced) {
      this.send({ type: "pull", version: synced }); // a gap: ask for everything since ours
      return;
    }
    const fresh = message.updates.slice(synced - message.version);
    if (fresh.length) {
      const updates = fresh.map((update) => ({ clientID: update.clientID, changes: ChangeSet.fromJSON(update.changes) }));
      this.view.dispatch(receiveUpdates(this.view.state, updates));
    }
    this.pushing = false;
    this.flush();
    this.shareCursor();
  }

  cursor(message) {
    if (!this.view || message.clientID === getClientID(this.view.state)) return;
    this.view.dispatch({ effects: setRemoteCursor.of({ key: message.clientID, name: message.name, head: message.head }) });
  }

  setControls(enabled) {
    document.querySelectorAll("[data-grade], #room-end, #room-swap, #room-move").forEach((button) => { button.disabled = !enabled; });
  }

  // A grading started by either person: listed for both, its progress polled until its result.
  grading(message) {
    const list = document.getElementById("room-gradings");
    let item = list.querySelector(`[data-grading="${message.id}"]`);
    if (!item) {
      item = document.createElement("li");
      item.dataset.grading = message.id;
      item.dataset.statusUrl = message.status_url;
      item.dataset.reportUrl = message.report_url;
      item.dataset.label = `${message.purpose} by ${message.by}`;
      item.textContent = `${item.dataset.label}: queued`;
      list.appendChild(item);
    }
    this.poll(item);
  }

  async poll(item) {
    const id = item.dataset.grading;
    if (this.polled.has(id)) return;
    this.polled.add(id);
    while (true) {
      let data = null;
      try {
        const response = await fetch(item.dataset.statusUrl, { credentials: "same-origin" });
        if (response.ok) data = await response.json();
      } catch (error) {
        data = null; // offline for a moment: try again
      }
      if (data && data.is_final) {
        item.textContent = `${item.dataset.label}: ${data.verdict_label} `;
        const link = document.createElement("a");
        link.href = item.dataset.reportUrl;
        link.textContent = "Report";
        item.appendChild(link);
        return;
      }
      if (data) item.textContent = `${item.dataset.label}: ${data.progress ? data.progress.label : data.status_label}`;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}

function watchNotes(room) {
  const notes = document.getElementById("room-notes");
  if (!notes) return;
  let timer = null;
  notes.addEventListener("input", () => {
    setText("room-notes-status", "Saving…");
    clearTimeout(timer);
    timer = setTimeout(() => room.send({ type: "notes", text: notes.value }), NOTES_DELAY_MS);
  });
}

function watchMarks(room) {
  document.querySelectorAll("[data-mark-point]").forEach((select) => {
    select.addEventListener("change", () => {
      setText("room-marks-status", "Saving…");
      const mark = select.value === "" ? null : Number(select.value);
      room.send({ type: "mark", point: Number(select.dataset.markPoint), mark });
    });
  });
}

function init() {
  const holder = document.getElementById("room-editor");
  if (!holder) return;
  const room = new Room(holder);
  document.querySelectorAll("#room-gradings [data-grading]").forEach((item) => room.poll(item));
  document.querySelectorAll("[data-grade]").forEach((button) => {
    button.addEventListener("click", () => {
      showError("");
      room.send({ type: "grade", purpose: button.dataset.grade });
    });
  });
  const end = document.getElementById("room-end");
  if (end) {
    end.addEventListener("click", () => {
      if (window.confirm("End the interview? The room becomes read-only and its report is written.")) room.send({ type: "end" });
    });
  }
  const move = document.getElementById("room-move");
  if (move) {
    move.addEventListener("click", () => {
      const next = document.getElementById("room-next-question");
      const title = next.options[next.selectedIndex].text;
      if (window.confirm(`Move to "${title}"? The code starts again from its starter; this question's code stays in the report.`)) {
        room.send({ type: "move", question: next.value });
      }
    });
  }
  const swap = document.getElementById("room-swap");
  if (swap) {
    swap.addEventListener("click", () => {
      if (window.confirm("Swap roles? This half ends, and your partner interviews you on another question.")) room.send({ type: "swap" });
    });
  }
  watchNotes(room);
  watchMarks(room);
  const invite = document.getElementById("room-invite-link");
  if (invite) invite.addEventListener("focus", () => invite.select());
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", init);
} else {
  init();
}
