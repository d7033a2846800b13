"""The log as the line client says it: ``log N``, what is new after a command (briefly for the
seat's own), the secrets opened (``secrets``), a piece joining said by its names."""

from __future__ import annotations

import re
from collections.abc import Mapping

import msgspec

from core.game import Game, LogLine
from core.language.i18n import Msg, Names
from core.log import events as ev
from core.log.narrate import sides_of
from core.log.state import HIDDEN
from core.secrets.commitments import matches
from tui import odds as chances
from tui.i18n import _, ngettext, number, pgettext, side_name
from tui.lines.answers.words import sentence, stopped
from tui.lines.ink import Line, inked, outcome_kind, prefixed
from tui.lines.spoken import spoken_outcome
from tui.logindex import RowIndex
from tui.loglines import outcome_first

#: Lines ``log`` shows when not told how many.
LOG_LINES = 10
#: The most lines one ``log N`` answers with (``fireteam log SAVE`` prints them all).
MAX_LOG_LINES = 500

#: The signs the log pane draws before a command (»), an undo (↶) and a redo (↷): a screen
#: reader spells them out by name, and the words after them say it all.
_LOG_SIGNS = ("» ", "↶ ", "↷ ")
_SPACES = re.compile(" {2,}")


def unsigned(text: str) -> str:
    """A log line's text without the pane's leading sign, and without its runs of spaces
    (the pane's gap before "(again after an undo: #n)"), as a screen reader should read it."""
    for sign in _LOG_SIGNS:
        text = text.removeprefix(sign)
    return _SPACES.sub(" ", text)


def log_line(line: LogLine, domain: str, names: Names | None = None, *, typed_by: str | None = None) -> Line:
    """One line of the log, as the log pane shows it without its signs: a command with the
    number the role knows it by, a roll's outcome first, an undone line said to be so, first.
    ``typed_by``: the roll's faces were typed at this seat just now, so its outcome is said
    with whose roll it was (``typed_by``, "" if unnamed) and not the roll again."""
    e = line.event
    split = outcome_first(line, domain, names)
    if split is not None:
        assert isinstance(e, ev.Rolled)
        outcome = spoken_outcome(e.roll.outcome) or split[0]
        kind = outcome_kind(chances.succeeded(e.roll))
        if typed_by is None:
            text: Line = inked(sentence(outcome), kind, " " + sentence(split[1]))
        elif typed_by:
            text = inked(sentence(outcome).removesuffix("."), kind, stopped(", " + typed_by))
        else:
            text = inked(sentence(outcome), kind)
    elif isinstance(e, ev.Issued):
        # (a command hidden from the role has no number: Reading.hidden_header)
        text = sentence(f"#{line.number} {unsigned(line.text)}" if line.number else unsigned(line.text))
    else:
        text = sentence(unsigned(line.text))
    if line.undone:
        # TRANSLATORS: before a log line whose command was undone (it stays in the log and no longer counts)
        text = prefixed(_("Undone:") + " ", text)
    return text


#: The openings of commitments (a secret revealed, one opened at the end), each checked against its commitment.
_OPENINGS = (ev.Revealed, ev.Opened)


def _opening(line: LogLine) -> bool:
    e = line.event
    return isinstance(e, _OPENINGS) and bool(e.digest) and not line.undone


def worded(line: LogLine, game: Game) -> LogLine:
    """``line`` with a piece that joins the game said with its class and weapons by their names
    ("Sgt Rossi joins Bersaglieri: Veteran, Assault rifle"), as the roster says them: the log's
    line has the tables' codes ("Veteran with AR"), which a screen reader reads as letters.  A
    confirmation says who confirmed for which side, and not the certificate it names (its digest
    is never said: ``tui.lines.spoken``)."""
    e = line.event
    if isinstance(e, ev.Confirmed):
        said = _("{name} confirms the result for {side}").format(name=e.name, side=side_name(game.state, e.side))
        return msgspec.structs.replace(line, text=said)
    if not isinstance(e, ev.UnitAdded):
        return line
    u, ruleset = e.unit, game.ruleset
    side = side_name(game.state, u.side)
    kit = ", ".join(
        ([ruleset.piece_class(game.state, u.cls)] if u.cls else []) + [ruleset.weapon_name(w) for w in u.weapons]
    )
    if HIDDEN in u.status:
        said = _("{unit} joins {side}, hidden: {kit}") if kit else _("{unit} joins {side}, hidden")
    else:
        said = _("{unit} joins {side}: {kit}") if kit else _("{unit} joins {side}")
    return msgspec.structs.replace(line, text=said.format(unit=u.name, side=side, kit=kit))


def _typed_by(line: LogLine, own: int, owners: Mapping[str, str]) -> str | None:
    """Whose roll ``line`` is, if its faces were typed at this seat for its command ``own``
    (the table's dice, or ``dice=`` on the line): its outcome is then said without the roll.  Faces
    another seat typed for it (``Rolled.given_by``) are said whole, with who gave them (issue #74)."""
    e = line.event
    if not own or line.cmd != own or not isinstance(e, ev.Rolled) or not e.roll.manual or e.given_by:
        return None
    return owners.get(e.unit, "") or owners.get(e.side, "")


def brief(lines: list[LogLine], own: int, names: Mapping[str, str] | None = None) -> list[LogLine]:
    """``lines`` without the game's counters set by the seat's own command ``own`` ("action 1 of
    this activation", "Bersaglieri fired first"), when it has other lines to say: its outcomes
    come first and alone, as a radio call (the counters were 7.1 of a fire's 31.8 s aloud; 9.2 s
    in Italian); ``log`` and ``verbose on`` say them.  Nor the statuses the command gave a piece
    that a line of it said already: whose roll's outcome it said ("Failed: out of action, Aden
    Farah" then "Aden Farah out of action: killed by Bersaglieri", "1 hit, Pte Greco" then "Pte
    Greco now fired": 5.4 s of an Italian fire), or that a note names (by ``names``, the units'
    names by id: "Note: Yusuf Ali must check morale: his commander was killed or wounded" after
    "Yusuf Ali now due a morale check, now under fire for morale": the note says why).  Nor,
    after a roll's outcome, the secrets it committed to (Linea di Tiro's attack survived, the
    referee's: a plain seat heard "Commitment to a secret of the referee" after each shot)."""
    names = names or {}
    said: set[str] = set()
    outcomes = False
    for line in lines:
        e = line.event
        if line.cmd != own or line.undone:
            continue
        if isinstance(e, ev.Rolled) and e.roll.outcome:
            said.add(e.unit)
            outcomes = True
        elif isinstance(e, ev.Noted) and isinstance(e.text, Msg):
            named = e.text.args.get("unit")
            said |= {uid for uid, name in names.items() if name == named}
    dropped = [
        line
        for line in lines
        if line.cmd == own
        and (
            isinstance(line.event, ev.VarSet)
            or (isinstance(line.event, ev.StatusChanged | ev.UnitOut) and line.event.unit in said)
            or (isinstance(line.event, ev.Committed) and outcomes)
        )
    ]
    if not own or not dropped or len(dropped) == sum(line.cmd == own for line in lines):
        return lines
    return [line for line in lines if line not in dropped]


def news(
    lines: list[LogLine],
    domain: str,
    names: Names | None = None,
    *,
    own: int = 0,
    owners: Mapping[str, str] | None = None,
) -> list[Line]:
    """New lines of the log as the line client says them (a commitment without its digest, as every
    line: ``tui.lines.spoken``).
    At the end of the game the result comes first, then the secrets opened with it in one
    sentence (each checked against its commitment: every one that does not match is said in
    full; ``secrets`` reads them all), then the rest (the scores' working, which a plain seat
    keeps for ``more``).  (Read aloud, fourteen openings took three minutes before the result.)
    ``own``: the seat's own command, said briefly (:func:`brief`), a roll whose faces the seat
    typed by its outcome and whose it was (``owners``: units' and sides' names by id), not read
    back."""
    owners = owners or {}
    lines = brief(lines, own, owners)

    def said(line: LogLine) -> Line:
        return log_line(line, domain, names, typed_by=_typed_by(line, own, owners))

    ended = [line for line in lines if isinstance(line.event, ev.GameEnded) and not line.undone]
    if not ended:
        return [said(line) for line in lines]
    opened = [line for line in lines if _opening(line)]
    rest = [said(line) for line in lines if line not in ended and line not in opened]
    out = [said(line) for line in ended]
    if opened:
        wrong = [line for line in opened if isinstance(line.event, _OPENINGS) and not matches(line.event)]
        if not wrong:
            sentence = ngettext(
                "The secret opened at the end matches its commitment; {word} reads it.",
                "All {count} secrets opened at the end match their commitments; {word} reads them.",
                len(opened),
            )
            out.append(sentence.format(count=number(len(opened)), word=pgettext("command", "secrets")))
        else:
            out.append(
                inked(
                    _("{wrong} of {count} secrets opened at the end do NOT match their commitments:").format(
                        wrong=number(len(wrong)), count=number(len(opened))
                    ),
                    "bad",
                )
            )
            out += [log_line(line, domain, names) for line in wrong]
    return out + rest


def secrets(game: Game, role: str) -> list[Line]:
    """Every secret opened so far (``secrets``), in full, each with its commitment's check."""
    domain = game.ruleset.domain
    names = sides_of(game.state)
    found = [line for line in game.log_lines(role, 0, game.log_length) if _opening(line)]
    if not found:
        return [_("No secret has been opened yet.")]
    said = ngettext(
        "{count} secret opened, in the log's order:", "{count} secrets opened, in the log's order:", len(found)
    )
    return [said.format(count=number(len(found))), *(log_line(line, domain, names) for line in found)]


def last_lines(game: Game, index: RowIndex, role: str, count: int) -> list[Line]:
    """The role's last ``count`` log lines (``log N``), oldest first, after a sentence saying which."""
    index.extend()
    rows = index.rows()
    if rows == 0:
        return [_("The log is empty.")]
    count = max(1, min(count, MAX_LOG_LINES, rows))
    start = index.position(rows - count)
    domain = game.ruleset.domain
    said = ngettext(
        "The last line of the log, of {total}:", "The last {count} lines of the log, of {total}, oldest first:", count
    )
    out: list[Line] = [said.format(count=number(count), total=number(rows))]
    names = sides_of(game.state)
    lines = game.log_lines(role, start, game.log_length)
    out += [log_line(worded(line, game), domain, names) for line in lines if not line.inner]
    return out
