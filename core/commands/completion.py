"""Tab's candidates for the word being typed: the commands, then what each argument may take."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from core.commands.naming import local_name, local_namer, spec_domain
from core.commands.pieces import UNIT_KINDS, WORD_BREAK, find_unit, side_names, team_names, teams, units_named
from core.commands.values import MAX_LINE
from core.commands.verbs import find_verb, offer_rank, rank_now
from core.commands.words import split
from core.language.i18n import CORE_DOMAIN, scenario_words
from core.log.state import SEALED_ORDERS, GameState, Unit
from core.log.views import REFEREE, unit_visible
from core.ruleset import CommandSpec, Param, Refused


def complete(
    text: str,
    specs: list[CommandSpec],
    state: GameState,
    role: str,
    domain: str = CORE_DOMAIN,
    offered_first: Callable[[CommandSpec, Unit], bool] | None = None,
    phase_commands: Sequence[str] = (),
    side_offered: Callable[[CommandSpec, str], bool] | None = None,
) -> list[str]:
    """Candidates for the word being typed at the end of ``text`` (whole words), in
    the reader's language (English names where none of the reader's fits).  A figure
    ``offered_first`` says the command would refuse comes after the others
    (``Ruleset.offered_first``); a side ``side_offered`` says it would refuse is not
    offered (``Ruleset.side_offered``); the first word offers ``phase_commands`` (the
    phase's main commands, ``Phase.commands``) first, in their order."""
    if len(text) > MAX_LINE:  # it will be refused: no need to read it on every key
        return []
    ends_with_space = text.endswith(" ")
    try:
        words = split(text)
    except Refused:
        words = text.split()
    current = "" if ends_with_space or not words else words[-1]
    before = words if ends_with_space else words[:-1]
    if not before:
        return _commands_offered(current.lower(), specs, state, role, domain, phase_commands)
    try:
        spec = find_verb(before[0], specs, domain)
    except Refused:
        return []
    line = _LineCompletion(spec, state, role, spec_domain(spec, domain), offered_first, side_offered)
    if "=" in current:
        return line.option_values(current)
    return line.offered(before[1:], current)


def _commands_offered(
    typed: str, specs: list[CommandSpec], state: GameState, role: str, domain: str, phase_commands: Sequence[str]
) -> list[str]:
    """The commands the first word may be.  The phase's main commands first, in the order
    its rules give them, then its others, then those of any phase, then the rest, each
    alphabetically: Tab on an empty line walks through what can be done now.  The
    referee's alone are not offered to a side, which would be refused them."""
    order = {name: i for i, name in enumerate(phase_commands)}
    both, first = [], {}
    for s in specs:
        rank = rank_now(s, state, role)
        if rank is not None:
            pair = (local_name("command", s.name, spec_domain(s, domain)), s.name)
            both.append(pair)
            first.update(dict.fromkeys(pair, offer_rank(s, rank, order)))
    return _offered(typed, both, first=first)


class _LineCompletion:
    """What may follow the command ``spec`` typed first on a line (``domain``: its
    catalogue), as :func:`complete` offers it."""

    def __init__(
        self,
        spec: CommandSpec,
        state: GameState,
        role: str,
        domain: str,
        offered_first: Callable[[CommandSpec, Unit], bool] | None,
        side_offered: Callable[[CommandSpec, str], bool] | None,
    ) -> None:
        self.spec = spec
        self.state = state
        self.role = role
        self.domain = domain
        self.option = local_namer("option", domain)
        self.choice = local_namer("choice", domain)
        self.sides: Callable[[str], bool] | None = (
            (lambda side: side_offered(spec, side)) if side_offered is not None else None
        )
        self.ahead: Callable[[Unit], bool] | None = (
            (lambda u: offered_first(spec, u)) if offered_first is not None else None
        )

    def option_values(self, current: str) -> list[str]:
        """``current`` (``name=value``) completed: the values of the option ``name``
        begins that begin with ``value``, each written with the option's name."""
        key, _eq, value = current.partition("=")
        option = self.option
        p = next((p for p in self.spec.params if option(p.name).startswith(key.lower())), None)
        p = p or next((p for p in self.spec.params if p.name.startswith(key.lower())), None)
        if p is None:
            return []
        if p.kind == "choice":
            values = self._choices(value.lower(), p)
        elif p.kind == "side":
            values = _sides_offered(value, self.state, self.sides)
        else:
            values = [c for c in _candidates(p, self.state, self.role) if c.lower().startswith(value.lower())]
        return [f"{option(p.name)}={c}" for c in values]

    def offered(self, args: list[str], current: str) -> list[str]:
        """What ``current`` may be after the words ``args`` typed after the command: the
        options it still needs, what fills its next positional argument, its flags
        and options, its dice; each once, where first offered."""
        typed = current.lower()
        bare = [w for w in args if "=" not in w]
        filled = len(bare)
        positional = [p for p in self.spec.params if not p.keyword]
        out: list[str] = []
        if filled >= len([p for p in positional if not p.optional]):
            out += self._options_needed(typed, args)
        if filled < len(positional) or (positional and positional[-1].many):
            out += self._fills(positional[min(filled, len(positional) - 1)], typed, bare)
        for p in self.spec.params:
            if p.keyword and p.kind == "choice":
                out += self._choices(typed, p)
            elif p.keyword and current:
                out += self._option_names(typed, p)
        dice = local_name("option", "dice", self.domain)
        if self.spec.rolls and current and (f"{dice}=".startswith(typed) or "dice=".startswith(typed)):
            out.append(f"{dice}=" if f"{dice}=".startswith(typed) else "dice=")
        return list(dict.fromkeys(out))

    def _options_needed(self, typed: str, args: list[str]) -> list[str]:
        """What the command still needs comes first: a keyword it cannot go without
        (fire's range=), where a player would otherwise learn of it by a refusal."""
        given = {w.partition("=")[0].lower() for w in args if "=" in w}
        out: list[str] = []
        for p in self.spec.params:
            if p.keyword and not p.optional and not {p.name, self.option(p.name).lower()} & given:
                out += self._option_names(typed, p)
        return out

    def _fills(self, p: Param, typed: str, bare: list[str]) -> list[str]:
        """What may fill the positional argument ``p`` (``bare``: the words typed bare before)."""
        if p.kind == "choice":
            return self._choices(typed, p)
        if p.kind == "side":  # then the other words its place takes (draw)
            return _sides_offered(typed, self.state, self.sides) + self._choices(typed, p)
        if p.kind == "team":  # by any word of either of its names, offered as the reader reads it
            return sorted(
                scenario_words(t)
                for t in teams(self.state, self.role)
                if any(w.startswith(typed) for name in team_names(t) for w in name.lower().split())
            )
        if p.kind in UNIT_KINDS:
            return self._units(p, typed, bare)
        return [c for c in _candidates(p, self.state, self.role) if c.lower().startswith(typed)]

    def _units(self, p: Param, typed: str, bare: list[str]) -> list[str]:
        """The units (and teams) ``p`` may take: by any word of its id or name, as parse finds it."""
        state, ahead = self.state, self.ahead
        named = {u.id for u in units_named(typed, list(state.units.values()))} if typed else set()
        pool = _candidates(p, state, self.role, acting=_acting_side(self.spec, bare, state, self.role), first=ahead)
        typed_before = {w.lower() for w in bare} if p.many else set()  # a target is named once
        fits = [c for c in pool if (c.lower().startswith(typed) or c in named) and c.lower() not in typed_before]
        later = [c for c in fits if ahead is not None and c in state.units and not ahead(state.units[c])]
        whole = [
            t
            for t in _teams_offered(p, state, self.role)
            if any(w.startswith(typed) for name in team_names(t) for w in name.lower().split())
        ]
        # A team its figures stand for (deploy alpha) first, as the Next line says it ("deploy
        # TEAM, or figures one by one"); one whose figures the command would refuse them all
        # with the figures it would refuse (another side's, out of its step of §4.2).
        takes = p.team_members
        now = [
            t
            for t in whole
            if ahead is None or any(ahead(u) for u in state.units.values() if u.team == t and takes and takes(u))
        ]
        # a team as the reader reads it (ruling I18N-TEAM)
        teams_now, teams_later = [scenario_words(t) for t in now], [scenario_words(t) for t in whole if t not in now]
        return teams_now + [c for c in fits if c not in later] + teams_later + later

    def _choices(self, typed: str, p: Param) -> list[str]:
        return _offered(typed, [(self.choice(c), c) for c in p.choices], ordered=False)

    def _option_names(self, typed: str, p: Param) -> list[str]:
        return [f"{n}=" for n in _offered(typed, [(self.option(p.name), p.name)])]


def _offered(
    typed: str,
    both: list[tuple[str, str]],
    *,
    ordered: bool = True,
    first: dict[str, tuple[int, int]] | None = None,
) -> list[str]:
    """The reader's names that begin with ``typed``; where none does, the English ones
    (sorted unless ``ordered`` is False, which keeps the given order; by ``first``'s
    rank of each name, then the name, where given)."""
    for names_ in ([n for n, _e in both], [e for _n, e in both]):
        hits = list(dict.fromkeys(n for n in names_ if n.lower().startswith(typed)))
        if hits:
            if first is not None:
                return sorted(hits, key=lambda n: (first[n], n))
            return sorted(hits) if ordered else hits
    return []


def _teams_offered(p: Param, state: GameState, role: str) -> list[str]:
    """The teams a place of many figures takes for their members (``Param.team_members``):
    those with a figure the role sees that it takes (deploy: one still off the table; a
    player's own, where the place takes his figures only)."""
    if p.team_members is None or not p.many:
        return []
    pool = [u for u in state.units.values() if unit_visible(u, role) and p.team_members(u)]
    if p.kind == "own" and role in state.sides:
        pool = [u for u in pool if u.side == role]
    return sorted({u.team for u in pool if u.team})


def _sides_offered(typed: str, state: GameState, offered: Callable[[str], bool] | None) -> list[str]:
    """The ids of the sides the command takes now (``offered``) whose id or name, or a
    word of either, begins with ``typed``, as :func:`find_side` finds them."""
    pool = [s for s in state.sides if offered is None or offered(s)]
    if not typed:
        return pool
    w = typed.lower()
    return [
        s
        for s in pool
        if any(
            whole.lower().startswith(w) or any(part.lower().startswith(w) for part in WORD_BREAK.split(whole))
            for whole in side_names(state, s)
        )
    ]


def _acting_side(spec: CommandSpec, bare: list[str], state: GameState, role: str) -> str | None:
    """The side of the unit already typed in ``spec``'s first unit place (the firer), if any:
    named by any word of its id or name, as parse finds it (``fire evans`` is Ludonet's
    L/Cpl Evans, id ``bren``: by his id alone his own side was offered as targets)."""
    for p, word in zip((p for p in spec.params if not p.keyword), bare, strict=False):
        if p.kind in ("unit", "own"):
            try:
                return find_unit(word, state, role).side
            except Refused:  # no such unit, or several: no side to leave out
                return None
    return None


def _candidates(
    p: Param,
    state: GameState,
    role: str,
    acting: str | None = None,
    first: Callable[[Unit], bool] | None = None,
) -> list[str]:
    """What may fill ``p``: for an enemy, the units of the sides but the reader's or, for
    the referee, but the side of the unit already typed (``acting``); those ``first``
    does not put first (the command would refuse them) after the others."""
    if p.kind in ("unit", "own", "enemy"):
        pool = [u for u in state.units.values() if unit_visible(u, role) and u.in_play]
        active_first = False
        if p.kind == "own" and role in state.sides:
            pool = [u for u in pool if u.side == role]
        elif p.kind == "own" and state.active_side:
            # The referee acts for either side: the active side's figures first (Linea di
            # Tiro's activate offered the other side's beside them, in the roster's order).
            active_first = True
        against = role if role in state.sides else acting
        if p.kind == "enemy" and against is not None:
            pool = [u for u in pool if u.side != against]
        pool.sort(key=lambda u: (first is not None and not first(u), active_first and u.side != state.active_side))
        return [u.id for u in pool] + (list(state.markers) if p.markers else [])
    if p.kind == "text" and p.secret_key:  # the secrets not open yet, the sealed orders first (issue #77)
        if role != REFEREE:  # (a side names what it shows otherwise: Breaking News' reveal 3 regulars)
            return list(p.choices)
        shut = [key for key, secret in state.secrets.items() if not secret.revealed]
        return sorted(shut, key=lambda key: (not key.startswith(SEALED_ORDERS), key))
    if p.kind in ("choice", "text"):  # a text may offer its usual values (scenario names)
        return list(p.choices)
    if p.kind == "team":
        return teams(state, role)
    return []
