"""A round's pairing, by a maintained engine: ``caissify-pairings`` (FIDE Dutch, Berger round robin).

The engine is given the event as its file leaves it, nothing else, so the same file always pairs
the same: each player's points before the round (the league's points for a win, a draw, a loss,
the event's for a bye, scaled so that a win is 1, the engine's scale), his rating as entered, his
sides as colours (the scenario's first side white, its second black; games played only), his
floats (a bye or a forfeit won is a downfloat), his byes, and everyone he met: the facts a TRF16
export of the file gives the engine's own checker (``core.event.trf``), which pairs every round
of it as the engine does without the sides rule below.  What the event adds to a chess Swiss:

* **sides within one of even** (the scenarios are asymmetric): FIDE lets a player's colours
  differ by two; the event lets them differ by one.  Two players on the same side of even
  (both one game more on the first side, or both on the second) are given to the engine as
  having met, so it never pairs them; at each table the side that keeps both players within
  one is theirs (the engine's own choice where both do).  Where no pairing exists that way,
  the engine pairs without it and the standings show the sides.
* **round one's order**: the league's rating in the event's ruleset as each player entered
  (1500 for a player with no game of it), ties and the ``random`` seeding broken by the SHA-256
  of the event's salt (committed in its signed settings) and the player's name;
* **tables**: the engine's boards in order, each given the lowest free table number that the
  fewest of its two players sat at in an earlier round.

A round robin is the engine's Berger table over the players entered at round one (in that
order); a dropped player's opponent has a bye.
"""

from __future__ import annotations

import hashlib
import warnings
from typing import Any

from core.event.league import folded
from core.event.records import ROUND_ROBIN, SEED_RANDOM, Paired, Table
from core.event.state import BYE, WIN, Event, NotAllowed, Player
from core.language.i18n import _

#: A player with no rated game of the event's ruleset in the league.
UNRATED = 1500
WHITE, BLACK, NONE = "white", "black", "none"


def engine() -> str:
    """The engine and its version, as an event's settings name it (read from its installed metadata
    when an event is made: no other command needs importlib.metadata)."""
    from importlib.metadata import version

    return f"caissify-pairings {version('caissify-pairings')}"


def scenario_of(ruleset: str, scenario: str) -> tuple[str, tuple[str, str]]:
    """The scenario's title and two sides, in its order; NotAllowed if it has other than two, or is unknown."""
    from core.registry import available, get_ruleset

    if ruleset not in available():
        raise NotAllowed(_("no ruleset {ruleset} (fireteam rules lists them)").format(ruleset=repr(ruleset)))
    found = get_ruleset(ruleset).scenarios.get(scenario)
    if found is None:
        said = _("{ruleset} has no scenario {scenario} (fireteam scenarios lists them)")
        raise NotAllowed(said.format(ruleset=ruleset, scenario=repr(scenario)))
    sides = tuple(s.id for s in found.sides)
    if len(sides) != 2:
        raise NotAllowed(
            _("{scenario} has {n} sides: an event pairs two players a table").format(scenario=scenario, n=len(sides))
        )
    return found.title, (sides[0], sides[1])


def entry_rating(event: Event, name: str) -> int:
    """The rating a player enters with: the league's, in the event's ruleset (0 with random seeding)."""
    if event.opened.seeding == SEED_RANDOM:
        return 0
    from core.event import league

    return round(league.ratings(event.league, event.opened.ruleset).get(name, UNRATED))


def order(event: Event) -> list[Player]:
    """Every entrant in the engine's starting order: rating, then the event's draw."""

    def draw(p: Player) -> str:
        return hashlib.sha256(f"{event.opened.salt}\n{folded(p.name)}".encode()).hexdigest()

    return sorted(event.players.values(), key=lambda p: (-p.rating, draw(p)))


def balance(event: Event, name: str) -> int:
    """Games on the first side less games on the second."""
    first = event.opened.sides[0]
    played = [side for _r, _o, side, _res in event.history(name) if side]
    return sum(1 if side == first else -1 for side in played)


def engine_input(event: Event, round_number: int, balanced: bool = True) -> dict[str, Any]:
    """The engine's arguments for the round (``caissify_pairings.generate_pairings``)."""
    win = event.league.points[0]
    starting = {p.name: n for n, p in enumerate(order(event), start=1)}
    players, ids = [], {}
    if event.opened.system == ROUND_ROBIN:
        roster = [p for p in event.players.values() if p.joins == 1]
    else:
        roster = event.in_play(round_number)
    before = _points_by_round(event)
    for p in roster:
        ids[p.name] = p.number
        colours, floats = [], []
        history = {r: (opp, side, res) for r, opp, side, res in event.history(p.name)}
        for r in range(1, round_number):
            opp, side, res = history.get(r, ("", "", ""))
            if side:  # (colours are those of games played: FIDE C.04.3 A.6, as the engine's checker reads them)
                colours.append(WHITE if side == event.opened.sides[0] else BLACK)
            floats.append(_float(side, res, before[p.name][r - 1], before[opp][r - 1] if opp else 0.0))
        byes = sum(1 for *_x, res in history.values() if res == BYE)
        forfeits = sum(1 for opp, side, res in history.values() if res == WIN and not side)
        players.append(
            {
                "id": p.number,
                "name": p.name,
                "score": before[p.name][round_number - 1] / win,
                "rating": p.rating,
                "starting_number": starting[p.name],
                "color_hist": colours,
                "float_history": floats,
                "bye_count": byes,
                "forfeit_win_count": forfeits,
            }
        )
    met = {(ids[a], ids[b]) for pair in event.met() for a, b in [sorted(pair)] if a in ids and b in ids}
    if balanced and event.opened.system != ROUND_ROBIN:
        lean = {p.number: balance(event, p.name) for p in roster}
        met |= {(a, b) for a in lean for b in lean if a < b and lean[a] and lean[a] == lean[b]}
    return {
        "system": "round_robin" if event.opened.system == ROUND_ROBIN else "dutch",
        "players": players,
        "previous_pairings": met,
        "round_number": round_number,
        "total_rounds": event.opened.rounds,
        **(
            {}
            if event.opened.system == ROUND_ROBIN
            else {"bye_value": event.opened.bye / win, "max_byes_per_player": 1}
        ),
    }


def _float(side: str, result: str, mine: float, theirs: float) -> str:
    """A round's float: a game played against a higher score is up, a lower one down (FIDE C.04.3
    A.4); a bye or a forfeit won is down, as the engine's own checker counts it; any other round
    not played, none (docs/rulings.md EVENT-FLOATS)."""
    if not side:
        return "down" if result in (BYE, WIN) else NONE
    return NONE if mine == theirs else "down" if mine > theirs else "up"


def _points_by_round(event: Event) -> dict[str, list[float]]:
    """Each player's points before each round (index 0: before round 1), through the next round."""
    out: dict[str, list[float]] = {}
    for p in event.players.values():
        total, running = 0.0, [0.0]
        by_round = {r: res for r, _o, _s, res in event.history(p.name)}
        for r in range(1, len(event.rounds) + 1):
            total += event.points(by_round[r]) if by_round.get(r) else 0
            running.append(total)
        out[p.name] = running
    return out


def run_engine(arguments: dict[str, Any]) -> list[dict[str, Any]]:
    """The engine's pairing of ``arguments``: its boards as it returns them."""
    # Imported here: the engine brings networkx, which only pairing needs.
    import caissify_pairings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (its warnings are about inputs; the event gives them all)
        result: list[dict[str, Any]] = caissify_pairings.generate_pairings(**arguments)
    return result


def next_round(event: Event) -> Paired:
    """The next round's pairing (its record, unsigned and untimed); NotAllowed if it cannot be paired."""
    number = len(event.rounds) + 1
    if number > event.opened.rounds:
        raise NotAllowed(_("all {n} rounds are paired").format(n=event.opened.rounds))
    last = event.current
    if last is not None and last.open_tables():
        said = _("round {r} is not over: tables {tables} have no certified game nor ruling")
        raise NotAllowed(said.format(r=last.number, tables=", ".join(str(t.number) for t in last.open_tables())))
    _check_size(event, number)
    boards = _boards(event, number)
    names = {p.number: p.name for p in event.players.values()}
    pairs, byes = [], []
    for board in boards:
        white, black = names[board["white_id"]], names.get(board.get("black_id") or 0)
        if black is None:
            byes.append(white)
        elif event.player(white).dropped or event.player(black).dropped:  # (a round robin's schedule)
            byes += [n for n in (white, black) if not event.player(n).dropped]
        else:
            pairs.append(_sides(event, white, black))
    return Paired(round=number, tables=_tables(event, pairs), byes=tuple(byes))


def _check_size(event: Event, number: int) -> None:
    in_play = event.in_play(number)
    if len(in_play) < 2:
        raise NotAllowed(_("fewer than two players to pair"))
    if event.opened.system == ROUND_ROBIN:
        n = len([p for p in event.players.values() if p.joins == 1])
        most = n - 1 if n % 2 == 0 else n
        if event.opened.rounds > most:
            said = _("a round robin of {n} players has {most} rounds; this event has {rounds}")
            raise NotAllowed(said.format(n=n, most=most, rounds=event.opened.rounds))


def _boards(event: Event, number: int) -> list[dict[str, Any]]:
    """The engine's boards: sides kept within one where a pairing allows it.

    A round no pairing allows with the sides rule is not given to the engine with it: the engine
    would search every pairing of the field (its last resort, which does not end at 30 players
    and more: issue #92), so whether one exists is asked first (:func:`pairable`)."""
    balanced = engine_input(event, number)
    if pairable(balanced):
        try:
            return run_engine(balanced)
        except (ValueError, RuntimeError):
            pass  # (the engine's own refusal: paired without the sides rule, as where none exists)
    try:
        return run_engine(engine_input(event, number, balanced=False))
    except (ValueError, RuntimeError) as e:
        raise NotAllowed(_("the pairing engine found no pairing: {why}").format(why=e)) from None


def pairable(arguments: dict[str, Any]) -> bool:
    """Whether the engine's Swiss round of ``arguments`` can be paired whole: every player paired
    (but one, given the bye, where they are odd) with one he may meet by the engine's absolute
    criteria (FIDE C.04.3 C1 and C3, as ``caissify_pairings``'s Dutch judges them: never a game
    again, ``previous_pairings`` holding the sides rule's pairs too; never a side a third time in
    a row nor two past even, save for a top scorer in the last round).  The bye
    may go to anyone: the engine gives it to a player who had neither a bye nor a forfeit won
    where the rest then pair, and to another where they do not (a day's third round of three, its
    one player who won by forfeit having met both others), so a round it pairs whole is never
    taken from it here.  A maximum matching over the field: some milliseconds at 64 players.  A round robin and
    round one always are."""
    if arguments["system"] != "dutch" or arguments["round_number"] == 1:
        return True
    import networkx as nx  # (the engine's own dependency: pairing only)

    players = arguments["players"]
    met = {frozenset(pair) for pair in arguments["previous_pairings"]}
    last = arguments["round_number"] >= arguments["total_rounds"]
    top = (arguments["round_number"] - 1) / 2
    graph = nx.Graph()
    graph.add_nodes_from(p["id"] for p in players)
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            sides = _sides_allowed(a, b) or (last and (a["score"] > top or b["score"] > top))
            if frozenset((a["id"], b["id"])) not in met and sides:
                graph.add_edge(a["id"], b["id"])
    if len(players) % 2:  # (the engine gives the bye to one who had neither where it can, else to anyone)
        graph.add_edges_from(("bye", p["id"]) for p in players)
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == graph.number_of_nodes()


def _sides_allowed(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether one of the two ways to seat ``a`` and ``b`` gives neither a colour a third time in a
    row nor a colour difference past two (FIDE C.04.3 C3, the engine's absolute colour rule)."""

    def bad(hist: list[str], colour: str) -> bool:
        diff = sum(1 if c == WHITE else -1 for c in hist) + (1 if colour == WHITE else -1)
        return hist[-2:] == [colour, colour] or abs(diff) > 2

    ha, hb = a["color_hist"], b["color_hist"]
    return not (bad(ha, WHITE) or bad(hb, BLACK)) or not (bad(ha, BLACK) or bad(hb, WHITE))


def _sides(event: Event, white: str, black: str) -> tuple[str, str]:
    """(first side's player, second's): the engine's, unless it puts either past one of even."""
    if balance(event, white) + 1 > 1 or balance(event, black) - 1 < -1:
        return black, white
    return white, black


def _tables(event: Event, pairs: list[tuple[str, str]]) -> tuple[Table, ...]:
    """Each board its table: the lowest free number the fewest of its players sat at before."""
    sat: dict[str, set[int]] = {}
    for rnd in event.rounds:
        for t in rnd.tables:
            for n in (t.a, t.b):
                sat.setdefault(n, set()).add(t.number)
    free = list(range(1, len(pairs) + 1))
    out = []
    for a, b in pairs:
        number = min(free, key=lambda t: ((t in sat.get(a, ())) + (t in sat.get(b, ())), t))
        free.remove(number)
        out.append(Table(number, a, b))
    return tuple(sorted(out, key=lambda t: t.number))
