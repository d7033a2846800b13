"""Plain-text answers for ``ssh host COMMAND`` sessions without a terminal.

Everything here reads the game through ``game.view(role)``, so a side's
player learns from a status line no more than his own screen would show
(hidden enemies are not counted, secrets are not named).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from core.game import Game
from tui.plain import visible
from tui.ssh.seats import Seat


class TableInfo(Protocol):
    name: str
    game: Game


#: The words ``ssh host WORD`` answers in plain text, with or without a terminal.
COMMANDS = ("status", "games", "who", "help", "kick")

NEEDS_TERMINAL = (
    "Fireteam's table needs a terminal. Connect with a plain `ssh -p PORT HOST`\n"
    "(or `ssh -t -p PORT HOST GAME`), or ask for text: `ssh -p PORT HOST status`.\n"
)


def status(table: TableInfo, seat: Seat) -> str:
    view = table.game.view(seat.role)
    lines = [f"{table.name}: {view.scenario or 'no scenario set up yet'}"]
    phase = f"turn {view.turn}, {view.phase}"
    if view.active_side:
        phase += f"; active {view.active_side}, reacting {view.reacting_side}"
    lines.append(phase)
    for side in view.sides.values():
        units = view.units_of(side.id)
        in_play = sum(1 for u in units if u.in_play)
        lines.append(f"{side.name} ({side.id}): {in_play}/{len(units)} in play, {side.defeat_points} DP")
    if view.result:
        lines.append(f"result: {view.result}")
    lines.append(f"you: {seat.name} ({seat.role})")
    return "\n".join(lines) + "\n"


def games(tables: Iterable[TableInfo], seated: Mapping[str, Sequence[Seat]]) -> str:
    lines = []
    for table in tables:
        state = table.game.state
        title = state.scenario or "no scenario yet"
        count = len(seated.get(table.name, ()))
        lines.append(f"{table.name}: {title}, turn {state.turn}, {state.phase}; {count} seated")
    return "\n".join(lines) + "\n"


def who(tables: Iterable[TableInfo], seated: Mapping[str, Sequence[Seat]]) -> str:
    lines = []
    for table in tables:
        people = ", ".join(f"{s.name} ({s.role})" for s in seated.get(table.name, ())) or "nobody"
        lines.append(f"{table.name}: {people}")
    return "\n".join(lines) + "\n"


def usage(tables: Sequence[TableInfo]) -> str:
    names = ", ".join(t.name for t in tables)
    return (
        "ssh -p PORT HOST               sit at the table (with several games: pick one)\n"
        "ssh -t -p PORT HOST GAME       sit at GAME's table\n"
        "ssh -p PORT HOST status [GAME] the game as your seat sees it\n"
        "ssh -p PORT HOST games         the games on this server\n"
        "ssh -p PORT HOST who           who is seated where\n"
        "ssh -p PORT HOST kick NAME     (the referee) close every session of the seat NAME\n"
        f"games: {names}\n"
    )


def answer(
    command: str,
    seat: Seat,
    tables: Sequence[TableInfo],
    seated: Mapping[str, Sequence[Seat]],
) -> tuple[str, int]:
    """The reply to ``command`` and the exit status to send with it.

    It goes to the player's terminal as it is: what came from a save or a file
    name is shown with its control characters escaped (``tui.plain``)."""
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
        return f"no game {' '.join(rest)!r}; games: {', '.join(by_name)}\n", 1
    if word == "games":
        return games(tables, seated), 0
    if word == "who":
        return who(tables, seated), 0
    if word == "help":
        return usage(tables), 0
    return f"unknown command {word!r}\n" + usage(tables), 1
