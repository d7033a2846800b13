"""A choice the New game screen offers for a scenario (``Ruleset.setup_choices``): what each
value means, and the command lines it stands for.  A ruleset names it through ``core.ruleset``,
the plugin interface."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec


class SetupChoice(msgspec.Struct, frozen=True):
    """A choice the New game screen offers for a scenario, as a command line to run.

    When the game starts, the scenario is set up (and the sides' rosters fielded);
    then each choice that was changed runs ``command`` with ``{value}`` (and
    ``{side}``) filled in, as the referee, in the order the ruleset gives them.  A
    choice left at ``default`` runs nothing: the default is the game as the
    scenario sets it up.  ``multiple``: any number of ``choices`` may be picked
    (none at first, ``default`` is ""), and the command runs once per value picked,
    in the order of ``choices``.  ``per_side``: the choice is offered, and its
    command run, once for each side of the scenario.  ``labels``, one per choice,
    say what each value means (the value itself when empty).
    """

    id: str
    label: str
    choices: tuple[str, ...]
    default: str
    command: str
    per_side: bool = False
    multiple: bool = False
    labels: tuple[str, ...] = ()
    help: str = ""
    rule: str = ""

    def __post_init__(self) -> None:
        if self.labels and len(self.labels) != len(self.choices):
            raise ValueError(f"setup choice {self.id}: one label per choice")
        if self.default not in (self.choices if not self.multiple else ("",)):
            raise ValueError(f"setup choice {self.id}: default {self.default!r} is not one of its choices")

    def options(self) -> list[tuple[str, str]]:
        """(label, value) for each choice."""
        return list(zip(self.labels or self.choices, self.choices, strict=True))

    def command_lines(self, picked: str | Sequence[str], side: str = "") -> list[str]:
        """The command lines for what was picked (for ``side`` when ``per_side``)."""
        if self.multiple:
            chosen = {picked} if isinstance(picked, str) else set(picked)
            values = [c for c in self.choices if c in chosen]
        else:
            values = [] if picked == self.default else [str(picked)]
        return [self.command.format(value=v, side=side) for v in values]
