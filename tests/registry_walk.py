"""The rulesets every guard test walks.

A guard test checks what every ruleset must hold (a handler only refuses, every status
it uses is declared, every roll has its step …): it is parametrized by ``RULESETS``,
never by a list of names, so a ruleset added to the registry is checked with the
others.  ``RULESETS`` is the registry (``core.ruleset.available``) as it stands when
the test session starts (``tests/conftest.py`` imports this first): the built-ins, any
installed plugin, and Outpost, the fifth ruleset kept among the tests
(``tests/fifth_ruleset``), registered here through the registry's public API.  A test
module's own scaffold, registered when that module is imported (``tests/tui/skirmish.py``),
comes later and is not walked: what the guards collect never depends on which test
modules were imported first.
"""

from __future__ import annotations

from fifth_ruleset import Outpost

from core.ruleset import available, register

register(Outpost)

#: Every ruleset's id, as the guards' parametrization.
RULESETS = tuple(available())
