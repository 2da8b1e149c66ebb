// The page's script: asks the wasm (crates/web) every question and draws
// the answers. It holds the state (the expression, the numbering, the
// board, the FEN) and keeps the URL's hash in step with it.
"use strict";

const NUMBERINGS = ["lerf", "lerbef", "berf", "berbef"];
const FILES = "abcdefgh";
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
// Solid glyphs for both colours (coloured by CSS), with U+FE0E: text, not emoji.
const GLYPHS = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };

const $ = (id) => document.getElementById(id);
const state = {
  expr: "", numbering: 0, board: 0n, origins: 0n, fen: "", position: null, selected: null, cursor: 28,
  exprError: "", fenError: "", book: null,
};
let wasm = null;

// ---------------------------------------------------------------- wasm

function bytesFromBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Writes `text` into the wasm's input buffer. */
function input(text) {
  const bytes = new TextEncoder().encode(text);
  const ptr = wasm.bb_input(bytes.length);
  new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
}

/** Reads the wasm's last answer as JSON. */
function output() {
  const bytes = new Uint8Array(wasm.memory.buffer, wasm.bb_output_ptr(), wasm.bb_output_len());
  return JSON.parse(new TextDecoder().decode(bytes));
}

function evaluate(source, numbering) {
  input(source);
  wasm.bb_evaluate(numbering);
  return output();
}

function describe(board, numbering) {
  wasm.bb_describe(BigInt.asIntN(64, board), numbering);
  return output();
}

/** The position's moves in the opened book (or null when none is open). */
function readBook(fen) {
  if (!state.book) return null;
  input(fen);
  wasm.bb_book_moves();
  return output();
}

function readPosition(fen) {
  input(fen);
  wasm.bb_position();
  return output();
}

// ---------------------------------------------------------------- squares

const squareName = (index) => FILES[index % 8] + (Math.floor(index / 8) + 1);
const squareIndex = (name) => FILES.indexOf(name[0]) + 8 * (Number(name[1]) - 1);
const bit = (index) => 1n << BigInt(index);
/** The bit that square `index` (a1 = 0) is in a numbering: its mirror, flip or both. */
const bitNumber = (index, numbering) => index ^ [0, 7, 56, 63][numbering];

function buildGrid(container, onSquare) {
  const squares = [];
  for (let rank = 7; rank >= 0; rank--) {
    const label = document.createElement("div");
    label.className = "label";
    label.textContent = rank + 1;
    container.append(label);
    for (let file = 0; file < 8; file++) {
      const index = rank * 8 + file;
      const square = document.createElement("div");
      square.className = "sq " + ((rank + file) % 2 ? "light" : "dark");
      square.dataset.square = squareName(index);
      square.setAttribute("role", "gridcell");
      onSquare(square, index);
      squares[index] = square;
      container.append(square);
    }
  }
  container.append(document.createElement("div"));
  for (const file of FILES) {
    const label = document.createElement("div");
    label.className = "label file-label";
    label.textContent = file;
    container.append(label);
  }
  return squares;
}

// ---------------------------------------------------------------- the board

let boardSquares = [];
let painting = null; // true: setting squares, false: clearing, null: not dragging

function setupBoard() {
  const board = $("board");
  boardSquares = buildGrid(board, (square, index) => {
    const number = document.createElement("span");
    number.className = "bit";
    square.append(number);
    square.addEventListener("pointerdown", (event) => {
      event.preventDefault();
      board.focus();
      state.cursor = index;
      painting = (state.board & bit(index)) === 0n;
      paint(index);
    });
    square.addEventListener("pointerenter", () => {
      if (painting !== null) paint(index);
    });
  });
  window.addEventListener("pointerup", () => { painting = null; });
  board.addEventListener("keydown", (event) => {
    const moves = { ArrowUp: 8, ArrowDown: -8, ArrowLeft: -1, ArrowRight: 1 };
    if (event.key in moves) {
      const step = moves[event.key];
      const file = state.cursor % 8;
      if ((step === -1 && file === 0) || (step === 1 && file === 7)) return event.preventDefault();
      const next = state.cursor + step;
      if (next >= 0 && next < 64) state.cursor = next;
      event.preventDefault();
      renderBoard();
    } else if (event.key === " " || event.key === "Enter") {
      event.preventDefault();
      setBoard(state.board ^ bit(state.cursor));
    }
  });
  board.addEventListener("focus", renderBoard);
  board.addEventListener("blur", renderBoard);
}

function paint(index) {
  const set = (state.board & bit(index)) !== 0n;
  if (set !== painting) setBoard(state.board ^ bit(index));
  else renderBoard();
}

/** A board edited directly: the expression becomes its number. `origins`
 * are the squares its attacks come from, where the page knows them (a piece
 * clicked on the position). */
function setBoard(board, origins = 0n) {
  state.board = BigInt.asUintN(64, board);
  state.origins = origins;
  state.expr = describe(state.board, state.numbering).hex;
  $("expr").value = state.expr;
  showError("");
  render();
}

function setExpression(text) {
  state.expr = text;
  if (text.trim() === "") {
    state.board = 0n;
    state.origins = 0n;
    showError("");
  } else {
    const answer = evaluate(text, state.numbering);
    if (answer.ok) {
      state.board = BigInt(answer.board);
      state.origins = BigInt(answer.origins);
      showError("");
    } else {
      showError(answer.rendered);
    }
  }
  render();
}

/** The expression's error; `error` shows it and the FEN's, `fen-error` the FEN's alone. */
function showError(text) {
  state.exprError = text;
  renderErrors();
}

function renderErrors() {
  $("error").textContent = [state.exprError, state.fenError].filter(Boolean).join("\n");
  $("fen-error").textContent = state.fenError;
  $("board").classList.toggle("stale", state.exprError !== "");
}

function renderBoard() {
  const focused = document.activeElement === $("board");
  boardSquares.forEach((square, index) => {
    const on = (state.board & bit(index)) !== 0n;
    const origin = (state.origins & bit(index)) !== 0n;
    square.classList.toggle("on", on);
    square.classList.toggle("origin", origin);
    square.classList.toggle("cursor", focused && index === state.cursor);
    square.firstChild.textContent = bitNumber(index, state.numbering);
    square.setAttribute("aria-selected", on);
    square.setAttribute("aria-label", `${squareName(index)}, bit ${bitNumber(index, state.numbering)}, `
      + (on ? "set" : "empty") + (origin ? ", the attacks come from here" : ""));
  });
}

function render() {
  renderBoard();
  const view = describe(state.board, state.numbering);
  state.view = view;
  if (document.activeElement !== $("hex")) $("hex").textContent = view.hex;
  if (document.activeElement !== $("decimal")) $("decimal").textContent = view.decimal;
  const binary = $("binary");
  binary.replaceChildren(...view.binary.split(" ").map((group, i) => {
    const span = document.createElement("span");
    span.append(group);
    const label = document.createElement("small");
    label.textContent = "rank " + view.ranks[i];
    span.append(label);
    return span;
  }));
  $("squares").textContent = view.squares;
  $("count").textContent = view.count;
  writeHash();
}

/** Typing into the hex or decimal field: a number in the current numbering. */
function setupNumberField(id, pattern, prefix) {
  const field = $(id);
  field.addEventListener("focus", () => {
    const range = document.createRange();
    range.selectNodeContents(field);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  });
  field.addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); field.blur(); }
  });
  field.addEventListener("input", () => {
    const text = field.textContent.trim().replace(/_/g, "");
    const match = pattern.exec(text);
    if (!match) {
      showError(text === "" ? "" : `error: \`${text}\` is not a ${id} number`);
      return;
    }
    const answer = evaluate(prefix + match[1], state.numbering);
    if (!answer.ok) return showError(answer.rendered);
    state.board = BigInt(answer.board);
    state.origins = 0n;
    state.expr = prefix === "0x" ? "0x" + match[1].padStart(16, "0") : match[1];
    $("expr").value = state.expr;
    showError("");
    render();
  });
  field.addEventListener("blur", render);
}

// ---------------------------------------------------------------- the position

let pieceSquares = [];

function setupPosition() {
  pieceSquares = buildGrid($("pieces"), (square, index) => {
    square.addEventListener("click", () => selectPiece(index));
  });
  $("fen").addEventListener("input", () => setFen($("fen").value));
  $("start").addEventListener("click", () => { $("fen").value = START; setFen(START); });
  $("kiwipete").addEventListener("click", () => { $("fen").value = KIWIPETE; setFen(KIWIPETE); });
  $("book-file").addEventListener("change", async () => {
    const file = $("book-file").files[0];
    if (!file) return;
    const bytes = new Uint8Array(await file.arrayBuffer());
    const ptr = wasm.bb_book(bytes.length);
    new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
    state.book = file.name;
    renderPosition();
  });
}

function setFen(fen) {
  state.fen = fen.trim();
  state.selected = null;
  state.position = null;
  state.fenError = "";
  if (state.fen !== "") {
    const answer = readPosition(state.fen);
    if (answer.ok) state.position = answer;
    else state.fenError = answer.rendered;
  }
  renderErrors();
  renderPosition();
  writeHash();
}

function selectPiece(index) {
  const position = state.position;
  if (!position || position.pieces[index] === ".") {
    state.selected = null;
  } else {
    state.selected = state.selected === index ? null : index;
    if (state.selected !== null) setBoard(BigInt(position.attacks[index]), bit(index));
  }
  renderPosition();
}

function renderPosition() {
  const position = state.position;
  const attacks = position && state.selected !== null ? BigInt(position.attacks[state.selected]) : 0n;
  const from = state.selected === null ? "" : squareName(state.selected);
  const targets = new Set(position ? position.moves.filter((m) => m.from === from).map((m) => m.to) : []);
  pieceSquares.forEach((square, index) => {
    const letter = position ? position.pieces[index] : ".";
    square.replaceChildren();
    if (letter !== ".") {
      const glyph = document.createElement("span");
      const white = letter === letter.toUpperCase();
      glyph.className = "piece " + (white ? "white" : "black");
      glyph.textContent = GLYPHS[letter.toLowerCase()] + "\uFE0E";
      square.append(glyph);
    }
    square.classList.toggle("attacked", (attacks & bit(index)) !== 0n);
    square.classList.toggle("target", targets.has(squareName(index)));
    square.classList.toggle("selected", index === state.selected);
    square.setAttribute("aria-label", squareName(index) + (letter === "." ? "" : " " + letter));
  });
  $("hash").textContent = position ? position.hash : "";
  $("side").textContent = position ? position.side : "";
  $("move-count").textContent = position ? String(position.moves.length) : "";
  $("moves").replaceChildren(...(position ? position.moves : []).map((move) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.uci = move.uci;
    button.textContent = move.san;
    button.title = move.uci;
    button.addEventListener("click", () => {
      state.selected = squareIndex(move.from);
      setBoard(bit(squareIndex(move.from)) | bit(squareIndex(move.to)));
      renderPosition();
    });
    return button;
  }));
  renderBook(position);
  renderExplorer();
  $("named").replaceChildren(...(position ? position.boards : []).map(({ name, board }) => {
    const value = BigInt(board);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "mini";
    button.dataset.board = name;
    const grid = document.createElement("span");
    grid.className = "grid";
    for (let rank = 7; rank >= 0; rank--) {
      for (let file = 0; file < 8; file++) {
        const cell = document.createElement("i");
        const on = (value & bit(rank * 8 + file)) !== 0n;
        cell.className = on ? "on" : (rank + file) % 2 ? "" : "d";
        grid.append(cell);
      }
    }
    const title = document.createElement("b");
    title.textContent = name;
    const hex = document.createElement("code");
    hex.textContent = board;
    button.append(grid, title, hex);
    button.title = `${name}: show on the board`;
    button.addEventListener("click", () => setBoard(value));
    return button;
  }));
}

/** The book's moves for the position: listed in SAN with their share, and
 * their squares marked on the position's board. */
function renderBook(position) {
  const answer = position ? readBook(state.fen) : null;
  const moves = answer && answer.ok ? answer.moves : [];
  const marked = new Set(moves.flatMap((move) => [move.from, move.to]));
  pieceSquares.forEach((square, index) => square.classList.toggle("book", marked.has(squareName(index))));
  if (!state.book) $("book-status").textContent = "no book open";
  else if (answer && !answer.ok) $("book-status").textContent = answer.message;
  else $("book-status").textContent = `${moves.length} in ${state.book}`;
  $("book-moves").replaceChildren(...moves.map((move) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.uci = move.uci;
    button.textContent = `${move.san} ${move.share}%`;
    button.title = `${move.uci}: weight ${move.weight}, learn ${move.learn}`;
    button.addEventListener("click", () => setBoard(bit(squareIndex(move.from)) | bit(squareIndex(move.to))));
    return button;
  }));
}

// ---------------------------------------------------------------- explorer

/** The explorer asked: the URL typed, or the server that served the page. */
function explorerUrl() {
  const typed = $("explorer-url").value.trim().replace(/\/+$/, "");
  if (typed) return typed;
  return location.protocol.startsWith("http") ? location.origin : "";
}

let explorerAsked = null;

/** Asks the explorer (Lichess's API: GET /lichess) for the position's
 * moves, and lists them: SAN (a click plays it), games, the results as a
 * bar, the average rating; and the opening's name. */
async function renderExplorer() {
  const url = explorerUrl();
  const position = state.position;
  const body = $("explorer-moves").tBodies[0];
  if (!url || !position) {
    $("explorer-status").textContent = url ? "" : "no explorer";
    $("explorer-opening").textContent = "";
    body.replaceChildren();
    return;
  }
  const asked = `${url}/lichess?fen=${encodeURIComponent(position.fen)}&moves=12&topGames=0&recentGames=0`;
  explorerAsked = asked;
  let answer;
  try {
    const response = await fetch(asked);
    answer = await response.json();
    if (!response.ok) throw new Error(answer.error || response.statusText);
  } catch (error) {
    if (explorerAsked !== asked) return;
    $("explorer-status").textContent = `explorer: ${error.message}`;
    body.replaceChildren();
    return;
  }
  if (explorerAsked !== asked) return;
  const total = answer.white + answer.draws + answer.black;
  $("explorer-status").textContent = `${total} games`;
  $("explorer-opening").textContent = answer.opening ? `${answer.opening.eco} ${answer.opening.name}` : "";
  body.replaceChildren(...answer.moves.map((move) => {
    const games = move.white + move.draws + move.black;
    const row = document.createElement("tr");
    row.dataset.uci = move.uci;
    const name = document.createElement("td");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = move.san;
    button.title = `play ${move.san}`;
    button.addEventListener("click", () => {
      const legal = state.position && state.position.moves.find((m) => m.san === move.san);
      if (legal) {
        $("fen").value = legal.after;
        setFen(legal.after);
      }
    });
    name.append(button);
    const count = document.createElement("td");
    count.textContent = String(games);
    const results = document.createElement("td");
    const bar = document.createElement("div");
    bar.className = "bar";
    for (const [key, value] of [["w", move.white], ["d", move.draws], ["b", move.black]]) {
      const part = document.createElement("span");
      part.className = key;
      const share = games ? Math.round((100 * value) / games) : 0;
      part.style.width = `${share}%`;
      part.textContent = share >= 15 ? `${share}%` : "";
      bar.append(part);
    }
    results.append(bar);
    const rating = document.createElement("td");
    rating.textContent = move.averageRating ?? "";
    row.append(name, count, results, rating);
    return row;
  }));
}

// ---------------------------------------------------------------- copy and share

async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
  $("copy-status").textContent = `copied ${what}`;
  setTimeout(() => { $("copy-status").textContent = ""; }, 2000);
}

function writeHash() {
  const parts = [];
  if (state.expr.trim() !== "") parts.push("expr=" + encodeURIComponent(state.expr));
  if (state.numbering !== 0) parts.push("numbering=" + NUMBERINGS[state.numbering]);
  if (state.fen !== "") parts.push("fen=" + encodeURIComponent(state.fen));
  const hash = parts.length ? "#" + parts.join("&") : "";
  if (hash !== location.hash) history.replaceState(null, "", hash || location.pathname + location.search);
}

/** Reads `#expr=…&numbering=…&fen=…`. A link with a FEN opens on the
 * position: its panel comes first, before the bitboard. */
function readHash() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const numbering = NUMBERINGS.indexOf((params.get("numbering") || "lerf").toLowerCase());
  state.numbering = numbering < 0 ? 0 : numbering;
  $("numbering").value = NUMBERINGS[state.numbering];
  const fen = params.get("fen") || "";
  $("fen").value = fen;
  setFen(fen);
  if (fen === "") document.querySelector("main").append($("position-panel"));
  else document.querySelector("main").prepend($("position-panel"));
  const expr = params.get("expr") || "";
  $("expr").value = expr;
  setExpression(expr);
}

// ---------------------------------------------------------------- start

async function main() {
  const { instance } = await WebAssembly.instantiate(bytesFromBase64(WASM), {});
  wasm = instance.exports;
  setupBoard();
  setupPosition();
  setupNumberField("hex", /^(?:0x)?([0-9a-f]{1,16})$/i, "0x");
  setupNumberField("decimal", /^([0-9]{1,20})$/, "");
  $("expr").addEventListener("input", () => setExpression($("expr").value));
  $("numbering").addEventListener("change", () => {
    state.numbering = Math.max(0, NUMBERINGS.indexOf($("numbering").value));
    // Numbers in the expression are read again in the new numbering: the
    // same number, another square (0x0000000004000000: c4 in LERF, f5 in BERBEF).
    setExpression(state.expr);
  });
  $("explorer-url").addEventListener("change", renderExplorer);
  $("clear").addEventListener("click", () => setBoard(0n));
  $("fill").addEventListener("click", () => setBoard(~0n));
  $("invert").addEventListener("click", () => setBoard(~state.board));
  $("copy-literal").addEventListener("click", () => copy(state.view.literal, "the bitboard! literal"));
  $("copy-hex").addEventListener("click", () => copy(state.view.hex, "the hex"));
  window.addEventListener("hashchange", readHash);
  readHash();
  document.body.dataset.ready = "true";
}

main().catch((error) => {
  $("error").textContent = "error: the page could not start its WebAssembly: " + error;
});
