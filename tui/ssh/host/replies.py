"""Plain-text answers for ``ssh host COMMAND`` sessions without a terminal.

Everything here reads the game through ``game.view(role)``, so a side's
player learns from a status line no more than his own screen would show
(hidden enemies are not counted, secrets are not named).  They are in the
seat's language: the session answers inside its reader (``tui.ssh.host.session``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

import msgspec

from core.game import Game
from core.language.i18n import SERVER_DOMAIN, Domain, scenario_words
from core.log.narrate import result_of
from core.log.state import GameState
from core.secrets.sidecopy import MAX_COPY_BYTES, export
from tui.plain import visible
from tui.ssh.language import _
from tui.ssh.seatsfile import Seat

ngettext = Domain(SERVER_DOMAIN).ngettext


class TableInfo(Protocol):
    name: str
    game: Game


#: The words ``ssh host WORD`` answers in plain text, with or without a terminal.
COMMANDS = ("status", "games", "who", "help", "kick", "copy")
#: The word that sends the seat's copy of a game (``copy [GAME]``): a file for the player's own machine.
COPY = "copy"


def needs_terminal() -> str:
    return (
        _(
            "Fireteam's table needs a terminal. Connect with a plain `ssh -p PORT HOST`\n"
            "(or `ssh -t -p PORT HOST GAME`), or ask for text: `ssh -p PORT HOST status`,\n"
            "or play in lines of text: `ssh -p PORT HOST plain`."
        )
        + "\n"
    )


def _phase(game: Game, phase: str) -> str:
    """A phase id in the reader's words (the ruleset's catalogue, context ``phase``)."""
    return Domain(game.ruleset.domain).pgettext("phase", phase)


def _side(view: GameState, side: str) -> str:
    """A side by its name (its id only where the view has no such side)."""
    return scenario_words(view.sides[side].name) if side in view.sides else side


def _scenario(title: str) -> str:
    return scenario_words(title) or _("no scenario set up yet")


def status(table: TableInfo, seat: Seat) -> str:
    game = table.game
    view = game.view(seat.role)
    lines = [_("{game}: {scenario}").format(game=table.name, scenario=_scenario(view.scenario))]
    if view.active_side:
        lines.append(
            _("turn {turn}, {phase}; active {active}, reacting {reacting}").format(
                turn=view.turn,
                phase=_phase(game, view.phase),
                active=_side(view, view.active_side),
                reacting=_side(view, view.reacting_side),
            )
        )
    else:
        lines.append(_("turn {turn}, {phase}").format(turn=view.turn, phase=_phase(game, view.phase)))
    for side in view.sides.values():
        units = view.units_of(side.id)
        in_play = sum(1 for u in units if u.in_play)
        lines.append(
            _("{side} ({id}): {in_play}/{units} in play, {dp} DP").format(
                side=scenario_words(side.name), id=side.id, in_play=in_play, units=len(units), dp=side.defeat_points
            )
        )
    if view.result:
        lines.append(_("result: {result}").format(result=result_of(view, game.ruleset.domain)))
    lines.append(_("you: {seat} ({role})").format(seat=seat.name, role=seat.role))
    return "\n".join(lines) + "\n"


def game_line(table: TableInfo) -> str:
    """One game, as the chooser lists it on the player's terminal: what came from a
    save or a file name (the game's name, its scenario's title) with its control
    characters escaped (``tui.plain``)."""
    state = table.game.state
    line = _("{game}: {scenario}, turn {turn}, {phase}").format(
        game=table.name, scenario=_scenario(state.scenario), turn=state.turn, phase=_phase(table.game, state.phase)
    )
    return visible(line)


def games(tables: Iterable[TableInfo], seated: Mapping[str, Sequence[Seat]]) -> str:
    lines = []
    for table in tables:
        state = table.game.state
        lines.append(
            _("{game}: {scenario}, turn {turn}, {phase}; {count} seated").format(
                game=table.name,
                scenario=_scenario(state.scenario),
                turn=state.turn,
                phase=_phase(table.game, state.phase),
                count=len(seated.get(table.name, ())),
            )
        )
    return "\n".join(lines) + "\n"


def who(tables: Iterable[TableInfo], seated: Mapping[str, Sequence[Seat]]) -> str:
    lines = []
    for table in tables:
        people = ", ".join(f"{s.name} ({s.role})" for s in seated.get(table.name, ())) or _("nobody")
        lines.append(_("{game}: {people}").format(game=table.name, people=people))
    return "\n".join(lines) + "\n"


def sessions_closed(seat: str, count: int) -> str:
    """The answer to ``kick``."""
    return ngettext("{seat}: {count} session closed", "{seat}: {count} sessions closed", count).format(
        seat=seat, count=count
    )


def usage(tables: Sequence[TableInfo]) -> str:
    names = ", ".join(t.name for t in tables)
    # TRANSLATORS: keep the commands and the column where the explanations start.
    return _(
        "ssh -p PORT HOST               sit at the table (with several games: pick one)\n"
        "ssh -t -p PORT HOST GAME       sit at GAME's table\n"
        "ssh -t -p PORT HOST plain      sit as plain lines, no screen (plain GAME: at GAME's table)\n"
        "ssh -p PORT HOST status [GAME] the game as your seat sees it\n"
        "ssh -p PORT HOST games         the games on this server\n"
        "ssh -p PORT HOST who           who is seated where\n"
        "ssh -p PORT HOST copy [GAME]   your seat's copy of the game so far (> FILE keeps it)\n"
        "ssh -p PORT HOST kick NAME     (the referee) close every session of the seat NAME\n"
        "games: {games}\n"
    ).format(games=names)


def side_copy(command: str, seat: Seat, tables: Sequence[TableInfo]) -> tuple[str, int]:
    """The reply to ``copy [GAME]``: the seat's role's copy of the game as it stands (a side's copy,
    ``core.secrets.sidecopy``, one JSON document and a newline, what ``fireteam export --as`` makes
    of the save now), for the player to keep on his own machine and give to ``fireteam verify
    --side-copy`` with the finished save; or why not, and 1.  Sent as it is, never escaped: it is
    JSON, whose text escapes every control character, and it must be read back byte for byte."""
    rest = command.split()[1:]
    by_name = {t.name: t for t in tables}
    if not rest and len(tables) == 1:
        table = tables[0]
    elif len(rest) == 1 and rest[0] in by_name:
        table = by_name[rest[0]]
    else:
        said = _("copy GAME: which game's copy; games: {games}").format(games=", ".join(by_name))
        return visible(said) + "\n", 1
    data = msgspec.json.encode(export(table.game, seat.role))
    if len(data) > MAX_COPY_BYTES:  # (it could not be read back)
        return _("this game's copy is larger than a copy can be ({limit} bytes)").format(limit=MAX_COPY_BYTES) + "\n", 1
    return data.decode() + "\n", 0


def answer(
    command: str,
    seat: Seat,
    tables: Sequence[TableInfo],
    seated: Mapping[str, Sequence[Seat]],
) -> tuple[str, int]:
    """The reply to ``command`` and the exit status to send with it.

    It goes to the player's terminal as it is: what came from a save or a file
    name is shown with its control characters escaped (``tui.plain``)."""
    if command.split()[:1] == [COPY]:
        return side_copy(command, seat, tables)
    text, status = _answer(command, seat, tables, seated)
    return visible(text, lines=True), status


def _answer(
    command: str,
    seat: Seat,
    tables: Sequence[TableInfo],
    seated: Mapping[str, Sequence[Seat]],
) -> tuple[str, int]:
    words = command.split()
    by_name = {t.name: t for t in tables}
    if not words:
        return usage(tables), 0
    word, rest = words[0], words[1:]
    if word in by_name and not rest:
        return status(by_name[word], seat), 0
    if word == "status":
        if not rest:
            if len(tables) == 1:
                return status(tables[0], seat), 0
            return "".join(status(t, seat) + "\n" for t in tables), 0
        if len(rest) == 1 and rest[0] in by_name:
            return status(by_name[rest[0]], seat), 0
        return _("no game {name}; games: {games}").format(name=repr(" ".join(rest)), games=", ".join(by_name)) + "\n", 1
    if word == "games":
        return games(tables, seated), 0
    if word == "who":
        return who(tables, seated), 0
    if word == "help":
        return usage(tables), 0
    return _("unknown command {word}").format(word=repr(word)) + "\n" + usage(tables), 1
