// dama serve: the page. The server owns the game and the rules; this script draws
// what it sends (`state`, `info`, `pdn`, `error`) and sends the page's commands.
"use strict";

const $ = (id) => document.getElementById(id);
let ws = null;
let S = null;            // the last state
let flipped = false;
let prefix = [];         // squares clicked so far for the move being entered
let lines = [];          // analysis lines by index (1-based)
let previewLine = 0;     // the line previewed on the board, 0: none
let wantDownload = false;
let A = null;            // the game's annotation (the server's 'annotation' message)
let drag = null;

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  else showMessage("not connected to dama: reload the page", true);
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws`);
  ws.onopen = () => {
    const q = new URLSearchParams(location.search);
    const msg = { type: "new", variant: q.get("variant") || "english" };
    if (q.get("fen")) msg.fen = q.get("fen");
    if (q.get("moves")) msg.moves = q.get("moves");
    send(msg);
    sendEngine();
  };
  ws.onmessage = (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch (e) { return; }
    handle(m);
  };
  ws.onclose = (ev) => {
    // The server says why it closes (busy, idle too long, shutting down).
    $("status").textContent = ev.reason ? `Disconnected from dama: ${ev.reason}` : "Disconnected from dama.";
    if (ev.reason) showMessage(ev.reason, true);
    document.body.dataset.connected = "false";
    document.body.dataset.closeCode = String(ev.code);
  };
}

function handle(m) {
  switch (m.type) {
    case "state": {
      // A state of the same position (a setting changed) keeps the move being
      // entered and the analysis lines.
      const same = S && S.fen === m.fen && S.cursor === m.cursor && S.history.length === m.history.length;
      S = m;
      if (!same) {
        prefix = [];
        hideChoices();
      }
      if (!same || !m.analysis) {
        lines = [];
        previewLine = 0;
        $("preview-note").hidden = true;
      }
      document.body.dataset.connected = "true";
      document.body.dataset.variant = m.variant;
      document.body.dataset.plies = String(m.history.length);
      document.body.dataset.cursor = String(m.cursor);
      A = m.annotation;
      $("variant").value = m.variant;
      $("engine-side").value = m.engine.side;
      $("skill").value = String(m.engine.skill);
      document.body.dataset.skill = String(m.engine.skill);
      $("analyze").checked = m.analysis;
      render();
      updateUrl();
      break;
    }
    case "info":
      onInfo(m);
      break;
    case "annotation":
      A = m;
      renderMoves();
      renderAnnotation();
      break;
    case "thinking":
      $("status").textContent = "dama is thinking…";
      break;
    case "queued":
      // Every search slot is busy: this page's search waits its turn.
      $("status").textContent = `Waiting for a free engine (${m.place} in line, ${m.slots} engine${m.slots === 1 ? "" : "s"} for all pages)…`;
      break;
    case "busy":
      showMessage(m.message, true);
      break;
    case "pdn":
      $("io").value = m.text;
      if (wantDownload) {
        wantDownload = false;
        const a = document.createElement("a");
        a.href = URL.createObjectURL(new Blob([m.text], { type: "application/x-chess-pdn" }));
        a.download = `dama-${S ? S.variant : "game"}.pdn`;
        document.body.appendChild(a);
        a.click();
        a.remove();
      }
      showMessage(m.annotated ? "Annotated PDN exported below" : "PDN exported below", false);
      break;
    case "error":
      showMessage(m.message, true);
      if (S) render();
      break;
  }
}

function showMessage(text, isError) {
  const el = $("message");
  el.textContent = text;
  el.className = isError ? "" : "info";
}

// ---- the board ----

function squareAt(row, col) {
  const file = flipped ? 7 - col : col;
  const rank = flipped ? row : 7 - row;
  return rank * 8 + file;
}

function render() {
  if (!S) return;
  const board = $("board");
  const shown = previewLine && lines[previewLine] ? lines[previewLine].preview : S.board;
  board.classList.toggle("previewing", !!previewLine);
  board.innerHTML = "";
  const lastPath = new Set(previewLine && lines[previewLine] ? lines[previewLine].first_path : (S.last ? S.last.path : []));
  const lastTaken = new Set(!previewLine && S.last ? S.last.captured : []);
  const targets = new Set(nextSquares());
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const sq = squareAt(row, col);
      const file = sq % 8, rank = Math.floor(sq / 8);
      const dark = (file + rank) % 2 === 0;
      const playable = S.labels[sq] !== null;
      const el = document.createElement("div");
      el.className = "sq " + (playable ? (dark ? "dark" : "light") : "unplayed");
      el.dataset.sq = String(sq);
      if (playable) el.dataset.name = S.labels[sq];
      if (lastPath.has(sq)) el.classList.add("last");
      if (lastTaken.has(sq)) el.classList.add("taken");
      if (prefix.length && prefix[prefix.length - 1] === sq) el.classList.add("sel");
      if (targets.has(sq)) el.classList.add("target");
      if (S.numeric && playable) {
        el.appendChild(label("num", S.labels[sq]));
      } else if (!S.numeric) {
        if (row === 7) el.appendChild(label("file", "abcdefgh"[file]));
        if (col === 0) el.appendChild(label("rank", String(rank + 1)));
      }
      const c = shown[sq];
      if (c !== ".") {
        const p = document.createElement("div");
        p.className = "piece " + (c.toLowerCase() === "w" ? "white" : "black") + (c === "W" || c === "B" ? " king" : "");
        el.appendChild(p);
      }
      el.addEventListener("pointerdown", onPointerDown);
      board.appendChild(el);
    }
  }
  renderStatus();
  renderMoves();
  renderAnnotation();
  renderLines();
}

function label(cls, text) {
  const s = document.createElement("span");
  s.className = "label " + cls;
  s.textContent = text;
  return s;
}

function sideToMove() { return S.side; }

function engineToMove() {
  return S.engine.side !== "none" && S.engine.side === S.side.toLowerCase() && S.cursor === S.history.length && !S.outcome;
}

function renderStatus() {
  let st = S.outcome ? "Game over." : `${sideToMove()} to move.`;
  if (!S.outcome && engineToMove()) st = `${sideToMove()} to move: dama is thinking…`;
  if (S.cursor < S.history.length) st += ` (viewing move ${S.cursor} of ${S.history.length})`;
  $("status").textContent = st;
  const r = $("result");
  r.hidden = !S.outcome;
  r.textContent = S.outcome || "";
  $("egdb-text").textContent = S.egdb || "";
  $("book-text").textContent = S.book && S.book.length
    ? `Book: ${S.book.map((b) => `${b.move} (${b.score_text})`).join(", ")}`
    : "";
}

function renderMoves() {
  const box = $("moves");
  box.innerHTML = "";
  const first = S.variant === "english" ? "Black" : "White";
  const offset = S.history.length && S.history[0].side !== first ? 1 : 0;
  S.history.forEach((h, i) => {
    const k = i + offset;
    if (k % 2 === 0 || i === 0) {
      const n = document.createElement("span");
      n.className = "num";
      n.textContent = `${Math.floor(k / 2) + 1}.${k % 2 ? ".." : ""}`;
      box.appendChild(n);
    }
    const s = document.createElement("span");
    s.className = "mv" + (h.ply === S.cursor ? " current" : "") + (h.ply > S.cursor ? " future" : "");
    s.dataset.ply = String(h.ply);
    s.textContent = h.text;
    s.addEventListener("click", () => send({ type: "goto", ply: h.ply }));
    box.appendChild(s);
    // The annotation's mark, and the better move after a mistake.
    const note = A && A.moves ? A.moves[i] : null;
    if (note && note.mark) {
      const mk = document.createElement("span");
      mk.className = `mark mark-${note.label}`;
      mk.textContent = note.mark;
      mk.title = `${note.label}: loses ${(note.loss / 100).toFixed(2)}` + (note.best ? `; better ${note.best} (${note.best_score_text})` : "");
      s.appendChild(mk);
      if (note.best && note.label !== "inaccuracy") {
        const b = document.createElement("span");
        b.className = "better";
        b.textContent = `(better ${note.best})`;
        box.appendChild(b);
      }
    }
  });
  const cur = box.querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

// ---- the game's annotation and its graph ----

function renderAnnotation() {
  const g = $("graph");
  const button = $("annotate");
  button.textContent = A && A.active ? "Stop analysing" : "Analyse game";
  $("annotate-progress").textContent = A ? (A.active ? `${A.done} of ${A.total} positions…` : (A.done === A.total ? "done" : `${A.done} of ${A.total} positions (stopped)`)) : "";
  const sum = $("annotate-summary");
  sum.textContent = "";
  if (A && A.summary) {
    const side = (name, x) => `${name}: average loss ${x.average_loss.toFixed(2)}, ${x.inaccuracies} ?!, ${x.mistakes} ?, ${x.blunders} ??`;
    sum.textContent = `${side("White", A.summary.white)}; ${side("Black", A.summary.black)}`;
  }
  if (!A || !S) { g.hidden = true; g.innerHTML = ""; return; }
  g.hidden = false;
  const W = 300, H = 80, n = Math.max(2, A.total);
  const x = (i) => (i / (n - 1)) * W;
  // White's advantage up, held within 3 men.
  const y = (s) => H / 2 - (Math.max(-300, Math.min(300, s)) / 300) * (H / 2 - 4);
  const ns = "http://www.w3.org/2000/svg";
  const el = (tag, attrs) => { const e = document.createElementNS(ns, tag); for (const k in attrs) e.setAttribute(k, attrs[k]); return e; };
  g.innerHTML = "";
  g.appendChild(el("line", { class: "axis", x1: 0, y1: H / 2, x2: W, y2: H / 2 }));
  let d = "", area = "", started = false, first = 0, last = 0;
  A.points.forEach((p, i) => {
    if (!p) { started = false; return; }
    d += `${started ? "L" : "M"}${x(i).toFixed(2)},${y(p.white_score).toFixed(2)} `;
    if (!area) { area = `M${x(i).toFixed(2)},${H / 2} `; first = i; }
    area += `L${x(i).toFixed(2)},${y(p.white_score).toFixed(2)} `;
    last = i;
    started = true;
  });
  if (area) g.appendChild(el("path", { class: "area", d: `${area}L${x(last).toFixed(2)},${H / 2} Z` }));
  g.appendChild(el("path", { class: "curve", d }));
  g.appendChild(el("line", { class: "cursor", x1: x(S.cursor), y1: 0, x2: x(S.cursor), y2: H }));
  A.points.forEach((p, i) => {
    if (!p) return;
    const note = i > 0 && A.moves ? A.moves[i - 1] : null;
    const c = el("circle", { class: "point" + (note && note.label ? ` mark-${note.label}` : ""), cx: x(i), cy: y(p.white_score), r: note && note.label ? 3 : 1.8 });
    c.dataset.index = String(i);
    const t = el("title", {});
    t.textContent = `${i ? `after move ${i}` : "start"}: ${p.score_text}` + (p.best ? `, best ${p.best}` : "");
    c.appendChild(t);
    g.appendChild(c);
  });
}

// A click on the graph goes to the nearest position.
$("graph").addEventListener("click", (ev) => {
  if (!A || !S) return;
  const r = $("graph").getBoundingClientRect();
  const n = Math.max(2, A.total);
  const i = Math.round(((ev.clientX - r.left) / r.width) * (n - 1));
  goto(Math.max(0, Math.min(S.history.length, i)));
});

$("annotate").addEventListener("click", () => {
  if (A && A.active) send({ type: "annotate", on: false });
  else send({ type: "annotate", on: true, movetime: Number($("annotate-time").value) });
});

// ---- entering moves ----

function matching() {
  if (!S) return [];
  return S.moves.filter((m) => prefix.every((sq, i) => m.path[i] === sq));
}

function nextSquares() {
  if (!prefix.length) return [];
  return matching().filter((m) => m.path.length > prefix.length).map((m) => m.path[prefix.length]);
}

function name(sq) { return S.labels[sq] || "?"; }

function pieceColour(sq) {
  const c = S.board[sq];
  if (c === ".") return null;
  return c.toLowerCase() === "w" ? "White" : "Black";
}

function refuse(reason) {
  prefix = [];
  hideChoices();
  showMessage(reason, true);
  render();
}

function clickSquare(sq) {
  if (!S || previewLine) { exitPreview(); return; }
  if (S.outcome) { refuse(`The game is over: ${S.outcome}`); return; }
  if (engineToMove()) { refuse("It is dama's move: wait, or press Stop."); return; }
  if (!prefix.length) {
    const own = S.moves.filter((m) => m.path[0] === sq);
    if (own.length) { prefix = [sq]; showMessage("", false); render(); return; }
    const colour = pieceColour(sq);
    if (!colour) return;
    if (colour !== sideToMove()) { refuse(`It is ${sideToMove()}'s move.`); return; }
    if (S.moves.length && S.moves[0].captured.length) {
      const from = [...new Set(S.moves.map((m) => name(m.path[0])))].join(", ");
      refuse(`A capture is compulsory: move ${from}.`);
    } else {
      refuse(`The piece on ${name(sq)} has no legal move.`);
    }
    return;
  }
  if (sq === prefix[0] && prefix.length === 1) { prefix = []; render(); return; }
  if (nextSquares().includes(sq)) {
    prefix.push(sq);
    const cands = matching();
    const done = cands.filter((m) => m.path.length === prefix.length);
    if (done.length && done.length === cands.length) {
      const distinct = [];
      for (const m of done) {
        const key = m.captured.slice().sort((a, b) => a - b).join(",");
        if (!distinct.some((d) => d.key === key)) distinct.push({ key, m });
      }
      if (distinct.length === 1) playMove(distinct[0].m);
      else showChoices(distinct.map((d) => d.m));
      return;
    }
    render();
    return;
  }
  // A click on the destination of a capture, skipping the landing squares between:
  // played when only one move of this piece ends there.
  if (prefix.length === 1) {
    const ends = S.moves.filter((m) => m.path[0] === prefix[0] && m.path[m.path.length - 1] === sq && m.path.length > 2);
    const distinct = [...new Map(ends.map((m) => [m.captured.slice().sort((a, b) => a - b).join(","), m])).values()];
    if (distinct.length === 1) { playMove(distinct[0]); return; }
    if (distinct.length > 1) { prefix = []; showChoices(distinct); return; }
  }
  // A click on another piece of the side to move starts over from it.
  if (prefix.length === 1 && S.moves.some((m) => m.path[0] === sq)) { prefix = [sq]; render(); return; }
  const from = name(prefix[0]);
  let reason;
  if (prefix.length > 1) reason = `The capture goes on: click the next landing square (from ${name(prefix[prefix.length - 1])}).`;
  else if (S.moves[0] && S.moves[0].captured.length) reason = `${from} to ${S.labels[sq] || "there"} is not legal: a capture is compulsory${S.variant === "dameo" || S.variant === "croda" ? ", and the one that takes the most pieces" : ""}.`;
  else reason = `${from} cannot move to ${S.labels[sq] || "a light square"}.`;
  refuse(reason);
}

function playMove(m) {
  hideChoices();
  prefix = [];
  showMessage("", false);
  send({ type: "move", from: m.from, to: m.to, captured: m.captured_names });
}

function showChoices(moves) {
  const box = $("choices");
  box.innerHTML = "";
  const title = document.createElement("div");
  title.textContent = "Which pieces to take?";
  box.appendChild(title);
  for (const m of moves.slice().sort((a, b) => a.text.localeCompare(b.text))) {
    const b = document.createElement("button");
    b.className = "choice";
    b.textContent = `${m.text}: takes ${m.captured_names.join(", ")}`;
    b.addEventListener("mouseenter", () => markChoice(m));
    b.addEventListener("mouseleave", () => markChoice(null));
    b.addEventListener("click", () => playMove(m));
    box.appendChild(b);
  }
  const cancel = document.createElement("button");
  cancel.textContent = "Cancel";
  cancel.addEventListener("click", () => { prefix = []; hideChoices(); render(); });
  box.appendChild(cancel);
  box.hidden = false;
  render();
}

function markChoice(m) {
  document.querySelectorAll(".sq.choice-taken").forEach((e) => e.classList.remove("choice-taken"));
  if (!m) return;
  for (const sq of m.captured) {
    const el = document.querySelector(`.sq[data-sq="${sq}"]`);
    if (el) el.classList.add("choice-taken");
  }
}

function hideChoices() { $("choices").hidden = true; }

// Drag: press on a piece, release on a square; a press and release on the same square
// is a click.
function onPointerDown(ev) {
  const el = ev.currentTarget;
  const sq = Number(el.dataset.sq);
  const piece = el.querySelector(".piece");
  const before = prefix.length;
  clickSquare(sq);
  if (!piece || !prefix.length || prefix[prefix.length - 1] !== sq || before > 0 && prefix.length > 1) return;
  const ghost = piece.cloneNode(true);
  const r = piece.getBoundingClientRect();
  ghost.classList.add("ghost");
  ghost.style.width = `${r.width}px`;
  ghost.style.height = `${r.height}px`;
  drag = { sq, ghost, w: r.width, h: r.height, moved: false };
  moveGhost(ev);
  document.body.appendChild(ghost);
  ev.preventDefault();
}

function moveGhost(ev) {
  if (!drag) return;
  drag.ghost.style.left = `${ev.clientX - drag.w / 2}px`;
  drag.ghost.style.top = `${ev.clientY - drag.h / 2}px`;
}

document.addEventListener("pointermove", (ev) => { if (drag) { drag.moved = true; moveGhost(ev); } });
document.addEventListener("pointerup", (ev) => {
  if (!drag) return;
  const d = drag;
  drag = null;
  d.ghost.remove();
  if (!d.moved) return;
  const under = document.elementFromPoint(ev.clientX, ev.clientY);
  const target = under && under.closest(".sq");
  if (!target) { prefix = []; render(); return; }
  const sq = Number(target.dataset.sq);
  if (sq !== d.sq) clickSquare(sq);
});

// ---- analysis ----

function onInfo(m) {
  if (m.purpose === "analysis") {
    lines[m.line] = m;
    if (m.line === 1) updateBar(m);
    renderLines();
  } else {
    updateBar(m);
    $("status").textContent = `dama is thinking… depth ${m.depth}, ${m.score_text}`;
  }
  if (m.line === 1) {
    $("eval-text").textContent = m.score_text;
    $("depth-text").textContent = `depth ${m.depth}/${m.seldepth}`;
    $("nps-text").textContent = `${Math.round(m.nps / 1000)} kN/s`;
    if (m.egdb) $("egdb-text").textContent = m.egdb;
  }
}

function updateBar(m) {
  let pct;
  if (m.win_in !== null && m.win_in !== undefined) {
    const whiteWins = (m.win_in >= 0) === (S.side === "White");
    pct = whiteWins ? 100 : 0;
  } else {
    pct = 50 + 50 * Math.tanh(m.white_score / 600);
  }
  $("evalfill").style.height = `${pct.toFixed(1)}%`;
  $("evalbar").title = `${m.score_text} (side to move)`;
}

function renderLines() {
  const ol = $("lines");
  ol.innerHTML = "";
  lines.forEach((l, i) => {
    if (!l) return;
    const li = document.createElement("li");
    li.className = "line" + (previewLine === i ? " active" : "");
    li.dataset.line = String(i);
    const s = document.createElement("span");
    s.className = "score";
    s.textContent = l.score_text;
    li.appendChild(s);
    li.appendChild(document.createTextNode(l.pv.join(" ")));
    ol.appendChild(li);
  });
}

// Lines are drawn anew with every report, so a press (not a click, which needs the
// same element under the press and the release) chooses one.
$("lines").addEventListener("pointerdown", (ev) => {
  const li = ev.target.closest("li");
  if (!li) return;
  const i = Number(li.dataset.line);
  previewLine = previewLine === i ? 0 : i;
  $("preview-note").hidden = !previewLine;
  render();
});

function exitPreview() {
  previewLine = 0;
  $("preview-note").hidden = true;
  render();
}

// ---- controls ----

function sendEngine() {
  const lv = $("level").value;
  const msg = { type: "engine", side: $("engine-side").value, skill: Number($("skill").value) };
  if (lv[0] === "t") msg.movetime = Number(lv.slice(1));
  else msg.depth = Number(lv.slice(1));
  send(msg);
}

function updateUrl() {
  const q = new URLSearchParams();
  q.set("variant", S.variant);
  if (S.custom_start) q.set("fen", S.start_fen);
  const moves = S.history.slice(0, S.cursor).map((h) => h.text).join(" ");
  if (moves) q.set("moves", moves);
  history.replaceState(null, "", `?${q.toString()}`);
}

$("new-game").addEventListener("click", () => {
  send({ type: "new", variant: $("variant").value });
  sendEngine();
});
$("variant").addEventListener("change", () => {
  send({ type: "new", variant: $("variant").value });
  sendEngine();
});
$("engine-side").addEventListener("change", sendEngine);
$("skill").addEventListener("change", sendEngine);
$("level").addEventListener("change", sendEngine);
$("go").addEventListener("click", () => send({ type: "go" }));
$("stop").addEventListener("click", () => send({ type: "stop" }));
$("flip").addEventListener("click", () => { flipped = !flipped; render(); });
$("undo").addEventListener("click", () => send({ type: "undo" }));
const goto = (ply) => { if (S) send({ type: "goto", ply: Math.max(0, Math.min(S.history.length, ply)) }); };
$("first").addEventListener("click", () => goto(0));
$("prev").addEventListener("click", () => goto(S.cursor - 1));
$("next").addEventListener("click", () => goto(S.cursor + 1));
$("last").addEventListener("click", () => goto(S.history.length));
$("analyze").addEventListener("change", () => send({ type: "analyze", on: $("analyze").checked, multipv: Number($("multipv").value) }));
$("multipv").addEventListener("change", () => { if ($("analyze").checked) send({ type: "analyze", on: true, multipv: Number($("multipv").value) }); });
$("load-fen").addEventListener("click", () => send({ type: "fen", fen: $("io").value.trim() }));
$("load-pdn").addEventListener("click", () => send({ type: "pdn", text: $("io").value }));
$("export-pdn").addEventListener("click", () => send({ type: "export" }));
$("download-pdn").addEventListener("click", () => { wantDownload = true; send({ type: "export" }); });
$("show-fen").addEventListener("click", () => { if (S) { $("io").value = S.fen; showMessage("FEN of the shown position below", false); } });

document.addEventListener("keydown", (ev) => {
  if (!S || ev.target.tagName === "TEXTAREA" || ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT") return;
  if (ev.key === "ArrowLeft") goto(S.cursor - 1);
  else if (ev.key === "ArrowRight") goto(S.cursor + 1);
  else if (ev.key === "Home") goto(0);
  else if (ev.key === "End") goto(S.history.length);
  else if (ev.key === "Escape") { prefix = []; hideChoices(); exitPreview(); }
  else if (ev.key === "f") { flipped = !flipped; render(); }
  else return;
  ev.preventDefault();
});

connect();
