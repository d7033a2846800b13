"""What-if games: ``fireteam fork``, a new save holding another's effective history up to a step.

The fork holds the original's *effective* history: the commands in force at
that step, in the order they took effect, each renumbered 1, 2, 3… and with
its facts (dice, secrets and their commitments included) copied unchanged.
Undone commands, the undo and redo markers, and the redo branch are left
behind: a what-if starts from what stood at the table, not from how it was
argued.  A command carried past a player's undo (``Issued.carries``) is simply
one more command in the fork.  The new header names the parent save, the
SHA-256 of the bytes read from it and the step (``decoding.Parent``); it has a
new dice seed, so the game after the fork does not repeat the original's dice;
if the original's dice were sealed, the what-if's first command of its own seals
them with a key of its own (``Sealing.rolls_parents_key``, ``core.game.sealing``): nothing is added here
that the user did not give.

Forking reads a *full* save, so only whoever holds one (the referee) can fork:
a side's copy (``fireteam export``) lacks the hidden facts a game needs, and is
refused.  The original is only read, with no lock: it may be open and written by
another process meanwhile.  A step inside a command is refused (``fork_step``
names the command's bounds), since half a command is no state the game was in.
"""

from __future__ import annotations

import hashlib
import os
import secrets as _secrets
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import msgspec

import core
from core.game import SEED_LIMIT, Game
from core.language.i18n import _
from core.log import events as ev
from core.secrets.sessions import FIRST_VERSION, versions
from core.secrets.sidecopy import looks_like_side_copy
from core.storage.decoding import Parent
from core.storage.errors import SaveError
from core.storage.savefile import encoder
from core.storage.writer import write_new


@dataclass(frozen=True)
class Forked:
    source: Path
    to: Path
    step: int
    commands: int
    sha256: str

    def report(self) -> str:
        said = _(
            "{to}: a what-if game from {source} at step {step} ({commands} commands in effect then); "
            "{source} was not changed"
        )
        return said.format(to=self.to, source=self.source, step=self.step, commands=self.commands)


def boundaries(game: Game) -> list[int]:
    """The effective steps between whole commands: 0, then the end of each effective command."""
    history = game.history
    out = [0]
    for cmd in history.eff_cmds:
        out.append(out[-1] + history.group_end[cmd] - history.group_start[cmd])
    return out


def fork_step(game: Game, step: int) -> int:
    """The number of effective commands a fork at ``step`` keeps, or SaveError saying why not."""
    bounds = boundaries(game)
    total = bounds[-1]
    if not 0 <= step <= total:
        said = _("{path}: step {step} is out of range: this game has steps 0 to {total}")
        raise SaveError(said.format(path=game.path, step=step, total=total))
    k = bisect_left(bounds, step)
    if bounds[k] != step:
        cmd = game.history.eff_cmds[k - 1]
        said = _(
            "{path}: step {step} is inside command #{cmd} ({text}, steps {before} to {after}); "
            "fork at {before} (before it) or {after} (after it)"
        )
        text = repr(game.history.issued(cmd).text)
        raise SaveError(
            said.format(path=game.path, step=step, cmd=cmd, text=text, before=bounds[k - 1], after=bounds[k])
        )
    return k


def boundary_before(game: Game, step: int) -> int:
    """The last step between two commands at or before ``step`` (where "play from here" forks)."""
    bounds = boundaries(game)
    return bounds[max(0, bisect_right(bounds, step) - 1)]


def default_target(source: Path, step: int) -> Path:
    """``NAME.whatif-STEP.ft`` next to the save, or ``NAME.whatif-STEP-2.ft``…: never an existing file."""
    n = 1
    while True:
        target = source.with_name(f"{source.stem}.whatif-{step}" + ("" if n == 1 else f"-{n}") + source.suffix)
        if not os.path.lexists(target):
            return target
        n += 1


def _sha256_prefix(path: Path, size: int) -> str:
    """SHA-256 of the first ``size`` bytes of ``path``: what the load read (a writer may append meanwhile)."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        left = size
        while left > 0 and (block := f.read(min(1 << 20, left))):
            digest.update(block)
            left -= len(block)
    return digest.hexdigest()


def fork(source: Path, step: int, to: Path, *, seed: int | None = None) -> Forked:
    """Write a new save at ``to`` holding ``source``'s effective history up to ``step``."""
    source, to = Path(source), Path(to)
    if os.path.lexists(to):
        said = _("{path}: already exists; choose another name with {option} (saves are never overwritten)")
        raise SaveError(said.format(path=to, option="--save"))
    if seed is not None and not 0 <= seed < SEED_LIMIT:
        raise SaveError(_("a seed is a whole number from 0 to {limit}").format(limit=SEED_LIMIT - 1))
    game = _open_full_save(source)
    kept = fork_step(game, step)
    history = game.history
    payloads: list[bytes] = []
    # Each copied command keeps the version that wrote it: its session's first command, which
    # named it, may be undone and left behind (core.secrets.sessions).
    written_by, was = versions(history), FIRST_VERSION
    for number, cmd in enumerate(history.eff_cmds[:kept], start=1):
        head, *facts = history.group(cmd)
        assert isinstance(head, ev.Issued)
        version = written_by[cmd] if written_by[cmd] != was else ""
        was = written_by[cmd]
        payloads.append(encoder.encode(msgspec.structs.replace(head, cmd=number, carries=0, version=version)))
        payloads.extend(encoder.encode(e) for e in facts)
    sha = _sha256_prefix(source, game.saved_bytes)
    header = msgspec.structs.replace(
        game.header,
        engine=core.__version__,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        seed=_secrets.randbits(48) if seed is None else seed,
        parent=Parent(path=os.path.abspath(source), sha256=sha, step=step),
    )
    write_new(to, header, payloads, option="--save")
    return Forked(source, to, step, kept, sha)


def _open_full_save(source: Path) -> Game:
    try:
        return Game.open(source, writable=False)
    except SaveError as e:
        if looks_like_side_copy(source):
            raise SaveError(
                _(
                    "{path}: a side's copy of a game (fireteam export) cannot be forked: it lacks what that "
                    "side could not see. Fork the full save, which the referee holds"
                ).format(path=source)
            ) from None
        raise SaveError(_("cannot fork: {error}").format(error=e)) from None
