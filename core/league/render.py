"""The standings as plain lines, Markdown, HTML or JSON, in the reader's language.

Every name comes from a league file, a certificate and a save: hostile text.  Plain lines
show it with every character that does not print escaped (``core.secrets.shown``);
Markdown escapes its markup characters (a name is never a link, an image or a table's
column); HTML escapes it (``html.escape``, quotes too) and holds no script.  JSON gives
the ids (tie-breaks, levels, statuses, sides) as the code names them, the same in every
language; the others name a side as its scenario does, in the reader's language
(``Reparto Bersaglieri``): as its certificate names it (format 3, signed with the rest: a user's
scenario's names as its file writes them, or in the words it gives for the reader's language),
at most :data:`MAX_SIDE_NAME` characters; an older certificate's by its built-in scenario's
names, else by the side's id.

The HTML page is styled as the after-action report (``core.report.style``), in
its own ``<style>`` element that its policy, and the relay's, allow by its hash alone
(:data:`PAGE_STYLE_SOURCE`), and it fits a phone's screen (a viewport, its table scrolled
sideways within the page, issue #91).
"""

from __future__ import annotations

import functools
import html
import re

import msgspec

from core.language.i18n import N_, Names, _, naming, ngettext, scenario_words
from core.league.folding import FROZEN, Game, Season, receipt
from core.league.levels import COUNT_ANY, COUNTS_SAID
from core.league.standings import SHARED, Row, Table
from core.report.style import STYLE, style_source
from core.secrets import shown

FORMATS = ("text", "md", "html", "json")
#: What Markdown could read as markup in a table's cell or a list item's text: a link or an
#: image needs a bracket, an autolink or HTML an angle bracket, a cell's end a bar.
_MARKDOWN = re.compile(r"([\\`*_\[\]<>|~&])")
#: A normal distribution's 97.5th percentile: a rating's 95% band is this many standard errors each side.
Z95 = 1.96
#: The most characters of a side's name a page shows (a certificate's text: hostile, if signed).
MAX_SIDE_NAME = 60
#: The heading of the games' list.
GAMES = N_("Games")
#: The page's style: the report's, wider for the standings' dozen columns, the player's name to the
#: left, a key's fingerprint broken where it must be; on a phone, narrower margins and a row a line
#: (its table scrolls sideways within the page: the report's rule).
PAGE_STYLE = STYLE + (
    "body { max-width: 72em; } td:nth-child(2), th:nth-child(2) { text-align: left; }\n"
    "th { vertical-align: bottom; } p, li { overflow-wrap: anywhere; }\n"
    "@media (max-width: 40em) {\n"
    "  body { margin: 1em 0.7em; } h1 { font-size: 1.3em; } td, th { white-space: nowrap; }\n}\n"
)
#: The CSP source allowing :data:`PAGE_STYLE` (the relay's policy for ``/standings`` adds it).
PAGE_STYLE_SOURCE = style_source(PAGE_STYLE)


def result_of(game: Game) -> str:
    """``anna (regulars) beat bruno (irregulars), 12 to 30`` in the reader's language (raw text)."""
    sides = sorted(game.players)
    if not game.draw:
        sides = [game.winner, *(s for s in sides if s != game.winner)]
    scores = " – ".join(str(game.cert.scores.get(s, 0)) for s in sides)  # in the order the players are named
    if game.draw:
        said = _("{a} and {b} drew ({scores})")
        return said.format(a=_who(game, sides[0]), b=_who(game, sides[-1]), scores=scores)
    said = _("{winner} beat {loser} ({scores})")
    return said.format(winner=_who(game, sides[0]), loser=_who(game, sides[-1]), scores=scores)


def _who(game: Game, side: str) -> str:
    return f"{', '.join(game.players.get(side, ('?',)))} ({side_name(game, side)})"


def side_name(game: Game, side: str) -> str:
    """``side`` as the game's scenario names it, in the reader's language (see the module's doc)."""
    cert = game.cert
    if side in cert.sides:
        with naming(Names(words=cert.side_words)):
            named = scenario_words(cert.sides[side])
    else:
        named = scenario_words(_scenario_sides(cert.ruleset, cert.scenario).get(side, ""))
    named = " ".join(named.split()) or side  # (one line: a name's own line breaks are not the page's)
    return named if len(named) <= MAX_SIDE_NAME else named[: MAX_SIDE_NAME - 1] + "…"


@functools.lru_cache(maxsize=64)
def _scenario_sides(ruleset: str, scenario: str) -> dict[str, str]:
    """The sides' names, by id, of the built-in scenario of ``ruleset`` whose title is ``scenario``
    (a certificate's); none for a user's scenario, or a ruleset not installed here.  (The
    scenarios are read once a league's pair: a season of 33,869 games names a few.)"""
    from core.registry import get_ruleset  # (the rulesets: only once a page names a side)

    try:
        scenarios = get_ruleset(ruleset).scenarios
    except (ValueError, TypeError):
        return {}
    for scenario_id in scenarios:
        found = scenarios[scenario_id]
        if found.title == scenario:
            return {side.id: side.name for side in found.sides}
    return {}


def game_line(game: Game) -> str:
    """One game: its number, ruleset, scenario, result, confirmation, standing, what its re-check
    found, and its receipt (raw text)."""
    said = _("game {n} ({ruleset}, {scenario}): {result}; {level}; {status}")
    line = said.format(
        n=game.number,
        ruleset=game.cert.ruleset,
        scenario=scenario_words(game.cert.scenario) or "-",  # (a built-in's title in the reader's language)
        result=result_of(game),
        level=_(game.level),
        status=_(game.standing),
    )
    if game.status == FROZEN:
        line += " " + _("(frozen until the organiser rules)")
    for d in game.disputes:
        line += "; " + _("disputed by {who}: {why}").format(who=d.by, why=d.why)
    for r in game.rulings:
        line += "; " + _("the organiser ruled ({ruling}): {why}").format(ruling=_(r.ruling), why=r.why)
    for problem in game.problems:
        line += "; " + problem
    return line + "; " + _("receipt {receipt}").format(receipt=game.receipt)


def about(season: Season) -> list[str]:
    """What a reader of the standings is told of the league itself (raw text): which games it
    counts, who signed its settings, its head (against a player's receipt), and, for an older
    league, that its settings are nobody's word but the file's."""
    lines = []
    if season.older:
        lines.append(
            _(
                "an older league (format 1): its settings and rulings are not signed by its organiser, "
                "so whoever holds the file could have changed them unseen; its games' signatures are checked "
                "against the keys the file itself gives"
            )
        )
    else:
        said = _("settings signed by the organiser {organiser} ({key})")
        lines.append(said.format(organiser=season.opened.organiser, key=season.organiser_key))
    lines.append(_(COUNTS_SAID[season.opened.counts or COUNT_ANY]))
    said = _(
        "the league's head: {head} (a player's receipt is the head after his game: "
        "league standings --receipt RECEIPT says whether this file holds it)"
    )
    lines.append(said.format(head=receipt(season.head)))
    return lines + season.problems


def _rating(row: Row, ruleset: str) -> str:
    found = row.ratings.get(ruleset)
    if found is None:
        return "-"
    value, error, games = found
    said = ngettext(
        "{low}–{high} ({value} ± {error}, {games} game)", "{low}–{high} ({value} ± {error}, {games} games)", games
    )
    half = Z95 * error
    return said.format(
        low=round(value - half), high=round(value + half), value=round(value), error=round(half), games=games
    )


def _decided(row: Row) -> str:
    """How a row stands against the next one level with it on points, in words ("" if not level)."""
    if not row.decided:
        return ""
    if row.decided == SHARED:
        return _("place shared with the next: level on every tie-break")
    return _("ahead of the next by {tie}").format(tie=_(row.decided))


def _cells(row: Row, t: Table) -> list[str]:
    decided = _decided(row)
    return [
        str(row.place),
        row.player,
        str(row.played),
        str(row.won),
        str(row.drawn),
        str(row.lost),
        str(row.points),
        f"{row.schedule:.2f}",
        f"{row.margin:+.2f}",
        decided,
        *(_rating(row, r) for r in t.rulesets),
    ]


def _heads(t: Table) -> list[str]:
    heads = [_("place"), _("player"), _("played"), _("won"), _("drawn"), _("lost"), _("points")]
    heads += [_("strength of schedule"), _("score margin"), _("level on points with the next")]
    return heads + [_("rating, {ruleset} (95% band)").format(ruleset=r) for r in t.rulesets]


def text(t: Table, title: str) -> str:
    out = [shown(title), *map(shown, about(t.season))]
    for row in t.rows:
        c = [shown(x) for x in _cells(row, t)]
        said = ngettext(
            "{place}. {player}: {points} point ({played} played: {won} won, {drawn} drawn, {lost} lost)",
            "{place}. {player}: {points} points ({played} played: {won} won, {drawn} drawn, {lost} lost)",
            row.points,
        )
        line = said.format(place=c[0], player=c[1], played=c[2], won=c[3], drawn=c[4], lost=c[5], points=c[6])
        line += "; " + _("strength of schedule {sos}, score margin {margin}").format(sos=c[7], margin=c[8])
        if row.decided:
            line += "; " + c[9]
        for ruleset, cell in zip(t.rulesets, c[10:], strict=True):
            if cell != "-":
                line += "; " + _("rating in {ruleset} {band}").format(ruleset=ruleset, band=cell)
        out.append(line)
    out.append("")
    out += [shown(game_line(g)) for g in t.games]
    return "\n".join(out) + "\n"


def _md(value: str) -> str:
    return _MARKDOWN.sub(r"\\\1", shown(value))


def markdown(t: Table, title: str) -> str:
    heads = _heads(t)
    out = [f"# {_md(title)}", "", *(f"{_md(line)}  " for line in about(t.season)), ""]
    out += ["| " + " | ".join(map(_md, heads)) + " |", "|" + "---|" * len(heads)]
    out += ["| " + " | ".join(map(_md, _cells(row, t))) + " |" for row in t.rows]
    out += ["", f"## {_md(_(GAMES))}", ""]
    out += [f"{g.number}. {_md(game_line(g).split(': ', 1)[1])}" for g in t.games]
    return "\n".join(out) + "\n"


def page(t: Table, title: str, lang: str) -> str:
    """A whole HTML page: every text escaped, no script, no outside resource, its one style
    allowed by its hash (see the module's doc)."""

    def e(value: str) -> str:
        return html.escape(value, quote=True)

    head = "".join(f'<th scope="col">{e(h)}</th>' for h in _heads(t))
    body = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in _cells(row, t)) + "</tr>\n" for row in t.rows)
    games = "".join(f"<li>{e(game_line(g))}</li>\n" for g in t.games)
    said = "".join(f"<p>{e(line)}</p>\n" for line in about(t.season))
    policy = f"default-src 'none'; style-src {PAGE_STYLE_SOURCE}"
    return (
        f'<!DOCTYPE html>\n<html lang="{e(lang)}">\n<head><meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n'
        f"<title>{e(title)}</title><style>{PAGE_STYLE}</style></head>\n<body>\n<h1>{e(title)}</h1>\n{said}"
        f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}</tbody>\n</table>\n"
        f"<h2>{e(_(GAMES))}</h2>\n<ol>\n{games}</ol>\n</body>\n</html>\n"
    )


def as_json(t: Table, title: str) -> str:
    season = t.season
    document = {
        "league": title,
        "format": season.format,
        "organiser": season.opened.organiser,
        "organiser_key": season.organiser_key,
        "counts": season.opened.counts or COUNT_ANY,
        "head": season.head.hex(),
        "problems": season.problems,
        "standings": [
            {
                "place": r.place,
                "player": r.player,
                "played": r.played,
                "won": r.won,
                "drawn": r.drawn,
                "lost": r.lost,
                "points": r.points,
                "head_to_head": r.head_to_head,
                "strength_of_schedule": r.schedule,
                "score_margin": r.margin,
                "decided_by": r.decided,
                "ratings": {
                    k: {"rating": v, "error": e, "band": [v - Z95 * e, v + Z95 * e], "games": n}
                    for k, (v, e, n) in r.ratings.items()
                },
            }
            for r in t.rows
        ],
        "games": [
            {
                "number": g.number,
                "game": g.cert.game,
                "ruleset": g.cert.ruleset,
                "scenario": g.cert.scenario,
                "players": g.players,
                "winner": g.winner,
                "draw": g.draw,
                "scores": g.cert.scores,
                "confirmed": g.level,
                "status": g.status,
                "standing": g.standing,
                "counted": g.counted,
                "problems": g.problems,
                "receipt": g.head.hex(),
                "disputes": [{"by": d.by, "why": d.why, "at": d.at} for d in g.disputes],
                "rulings": [{"ruling": r.ruling, "why": r.why, "at": r.at} for r in g.rulings],
            }
            for g in t.games
        ],
    }
    return msgspec.json.encode(document).decode() + "\n"
