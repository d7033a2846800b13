"""Tab in the line client, wherever its lines are typed: ``fireteam --plain`` at a terminal
(the standard library's ``readline``) and a plain seat over SSH (``tui.lines.editor``).

What the word being typed may become is the game's to say (``Game.complete``, the Textual
client's command line's own), and the client's reading words for a line's first word; a
question's answer (undo's y or n, the table's faces) takes no word.  One candidate is taken
whole, with a space after it; several, as far as they agree; a Tab that takes nothing lists
them in the game's order (the phase's commands as its rules play it, the figures a command
refuses last), row by row, as a screen reader reads them, never readline's sorted columns,
each figure's or side's id said with its name, as the client's command line says them.
"""

from __future__ import annotations

import os

from core.language.i18n import scenario_words
from tui.lines.client import LineClient
from tui.lines.words import own_words


def candidates(client: LineClient, typed: str) -> list[str]:
    """What the word at the end of ``typed`` (the line up to the cursor) may become."""
    if client.asking:  # faces for the table's dice, or y or n: no word would be taken
        return []
    word = typed.rsplit(" ", 1)[-1]
    found = client.game.complete(typed, client.role)
    if typed.strip() == word:  # the first word: the client's own words too
        found += [w for w in own_words().values() if w.startswith(word.lower()) and w not in found]
    return found


def completed(line: str, pos: int, found: list[str]) -> tuple[str, int] | None:
    """``line`` with the word before ``pos`` completed from ``found``, and where the cursor
    goes; None when Tab takes nothing (no candidate, or several that agree no further)."""
    word = line[:pos].rsplit(" ", 1)[-1]
    if len(found) == 1:
        taken = found[0] + " "  # a word completed whole: the next one is typed after a space
    else:
        taken = os.path.commonprefix(found)
        if len(taken) <= len(word):
            return None
    start = pos - len(word)
    return line[:start] + taken + line[pos:], start + len(taken)


def with_names(client: LineClient, found: list[str]) -> list[str]:
    """The candidates as a second Tab lists them: a figure's or a side's id with the name the
    role knows it by beside it (``irregulars (Somali militia)``); Tab puts only the id on the line."""
    state = client.game.view(client.role)
    names = {sid: scenario_words(s.name) for sid, s in state.sides.items()}
    names |= {uid: u.name for uid, u in state.units.items()}
    said = []
    for c in found:
        value = c.rpartition("=")[2]
        name = names.get(value, value)
        said.append(f"{c} ({name})" if name != value else c)
    return said


def in_rows(found: list[str], width: int) -> str:
    """The candidates in their order, as many to a row as ``width`` holds, each row a line."""
    if not found:
        return ""
    cell = max(len(c) for c in found) + 2
    per_row = max(1, max(20, width) // cell)
    rows = [found[i : i + per_row] for i in range(0, len(found), per_row)]
    return "".join("".join(c.ljust(cell) for c in row).rstrip() + "\n" for row in rows)
