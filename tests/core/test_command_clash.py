"""One command, one meaning (issue #76): a word that would name two of a game's commands, in
English or in a reader's language, is refused as the game gathers its commands, naming both;
every shipped ruleset, in every variant, gathers its commands without one."""

from __future__ import annotations

import gettext

import pytest
from coretests_support import Skirmish

from core.commands import naming
from core.game import Game
from core.game.builtins import game_commands
from core.registry import BUILTIN, NotARuleset, get_ruleset, register, unregister
from core.ruleset import CommandSpec
from core.storage.errors import SaveError


def _jot(ctx, args):
    return None


class Noting(Skirmish):
    """A ruleset with a command of its own called ``note``, as every game's is."""

    id = "test-noting"

    def commands(self):
        return [*super().commands(), CommandSpec("note", "The ruleset's own note.", _jot)]


class Aliased(Skirmish):
    """A command whose alias is another command's name (``walk``, the skirmish's)."""

    id = "test-aliased"

    def commands(self):
        return [*super().commands(), CommandSpec("stroll", "Walk slowly.", _jot, aliases=("walk",))]


class Nota(Skirmish):
    """A command whose English name is the Italian name of every game's ``note``."""

    id = "test-nota"

    def commands(self):
        return [*super().commands(), CommandSpec("nota", "A note in Italian.", _jot)]


@pytest.mark.parametrize("ruleset_id", sorted(BUILTIN))
def test_every_shipped_ruleset_gathers_its_commands_with_one_meaning_each(ruleset_id):
    for variant in get_ruleset(ruleset_id).variants:
        specs = game_commands(get_ruleset(ruleset_id, variant))
        names = [n for s in specs for n in (s.name, *s.aliases)]
        assert len(names) == len(set(names))
        assert {"note", "undo", "next"} <= set(names)


@pytest.mark.parametrize(("ruleset", "word"), [(Noting, "note"), (Aliased, "walk"), (Nota, "nota (it)")])
def test_a_clash_is_refused_as_the_ruleset_loads_naming_both(tmp_path, ruleset, word):
    register(ruleset)
    try:
        with pytest.raises(NotARuleset) as refused:
            Game.new(tmp_path / "g.ft", ruleset.id, clock=lambda: 2_000)
    finally:
        unregister(ruleset.id)
    assert not (tmp_path / "g.ft").exists()  # refused before any save was made
    said = str(refused.value)
    assert f"two commands are called {word}:" in said
    assert said.count("' (") == 2  # both named, each with its module


def test_a_save_of_a_ruleset_that_clashes_now_is_refused_as_it_opens(tmp_path):
    """A plugin that gained a clash since the game was saved: the save is not opened."""
    register(Skirmish)
    try:
        Game.new(tmp_path / "g.ft", Skirmish.id, clock=lambda: 2_000).close()
    finally:
        unregister(Skirmish.id)

    class Now(Noting):
        id = Skirmish.id

    register(Now)
    try:
        with pytest.raises(SaveError, match="two commands are called note: 'note' .* and 'note' "):
            Game.open(tmp_path / "g.ft")
    finally:
        unregister(Now.id)


def test_two_commands_with_one_name_in_italian_are_refused(monkeypatch):
    """Two English names a catalogue translates alike (``jot`` and ``scribble``, both *nota*)."""

    class Both(gettext.NullTranslations):
        def pgettext(self, context, message):
            return "appunta" if message in ("jot", "scribble") else message

    monkeypatch.setattr(naming, "translations", lambda language, domain: Both())
    specs = [CommandSpec("jot", "Jot.", _jot), CommandSpec("scribble", "Scribble.", _jot)]
    with pytest.raises(NotARuleset, match=r"two commands are called appunta \(it\): 'jot' .* and 'scribble'"):
        naming.one_meaning(specs)
    naming.one_meaning(specs[:1])  # one of them alone is no clash
