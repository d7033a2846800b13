"""An event's pages, as a venue's relay serves them (``fireteam relay --event``) and a printer
prints them: a round's pairings with each table's state and clock, and the standings.

Each is one self-contained HTML page in the reader's language: every name escaped (a league's
signers file and a certificate are hostile text), no script, nothing loaded; its one style its
own ``<style>`` element, allowed by its hash as the report's are (``core.report.render_html``),
laid out for a phone (one table a card below 40em) and for paper (no links, rows kept whole), and
read again by the browser every ``REFRESH_S`` seconds (a meta refresh: no script), so a page left
open on a wall or a phone follows the day.  The same pages as text are ``render``'s lines, as JSON
its ``as_data``.
"""

from __future__ import annotations

import time
from datetime import datetime

from core.event import render, standings
from core.event.state import Event, Round
from core.language.i18n import _, ngettext
from core.language.reader import lang
from core.report.escape import html_text as h
from core.report.render_html import Page, style_source

#: The first cell of a table's card (its number, on a phone: no label before it).
_FIRST = ' class="first"'
#: A page left open is read again this often (seconds): the clock's minutes, the tables' states.
REFRESH_S = 30

STYLE = """
body { font-family: DejaVu Sans, Arial, sans-serif; max-width: 60em; margin: 1em auto; padding: 0 0.8em;
  color: #222; line-height: 1.45; }
h1 { font-size: 1.5em; margin: 0.2em 0; } h2 { margin-top: 1.4em; border-bottom: 1px solid #ccc; }
nav { margin: 0.4em 0 0.8em; } nav a { margin-right: 1em; white-space: nowrap; }
.clock { font-size: 1.2em; font-weight: bold; margin: 0.4em 0; }
.note { color: #555; font-size: 0.9em; }
table { border-collapse: collapse; width: 100%; }
td, th { border: 1px solid #ccc; padding: 0.3em 0.5em; text-align: left; vertical-align: top; }
th { background: #f2f2f2; } td.n, th.n { text-align: right; } td.n { white-space: nowrap; } tr.ended td { color: #555; }
@media (max-width: 40em) {
  body { margin: 0.5em auto; }
  table.cards thead { display: none; }
  table.cards tr { display: block; border: 1px solid #ccc; margin: 0 0 0.6em; padding: 0.2em 0; }
  table.cards td { display: block; border: none; padding: 0.1em 0.6em; }
  table.cards td::before { content: attr(data-label) ": "; font-weight: bold; }
  table.cards td.first::before { content: attr(data-label) " "; }
  table.cards td.first { font-weight: bold; }
  table.cards td:empty { display: none; }
  .more { display: none; }
  table { font-size: 0.95em; } td, th { padding: 0.3em 0.3em; }
}
@media print {
  nav, .noprint { display: none; }
  body { max-width: none; margin: 0; padding: 0; font-size: 11pt; }
  tr { page-break-inside: avoid; } th { background: none; }
}
"""


def _page(title: str, body: list[str], links: list[tuple[str, str]]) -> Page:
    source = style_source(STYLE)
    policy = f"default-src 'none'; style-src {source}"
    nav = " ".join(f'<a href="{h(href)}">{h(text)}</a>' for href, text in links)
    out = [
        "<!DOCTYPE html>",
        f'<html lang="{lang()}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">',
        f'<meta http-equiv="refresh" content="{REFRESH_S}">',
        f"<title>{h(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{h(title)}</h1>",
        f"<nav>{nav}</nav>",
        *body,
        "</body></html>",
    ]
    return Page("\n".join(out) + "\n", (source,))


def _para(text: str, kind: str = "") -> str:
    """A paragraph of ``text`` (escaped), of the style ``kind`` if any."""
    return f'<p class="{kind}">{h(text)}</p>' if kind else f"<p>{h(text)}</p>"


def _as_of(head: bytes, now_ms: int) -> str:
    at = datetime.fromtimestamp(now_ms / 1000).strftime("%H:%M")
    said = _("As the event file stood at {at}: {receipt} (a player's receipt names the file up to his game).")
    return _para(said.format(at=at, receipt=render.receipt(head)), "note")


def links(event: Event, here: str) -> list[tuple[str, str]]:
    """The pages' links: each round's pairings, the standings, the text and JSON of this one."""
    out = [(f"/event?round={r.number}", _("Round {r}").format(r=r.number)) for r in event.rounds]
    out.append(("/event/standings", _("Standings")))
    out += [(f"{here}.txt", _("Text")), (f"{here}.json", "JSON")]
    return out


def round_page(event: Event, head: bytes, number: int | None = None, now_ms: int | None = None) -> Page:
    """The round's pairings (the current round's unless ``number``): each table, its players on
    their sides, its state and its clock; the byes; a note of the file's receipt."""
    now = int(time.time() * 1000) if now_ms is None else now_ms
    o = event.opened
    if not event.rounds:
        body = [_para(_("No round is paired yet.")), _as_of(head, now)]
        return _page(o.name, body, links(event, "/event"))
    rnd = event.rounds[(number or len(event.rounds)) - 1]
    title = _("{event}: round {r} of {n}").format(event=o.name, r=rnd.number, n=o.rounds)
    heads = [_("Table"), o.sides[0], o.sides[1], _("State"), _("Time")]
    rows = []
    for t in rnd.tables:
        cells = [str(t.number), t.a, t.b, render.table_state(event, t), _time(rnd, t, now)]
        tds = "".join(
            f'<td{_FIRST if i == 0 else ""} data-label="{h(label)}">{h(c)}</td>'
            for i, (label, c) in enumerate(zip(heads, cells, strict=True))
        )
        rows.append(f'<tr class="{"ended" if t.ended else "open"}">{tds}</tr>')
    body = [
        _para(_sentence(render.clock_line(rnd, now_ms=now)), "clock"),
        '<table class="cards"><thead><tr>' + "".join(f'<th scope="col">{h(c)}</th>' for c in heads) + "</tr></thead>",
        "<tbody>",
        *rows,
        "</tbody></table>",
    ]
    byes = [_("Bye: {name} ({points} points)").format(name=name, points=o.bye) for name in rnd.byes]
    body += [_para(line) for line in byes]
    open_tables = len(rnd.open_tables())
    still = ngettext("{n} table still playing.", "{n} tables still playing.", open_tables)
    said = still.format(n=open_tables) if open_tables else _("Every table has ended.")
    body += [_para(said), _as_of(head, now)]
    return _page(title, body, links(event, "/event"))


def _sentence(line: str) -> str:
    """A line said as a heading of its own: its first letter a capital."""
    return line[:1].upper() + line[1:]


def _time(rnd: Round, table, now: int) -> str:
    """A table's time: when it ends (with its extension), or nothing once it has ended or with no clock."""
    if table.ended or not rnd.started:
        return ""
    ends = rnd.ends_at(table)
    at = datetime.fromtimestamp(ends / 1000).strftime("%H:%M")
    extra = " " + _("(+{m} min)").format(m=table.extra_minutes) if table.extra_minutes else ""
    return (_("time is up") if now >= ends else at) + extra


def standings_page(event: Event, head: bytes, now_ms: int | None = None) -> Page:
    """The standings: place, player, points, won-drawn-lost, byes, Buchholz and the games on each side."""
    now = int(time.time() * 1000) if now_ms is None else now_ms
    o = event.opened
    done = sum(1 for rnd in event.rounds if not rnd.open_tables())
    title = _("{event}: standings after {r} of {n} rounds").format(event=o.name, r=done, n=o.rounds)
    heads = [_("Place"), _("Player"), _("Points"), _("W-D-L"), _("Buchholz"), _("Byes"), *o.sides]
    #: The columns a phone leaves out (its screen holds five): the byes and the games on each side.
    more = {5, 6, 7}
    rows = []
    for row in standings.table(event):
        name = row.name + (" " + _("(dropped)") if row.dropped else "")
        cells = [str(row.place), name, str(row.points), f"{row.won}-{row.drawn}-{row.lost}", str(row.buchholz)]
        cells += [str(row.byes), str(row.first), str(row.second)]
        rows.append("<tr>" + "".join(f"<td{_kind(i, more)}>{h(c)}</td>" for i, c in enumerate(cells)) + "</tr>")
    th = "".join(f'<th scope="col"{_kind(i, more)}>{h(c)}</th>' for i, c in enumerate(heads))
    body = [
        f"<table><thead><tr>{th}</tr></thead><tbody>",
        *rows,
        "</tbody></table>",
        _para(_("Points, then Buchholz (the points of the opponents met), then wins."), "note"),
        _as_of(head, now),
    ]
    return _page(title, body, links(event, "/event/standings"))


def _kind(column: int, more: set[int]) -> str:
    """A standings cell's class: a number's (right-aligned), the name's, and whether a phone shows it."""
    kinds = ["p" if column == 1 else "n", *(["more"] if column in more else [])]
    return f' class="{" ".join(kinds)}"'
