// A relay's pages: the venue's tables, and one table's log, live.  Every text
// from the relay is set as textContent, never as markup (it comes from NATS).
// When the relay stops answering, the page goes on at another relay it was told of.
"use strict";

const page = document.body.dataset.page;
const status = document.getElementById("status");
let relays = [];
let base = location.origin;
let failures = 0;

function text(tag, value) {
  const el = document.createElement(tag);
  el.textContent = String(value);
  return el;
}

function scores(summary) {
  return summary.scores.map((s) => `${s.side} ${s.score}`).join(", ");
}

function showTables(data) {
  const body = document.querySelector("#tables tbody");
  body.replaceChildren();
  for (const t of data.tables) {
    const row = document.createElement("tr");
    row.append(text("td", t.table));
    // The fingerprint of the key that signed the table's view; a key other than the table's first, loudly.
    const key = text("td", t.key);
    if (t.key_warning) {
      key.append(document.createElement("br"), text("span", t.key_warning));
      key.className = "warning";
    }
    row.append(key);
    for (const v of [t.ruleset, t.scenario, t.turn, scores(t), t.result]) row.append(text("td", v));
    const cell = document.createElement("td");
    const watch = text("a", "watch");
    watch.href = "/watch/" + encodeURIComponent(t.table);
    const screen = text("a", "screen");
    screen.href = "/screen/" + encodeURIComponent(t.table);
    cell.append(watch, " ", screen);
    if (t.result) {
      const report = text("a", "report");
      report.href = "/report/" + encodeURIComponent(t.table);
      cell.append(" ", report);
    }
    row.append(cell);
    body.append(row);
  }
  status.textContent = `${data.tables.length} tables, live from ${base}`;
}

function showTable(data) {
  const s = data.summary;
  if (!s) {
    status.textContent = "no such table yet at this venue";
    return;
  }
  document.getElementById("title").textContent = s.table;
  document.getElementById("summary").textContent =
    `${s.ruleset}; ${s.scenario}; turn ${s.turn} (${s.phase}); ${s.score_name}: ${scores(s)}` +
    (s.result ? `; result: ${s.result}` : "");
  document.getElementById("key").textContent = `signed by ${s.key}`;
  document.getElementById("warning").textContent = s.key_warning;
  const log = document.getElementById("log");
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  log.textContent = data.lines.join("\n");
  if (atEnd) log.scrollTop = log.scrollHeight;
  status.textContent = `live from ${base}`;
}

function feed() {
  const path = page === "venue" ? "/live" : "/live/" + location.pathname.split("/").pop();
  const ws = new WebSocket(base.replace(/^http/, "ws") + path);
  ws.onmessage = async (event) => {
    failures = 0;
    const data = JSON.parse(typeof event.data === "string" ? event.data : await event.data.text());
    if (Array.isArray(data.relays) && data.relays.length) relays = data.relays.filter((r) => /^https?:\/\//.test(r));
    if (page === "venue") showTables(data); else showTable(data);
  };
  ws.onclose = () => {
    // Another relay (in turn), and this one again last: a relay killed moves its watchers.
    failures += 1;
    const others = relays.filter((r) => r !== base);
    if (others.length) base = others[(failures - 1) % others.length];
    status.textContent = `relay gone; trying ${base}`;
    setTimeout(feed, Math.min(500 * failures, 5000));
  };
}

feed();
