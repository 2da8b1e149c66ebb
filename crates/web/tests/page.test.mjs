// The visualiser page in a real browser: Debian's Chromium, headless, driven
// by puppeteer-core (which downloads no browser). Build the page first:
//
//   cargo xtask web && (cd crates/web/tests && npm ci && node --test)
//
// CHROMIUM overrides the browser (default /usr/bin/chromium); the page is
// read from $CARGO_TARGET_DIR/web/index.html (default target/).

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import puppeteer from "puppeteer-core";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const TARGET = resolve(ROOT, process.env.CARGO_TARGET_DIR || "target");
const PAGE = join(TARGET, "web", "index.html");
const URL = pathToFileURL(PAGE).href;
const START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

let browser;
let profile;

before(async () => {
  assert.ok(existsSync(PAGE), `${PAGE} is missing: run \`cargo xtask web\` first`);
  profile = mkdtempSync(join(tmpdir(), "bitboards-chromium-"));
  browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      `--user-data-dir=${profile}`,
    ],
  });
});

after(async () => {
  await browser?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** A laptop's screen, where the page must work without scrolling. */
const LAPTOP = { width: 1280, height: 800 };

/** A fresh tab on the page (with `hash`), once its wasm has started. */
async function open(hash = "", viewport = { width: 1200, height: 1400 }) {
  const page = await browser.newPage();
  await page.setViewport(viewport);
  const problems = [];
  page.on("pageerror", (error) => problems.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.problems = problems;
  await page.goto(URL + hash);
  await page.waitForSelector("body[data-ready]", { timeout: 10_000 });
  return page;
}

const text = (page, id) => page.$eval(`#${id}`, (element) => element.textContent);

/** The contrast ratio of two CSS colours (`rgb(…)`), by WCAG 2's relative luminance. */
function contrast(a, b) {
  const luminance = (color) => {
    const [r, g, b] = color.match(/[\d.]+/g).slice(0, 3).map((c) => {
      const s = Number(c) / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

/** Replaces the text of an input (or an editable element) by typing. */
async function type(page, selector, value) {
  await page.click(selector, { count: 3 });
  await page.keyboard.press("Backspace");
  await page.type(selector, value);
}

async function values(page) {
  return {
    hex: await text(page, "hex"),
    count: await text(page, "count"),
    squares: await text(page, "squares"),
  };
}

test("the board has 64 squares named by data-square, a1 dark, and starts empty", async () => {
  const page = await open();
  const names = await page.$$eval("#board [data-square]", (squares) => squares.map((s) => s.dataset.square));
  assert.equal(names.length, 64);
  assert.equal(names[0], "a8");
  assert.equal(names[63], "h1");
  assert.ok(await page.$eval('#board [data-square="a1"]', (s) => s.classList.contains("dark")));
  assert.deepEqual(await values(page), { hex: "0x0000000000000000", count: "0", squares: "" });
  assert.deepEqual(page.problems, []);
  await page.close();
});

test("clicking squares toggles them, and hex, count and squares follow", async () => {
  const page = await open();
  await page.click('[data-square="e4"]');
  await page.click('[data-square="d5"]');
  assert.deepEqual(await values(page), { hex: "0x0000000810000000", count: "2", squares: "e4 d5" });
  assert.equal(await text(page, "decimal"), String(0x0000000810000000n));
  assert.equal(await page.$eval("#expr", (e) => e.value), "0x0000000810000000");
  await page.click('[data-square="e4"]');
  assert.deepEqual(await values(page), { hex: "0x0000000800000000", count: "1", squares: "d5" });
  assert.ok(page.url().endsWith("#expr=0x0000000800000000"), page.url());
  await page.close();
});

test("dragging paints a row, and the keyboard moves and toggles", async () => {
  const page = await open();
  const centre = async (square) => {
    const box = await (await page.$(`[data-square="${square}"]`)).boundingBox();
    return [box.x + box.width / 2, box.y + box.height / 2];
  };
  await page.mouse.move(...(await centre("a2")));
  await page.mouse.down();
  await page.mouse.move(...(await centre("h2")), { steps: 16 });
  await page.mouse.up();
  assert.deepEqual(await values(page), { hex: "0x000000000000ff00", count: "8", squares: "a2 b2 c2 d2 e2 f2 g2 h2" });

  await page.click("#clear");
  await page.focus("#board");
  // The cursor is where the drag began.
  await page.keyboard.press("Space");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Space");
  assert.equal(await text(page, "squares"), "a2 b3");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("Space");
  assert.equal(await text(page, "squares"), "a2 a3 b3");
  await page.close();
});

test("typing hex or decimal updates the board", async () => {
  const page = await open();
  await type(page, "#hex", "0xff00");
  // The board follows each keystroke; Enter writes the number out in full.
  assert.equal(await text(page, "count"), "8");
  await page.keyboard.press("Enter");
  assert.deepEqual(await values(page), { hex: "0x000000000000ff00", count: "8", squares: "a2 b2 c2 d2 e2 f2 g2 h2" });
  assert.ok(await page.$eval('[data-square="c2"]', (s) => s.classList.contains("on")));
  await type(page, "#decimal", "67108864");
  await page.keyboard.press("Enter");
  assert.deepEqual(await values(page), { hex: "0x0000000004000000", count: "1", squares: "c4" });
  await page.close();
});

test("an expression shows the value `bitboards show` prints", async () => {
  const page = await open();
  const expression = "rook(d4, d6|f4)";
  await type(page, "#expr", expression);
  const json = execFileSync(
    process.env.CARGO || "cargo",
    ["run", "--quiet", "--package", "bitboards-cli", "--bin", "bitboards", "--",
      "show", "--format", "json", expression],
    { cwd: ROOT, encoding: "utf8" },
  );
  const shown = JSON.parse(json);
  assert.deepEqual(await values(page), {
    hex: shown.hex,
    count: String(shown.count),
    squares: shown.squares.join(" "),
  });
  assert.equal(shown.hex, "0x0000080837080808");
  assert.equal(await text(page, "error"), "");
  await page.close();
});

test("an attack expression marks the attacker's square apart from the attacked ones", async () => {
  const page = await open();
  const marks = (selector) => page.$$eval(`#board ${selector}`, (squares) => squares.map((s) => s.dataset.square).sort());
  await type(page, "#expr", "knight(g5)");
  assert.deepEqual(await marks(".origin"), ["g5"]);
  assert.deepEqual(await marks(".on"), ["e4", "e6", "f3", "f7", "h3", "h7"]);
  // The mark looks unlike a set square or an empty one.
  const look = (square) => page.$eval(`#board [data-square="${square}"]`, (s) => getComputedStyle(s).backgroundColor);
  const [origin, attacked, empty] = [await look("g5"), await look("f7"), await look("g6")];
  assert.notEqual(origin, attacked);
  assert.notEqual(origin, empty);
  assert.match(await page.$eval('#board [data-square="g5"]', (s) => s.getAttribute("aria-label")), /attacks come from here/);

  for (const [expression, from] of [["king(e1)", ["e1"]], ["rook(a1)", ["a1"]], ["pawn(white, e4)", ["e4"]],
    ["rook(d4, d6 | f4) | bishop(c1)", ["c1", "d4"]], ["knight(g5) & rank_3", ["g5"]]]) {
    await type(page, "#expr", expression);
    assert.deepEqual(await marks(".origin"), from, expression);
  }
  // Plain squares, and a board edited by hand, come from nowhere.
  await type(page, "#expr", "e4 | d5");
  assert.deepEqual(await marks(".origin"), []);
  await type(page, "#expr", "king(e1)");
  await page.click('#board [data-square="a8"]');
  assert.deepEqual(await marks(".origin"), []);
  // A piece clicked on the position: its attacks, from its square.
  await type(page, "#fen", START);
  await page.click('#pieces [data-square="g1"]');
  assert.deepEqual(await marks(".origin"), ["g1"]);
  assert.deepEqual(await marks(".on"), ["e2", "f3", "h3"]);
  assert.deepEqual(page.problems, []);
  await page.close();
});

test("switching the numbering reads the number again: the article's 0x0000000004000000", async () => {
  const page = await open();
  await type(page, "#expr", "0x0000000004000000");
  assert.equal(await text(page, "squares"), "c4");
  await page.select("#numbering", "berbef");
  assert.deepEqual(await values(page), { hex: "0x0000000004000000", count: "1", squares: "f5" });
  assert.equal(await page.$eval('[data-square="f5"] .bit', (b) => b.textContent), "26");
  await page.select("#numbering", "lerbef");
  assert.equal(await text(page, "squares"), "f4");
  await page.select("#numbering", "berf");
  assert.equal(await text(page, "squares"), "c5");
  assert.ok(page.url().endsWith("&numbering=berf"), page.url());
  await page.close();
});

test("a bad expression shows the error with a caret under the bad token", async () => {
  const page = await open();
  await type(page, "#expr", "e4 | fil_a");
  const error = await text(page, "error");
  const lines = error.split("\n");
  assert.match(lines[0], /^error: unknown name `fil_a` \(did you mean `file_a`\?\)/);
  assert.equal(lines[1], "  e4 | fil_a");
  assert.equal(lines[2], "       ^^^^^");
  assert.ok(await page.$eval("#error", (e) => e.checkVisibility()));
  await type(page, "#expr", "e4");
  assert.equal(await text(page, "error"), "");
  assert.equal(await text(page, "squares"), "e4");
  await page.close();
});

test("a FEN shows its pieces, Polyglot key, fifteen boards and legal moves", async () => {
  const page = await open();
  await type(page, "#fen", START);
  assert.equal(await text(page, "hash"), "463b96181691fc9c");
  assert.equal(await text(page, "move-count"), "20");
  assert.equal(await page.$$eval("#named .mini", (boards) => boards.length), 15);
  assert.equal(await page.$eval('#pieces [data-square="e1"]', (s) => s.textContent), "\u265A\uFE0E");
  // A piece: its attacks go to the board, its moves are ringed.
  await page.click('#pieces [data-square="g1"]');
  assert.equal(await text(page, "squares"), "e2 f3 h3");
  const rings = await page.$$eval("#pieces .target", (squares) => squares.map((s) => s.dataset.square));
  assert.deepEqual(rings.sort(), ["f3", "h3"]);
  // A named board goes to the board.
  await page.click('#named [data-board="BlackKnights"]');
  assert.equal(await text(page, "squares"), "b8 g8");

  await type(page, "#fen", "4k3/8/8/8/8/8/8/4K3 x - - 0 1");
  const error = (await text(page, "error")).split("\n");
  assert.match(error[0], /^error: FEN field 2 \(side to move\), column 21/);
  assert.equal(error[2].indexOf("^"), 2 + 20);
  assert.equal(await text(page, "hash"), "");
  await page.close();
});

test("legal moves are listed in SAN: castling, captures, en passant", async () => {
  const page = await open("#fen=" + encodeURIComponent(KIWIPETE));
  const moves = await page.$$eval("#moves button", (buttons) => buttons.map((b) => b.textContent));
  assert.equal(moves.length, 48);
  for (const san of ["O-O", "O-O-O", "dxe6", "Nxf7", "Bxa6", "Qxf6", "gxh3", "Nb1", "a4"]) {
    assert.ok(moves.includes(san), `${san} is not among ${moves.join(" ")}`);
  }
  // Nothing is left in UCI (e1g1, d5e6).
  assert.deepEqual(moves.filter((move) => /^[a-h][1-8][a-h][1-8]/.test(move)), []);
  // The button keeps the UCI as its title, and still shows the move's squares.
  await page.click('#moves button[data-uci="e1g1"]');
  assert.equal(await page.$eval('#moves button[data-uci="e1g1"]', (b) => b.textContent), "O-O");
  assert.equal(await text(page, "squares"), "e1 g1");
  await page.close();

  const enPassant = "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3";
  const passer = await open("#fen=" + encodeURIComponent(enPassant));
  assert.equal(await passer.$eval('#moves button[data-uci="e5d6"]', (b) => b.textContent), "exd6");
  await passer.close();
});

test("the URL's hash opens a view: #expr with a numbering, #fen", async () => {
  let page = await open("#expr=0x0000000004000000&numbering=berbef");
  assert.deepEqual(await values(page), { hex: "0x0000000004000000", count: "1", squares: "f5" });
  assert.equal(await page.$eval("#numbering", (s) => s.value), "berbef");
  await page.close();

  page = await open("#expr=" + encodeURIComponent("knight(g5) & rank_3"));
  assert.equal(await text(page, "squares"), "f3 h3");
  await page.close();

  page = await open("#fen=" + encodeURIComponent(KIWIPETE));
  assert.equal(await text(page, "hash"), "c3ce103f01d15e1d");
  assert.equal(await text(page, "move-count"), "48");
  // The bitboard waits for a piece or a board to be picked.
  assert.equal(await text(page, "count"), "0");
  await page.close();

  page = await open("#fen=" + encodeURIComponent(START));
  assert.equal(await text(page, "hash"), "463b96181691fc9c");
  await page.close();
});

test("a #fen link opens on the position: its board in view at 1280x800, no bitboard before it", async () => {
  const page = await open("#fen=" + encodeURIComponent(KIWIPETE), LAPTOP);
  const board = await (await page.$("#pieces")).boundingBox();
  assert.ok(board.y >= 0 && board.y + board.height <= LAPTOP.height, JSON.stringify(board));
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  // Nothing of the bitboard comes before it, in the page or on the screen:
  // no squares set (the 32 dots of the occupancy once), and its panel below.
  assert.equal(await page.$$eval("#board .sq.on", (squares) => squares.length), 0);
  const bitboardFirst = await page.evaluate(() =>
    Boolean(document.getElementById("board").compareDocumentPosition(document.getElementById("pieces"))
      & Node.DOCUMENT_POSITION_FOLLOWING));
  assert.equal(bitboardFirst, false);
  assert.ok((await (await page.$("#board")).boundingBox()).y > board.y + board.height);
  await page.close();

  // With an expression as well, the position still comes first and the
  // expression is on the bitboard below it.
  const both = await open("#expr=" + encodeURIComponent("knight(g5)") + "&fen=" + encodeURIComponent(START), LAPTOP);
  const pieces = await (await both.$("#pieces")).boundingBox();
  assert.ok(pieces.y + pieces.height <= LAPTOP.height);
  assert.ok((await (await both.$("#board")).boundingBox()).y > pieces.y + pieces.height);
  assert.equal(await text(both, "squares"), "f3 h3 e4 e6 f7 h7");
  await both.close();

  // Without a position, the page opens on the bitboard.
  const plain = await open("", LAPTOP);
  const bitboard = await (await plain.$("#board")).boundingBox();
  assert.ok(bitboard.y + bitboard.height <= LAPTOP.height);
  assert.ok((await (await plain.$("#pieces")).boundingBox()).y > bitboard.y + bitboard.height);
  await plain.close();
});

test("white pieces stand out on light and dark squares (contrast of 3 or more)", async () => {
  const page = await open("#fen=" + encodeURIComponent(START), LAPTOP);
  // Each piece's fill and outline against its square, on both colours.
  const looks = await page.$$eval("#pieces .sq", (squares) => squares.filter((s) => s.querySelector(".piece")).map((s) => {
    const glyph = getComputedStyle(s.querySelector(".piece"));
    return {
      square: s.dataset.square,
      light: s.classList.contains("light"),
      white: s.querySelector(".piece").classList.contains("white"),
      background: getComputedStyle(s).backgroundColor,
      fill: glyph.color,
      stroke: glyph.webkitTextStrokeColor,
      strokeWidth: parseFloat(glyph.webkitTextStrokeWidth),
      paintOrder: glyph.paintOrder,
    };
  }));
  assert.equal(looks.length, 32);
  for (const light of [true, false]) {
    for (const white of [true, false]) {
      assert.ok(looks.some((look) => look.light === light && look.white === white), `${light} ${white}`);
    }
  }
  for (const look of looks) {
    // What sets the glyph apart from its square: its outline when it has
    // one (white pieces: a white fill is all but invisible on a light
    // square), else its fill.
    const edge = look.strokeWidth >= 1 ? look.stroke : look.fill;
    const ratio = contrast(edge, look.background);
    assert.ok(ratio >= 3, `${look.square}: ${edge} on ${look.background} is ${ratio.toFixed(2)}:1`);
    if (look.white) {
      assert.ok(look.strokeWidth >= 1, `${look.square}: a white piece needs an outline`);
      // The outline is painted under the fill, so the fill keeps its size.
      assert.match(look.paintOrder, /^stroke/);
      // and the white fill reads as white on a dark square.
      if (!look.light) assert.ok(contrast(look.fill, look.background) >= 3, `${look.square}: fill ${look.fill}`);
    }
  }
  await page.close();
});

test("the binary row is one line at 1280 px", async () => {
  const page = await open("#expr=" + encodeURIComponent("rook(d4, d6|f4)"), LAPTOP);
  const row = await page.$eval("#binary", (binary) => ({
    groups: [...binary.children].map((group) => ({ top: group.offsetTop, height: group.offsetHeight })),
    height: binary.clientHeight,
    scrollWidth: binary.scrollWidth,
    clientWidth: binary.clientWidth,
  }));
  assert.equal(row.groups.length, 8);
  // Every group on the first line, and the row one group high.
  assert.deepEqual(new Set(row.groups.map((group) => group.top)).size, 1, JSON.stringify(row.groups));
  assert.equal(row.height, row.groups[0].height);
  assert.ok(row.scrollWidth <= row.clientWidth, JSON.stringify(row));
  await page.close();
});

test("copy buttons say what they copied; a screenshot goes to target/web", async () => {
  const page = await open("#expr=" + encodeURIComponent("rook(d4, d6|f4)") + "&fen=" + encodeURIComponent(KIWIPETE));
  await page.click("#copy-hex");
  await page.waitForFunction(() => document.getElementById("copy-status").textContent !== "");
  assert.equal(await text(page, "copy-status"), "copied the hex");
  await page.click("#copy-literal");
  await page.waitForFunction(() => document.getElementById("copy-status").textContent.includes("literal"));
  await page.click('#pieces [data-square="f3"]');
  await page.evaluate(() => document.activeElement.blur());
  await page.screenshot({ path: join(TARGET, "web", "screenshot.png"), fullPage: true });
  assert.deepEqual(page.problems, []);
  await page.close();
});

test("an opened Polyglot book lists the position's book moves and marks their squares", async () => {
  const page = await open();
  await type(page, "#fen", START);
  assert.equal(await text(page, "book-status"), "no book open");
  // A book of four first moves (weight 3 each) and three replies to 1. e4,
  // the fuzz target's seed.
  const input = await page.$("#book-file");
  await input.uploadFile(join(ROOT, "fuzz", "corpus", "book", "seed-start-and-e4"));
  await page.waitForFunction(() => document.querySelectorAll("#book-moves button").length > 0);
  const moves = await page.$$eval("#book-moves button", (buttons) => buttons.map((b) => b.textContent));
  assert.deepEqual(moves.sort(), ["Nf3 25.0%", "c4 25.0%", "d4 25.0%", "e4 25.0%"]);
  const marked = await page.$$eval("#pieces .book", (squares) => squares.map((s) => s.dataset.square));
  assert.deepEqual(marked.sort(), ["c2", "c4", "d2", "d4", "e2", "e4", "f3", "g1"]);
  // After 1. e4, the replies; out of the book, none.
  await type(page, "#fen", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  const replies = await page.$$eval("#book-moves button", (buttons) => buttons.map((b) => b.textContent));
  assert.deepEqual(replies.sort(), ["c5 33.3%", "e5 33.3%", "e6 33.3%"]);
  await type(page, "#fen", KIWIPETE);
  assert.equal(await page.$$eval("#book-moves button", (buttons) => buttons.length), 0);
  assert.match(await text(page, "book-status"), /^0 in seed-start-and-e4$/);
  // Clicking a book move shows its squares on the bitboard.
  await type(page, "#fen", START);
  await page.click('#book-moves button[data-uci="g1f3"]');
  assert.equal(await text(page, "squares"), "g1 f3");
  assert.deepEqual(page.problems, []);
  await page.close();
});

test("served by `bitboards explorer serve --page`, the explorer panel lists the position's moves and plays one", async () => {
  const bin = process.env.BITBOARDS_BIN || join(TARGET, "debug", "bitboards");
  assert.ok(existsSync(bin), `${bin} is missing: run \`cargo build -p bitboards-cli\` first`);
  const dir = mkdtempSync(join(tmpdir(), "bitboards-explorer-"));
  const games = join(ROOT, "crates", "explorer", "tests", "data", "recount-games.pgn");
  execFileSync(bin, ["explorer", "build", games, "--out", join(dir, "index")], { stdio: "ignore" });
  const server = spawn(bin, ["explorer", "serve", join(dir, "index"), "--page", PAGE, "--port", "0"]);
  try {
    const base = await new Promise((resolveUrl, reject) => {
      let seen = "";
      server.stderr.on("data", (chunk) => {
        seen += chunk;
        const found = seen.match(/listening on (http:\/\/\S+)/);
        if (found) resolveUrl(found[1]);
      });
      server.on("exit", (code) => reject(new Error(`the server exited (${code}): ${seen}`)));
    });
    const expected = await (await fetch(`${base}/lichess?fen=${encodeURIComponent(START)}&moves=12`)).json();
    assert.ok(expected.moves.length > 1);
    const page = await browser.newPage();
    await page.setViewport({ width: 1200, height: 1400 });
    const problems = [];
    page.on("pageerror", (error) => problems.push(String(error)));
    await page.goto(`${base}/#fen=${encodeURIComponent(START)}`);
    await page.waitForSelector("body[data-ready]", { timeout: 10_000 });
    await page.waitForFunction(() => document.querySelectorAll("#explorer-moves tbody tr").length > 0);
    const rows = await page.$$eval("#explorer-moves tbody tr", (trs) =>
      trs.map((tr) => [...tr.cells].map((cell) => cell.textContent)));
    assert.deepEqual(
      rows.map(([san, games, , rating]) => [san, Number(games), rating]),
      expected.moves.map((m) => [m.san, m.white + m.draws + m.black, String(m.averageRating)]),
    );
    assert.equal(await text(page, "explorer-status"), `${expected.white + expected.draws + expected.black} games`);
    // Clicking 1. e4 plays it: the FEN, the position and the explorer follow.
    await page.click('#explorer-moves tr[data-uci="e2e4"] button');
    await page.waitForFunction(() => document.getElementById("explorer-opening").textContent.includes("King's Pawn"));
    assert.equal(await page.$eval("#fen", (input) => input.value), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    const afterE4 = await (await fetch(`${base}/lichess?play=e2e4&moves=12`)).json();
    await page.waitForFunction(
      (first) => document.querySelector("#explorer-moves tbody tr button")?.textContent === first,
      {},
      afterE4.moves[0].san,
    );
    // Another explorer's URL, one that is not there: the panel says so.
    await type(page, "#explorer-url", "http://127.0.0.1:9");
    await page.keyboard.press("Enter");
    await page.$eval("#explorer-url", (input) => input.dispatchEvent(new Event("change")));
    await page.waitForFunction(() => document.getElementById("explorer-status").textContent.startsWith("explorer: "));
    assert.deepEqual(problems, []);
    await page.close();
  } finally {
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
