"""What the line client's reading commands say: each pane of the Textual client, in whole sentences.

Everything comes from what the role may see, through the same doors the
Textual client's panes use: ``Game.view(role)`` (the phase pane, the roster),
``Game.log_lines(role)`` with its numbers (the log, and the dice pane through
``tui.viewpoint.Viewpoint``), ``Game.odds``; nothing here reads the game's
own state or its file positions.  Each answer is a list of lines, each line a
sentence that begins with its most important words (the outcome of a roll, a
figure's name and state, the turn and phase) and ends with a stop, with no
table art, no box drawing and no alignment by spaces: a screen reader reads it
as written, and a braille display's first cells say what matters.  Text that
came from outside (names, notes, commands) is made visible (``tui.visible``)
by the client as it writes the line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

import msgspec

from core import events as ev
from core.commands import example_words, find_unit, local_name, localize_line, meanings, names, spec_domain, usage
from core.dice import DiceRequest
from core.game import Game, LogLine
from core.language.i18n import Domain, Msg, Names
from core.narrate import describe_mod, result_of, sides_of, whose
from core.questions import Question
from core.ruleset import END_GAME, CommandSpec, Refused, Ruleset
from core.secrets.commitments import matches
from core.state import HIDDEN, TABLE_DICE, GameState, Side, Unit, team_morale
from core.views import REFEREE, SPECTATOR, sides_for
from tui import odds as chances
from tui.badges import word as status_word
from tui.i18n import N_, _, book, ngettext, number, percentage, pgettext, phase_name, scenario_words, shown, side_name
from tui.lines.ink import Line, inked, outcome_kind, prefixed
from tui.lines.spoken import spoken_outcome
from tui.logindex import RowIndex
from tui.loglines import outcome_first
from tui.viewpoint import Viewpoint

#: Lines ``log`` shows when not told how many.
LOG_LINES = 10
#: The most lines one ``log N`` answers with (``fireteam log SAVE`` prints them all).
MAX_LOG_LINES = 500
#: Rolls ``dice`` names after the last one.
EARLIER_ROLLS = 5
#: What ends a sentence (a line that ends otherwise gets a full stop).
_ENDS = (".", "!", "?", "…", ":")


def stopped(text: str) -> str:
    """``text`` with a full stop at its end, unless it ends a sentence already."""
    text = text.strip()
    return text if not text or text.endswith(_ENDS) else text + "."


def sentence(text: str) -> str:
    """``text`` as a sentence: its first letter a capital, a full stop at its end (a line
    that begins with a word to type, a command's or a name, keeps its case: :func:`stopped`)."""
    text = stopped(text)
    return text[0].upper() + text[1:] if text and text[0].islower() else text


def listed(items: Iterable[str]) -> str:
    """``a, b and c`` in the reader's language."""
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    # TRANSLATORS: the last two items of a list ("rifle, grenade and radio")
    return _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


# ------------------------------------------------------------------ the log


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
        # (a command hidden from the role has no number: Game.hidden_header)
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


def _heard(line: LogLine) -> LogLine:
    """``line`` as said when it happens: a commitment without its digest.  Sixteen hex digits
    take 5 s aloud and no listener compares them (a new demo game's fourteen were 107 of the
    261 s its scenario's answer took): the game checks each one when its secret is opened, and
    ``log`` reads it.  (Every catalogue ends the line with ``: {digest}``, as ``core.narrate`` does.)"""
    e = line.event
    if isinstance(e, ev.Committed):
        return msgspec.structs.replace(line, text=line.text.removesuffix(f": {e.digest[:16]}"))
    return line


def worded(line: LogLine, game: Game) -> LogLine:
    """``line`` with a piece that joins the game said with its class and weapons by their names
    ("Sgt Rossi joins Bersaglieri: Veteran, Assault rifle"), as the roster says them: the log's
    line has the tables' codes ("Veteran with AR"), which a screen reader reads as letters."""
    e = line.event
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
    """New lines of the log as the line client says them (a commitment without its digest).
    At the end of the game the result comes first, and the secrets opened with it are one
    sentence (each checked against its commitment: every one that does not match is said in
    full); ``secrets`` reads them all.  (Read aloud, fourteen openings took three minutes
    before the result.)  ``own``: the seat's own command, said briefly (:func:`brief`), a roll
    whose faces the seat typed by its outcome and whose it was (``owners``: units' and sides'
    names by id), not read back."""
    owners = owners or {}
    lines = brief(lines, own, owners)

    def said(line: LogLine) -> Line:
        return log_line(_heard(line), domain, names, typed_by=_typed_by(line, own, owners))

    ended = [line for line in lines if isinstance(line.event, ev.GameEnded) and not line.undone]
    if not ended:
        return [said(line) for line in lines]
    opened = [line for line in lines if _opening(line)]
    rest = [line for line in lines if line not in ended and line not in opened]
    out = [said(line) for line in (*ended, *rest)]
    if opened:
        wrong = [line for line in opened if not matches(line.event)]  # type: ignore[arg-type]
        if not wrong:
            said = ngettext(
                "The secret opened at the end matches its commitment; {word} reads it.",
                "All {count} secrets opened at the end match their commitments; {word} reads them.",
                len(opened),
            )
            out.append(said.format(count=number(len(opened)), word=pgettext("command", "secrets")))
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
    return out


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


# ---------------------------------------------------------------- the phase


def _turn_and_phase(game: Game, state: GameState) -> str:
    ruleset = game.ruleset
    phase = ruleset.phase(state.phase)
    name = phase_name(ruleset, phase) if phase else book(ruleset).pgettext("phase", state.phase)
    if state.phase == "ended":
        return _("Turn {turn}: the game has ended.").format(turn=state.turn)
    if state.turn:
        return _("Turn {turn}, {phase} phase.").format(turn=state.turn, phase=name)
    return _("Before play, {phase} phase.").format(phase=name)


def _who_acts(state: GameState) -> list[str]:
    out = []
    if state.active_side:
        out.append(_("Active side: {side}.").format(side=side_name(state, state.active_side)))
    if state.reacting_side:
        out.append(_("Reacting side: {side}.").format(side=side_name(state, state.reacting_side)))
    if state.card:
        out.append(_("Card drawn: {card}.").format(card=state.card))
    return out


def _next(game: Game, state: GameState) -> list[str]:
    expects = game.ruleset.expects(state)
    return [sentence(_("Next: {what}").format(what=shown(expects, game.ruleset, state)))] if expects else []


def _scored(state: GameState) -> bool:
    """Whether a side has defeat points: until one has, they are not said (Linea di Tiro, Bassa
    Intensità and Ludonet keep none: "Defeat points: US 30th Infantry 0; Rearguard 0." was 4 s
    aloud in every status)."""
    return any(side.defeat_points or side.dp_by_category for side in state.sides.values())


def _defeat_points(game: Game, state: GameState) -> list[str]:
    if not _scored(state):
        return []
    words = book(game.ruleset)
    parts = []
    for side in state.sides.values():
        part = f"{scenario_words(side.name)} {number(side.defeat_points)}"
        cats = [f"{words.gettext(k)} {number(v)}" for k, v in sorted(side.dp_by_category.items()) if v]
        if len(cats) > 1:
            part += f" ({', '.join(cats)})"
        parts.append(part)
    return [_("Defeat points: {sides}.").format(sides="; ".join(parts))]


def _game_over(game: Game, state: GameState) -> list[Line]:
    if not state.result:
        return []
    said = result_of(state, game.ruleset.domain)
    return [inked(sentence(_("Game over: {result}").format(result=said)), "bad")]


def phase(game: Game, state: GameState, *, referee_live: bool) -> list[Line]:
    """The phase pane: the turn and phase with its rule, the phases of a turn, who acts, what comes next."""
    ruleset = game.ruleset
    out = _game_over(game, state)
    first = _turn_and_phase(game, state)
    current = ruleset.phase(state.phase)
    if current is not None and current.rule:
        first = first.removesuffix(".") + "; " + _("rule {rule}.").format(rule=current.rule)
    out.append(first)
    if ruleset.phases:
        named = []
        for p in ruleset.phases:
            # TRANSLATORS: the phase the game is in, in the list of a turn's phases
            named.append(
                _("{phase} (now)").format(phase=phase_name(ruleset, p))
                if p.id == state.phase
                else phase_name(ruleset, p)
            )
        out.append(_("The phases of a turn, in order: {phases}.").format(phases=", ".join(named)))
    out += _who_acts(state)
    out += _next(game, state)
    if referee_live and ruleset.can_end(state):
        out.append(stopped(_("{verb} ends the game").format(verb=local_name("command", END_GAME, ruleset.domain))))
    return out


def status(
    game: Game,
    state: GameState,
    *,
    role: str,
    seat: str,
    mode: str,
    save: str,
    undo: str | None,
    table: str = "",
) -> list[Line]:
    """Where the game stands, the most important first: the end of the game, the turn
    and phase, who acts, what comes next, the defeat points; then who reads, at which
    game, how it is played, and what undo would take back (``table``: the game's name at a
    shared table, said instead of the save)."""
    out = _game_over(game, state)
    out.append(_turn_and_phase(game, state))
    out += _who_acts(state)
    out += _next(game, state)
    out += _defeat_points(game, state)
    if role == REFEREE:
        who = _("the referee")
    elif role == SPECTATOR:
        who = _("a spectator")
    else:
        who = _("side {side}").format(side=side_name(state, role))
    if seat and seat != role:
        who = _("{who}, seat {seat}").format(who=who, seat=seat)
    scenario = scenario_words(state.scenario) or _("no scenario yet")
    out.append(
        _("You are {who}, at {rules}, scenario {scenario}; {mode}.").format(
            who=who, rules=game.ruleset.title(game.header.ruleset_version), scenario=scenario, mode=mode
        )
    )
    if table:  # a seat of a shared table is told the game's name there, never the server's path
        out.append(_("The game at this table is called {table}.").format(table=table))
    else:
        out.append(_("The save is {save}.").format(save=save))
    if undo:
        out.append(_("Undo would take back {command}.").format(command=undo))
    return out


# --------------------------------------------------------------- the roster


#: Badges the panes show as a code and a count, in words for the line client: Linea di Tiro's
#: activation options (LT-R020) and its counting badges (``ready-2``: two prepared attacks).
_SPOKEN_OPTIONS: dict[str, str] = {
    "A1": N_("activation option 1 (a bound and a prepared attack)"),
    "A2": N_("activation option 2 (a bound and an attack)"),
    "A3": N_("activation option 3 (an attack and a prepared one)"),
    "A4": N_("activation option 4 (two attacks)"),
    "A5": N_("activation option 5 (full speed)"),
    "A6": N_("activation option 6 (mounting)"),
    "A7": N_("activation option 7 (recovering)"),
}


def _spoken_count(counted: str, n: int) -> str | None:
    if counted == "ready":
        return ngettext("{n} prepared attack", "{n} prepared attacks", n).format(n=n)
    if counted == "fired":
        return ngettext("fired {n} time", "fired {n} times", n).format(n=n)
    if counted == "he":
        return ngettext("high explosive kept on it {n} time", "high explosive kept on it {n} times", n).format(n=n)
    if counted == "attacks":
        return ngettext("{n} attack", "{n} attacks", n).format(n=n)
    return None


def spoken_status(status: str, domain: str) -> str:
    """A status in words: a coded or counted badge said in full, any other as the panes say it."""
    if status in _SPOKEN_OPTIONS:
        return _(_SPOKEN_OPTIONS[status])
    counted, _sep, count = status.rpartition("-")
    if count.isdigit():
        said = _spoken_count(counted, int(count))
        if said is not None:
            return said
    return status_word(status, domain)


def _statuses(unit: Unit, domain: str) -> list[str]:
    return [spoken_status(s, domain) for s in unit.status]


def _kit(unit: Unit, ruleset: Ruleset, state: GameState) -> str:
    """A figure's class and weapons by their names, not the tables' codes ("Veteran, Assault rifle", not "R3 AR")."""
    named = [ruleset.piece_class(state, unit.cls)] if unit.cls else []
    return ", ".join(named + [ruleset.weapon_name(w) for w in unit.weapons])


def figure(unit: Unit, ruleset: Ruleset, state: GameState) -> str:
    """A figure in one sentence: its name, its state, then its kit."""
    domain = ruleset.domain
    words = Domain(domain)
    name = unit.name
    if "leader" in unit.roles or "commander" in unit.roles:
        name = _("{name}, leader").format(name=name)
    condition = []
    if unit.out:
        condition.append(_("out of action"))
    condition += _statuses(unit, domain)
    if unit.marker:
        condition.append(_("under marker {label}").format(label=unit.marker))
    kit = _kit(unit, ruleset, state) or (words.term(unit.kind) if unit.kind != "man" else "")
    # Not "ready": Linea di Tiro's prepared attack is one (a badge), said as such.
    said = ", ".join(condition) if condition else _("no status")
    if kit:
        return _("{name}: {state}; {kit}.").format(name=name, state=said, kit=kit)
    return _("{name}: {state}.").format(name=name, state=said)


def _side_line(side: Side, units: list[Unit], scored: bool) -> str:
    in_play = sum(u.in_play for u in units)
    if not scored:  # no side has any defeat points (``_scored``)
        said = ngettext(
            "{side} ({id}): {in_play} of {count} figure in play.",
            "{side} ({id}): {in_play} of {count} figures in play.",
            len(units),
        )
        return said.format(side=scenario_words(side.name), id=side.id, in_play=in_play, count=len(units))
    return ngettext(
        "{side} ({id}): {in_play} of {count} figure in play; {points} defeat points.",
        "{side} ({id}): {in_play} of {count} figures in play; {points} defeat points.",
        len(units),
    ).format(
        side=scenario_words(side.name), id=side.id, in_play=in_play, count=len(units), points=number(side.defeat_points)
    )


def _team_line(team: str, units: list[Unit], morale: object, domain: str) -> str:
    in_play = sum(u.in_play for u in units)
    name = scenario_words(team) if team else _("(no team)")
    parts = [
        ngettext("{in_play} of {count} in play", "{in_play} of {count} in play", len(units)).format(
            in_play=in_play, count=len(units)
        )
    ]
    if len(units) > in_play:
        parts.append(_("{count} lost").format(count=len(units) - in_play))
    counted: dict[str, int] = {}
    for u in units:
        if u.in_play:
            for s in u.status:
                counted[s] = counted.get(s, 0) + 1
    parts += [
        ngettext("{status}: {count} figure", "{status}: {count} figures", n).format(
            status=spoken_status(s, domain), count=n
        )
        for s, n in counted.items()
    ]
    if morale not in (None, ""):
        said = Domain(domain).term(morale) if isinstance(morale, str) else str(morale)
        parts.append(_("morale {state}").format(state=said))
    return _("Team {team}: {counts}.").format(team=name, counts="; ".join(parts))


def roster(game: Game, state: GameState, role: str = "") -> list[str]:
    """The roster pane: each side (``role``'s own first: ``core.views.sides_for``), its teams and
    figures, then the hidden markers the role sees."""
    domain = game.ruleset.domain
    if not state.sides:
        return [_("No sides yet: the game has no scenario.")]
    out = []
    for side in (state.sides[s] for s in sides_for(state, role)):
        units = state.units_of(side.id)
        out.append(_side_line(side, units, _scored(state)))
        teams: dict[str, list[Unit]] = {}
        for u in units:
            teams.setdefault(u.team, []).append(u)
        for team, members in teams.items():
            out.append(_team_line(team, members, team_morale(state, side.id, team), domain))
            out += [figure(u, game.ruleset, state) for u in members]
    if state.markers:
        out.append(
            ngettext(
                "{count} hidden marker on the table: {labels}.",
                "{count} hidden markers on the table: {labels}.",
                len(state.markers),
            ).format(count=len(state.markers), labels=", ".join(sorted(state.markers)))
        )
    return out


def who(game: Game, state: GameState, role: str, words: str) -> list[str]:
    """One figure in full (the roster's details line), found by any word of its name or id."""
    if not words.strip():
        raise Refused(_("who NAME: name a figure, e.g. who rossi"))
    if words.strip().upper() in state.markers:
        label = words.strip().upper()
        return [
            _(
                "Marker {label}: a hidden enemy on the table. Name it to sight him (react-spot UNIT {label} range=…) "
                "or to fire speculatively (speculative UNIT {label} range=…)."
            ).format(label=label)
        ]
    unit = find_unit(words.strip(), state, role)
    ruleset = game.ruleset
    book_words = book(ruleset)
    out = [figure(unit, ruleset, state)]
    named = ruleset.class_name(unit.cls) if unit.cls else ""
    cls = book_words.gettext(named) if named else book_words.term(unit.kind)
    where = side_name(state, unit.side)
    if unit.team:
        where = _("{side}, team {team}").format(side=where, team=scenario_words(unit.team))
    out.append(_("{name} ({id}) is a {kind} of {where}.").format(name=unit.name, id=unit.id, kind=cls, where=where))
    if unit.weapons:
        out.append(_("Weapons: {weapons}.").format(weapons=", ".join(ruleset.weapon_name(w) for w in unit.weapons)))
    if unit.roles:
        out.append(_("Roles: {roles}.").format(roles=", ".join(book_words.term(r) for r in unit.roles)))
    if unit.leadership:
        out.append(_("Leadership {value}.").format(value=unit.leadership))
    if unit.moved_cm:
        out.append(_("Moved {distance} cm this turn.").format(distance=number(unit.moved_cm)))
    if unit.spotted_by:
        out.append(_("Spotted by {sides}.").format(sides=", ".join(side_name(state, s) for s in unit.spotted_by)))
    if unit.out:
        out.append(sentence(_("Out of action: {cause}").format(cause=book_words.render(unit.out))))
    return out


# ----------------------------------------------------------------- the dice


def narrowed(request: DiceRequest, applying: tuple[str, ...]) -> DiceRequest:
    """``request`` with its command's dice narrowed to the steps that apply (``Ruleset.dice_that_apply``),
    its step counted among them; the step rolled now is kept whatever the ruleset said of it."""
    at = request.current()
    rolled = request.order[at] if at is not None else None
    order = tuple(step for step in request.order if step in applying or step == rolled)
    return msgspec.structs.replace(request, order=order, step=None if rolled is None else order.index(rolled))


def table_dice(request: DiceRequest, *, first: bool, verbose: bool, held: bool = False) -> list[Line]:
    """A roll asked of the table's dice.  Brief: one sentence, whose roll, what for, what it
    needs and its chance, as a radio call (the prompt says what to type: the whole answer to a
    fire was 77 s aloud, the command's order of dice 30 s of a ``next``); not the modifiers
    that make the need ("(base 5+, team leader +1)": 3.4 s of an Italian save's question).  ``verbose`` (or
    ``help`` at the prompt): the chance in full and, read off a table, what each face means
    (before the roll); on a command's ``first`` roll its dice in order; and which of them this
    roll is, every time (a referee typing a long fire sequence keeps his place by it).
    ``held``: asked of this seat for another's command, so first the roll it answers, as a
    result says it ("1 hit, Pte Conti."): a defender heard of his save before the hit."""
    before = answering(request) if held else ""
    if not verbose:
        chance = request.chance()
        # TRANSLATORS: a roll asked of the table's dice, then its chance:
        # "Ahmed Noor's save: 1d6, needs 5+; chance 33.3%"
        roll = request.text(mods=False)
        said = _("{roll}; chance {chance}").format(roll=roll, chance=chance) if chance else roll
        return [before + sentence(said)]
    out: list[Line] = [before + _("Table dice: {roll}.").format(roll=request.text())]
    chance = request.chance_text()
    if chance:
        out.append(sentence(_("Chance before the roll: {chance}").format(chance=chance)))
    meanings = request.meanings_text()
    if meanings:
        out.append(sentence(_("What the faces mean: {meanings}").format(meanings=meanings)))
    if request.order and first:
        words = Domain(request.domain)
        steps = "; ".join(f"{i}. {words.gettext(step)}" for i, step in enumerate(request.order, start=1))
        out.append(_("Its dice, in order: {steps}.").format(steps=steps))
    if request.current() is not None and len(request.order) > 1:
        out.append(sentence(request.step_text()))
    return out


def answering(request: DiceRequest) -> str:
    """``1 hit, Pte Conti. ``: the roll ``request`` answers, its outcome and whose ("" if none)."""
    if not request.answers:
        return ""
    outcome = spoken_outcome(request.answers) or Domain(request.domain).render(request.answers)
    said = sentence(outcome)
    return (said.removesuffix(".") + stopped(", " + request.answered_by) if request.answered_by else said) + " "


def question(asked: Question) -> list[Line]:
    """A command's question the game cannot decide (``core.questions``): what is asked,
    then each answer with what it means."""
    return [
        _("Question: {question}.").format(question=asked.text()),
        _("Answers: {answers}.").format(answers="; ".join(asked.options())),
    ]


def _faces(roll: ev.Roll) -> str:
    parts = []
    for face in roll.faces:
        met = chances.die_succeeds(roll, face)
        if met is None:
            parts.append(str(face))
        else:
            # TRANSLATORS: a die and whether it met what the roll needed ("5 met", "2 missed")
            parts.append(_("{face} met").format(face=face) if met else _("{face} missed").format(face=face))
    said = _("Faces: {faces}.").format(faces=", ".join(parts))
    if roll.total:
        total = sum(roll.faces)
        mods = chances.modifier_sum(roll) if roll.target is None and roll.mods else 0
        if mods:
            said += " " + _("Total {total}, {mods:+d} for the modifiers: {score}.").format(
                total=total, mods=mods, score=total + mods
            )
        else:
            said += " " + _("Total {total}.").format(total=total)
    return said


def _target(roll: ev.Roll, domain: str) -> list[str]:
    out = []
    need = chances.need(roll)
    if need:
        said = _("It needed a total of {need}") if chances.summed(roll) else _("It needed {need}")
        said = said.format(need=need)
        base = chances.base(roll)
        if base is not None and roll.mods:
            said += " " + _("(base {target})").format(target=base)
        out.append(said + ".")
    if roll.mods:
        mods = [describe_mod(m, domain) + (f" ({m.rule})" if m.rule else "") for m in roll.mods]
        out.append(_("Modifiers: {mods}.").format(mods="; ".join(mods)))
    if roll.rule:
        out.append(_("Rule {rule}.").format(rule=roll.rule))
    chance = chances.chance_text(roll)
    if chance:
        out.append(_("Before the roll: {chance}.").format(chance=chance))
    return out


def _roll_head(line: LogLine, names: dict[str, str], domain: str, *, faces: bool = False) -> Line:
    """A roll's outcome, then whose roll it was and what for (``faces``: and the faces, for an earlier roll)."""
    e = line.event
    assert isinstance(e, ev.Rolled)
    roll = e.roll
    purpose = Domain(domain).render(roll.purpose)
    whose_roll = names.get(e.unit, "") or names.get(e.side, "")
    what = whose(whose_roll, purpose) if whose_roll else purpose
    what += f", {len(roll.faces)}d{roll.sides}"
    if roll.manual:
        what += ", " + _("table dice")
    if faces:
        what += ": " + " ".join(str(f) for f in roll.faces)
    number_said = f"#{line.number} " if line.number else ""
    if roll.outcome:
        outcome = sentence(spoken_outcome(roll.outcome) or Domain(domain).render(roll.outcome))
        return inked(outcome, outcome_kind(chances.succeeded(roll)), f" {number_said}{sentence(what)}")
    return sentence(number_said + what)


def dice(game: Game, role: str, state: GameState) -> list[Line]:
    """The dice pane: the last roll in play in full, then the rolls before it."""
    rolls = Viewpoint(game, role).recent_rolls(EARLIER_ROLLS + 2)
    undone = any(r.undone for r in rolls)
    rolls = [r for r in rolls if not r.undone]
    if not rolls:
        return [_("No roll in play: the last was undone.") if undone else _("No dice rolled yet.")]
    # Whose each roll is, by the names this role may see (a unit it cannot see goes unnamed).
    names = {sid: scenario_words(s.name) for sid, s in state.sides.items()}
    names |= {uid: u.name for uid, u in state.units.items()}
    domain = game.ruleset.domain
    last = rolls[-1]
    assert isinstance(last.event, ev.Rolled)
    # TRANSLATORS: before the last roll's outcome and what the roll was
    out: list[Line] = [prefixed(_("Last roll:") + " ", _roll_head(last, names, domain))]
    out.append(_faces(last.event.roll))
    out += _target(last.event.roll, domain)
    earlier = rolls[:-1][-EARLIER_ROLLS:]
    if earlier:
        out.append(_("Before it, the newest first:"))
        for line in reversed(earlier):
            out.append(_roll_head(line, names, domain, faces=True))
    return out


def odds(game: Game, role: str, text: str) -> list[str]:
    """What a command would roll first, and the exact chances, without doing anything."""
    if not text.strip():
        raise Refused(_("odds COMMAND: a command that rolls, e.g. odds fire rossi ahmed range=30"))
    try:
        ahead = game.odds(text, role=role, why=True)
    except Refused as e:  # why, as giving it would say (the odds of a shocked man's fire said only "cannot")
        raise Refused(_("{command} cannot be given now: {why}").format(command=text.strip(), why=e)) from None
    if ahead is None:
        return [_("{command} rolls no dice now.").format(command=text.strip())]
    out = [
        sentence(
            _("{command} rolls first: {purpose}, {dice}").format(
                command=text.strip(), purpose=ahead.purpose, dice=f"{ahead.count}d{ahead.sides}"
            )
        )
    ]
    if ahead.summary:
        out.append(sentence(ahead.summary))
    if ahead.mods:
        mods = [describe_mod(m, game.ruleset.domain) + (f" ({m.rule})" if m.rule else "") for m in ahead.mods]
        out.append(_("Modifiers: {mods}.").format(mods="; ".join(mods)))
    if isinstance(ahead.check, ev.Each) and ahead.chances:
        each = [
            ngettext("{k} success {chance}", "{k} successes {chance}", k).format(k=k, chance=percentage(p))
            for k, p in enumerate(ahead.chances)
        ]
        out.append(_("Chance of each count: {counts}.").format(counts="; ".join(each)))
    return out


# ----------------------------------------------------------------- the help


#: The line client's own words: what follows each (words in capitals stand for what to type), and what it does.
OWN_WORDS: dict[str, tuple[str, str]] = {
    "status": ("", N_("where the game stands: the turn and phase, who acts, what comes next")),
    "roster": ("", N_("every side, team and figure you can see, with their state")),
    # TRANSLATORS: NAME, N, COMMAND stand for what the player types; keep them in capitals
    "who": (N_("NAME"), N_("one figure in full")),
    "phase": ("", N_("the phase, its rule, the phases of a turn and what comes next")),
    "log": (N_("N"), N_("the last N lines of the log, 10 if N is not given")),
    "dice": ("", N_("the last roll in full, and the rolls before it")),
    "odds": (N_("COMMAND"), N_("what the command would roll first, and its chances, without giving it")),
    "rule?": (N_("WORDS"), N_("a rules question, in Italian or English: the rules it is about, best first")),
    "why": (
        N_("N"),
        N_("the rule behind the last refusal or roll, and the numbers the engine used; why N: step N of the log"),
    ),
    "?": (N_("COMMAND"), N_("what the command would need and do on each face, and its rules, without giving it")),
    "help": (N_("COMMAND"), N_("that command in full; help alone, this list")),
    "secrets": ("", N_("every secret opened so far, in full, each checked against its commitment")),
    "copy": (
        "",
        N_("your side's copy of the game so far, kept on your machine, to hold the referee's save against later"),
    ),
    # TRANSLATORS: what follows verbose: its choices as typed (verbose on, verbose off)
    "verbose": (
        N_("on or off"),
        N_(
            "the answers in full (a roll with its command's dice in order, its step, what its faces mean, "
            "and said back with its faces) or brief; verbose alone says which"
        ),
    ),
    "quit": ("", N_("leave; Ctrl+D leaves too")),
}


#: ``status`` where the game shows defeat points (``Ruleset.shows_defeat_points``): a game
#: that scores none does not name them (#61).
STATUS_SCORED = N_("where the game stands: the turn and phase, who acts, what comes next, the defeat points")


def own_word(key: str, word: str, game: Game) -> str:
    """What one of the line client's words does, in a sentence (``word``: as the reader types it)."""
    follows, does = OWN_WORDS[key]
    if key == "status" and game.ruleset.shows_defeat_points(game.state):
        does = STATUS_SCORED
    return stopped(f"{word} {_(follows)}: {_(does)}" if follows else f"{word}: {_(does)}")


def table_dice_commands(game: Game) -> tuple[str, str]:
    """``table-dice on`` and ``table-dice off`` as the reader types them (its catalogue's names)."""
    spec = next(s for s in game.commands if s.name == TABLE_DICE)
    command, own = names(spec, game.ruleset.domain)[0], spec_domain(spec, game.ruleset.domain)
    on, off = (f"{command} {local_name('choice', choice, own)}" for choice in ("on", "off"))
    return on, off


def help_lines(game: Game, role: str, own: Iterable[tuple[str, str]]) -> list[str]:
    """The line client's words, then the game's commands this role may give."""
    table, game_rolls = table_dice_commands(game)
    out = [_("Type a command and press Enter. To read the game:")]
    out += [own_word(key, word, game) for key, word in own]
    out.append(
        _("The game's commands, and the names in them, may be shortened to any start that names one thing only.")
    )
    out.append(_("Undo and redo ask y or n before they act."))
    out.append(_("A command may give the faces of real dice: dice=6,4,3."))
    if role == REFEREE:
        said = _("{table} asks for the faces of every roll, at every seat; {game} lets the game roll them again.")
    else:  # the referee's choice for the whole table (core.state.TABLE_DICE)
        said = _("The referee chooses whether the table's dice are typed, for every seat ({table} or {game}).")
    out.append(said.format(table=table, game=game_rolls))
    if role == SPECTATOR:
        out.append(_("Spectators watch: they give no commands."))
        return out
    domain = game.ruleset.domain
    mine = [s for s in game.commands if role == REFEREE or s.who != REFEREE]
    out.append(
        _("The commands of {ruleset} you may give: {commands}.").format(
            ruleset=game.ruleset.shown_name(), commands=", ".join(names(s, domain)[0] for s in mine)
        )
    )
    out.append(_("help COMMAND tells one in full, e.g. help {command}.").format(command=names(mine[0], domain)[0]))
    return out


#: A ruling cited among a command's rules (``CommandSpec.rule``).
RULING = re.compile(r"\bruling ")


def rule_cited(rule: str) -> str:
    """``rule LN-R020, ruling LN-BARRAGE``; ``ruling LN-END`` alone: a ruling is the program's own
    decision where the book is unclear (docs/rulings.md), not a rule of the book's."""
    # TRANSLATORS: the program's own decision where the book is unclear, cited by its key: "ruling LN-END"
    said = RULING.sub(_("ruling") + " ", rule)
    return said if RULING.match(rule) else _("rule {rule}").format(rule=said)


def command_help(game: Game, spec: CommandSpec) -> list[str]:
    """One command in full: what it does, its usage, each argument, its dice, examples."""
    domain = game.ruleset.domain
    words = Domain(domain)
    said = words.render  # a help's words ("" stays "": gettext would give the catalogue's header)

    local, english = names(spec, domain)
    own = spec_domain(spec, domain)  # the catalogue naming its aliases and choices
    head = f"{local}: {said(spec.help)}" if spec.help else local
    extra = []
    if local != english:
        extra.append(_("in English {name}").format(name=english))
    if spec.aliases:
        extra.append(_("also {names}").format(names=", ".join(local_name("command", a, own) for a in spec.aliases)))
    if spec.rule:
        extra.append(rule_cited(spec.rule))
    if spec.who == REFEREE:
        extra.append(_("referee only"))
    if spec.phases:
        extra.append(_("phases: {phases}").format(phases=", ".join(words.pgettext("phase", p) for p in spec.phases)))
    out = [stopped(head.removesuffix(".") + (" (" + "; ".join(extra) + ")" if extra else ""))]
    # "[aimed|burst]" is read "aimed or burst": a bar is no word to a screen reader.
    # TRANSLATORS: between two choices of a command's usage, "[aimed or burst]"
    written = usage(spec, domain).replace("|", " " + _("or") + " ")
    out.append(sentence(_("Usage: {usage}").format(usage=written)))
    coded = meanings(spec, domain)
    for p in spec.params:
        parts = [said(p.help)] if p.help else []
        option = local_name("option", p.name, own)  # as the usage names it: the command's own catalogue's word
        # A text's choices (a scenario's name) are taken as typed: "open" is no open ground's "aperto".
        choices = list(p.choices) if p.kind == "text" else [local_name("choice", c, own) for c in p.choices]
        if len(choices) == 1:  # a flag: its one word, unless the line names it already ("long: ...")
            if choices[0] != option:
                # TRANSLATORS: an argument that takes one word only, in its help: "winner: ...; the word draw"
                parts.append(_("the word {choice}").format(choice=choices[0]))
        elif choices and len(choices) <= 12:
            parts.append(_("one of {choices}").format(choices=", ".join(choices)))
        if p.kind == "int":
            parts.append(_("from {lo} to {hi}").format(lo=p.lo, hi=p.hi))
        if p.kind == "distance":
            parts.append(_("from {lo} to {hi} {measure}").format(lo=p.lo, hi=p.hi, measure=p.measure))
        if p.markers:
            parts.append(_("or a hidden marker's label"))
        if parts:
            out.append(stopped(f"{option}: {'; '.join(parts)}"))
        for choice, meaning in zip(p.choices, p.meanings, strict=False):
            out.append(stopped(f"{local_name('choice', choice, own)}: {coded.get(choice) or said(meaning)}"))
    if spec.dice:
        out.append(_("Its dice, in order: {dice}.").format(dice="; ".join(said(d) for d in spec.dice)))
    for example in spec.examples:  # in the names the reader types (spara … distanza=), and his words
        typed = localize_line(example, game.commands, game.ruleset.domain, example_words)
        out.append(sentence(_("For example: {example}").format(example=typed)))
    return out
