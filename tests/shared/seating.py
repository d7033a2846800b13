"""A seat bound to a key in a save a script makes: the ``Seated`` fact made directly.

A served table seats a side's SSH key as the seat sits (its fingerprint in ``Seated.key``); a
script cannot. A test seats one with ``seat SIDE NAME [SHA256:…]``, the referee's command of a test
ruleset made from a built-in one (its id + ``-seated``), registered only while it runs: its
handler records one ``Seated`` fact, which ``fireteam verify`` resolves again as any other
command's.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from core.log import events as ev
from core.registry import register, ruleset_class, unregister
from core.ruleset import CommandSpec, Context, Param, Ruleset

SUFFIX = "-seated"


def _seat(ctx: Context, args: dict[str, Any]) -> None:
    name, _, key = args["who"].rpartition(" ")
    if not key.startswith("SHA256:"):
        name, key = args["who"], ""
    ctx.emit(ev.Seated(side=args["side"], name=name, key=key, via="key" if key else "named"))


SEAT = CommandSpec(
    "seat",
    "Seat a player for a side (a test's).",
    _seat,
    params=(Param("side", "side"), Param("who", "text", prose=True)),
    who="referee",
)


def seating(ruleset_id: str) -> type[Ruleset]:
    """The built-in ``ruleset_id`` with the referee's ``seat`` command."""
    base = ruleset_class(ruleset_id)

    class Seating(base):  # type: ignore[valid-type, misc]
        id = ruleset_id + SUFFIX

        def commands(self) -> list[CommandSpec]:
            return [*super().commands(), SEAT]

    Seating.__qualname__ = f"Seating[{ruleset_id}]"
    return Seating


@contextmanager
def seated(*ruleset_ids: str) -> Iterator[list[str]]:
    """Each ruleset with ``seat``, registered while the block runs: their ids."""
    made = [seating(r) for r in ruleset_ids]
    for r in made:
        register(r)
    try:
        yield [r.id for r in made]
    finally:
        for r in made:
            unregister(r.id)
