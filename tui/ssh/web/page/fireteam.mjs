// A Fireteam seat in the browser: a terminal (xterm.js) joined to the server by a websocket.
//
// The server runs the seat's app and sends its terminal's bytes; this page sends what is typed
// or pasted as ["stdin", text], the size that fits the page as ["resize", {width, height}] and, before
// each line entered, its share of the command's dice as ["dice", "hex seal count keys"] (tui/ssh/web/browser.py,
// the seal and the count as the server last sent them, ["seal", digest] and ["count", n], and the SHA-256 of
// the keys it is for: every text sent since the last Enter, the one holding the Enter included); the bar
// under the terminal says whether each roll of the seat's used the share the page sent (shares.mjs).  A
// spectator watches a shared screen of a
// set size, the widest that fits the size the page sent (told as ["screen", {width, height}]): his
// terminal is drawn at that size, with the largest font that fits the page, up to MAX_SHARED_FONT.  A
// connection that drops is made again by itself, and the seat comes back as the game is now; a
// session the server ended (close code 4000 + status) is not: the page says why (the close's
// reason, one word) and offers to sit again only while the cookie lets this browser in (asked of
// /alive; a server that does not answer is asked again until it does).  Every file the page
// needs is fetched again until it comes (a server busy with a crowd may refuse one), saying so
// meanwhile.

const words = JSON.parse(document.getElementById("words").textContent);

function status(text, again) {
  const box = document.getElementById("status");
  box.hidden = !text;
  document.getElementById("status-text").textContent = text || "";
  const button = document.getElementById("again");
  button.hidden = !again;
  button.textContent = words.again;
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A module of this page's version (its address's ?v=, as this script's), imported again (under another
// address: a failed import is remembered) until it comes.
async function fetched(name) {
  for (let attempt = 0; ; attempt++) {
    const url = new URL(`./${name}${new URL(import.meta.url).search}`, import.meta.url);
    if (attempt) url.searchParams.set("try", attempt);
    try {
      return await import(url.href);
    } catch (e) {
      status(words.waiting, false);
      await pause(Math.min(5000, 250 * 2 ** Math.min(attempt, 5)));
    }
  }
}

// Whether a stylesheet came: a refused one has no sheet, or (Chromium) an empty one it will not let be read.
function loaded(link) {
  try {
    return Boolean(link.sheet) && link.sheet.cssRules.length > 0;
  } catch (e) {
    return false;
  }
}

// The stylesheets that did not come, asked for again (each time once the last try has come or failed,
// and after a pause growing with the tries) until they do.
async function styled() {
  for (let attempt = 1; ; attempt++) {
    const missing = [...document.querySelectorAll('link[rel="stylesheet"]')].filter((l) => !loaded(l));
    if (!missing.length) return;
    status(words.waiting, false);
    if (attempt > 1) await pause(Math.min(5000, 250 * 2 ** Math.min(attempt - 2, 5)));
    await Promise.all(missing.map((link) => new Promise((done) => {
      const again = link.cloneNode();
      const url = new URL(link.href);
      url.searchParams.set("try", attempt);
      again.href = url.href;
      again.addEventListener("load", done);
      again.addEventListener("error", done);
      link.replaceWith(again);
    })));
  }
}

// xterm.js is asked for at once (the page preloads it); meanwhile the page works out its size and opens
// the websocket, so that the server draws the first screen while the phone compiles xterm.js, and
// whatever arrives before the terminal exists is kept for it.
const loading = fetched("xterm.mjs");
const hashing = fetched("sha256.mjs");
const sharing = fetched("shares.mjs");
await styled();
// The game's screen needs at least 60x16 (tui/screens/game.py, MIN_SIZE): on a small screen
// the font shrinks until that fits, down to MIN_FONT.
const MIN_COLS = 60, MIN_ROWS = 16, MAX_FONT = 15, MIN_FONT = 6, SHORT = 260, MAX_SHARED_FONT = 24;
const FONT = '"DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace';
const ENDED = 4000;
const KEYS = {
  esc: "\x1b", tab: "\t", up: "\x1b[A", down: "\x1b[B", right: "\x1b[C", left: "\x1b[D",
  f1: "\x1bOP", "ctrl+p": "\x10",
};
const area = document.getElementById("terminal");
let term = null; // the terminal, once xterm.js has come
const early = []; // what the server sent before it
let size = null; // { fontSize, cols, rows }: what fits the page now (the server is told cols and rows)
let shared = null; // a spectator's: { cols, rows } of the shared screen he watches

// A font size's cell as xterm.js measures it (its CharSizeService: the width of "W" and the font's
// box on an OffscreenCanvas where it can, else a span of 32 W's), rounded to the device's pixels
// as its renderer rounds it, so that the size worked out here is the one the terminal draws.
const ruler = (() => {
  try {
    const ctx = new OffscreenCanvas(100, 100).getContext("2d");
    const m = ctx.measureText("W");
    return "width" in m && "fontBoundingBoxAscent" in m && "fontBoundingBoxDescent" in m ? ctx : null;
  } catch (e) {
    return null;
  }
})();
let span = null;
function cell(fontSize) {
  let width, height;
  if (ruler) {
    ruler.font = `${fontSize}px ${FONT}`;
    const m = ruler.measureText("W");
    width = m.width;
    height = m.fontBoundingBoxAscent + m.fontBoundingBoxDescent;
  } else {
    if (!span) {
      span = document.createElement("span");
      span.className = "xterm-char-measure-element";
      span.setAttribute("aria-hidden", "true");
      span.style.whiteSpace = "pre";
      span.style.fontKerning = "none";
      span.textContent = "W".repeat(32);
      area.appendChild(span);
    }
    span.style.fontFamily = FONT;
    span.style.fontSize = `${fontSize}px`;
    width = span.offsetWidth / 32;
    height = span.offsetHeight;
  }
  const dpr = window.devicePixelRatio || 1;
  return { width, height: Math.ceil(height * dpr) / dpr };
}

// The visible height (on a phone the on-screen keyboard takes the bottom of the screen), and the
// largest font up to MAX_FONT at which MIN_COLS x MIN_ROWS fit in it, with as many columns and rows
// as that font fits.  Worked out on a canvas, without the terminal: it is made at its final size
// (each change of its font or size redraws it, tens of milliseconds on a phone busy with others).
function fitting() {
  const height = window.visualViewport ? window.visualViewport.height : window.innerHeight;
  document.documentElement.style.setProperty("--visible-height", `${Math.floor(height)}px`);
  // A phone held sideways with its keyboard up keeps about 150 px: the extra keys' row made low
  // leaves the game's smallest screen its 16 rows (its usual height, 42 px, left 14).
  document.body.classList.toggle("short", height < SHORT);
  const free = room();
  for (let fontSize = MAX_FONT; ; fontSize--) {
    const { width, height: tall } = cell(fontSize);
    let cols = Math.floor(free.width / width);
    while (cols > 2 && Math.round(width * cols) > free.width) cols--; // the renderer rounds the row's width
    const rows = Math.floor(free.height / tall);
    if ((cols >= MIN_COLS && rows >= MIN_ROWS) || fontSize <= MIN_FONT) {
      return { fontSize, cols: Math.max(cols, 2), rows: Math.max(rows, 1) };
    }
  }
}

// The terminal's content box, as xterm.js's fit addon reads it.
function room() {
  const box = getComputedStyle(area);
  return { width: Math.max(0, parseInt(box.width, 10) || 0), height: parseInt(box.height, 10) || 0 };
}

// What the terminal draws: the size that fits the page, or a spectator's shared screen at the
// largest font at which it fits the page (else the smallest font: the screen cut at its edges).
function drawn() {
  if (!shared) return size;
  const free = room();
  let fontSize = MAX_SHARED_FONT;
  for (; fontSize > MIN_FONT; fontSize--) {
    const { width, height } = cell(fontSize);
    if (Math.round(width * shared.cols) <= free.width && height * shared.rows <= free.height) break;
  }
  return { fontSize, cols: shared.cols, rows: shared.rows };
}

let ws = null;
let attempts = 0;

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

function layout() {
  const was = size;
  size = fitting();
  if (was && (was.cols !== size.cols || was.rows !== size.rows)) {
    send(["resize", { width: size.cols, height: size.rows }]);
  }
  if (term) {
    const shown = drawn();
    if (term.options.fontSize !== shown.fontSize) term.options.fontSize = shown.fontSize;
    if (term.cols !== shown.cols || term.rows !== shown.rows) term.resize(shown.cols, shown.rows);
  }
}

let pending = null;
function relayout() {
  clearTimeout(pending);
  pending = setTimeout(layout, 100);
}
window.addEventListener("resize", relayout);
if (window.visualViewport) window.visualViewport.addEventListener("resize", relayout);

// Before each line entered, this seat's share of the dice of the command it gives, which the host
// cannot know before it comes (docs/secrets.md, "Sealed dice"; shares.mjs draws, keeps and checks it),
// sent with the seal of the key it was told was in force (a key sealed after cannot roll it), the seat's
// count of its shares it was told comes next (a share serves one roll: the table takes no other count)
// and what it is for: the SHA-256 of the keys sent since the last Enter, this Enter's text included (the
// door gives the line only if the keys that came are those, and refuses a line that came without a share;
// the page knows the keys, not the line the server's line editor makes of them).  Until it was told the
// seal, the count and its seat, it sends none (the table draws the command's share).  Every key goes out here.
const encoder = new TextEncoder();
let createHash = null; // sha256.mjs's, once it came (no key is sent before: the terminal waits for it too)
let dice = null; // shares.mjs's Shares, once it came
const toldEarly = []; // the server's words about the dice before it came
const DICE_WORDS = new Set(["seal", "count", "seat", "rolled", "unshared"]);
let keyed = null; // the keys sent since the last Enter, hashed as they go
function typed(data) {
  if (!createHash || !dice || !ws || ws.readyState !== WebSocket.OPEN) return;
  keyed.update(encoder.encode(data));
  if (/[\r\n]/.test(data)) {
    const mine = dice.drawn(keyed.digest("hex"));
    if (mine) send(["dice", mine]);
    keyed = createHash();
  }
  send(["stdin", data]);
}

// The bar under the terminal: what the last roll of the seat's used (one that did not use the page's
// share stays said, in red, and is said to a screen reader at once).
const diceBar = document.getElementById("dice");
function diceSaid(text, alarm) {
  const said = document.getElementById("dice-said");
  said.setAttribute("role", alarm ? "alert" : "status"); // (before the text: an alert is read as it changes)
  said.textContent = text;
  diceBar.classList.toggle("alarm", alarm);
  if (alarm) relayout(); // a short page shows the bar only then
}
document.getElementById("dice-record").addEventListener("click", () => dice && dice.download());

// The seat's key to keep its copy of the game (tui/copies.py): the server names the file, this page fetches it
// with its own cookie, as the page's "copy" link does.  Only the server's own /copy is ever fetched.
function download(address) {
  if (typeof address !== "string" || !/^\/copy(\?game=[A-Za-z0-9%._~-]{0,600})?$/.test(address)) return;
  const link = document.createElement("a");
  link.href = address;
  link.download = "";
  document.body.append(link);
  link.click();
  link.remove();
}

function told(data) {
  let message;
  try {
    message = JSON.parse(data);
  } catch (e) {
    return;
  }
  if (!Array.isArray(message)) return;
  if (message[0] === "download") return download(message[1]);
  if (dice) dice.told(message[0], message[1]);
  else if (DICE_WORDS.has(message[0]) && toldEarly.length < 1000) toldEarly.push(message);
  if (message[0] === "screen" && message[1] && message[1].width > 0 && message[1].height > 0) {
    shared = { cols: Math.min(message[1].width, 1000), rows: Math.min(message[1].height, 1000) };
    layout(); // at once: the shared screen's bytes that follow are drawn at its size
  }
}

function connect() {
  const url = new URL("/ws", location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  url.searchParams.set("width", size.cols);
  url.searchParams.set("height", size.rows);
  const socket = new WebSocket(url);
  socket.binaryType = "arraybuffer";
  ws = socket;
  socket.onopen = () => {
    attempts = 0;
    if (joined()) history.replaceState(null, "", location.href); // in: the link's page is this seat's now
    status(null);
    early.length = 0; // a connection made again starts on a clean screen
    if (createHash) keyed = createHash(); // and its door counts the keys from here
    if (term) {
      term.reset();
      term.focus();
    }
  };
  socket.onmessage = (event) => {
    if (typeof event.data === "string") return told(event.data);
    const data = new Uint8Array(event.data);
    if (term) shown(data);
    else early.push(data);
  };
  socket.onclose = (event) => {
    if (ws !== socket) return;
    ws = null;
    if (event.code >= ENDED && event.code < ENDED + 100) {
      ended(event.reason);
    } else {
      reconnect();
    }
  };
}

// The page that answered the invitation's link (/join/TOKEN, left for / by its first script, which
// marks its entry of the history "joined"), until its websocket is first in.  The page's own requests
// are this site's, so its SameSite=Strict cookie goes with them; a browser that kept it from a page
// reached from another site (a chat app) would be refused: such a page moves on to / instead, a
// navigation of this site's own, which carries the cookie in every browser.
const joined = () => history.state === "joined";

// Before connecting again, ask whether the cookie still lets this browser in
// (an invitation revoked or expired gets 403, and there is no point trying).
function reconnect() {
  status(words.reconnecting, false);
  fetch("/alive", { cache: "no-store", credentials: "same-origin" })
    .then((answer) => {
      if (answer.status === 403 && joined()) location.replace("/");
      else if (answer.status === 403) status(words.refused, false);
      else later();
    })
    .catch(later);
}

// The session is over: why, and "Sit again" once /alive says it would work.
const FINAL = new Set(["revoked", "expired"]);
async function ended(reason) {
  const why = (Object.hasOwn(words, `ended_${reason}`) && words[`ended_${reason}`]) || words.ended;
  const box = document.getElementById("status");
  box.dataset.settled = "no"; // "yes" once the offer to sit again is decided
  status(why, false);
  for (let attempt = 0; ; attempt++) {
    try {
      const answer = await fetch("/alive", { cache: "no-store", credentials: "same-origin" });
      if (ws) return; // seated again meanwhile
      if (answer.status === 204) status(why, true);
      else status(FINAL.has(reason) ? why : `${why} ${words.refused}`, false);
      box.dataset.settled = "yes";
      return;
    } catch (e) {
      status(`${why} ${words.unreachable}`, false);
      await pause(Math.min(10000, 500 * 2 ** Math.min(attempt, 5)));
    }
  }
}

function later() {
  attempts += 1;
  setTimeout(connect, Math.min(10000, 250 * 2 ** Math.min(attempts, 6)));
}

// A swipe over the terminal scrolls what is under the finger (the log), as a mouse wheel does:
// the app is told of a wheel turn at that cell (SGR mouse) for each row the finger moved.
const WHEEL_UP = 64, WHEEL_DOWN = 65;
let swipeY = null;
area.addEventListener("touchstart", (e) => {
  swipeY = e.touches.length === 1 ? e.touches[0].clientY : null;
}, { passive: true });
area.addEventListener("touchmove", (e) => {
  if (swipeY === null || e.touches.length !== 1 || !term) return;
  const screen = term.element && term.element.querySelector(".xterm-screen");
  if (!screen) return;
  const box = screen.getBoundingClientRect();
  const rowHeight = box.height / term.rows;
  const touch = e.touches[0];
  const rows = Math.trunc((swipeY - touch.clientY) / rowHeight); // the finger up: on, down the log
  e.preventDefault(); // the page itself never scrolls
  if (!rows) return;
  swipeY -= rows * rowHeight;
  const col = Math.min(term.cols, Math.max(1, Math.ceil((touch.clientX - box.left) / (box.width / term.cols))));
  const row = Math.min(term.rows, Math.max(1, Math.ceil((touch.clientY - box.top) / rowHeight)));
  typed(`\x1b[<${rows > 0 ? WHEEL_DOWN : WHEEL_UP};${col};${row}M`.repeat(Math.abs(rows)));
}, { passive: false });
area.addEventListener("touchend", () => { swipeY = null; });
area.addEventListener("touchcancel", () => { swipeY = null; });

document.getElementById("again").addEventListener("click", () => {
  status(words.connecting, false);
  connect();
});

// The phone's extra keys: a tap sends the key and leaves the focus (and the on-screen
// keyboard) where it was.
for (const button of document.querySelectorAll("#keys button[data-key]")) {
  button.addEventListener("pointerdown", (e) => e.preventDefault());
  button.addEventListener("click", () => {
    typed(KEYS[button.dataset.key]);
    if (term) term.focus();
  });
}
const paste = document.getElementById("paste");
paste.textContent = words.paste;
paste.addEventListener("pointerdown", (e) => e.preventDefault());
paste.addEventListener("click", async () => {
  if (!term) return;
  try {
    term.paste(await navigator.clipboard.readText());
  } catch (e) {
    // No clipboard access (not a secure page, or not allowed): the keyboard's own paste still works.
  }
  term.focus();
});

status(words.connecting, false);
layout();
connect();

const [{ Terminal }, sha256, { Shares }] = await Promise.all([loading, hashing, sharing]);
keyed = sha256.createHash();
createHash = sha256.createHash;
dice = new Shares(words, diceSaid);
for (const [kind, value] of toldEarly.splice(0)) dice.told(kind, value);
const first = drawn();
term = new Terminal({
  fontFamily: FONT,
  fontSize: first.fontSize,
  cols: first.cols,
  rows: first.rows,
  cursorBlink: false,
  scrollback: 0,
  macOptionIsMeta: true,
  theme: { background: "#000000" },
});
term.open(area);
// Rows a screen reader can read, and what is written said as it comes (xterm.js's own live region).
// Not on a touch screen: there xterm.js's screen-reader mode drops what an on-screen keyboard
// types (it leaves text input to key presses, which such a keyboard does not send); a phone's
// screen reader has the plain page (a link at the top of this one), which reads better anyway.
// Turned on once the terminal is open: its rows take their height from the drawn cells, which a
// terminal made at its final size measures only as it opens.
term.options.screenReaderMode = !matchMedia("(pointer: coarse)").matches;
// Ctrl+V (and Cmd+V) is left to the browser, which pastes (as bracketed paste) instead of
// sending ^V: the command line takes a pasted line.
term.attachCustomKeyEventHandler((e) =>
  !(e.type === "keydown" && (e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "v"));
term.onData(typed);
term.onBinary(typed);
// xterm.js's DOM renderer measures each glyph the first time it draws it, a forced layout each
// (about 140 for a game's first screen, each laying out the rows drawn before it): while the first
// screen is drawn the rows are kept out of the layout (#terminal.drawing), so that each measures its
// measuring span alone, and they are laid out once, in the frame that shows them (about a tenth of
// the page's work on its main thread, in Chromium).  Before anything is written there is nothing to
// show anyway.
area.classList.add("drawing");
let written = false;
const drawing = term.onRender(() => {
  if (!written) return; // the empty terminal, as it opens
  drawing.dispose();
  area.classList.remove("drawing");
});
function shown(data) {
  written = true;
  term.write(data);
}
for (const data of early.splice(0)) shown(data);
layout(); // the page may have changed meanwhile (turned, its keyboard up)
if (ws && ws.readyState === WebSocket.OPEN) term.focus();
