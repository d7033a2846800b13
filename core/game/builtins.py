"""The commands every game has whatever its ruleset (undo, redo, next, dice-key,
table-dice, note, players, confirm, seal), all of a game's gathered (one word, one command), and the role a
read-only game is shown as.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from core.commands.naming import one_meaning
from core.game.confirmation import CONFIRM, confirm
from core.game.sealing import SEAL_DICE
from core.language.i18n import _
from core.log import events as ev
from core.log.state import SEALED_ORDERS, TABLE_DICE, table_dice
from core.log.views import (
    REFEREE,
)
from core.ruleset import TYPING, CommandSpec, Context, Param, Refused, Ruleset

if TYPE_CHECKING:
    from core.game.front import Front
    from core.game.undoing import Written

#: How a player came to his seat (``Seated.via``): by his SSH key, by an invitation, or named by ``players``.
VIA = ("key", "invitation", "named")
#: A player's name: one word, as a seat's in a seats file (it stands in the log).
PLAYER_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
#: An OpenSSH key's SHA-256 fingerprint, as ``ssh-keygen -l`` prints it.
FINGERPRINT = re.compile(r"SHA256:[A-Za-z0-9+/]{43}")


def game_commands(ruleset: Ruleset) -> list[CommandSpec]:
    """Every command a game of ``ruleset`` has: the ruleset's, then every game's; a word
    naming two of them refused (``core.commands.naming.one_meaning``: ``NotARuleset``,
    naming both), so a command the core adds cannot silently take a ruleset's name."""
    specs = [*ruleset.commands(), *builtin_commands(ruleset)]
    one_meaning(specs, ruleset.domain)
    return specs


def builtin_commands(ruleset: Ruleset) -> list[CommandSpec]:
    """The commands every game has, whatever its ruleset (their names are the core's words)."""
    return [*_log_steps(), *_table_commands(ruleset), *_players_commands(ruleset)]


def _log_steps() -> list[CommandSpec]:
    """Undo and redo: steps of the log, not commands of the rules (``CommandSpec.log_step``)."""
    return [
        CommandSpec(
            "undo", "Take back the last command in effect (it stays in the log).", _never, who="side", log_step=_undo
        ),
        CommandSpec("redo", "Bring back the last undone command.", _never, who="side", log_step=_redo),
    ]


def _table_commands(ruleset: Ruleset) -> list[CommandSpec]:
    """The table's: the next phase, the dice's key, the table's dice, a note."""
    return [
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
            lambda ctx, args: None,  # the game's sealing puts in its facts (core.game.sealing)
            who="referee",
            public_text=True,
            reseals=True,
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
    ]


def _players_commands(ruleset: Ruleset) -> list[CommandSpec]:
    """The players': who plays each side, a side's word on the result, a sealed order."""
    return [
        CommandSpec(
            "players",
            "Say who plays each side: SIDE=NAME for each (the log keeps it; a served table writes its seats' own).",
            _players,
            params=(
                Param("players", "text", "SIDE=NAME for each side named: who plays it", side_pairs=True),
                Param(
                    "key",
                    "text",
                    "the SSH key's fingerprint (SHA256:…) of a seat bound to one",
                    keyword=True,
                    optional=True,
                ),
                Param(
                    "via",
                    "choice",
                    "how the player was seated: by his key, an invitation, or named here",
                    choices=VIA,
                    keyword=True,
                    optional=True,
                ),
            ),
            who="referee",
            public_text=True,
            examples=("players {}=anna {}=bruno".format(*ruleset.demo_sides),),
        ),
        CommandSpec(
            CONFIRM,
            "Confirm the game's result for your side, once it has ended: your seat adds the certificate's digest.",
            lambda ctx, args: None,  # (a dry run rolls nothing; the game calls confirm)
            params=(Param("result", "text", "the certificate's digest (your seat adds it)", optional=True),),
            who="side",
            public_text=True,
            game_handler=confirm,
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


def _players(ctx: Context, args: dict[str, str]) -> None:
    """``players SIDE=NAME …``: who plays each side (issue #74), one public ``Seated`` each; the
    sides are found by the parser, by any of their names, and come here by their ids.  A served
    table writes its seats' own as they sit (``key=`` and ``via=``, one side at a time:
    ``tui.ssh.seating``)."""
    pairs = [pair.partition("=") for pair in args["players"].split()]
    if not pairs or any(not eq or not PLAYER_NAME.fullmatch(name) for _side, eq, name in pairs):
        raise Refused(
            _("players SIDE=NAME …: each side with the one word its player goes by (letters, digits, '.', '_' or '-')"),
            rule=TYPING,
        )
    key, via = args.get("key") or "", args.get("via") or ""
    if key and not FINGERPRINT.fullmatch(key):
        raise Refused(
            _("key={key}: an SSH key's fingerprint is SHA256: and 43 letters, as ssh-keygen -l prints it").format(
                key=key
            ),
            rule=TYPING,
        )
    if (key or via) and len(pairs) != 1:
        raise Refused(_("key= and via= name one side's player at a time"), rule=TYPING)
    if via == "key" and not key:
        raise Refused(_("via=key: give the key's fingerprint too (key=SHA256:…)"), rule=TYPING)
    for side, _eq, name in pairs:
        ctx.emit(ev.Seated(side=side, name=name, key=key, via=via or ("key" if key else "named")))


def _seal_order(ctx: Context, args: dict[str, str]) -> None:
    """A side's sealed order: what it writes down and shows only later (Bassa Intensità BI-R102,
    §A.11: the observer writes his target down).  A secret of its side, numbered in its side's
    orders; ``commitments.seal`` commits it to everyone at once, and ``reveal ORDER`` or the
    game's end opens it."""
    side = ctx.role
    if side not in ctx.state.sides:  # (ruling CORE-SEALED-ORDER: the referee's secrets are his already)
        raise Refused(_("a sealed order is a side's, written at its own seat; the referee seals none"), rule="ENG-1")
    mine = f"{SEALED_ORDERS}{side}."
    n = 1 + sum(1 for key in ctx.state.secrets if key.startswith(mine))
    ctx.emit(ev.SecretSet(key=f"{mine}{n}", owner=side, value=args["text"], vis=(side,)))


def _table_dice(ctx: Context, args: dict) -> None:
    """``table-dice on|off``: the referee's choice for his whole table, a fact every seat reads."""
    on = args["choice"] == "on"
    if on == table_dice(ctx.state):
        raise Refused(_("table dice are already on") if on else _("table dice are already off"), rule="ENG-7")
    ctx.emit(ev.VarSet(key=TABLE_DICE, value=args["choice"]))


def _never(ctx: Context, args: dict) -> None:  # a step of the log has no handler: the game writes its log_step's
    raise AssertionError("undo/redo are steps of the log: Game writes their log_step")


def _undo(game: Front, role: str, by: str) -> Written:
    return game.undoing.undone(role, by, game.clock())


def _redo(game: Front, role: str, by: str) -> Written:
    return game.undoing.redone(role, by, game.clock())


def copy_role_error(game: Front, role: str) -> str | None:
    """A side's copy is shown as its own role only (the referee's default stands for it)."""
    if role in (REFEREE, game.copy_role):
        return None
    said = _("{path}: a side's copy holds only what {copy} saw; it cannot be shown as {role}")
    return said.format(path=game.path, copy=game.copy_role, role=repr(role))


def reading_role(game: Front, role: str) -> str:
    """The role a read-only game is shown as: a side's copy as its own."""
    return game.copy_role or role
