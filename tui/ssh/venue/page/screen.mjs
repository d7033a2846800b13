// A table's spectators' screen, as the table drew it, from a relay: a terminal (xterm.js)
// that only shows.  The relay sends first {"cols", "rows", "relays"} (the shared size it
// picked for this window, the live relays) as text, then the screen's bytes as binary
// messages.  When the relay stops answering, the page goes on at another relay it was told of.
import { Terminal } from "/xterm.mjs";
import { FitAddon } from "/addon-fit.mjs";

const status = document.getElementById("status");
const table = location.pathname.split("/").pop();
const lang = new URLSearchParams(location.search).get("lang") || document.documentElement.lang || "en";
const term = new Terminal({
  fontFamily: '"DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace',
  fontSize: 14, cursorBlink: false, scrollback: 0, disableStdin: true, theme: { background: "#000000" },
});
const fit = new FitAddon();
term.loadAddon(fit);
term.open(document.getElementById("terminal"));
const wanted = fit.proposeDimensions() || { cols: 100, rows: 30 };

let relays = [];
let base = location.origin;
let failures = 0;

function feed() {
  const query = `?lang=${encodeURIComponent(lang)}&cols=${wanted.cols}&rows=${wanted.rows}`;
  const ws = new WebSocket(base.replace(/^http/, "ws") + "/frames/" + encodeURIComponent(table) + query);
  ws.binaryType = "arraybuffer";
  ws.onmessage = (event) => {
    failures = 0;
    if (typeof event.data === "string") {
      const told = JSON.parse(event.data);
      if (Array.isArray(told.relays)) relays = told.relays.filter((r) => /^https?:\/\//.test(String(r)));
      term.resize(Number(told.cols) || 80, Number(told.rows) || 24);
      status.textContent = `live from ${base}`;
      document.body.dataset.relay = base;
    } else {
      term.write(new Uint8Array(event.data));
    }
  };
  ws.onclose = () => {
    failures += 1;
    const others = relays.filter((r) => r !== base);
    if (others.length) base = others[(failures - 1) % others.length];
    status.textContent = `relay gone; trying ${base}`;
    setTimeout(feed, Math.min(500 * failures, 5000));
  };
}

feed();
