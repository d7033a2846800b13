"""The commands: the one a word names, and those offered now (the phase's first; the
referee's alone to no side)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from core.commands.naming import fold, former_names, local_name, spec_domain
from core.commands.words import Meant, match_word, quoted
from core.language.i18n import CORE_DOMAIN, _, translations
from core.language.reader import lang
from core.log.state import GameState
from core.log.views import REFEREE
from core.refusal import TYPING
from core.ruleset import CommandSpec, Refused


def match_verb(
    word: str,
    specs: list[CommandSpec],
    domain: str,
    about: Callable[[], list[str]] | None = None,
    now: Callable[[], list[str]] | None = None,
) -> tuple[CommandSpec, str, bool]:
    """The command ``word`` names, the English name (or alias) it matched, and whether
    it was named in the reader's language (``about``, ``now``: as :func:`match_word`)."""
    by_name: dict[str, CommandSpec] = {}
    for s in specs:
        by_name[s.name] = s
        for a in s.aliases:
            by_name[a] = s
    try:
        name, mine = match_word(
            word,
            list(by_name),
            _("command"),
            lambda n: local_name("command", n, spec_domain(by_name[n], domain)),
            about,
            now,
            lambda n: former_names("command", n),
        )
    except Refused:
        folded = fold(word)
        for s in specs:  # a command this game has no rule for: say so, and what it has instead
            own = spec_domain(s, domain)
            for other, why in s.lacks:
                if folded in (other, fold(local_name("command", other, own))):
                    said = translations(lang(), own).gettext(why)
                    raise Refused(said.format(command=local_name("command", s.name, own)), rule=TYPING) from None
        # victory, where the command is called result: the name it has here
        meant = [
            local_name("command", s.name, spec_domain(s, domain))
            for s in specs
            if any(folded in (k, fold(local_name("command", k, spec_domain(s, domain)))) for k in s.known_elsewhere_as)
        ]
        if meant:
            refusal = _("no {what} {word}").format(what=_("command"), word=quoted(word))
            raise Meant(refusal, meant) from None
        raise
    return by_name[name], name, mine


def find_verb(word: str, specs: list[CommandSpec], domain: str = CORE_DOMAIN) -> CommandSpec:
    """The command ``word`` names, in the reader's language (``domain``: the
    ruleset's catalogue) or in English."""
    return match_verb(word, specs, domain)[0]


def shortest_start(spec: CommandSpec, specs: list[CommandSpec], domain: str = CORE_DOMAIN) -> str:
    """The shortest start of ``spec``'s name in the reader's language that names it alone among
    ``specs`` (as :func:`find_verb` reads a word): what docs/commands.md teaches a player to type."""
    name = local_name("command", spec.name, spec_domain(spec, domain))
    for n in range(1, len(name)):
        try:
            if match_verb(name[:n], specs, domain)[0] is spec:
                return name[:n]
        except Refused:
            continue
    return name


def rank_now(spec: CommandSpec, state: GameState, role: str) -> int | None:
    """Where ``spec`` comes among the commands ``role`` may give: 0 made for the phase
    the game is in, 1 for any phase, 2 for other phases; None for the referee's alone."""
    if role != REFEREE and spec.who == REFEREE:
        return None
    if not spec.phases:
        return 1
    return 0 if state.phase in spec.phases else 2


def commands_about(
    word: str, specs: list[CommandSpec], state: GameState, role: str, domain: str = CORE_DOMAIN
) -> list[str]:
    """The names (in the reader's language) of the commands ``role`` may give whose help
    speaks of ``word`` as a whole word, in the reader's language or in English: what a
    referee meant by a word of the game that is not a command (``attack``: ``at``, ``mg``)."""
    folded = fold(word)
    if len(folded) < 3 or not folded.isalpha():
        return []
    speaks = re.compile(rf"\b{re.escape(folded)}\b").search
    out = []
    for s in specs:
        if s.help and rank_now(s, state, role) is not None:
            helps = {fold(s.help), fold(translations(lang(), spec_domain(s, domain)).gettext(s.help))}
            if any(speaks(h) for h in helps):
                out.append(local_name("command", s.name, spec_domain(s, domain)))
    return sorted(out)


def offer_rank(spec: CommandSpec, rank: int, order: dict[str, int]) -> tuple[int, int]:
    """Where a command of :func:`rank_now`'s ``rank`` comes among the first word's: the
    phase's main commands (``order``: ``Phase.commands``) first, in their order, then
    its others, those of any phase and the rest (each alphabetically, by the caller)."""
    return (0, order[spec.name]) if rank == 0 and spec.name in order else (rank + 1, 0)


def commands_now(
    specs: list[CommandSpec],
    state: GameState,
    role: str,
    domain: str = CORE_DOMAIN,
    phase_commands: Sequence[str] = (),
) -> list[str]:
    """The names (in the reader's language) of the commands made for the phase the
    game is in that ``role`` may give: what a referee who typed no command wants, in
    the order Tab offers them (the phase's main ones, ``phase_commands``, first)."""
    order = {name: i for i, name in enumerate(phase_commands)}
    ranked = [
        (offer_rank(s, 0, order), local_name("command", s.name, spec_domain(s, domain)))
        for s in specs
        if rank_now(s, state, role) == 0
    ]
    return [name for _rank, name in sorted(ranked)]
