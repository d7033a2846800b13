"""The commands every game has whatever its ruleset (undo, redo, next, dice-key,
table-dice, note, seal), all of a game's gathered (one word, one command), and the role a
read-only game is shown as.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core import events as ev
from core.commands.naming import one_meaning
from core.game.sealing import SEAL_DICE
from core.language.i18n import _
from core.ruleset import CommandSpec, Context, Param, Refused, Ruleset
from core.state import SEALED_ORDERS, TABLE_DICE, table_dice
from core.views import (
    REFEREE,
    REFEREE_ONLY,
)

if TYPE_CHECKING:
    from core.game.engine import Game


def game_commands(ruleset: Ruleset) -> list[CommandSpec]:
    """Every command a game of ``ruleset`` has: the ruleset's, then every game's; a word
    naming two of them refused (``core.commands.naming.one_meaning``: ``NotARuleset``,
    naming both), so a command the core adds cannot silently take a ruleset's name."""
    specs = [*ruleset.commands(), *builtin_commands(ruleset)]
    one_meaning(specs, ruleset.domain)
    return specs


def builtin_commands(ruleset: Ruleset) -> list[CommandSpec]:
    """The commands every game has, whatever its ruleset (their names are the core's words)."""
    return [
        CommandSpec("undo", "Take back the last command in effect (it stays in the log).", _never, who="side"),
        CommandSpec("redo", "Bring back the last undone command.", _never, who="side"),
        CommandSpec(
            "next",
            "End the current phase and begin the next one.",
            lambda ctx, args: ctx.ruleset.advance(ctx),
            rolls=bool(ruleset.next_dice),  # a ruleset whose turns come round without dice: no dice= offered
            dice=ruleset.next_dice,
            aliases=("end",),
            known_elsewhere_as=ruleset.next_known_as,
            public_text=True,
        ),
        CommandSpec(
            SEAL_DICE,
            "Open the dice's key so far to everyone, and seal the dice with a new one.",
            lambda ctx, args: None,  # Game.execute puts in its facts (Game._sealing)
            who="referee",
            public_text=True,
        ),
        CommandSpec(
            TABLE_DICE,
            "Whether the players roll real dice and type their faces, at every seat: on or off.",
            _table_dice,
            params=(Param("choice", "choice", "on or off", choices=("on", "off")),),
            who="referee",
            public_text=True,
        ),
        CommandSpec(
            "note",
            "Write a note into the log.",
            lambda ctx, args: ctx.emit(ev.Noted(text=args["text"])),
            params=(Param("text", "text", "what to note", prose=True),),
            examples=('note "smoke drifts north"',),
        ),
        CommandSpec(
            "seal",
            "Write down an order of your side's, sealed: the other sides see only that it was written, "
            "until the referee reveals it or the game ends.",
            _seal_order,
            params=(Param("text", "text", "the order, as you would write it down", prose=True),),
            examples=('seal "the mortars fire on the farm"',),
        ),
    ]


def _seal_order(ctx: Context, args: dict[str, str]) -> None:
    """A side's sealed order: what it writes down and shows only later (Bassa Intensità BI-R102,
    §A.11: the observer writes his target down).  A secret of its side, numbered in its side's
    orders; ``commitments.seal`` commits it to everyone at once, and ``reveal ORDER`` or the
    game's end opens it."""
    side = ctx.role
    mine = f"{SEALED_ORDERS}{side}."
    n = 1 + sum(1 for key in ctx.state.secrets if key.startswith(mine))
    vis = REFEREE_ONLY if side == REFEREE else (side,)
    ctx.emit(ev.SecretSet(key=f"{mine}{n}", owner=side, value=args["text"], vis=vis))


def _table_dice(ctx: Context, args: dict) -> None:
    """``table-dice on|off``: the referee's choice for his whole table, a fact every seat reads."""
    on = args["choice"] == "on"
    if on == table_dice(ctx.state):
        raise Refused(_("table dice are already on") if on else _("table dice are already off"), rule="ENG-7")
    ctx.emit(ev.VarSet(key=TABLE_DICE, value=args["choice"]))


def _never(ctx: Context, args: dict) -> None:  # handled by Game.execute before dispatch
    raise AssertionError("undo/redo are handled by Game")


def copy_role_error(game: Game, role: str) -> str | None:
    """A side's copy is shown as its own role only (the referee's default stands for it)."""
    if role in (REFEREE, game.copy_role):
        return None
    said = _("{path}: a side's copy holds only what {copy} saw; it cannot be shown as {role}")
    return said.format(path=game.path, copy=game.copy_role, role=repr(role))


def reading_role(game: Game, role: str) -> str:
    """The role a read-only game is shown as: a side's copy as its own."""
    return game.copy_role or role
