"""The rulesets every guard test walks, and what a guard may take of each.

A guard test checks what every ruleset must hold (a handler only refuses, every status
it uses is declared, every roll has its step …): it is parametrized by ``RULESETS``,
never by a list of names, so a ruleset added to the registry is checked with the
others.  ``RULESETS`` is the registry (``core.registry.available``) as it stands when
the test session starts (``tests/conftest.py`` imports this first): the built-ins, any
installed plugin, Outpost, the fifth ruleset kept among the tests
(``tests/fifth_ruleset``), registered here through the registry's public API, and
Snowball, the sixth (``tests/sixth_ruleset``), installed as a plugin is: an entry point
the registry's own search finds.  A test module's own scaffold, registered when that
module is imported (``tests/tui/skirmish.py``), comes later and is not walked: what the
guards collect never depends on which test modules were imported first.

A guard asks of a ruleset only what the contract (``core.ruleset.Ruleset``) says every
ruleset gives: a game in play comes from a scenario the ruleset lists
(:func:`set_up`), its parameters from their declared kinds, its code from where its
module is (:func:`sources`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from fifth_ruleset import Outpost

from core.game import Game
from core.log.views import REFEREE
from core.registry import available, register, ruleset_class
from core.ruleset import Ruleset

#: Where Snowball, the sixth ruleset, is installed: a folder of the path holding its package
#: and its ``snowball-1.dist-info`` (its entry point), as site-packages holds a plugin's.
SIXTH_SITE = Path(__file__).resolve().parent / "sixth_ruleset"
sys.path.append(str(SIXTH_SITE))  # before the registry first looks for plugins (register does)

register(Outpost)

#: Every ruleset's id, as the guards' parametrization.
RULESETS = tuple(available())


def scenario(ruleset: Ruleset) -> str:
    """The scenario a guard plays: the one called ``demo`` where the ruleset lists one (the
    game the guards played in every ruleset before one came without it: the built-ins keep
    that depth), else the first it lists.  A ruleset that lists none has no game a guard
    can set up: the guard skips it, saying so."""
    listed = list(ruleset.scenarios)
    if not listed:
        pytest.skip(f"{ruleset.id} lists no scenario: there is no game to set up")
    return "demo" if "demo" in listed else listed[0]


def set_up(game: Game) -> Game:
    """``game``, new, set up by the referee with its ruleset's :func:`scenario`."""
    game.execute(f"scenario {scenario(game.ruleset)}", role=REFEREE)
    return game


def sources(ruleset_id: str) -> list[Path]:
    """The ruleset's code, wherever it is installed: every module of the package that holds
    its class, or that module alone when it is in no package (a plugin of one file)."""
    module = sys.modules[ruleset_class(ruleset_id).__module__]
    if not module.__package__:
        return [Path(module.__file__ or "")]
    return sorted(Path(sys.modules[module.__package__].__file__ or "").parent.rglob("*.py"))
