"""The roster pane in sentences: each side, team and figure (``roster``), one figure in full (``who``),
its statuses in words."""

from __future__ import annotations

from core.commands import find_unit
from core.game import Game
from core.language.i18n import Domain
from core.log.state import GameState, Side, Unit, team_morale
from core.log.views import sides_for
from core.ruleset import Refused, Ruleset
from tui.badges import word as status_word
from tui.i18n import N_, _, book, ngettext, number, scenario_words, side_name
from tui.lines.answers.standing import scored
from tui.lines.answers.words import sentence

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
    name = scenario_words(unit.name)  # a built-in piece named in words, in the reader's language
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
    if not scored:  # no side has any defeat points (``scored``)
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
    """The roster pane: each side (``role``'s own first: ``core.log.views.sides_for``), its teams and
    figures, then the hidden markers the role sees."""
    domain = game.ruleset.domain
    if not state.sides:
        return [_("No sides yet: the game has no scenario.")]
    out = []
    for side in (state.sides[s] for s in sides_for(state, role)):
        units = state.units_of(side.id)
        out.append(_side_line(side, units, scored(state)))
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
