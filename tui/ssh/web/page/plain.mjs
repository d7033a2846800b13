// A Fireteam seat as plain lines, for screen readers and braille displays (tui/ssh/web/plain.py).
//
// No screen is drawn and nothing is redrawn: each answer the server sends (a binary message, its
// text) is appended to a live region, line by line, as text (textContent: never read as markup);
// the line is typed in a labelled input.  The page sends each line entered as ["stdin", line + "\n"],
// after its share of the command's dice, ["dice", "hex seal count keys"] (shares.mjs, as the terminal page
// does, docs/secrets.md; the server tells ["seal", digest], ["count", n] and ["seat", name]; keys: the
// SHA-256 of that line + "\n", what the share is for, which the door holds against the line that comes;
// ["rolled", {...}]: what a roll of the seat's used, said under the answers, and in them when it is not the
// share the page sent),
// and Tab as ["tab", [line, cursor]]; the server sends, as JSON text, the prompt (["prompt", text],
// the input's label), the line completed (["tab", [line, cursor]]) and the seat's lines of its
// earlier sessions (["history", [line, ...]]), which ↑ and ↓ bring back.  A connection that drops is
// made again by itself; a session the server ended (close code 4000 + status) is not: the page
// says why, and offers to sit again only while the cookie lets this browser in (asked of /alive).

const words = JSON.parse(document.getElementById("words").textContent);
const ENDED = 4000;
// The answers' lines the page holds: older ones are taken off the top (a reader has read them).
const MAX_LINES = 2000;
// Lines ↑ brings back, as many as the server keeps for a seat (tui/ssh/seating/history.py).
const MAX_HISTORY = 200;

const answers = document.getElementById("answers");
const entry = document.getElementById("entry");
const line = document.getElementById("line");
const prompt = document.getElementById("prompt");
const decoder = new TextDecoder();

function status(text, again) {
  const box = document.getElementById("plain-status");
  box.hidden = !text;
  document.getElementById("plain-status-text").textContent = text || "";
  const button = document.getElementById("plain-again");
  button.hidden = !again;
  button.textContent = words.again;
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A module of this page's version (its address's ?v=, as this script's), asked for again until it
// comes: a line waits in the input for sha256.mjs and shares.mjs (as it waits for the connection).
async function fetched(name) {
  for (let attempt = 0; ; attempt++) {
    const url = new URL(`./${name}${new URL(import.meta.url).search}`, import.meta.url);
    if (attempt) url.searchParams.set("try", attempt);
    try {
      return await import(url.href);
    } catch (e) {
      await pause(Math.min(5000, 250 * 2 ** Math.min(attempt, 5)));
    }
  }
}
let createHash = null;
let dice = null; // shares.mjs's Shares, once it came
const toldEarly = []; // the server's words about the dice before it came
const DICE_WORDS = new Set(["seal", "count", "seat", "rolled", "unshared"]);
fetched("sha256.mjs").then((module) => { createHash = module.createHash; });
fetched("shares.mjs").then(({ Shares }) => {
  dice = new Shares(words, diceSaid);
  for (const [kind, value] of toldEarly.splice(0)) dice.told(kind, value);
});
const encoder = new TextEncoder();

// Under the answers, what the last roll of the seat's used; one that did not use the page's share stays
// said, and is put in the answers too (a screen reader reads them as they come).
function diceSaid(text, alarm) {
  document.getElementById("dice-said").textContent = text;
  document.getElementById("dice").classList.toggle("alarm", alarm);
  if (alarm) append(text);
}
document.getElementById("dice-record").addEventListener("click", () => dice && dice.download());

// Lines appended to the answers as one block (a screen reader reads it as it comes); ``typed``: the
// player's own line, shown but not read to him again.
function append(text, typed = false) {
  const rows = text.replace(/\r/g, "").split("\n").filter((row) => row.trim());
  if (!rows.length) return;
  const block = document.createElement("div");
  if (typed) {
    block.className = "typed";
    block.setAttribute("aria-hidden", "true");
  }
  for (const row of rows) {
    const p = document.createElement("p");
    p.textContent = row;
    block.append(p);
  }
  answers.append(block);
  let held = answers.querySelectorAll("p").length;
  while (held > MAX_LINES && answers.firstElementChild) {
    held -= answers.firstElementChild.querySelectorAll("p").length;
    answers.firstElementChild.remove();
  }
  block.scrollIntoView({ block: "nearest" });
}

let ws = null;
let attempts = 0;
let history = [];
let recalled = 0; // where ↑ and ↓ are in the history (history.length: the line being typed)
let draft = ""; // the line being typed, while ↑ shows an earlier one
let tabbed = null; // the line and cursor a Tab was sent with, until its answer

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

function show(text) {
  line.value = text;
  line.setSelectionRange(text.length, text.length);
}

entry.addEventListener("submit", (e) => {
  e.preventDefault();
  if (!ws || ws.readyState !== WebSocket.OPEN || !createHash || !dice) return; // kept in the input until the seat is back
  const text = line.value;
  const mine = dice.drawn(createHash().update(encoder.encode(`${text}\n`)).digest("hex"));
  if (mine) send(["dice", mine]);
  send(["stdin", `${text}\n`]);
  append(`${prompt.textContent} ${text}`, true);
  if (text.trim() && history[history.length - 1] !== text) history = [...history, text].slice(-MAX_HISTORY);
  recalled = history.length;
  draft = "";
  tabbed = null;
  line.value = "";
});

line.addEventListener("keydown", (e) => {
  const plainKey = !e.altKey && !e.ctrlKey && !e.metaKey;
  // Tab completes a word being typed; on an empty line (and Shift+Tab always) it moves on, as on any
  // page: the input is never a trap for the keyboard.
  if (e.key === "Tab" && plainKey && !e.shiftKey && line.value.trim()) {
    e.preventDefault();
    tabbed = [line.value, line.selectionStart ?? line.value.length];
    send(["tab", tabbed]);
  } else if (e.key === "ArrowUp" && plainKey && recalled > 0) {
    e.preventDefault();
    if (recalled === history.length) draft = line.value;
    recalled -= 1;
    show(history[recalled]);
  } else if (e.key === "ArrowDown" && plainKey && recalled < history.length) {
    e.preventDefault();
    recalled += 1;
    show(recalled === history.length ? draft : history[recalled]);
  }
});

// A message of the server's own (JSON text): anything else is not one of ours, and ignored.
function told(data) {
  let message;
  try {
    message = JSON.parse(data);
  } catch (e) {
    return;
  }
  if (!Array.isArray(message)) return;
  const [kind, value] = message;
  if (kind === "prompt" && typeof value === "string") {
    prompt.textContent = value;
  } else if (kind === "download" && typeof value === "string" && /^\/copy(\?game=[A-Za-z0-9%._~-]{0,600})?$/.test(value)) {
    // The seat's word to keep its copy (tui/copies.py): fetched with this page's cookie, as its "copy" link is.
    const link = document.createElement("a");
    link.href = value;
    link.download = "";
    document.body.append(link);
    link.click();
    link.remove();
  } else if (DICE_WORDS.has(kind)) {
    if (dice) dice.told(kind, value);
    else if (toldEarly.length < 1000) toldEarly.push([kind, value]);
  } else if (kind === "history" && Array.isArray(value)) {
    history = value.filter((v) => typeof v === "string").slice(-MAX_HISTORY);
    recalled = history.length;
  } else if (kind === "tab" && Array.isArray(value) && typeof value[0] === "string" && Number.isInteger(value[1])) {
    // Taken only if the line is still the one Tab was pressed on (nothing typed meanwhile).
    if (tabbed && line.value === tabbed[0] && (line.selectionStart ?? line.value.length) === tabbed[1]) {
      line.value = value[0];
      line.setSelectionRange(value[1], value[1]);
    }
    tabbed = null;
  }
}

function connect() {
  const url = new URL("/ws", location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  url.searchParams.set("plain", "1");
  const socket = new WebSocket(url);
  socket.binaryType = "arraybuffer";
  ws = socket;
  socket.onopen = () => {
    attempts = 0;
    status(null);
  };
  socket.onmessage = (event) => {
    if (typeof event.data === "string") told(event.data);
    else append(decoder.decode(event.data));
  };
  socket.onclose = (event) => {
    if (ws !== socket) return;
    ws = null;
    if (event.code >= ENDED && event.code < ENDED + 100) ended(event.reason);
    else reconnect();
  };
}

// Before connecting again, ask whether the cookie still lets this browser in.
function reconnect() {
  status(words.reconnecting, false);
  fetch("/alive", { cache: "no-store", credentials: "same-origin" })
    .then((answer) => {
      if (answer.status === 403) status(words.refused, false);
      else later();
    })
    .catch(later);
}

function later() {
  attempts += 1;
  setTimeout(connect, Math.min(10000, 250 * 2 ** Math.min(attempts, 6)));
}

// The session is over: why, and "Sit again" once /alive says it would work.
const FINAL = new Set(["revoked", "expired"]);
async function ended(reason) {
  const why = (Object.hasOwn(words, `ended_${reason}`) && words[`ended_${reason}`]) || words.ended;
  status(why, false);
  for (let attempt = 0; ; attempt++) {
    try {
      const answer = await fetch("/alive", { cache: "no-store", credentials: "same-origin" });
      if (ws) return; // seated again meanwhile
      if (answer.status === 204) status(why, true);
      else status(FINAL.has(reason) ? why : `${why} ${words.refused}`, false);
      return;
    } catch (e) {
      status(`${why} ${words.unreachable}`, false);
      await pause(Math.min(10000, 500 * 2 ** Math.min(attempt, 5)));
    }
  }
}

document.getElementById("plain-again").addEventListener("click", () => {
  status(words.connecting, false);
  connect();
  line.focus();
});

status(words.connecting, false);
line.focus();
connect();
