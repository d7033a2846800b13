"""Every input of a sealed roll bound (issue #75): its faces are the documented HMAC of the key,
the key's commitment (which names the game), the seat, the seat's count of its shares, the roll's
place and purpose, the command it is for and the seat's bytes, and of nothing else; leave any one
out of the derivation and a test here fails."""

from __future__ import annotations

import hashlib
import hmac

import msgspec
import pytest
from coretests_support import Skirmish

from core.dice.faces import CONTRIBUTION_BYTES, derive_share
from core.dice.shares import command_digest
from core.game import Game
from core.log import events as ev
from core.log.state import DICE_KEY
from core.log.views import REFEREE
from core.registry import register, unregister
from core.ruleset import CommandSpec, Context, Param
from core.secrets.dicecheck import OK
from core.secrets.verify import verify

MINE = bytes(range(CONTRIBUTION_BYTES))
#: Ten d6 a roll: two derivations that differ give the same faces once in 6**10.
COUNT = 10


def _barrage(ctx: Context, args: dict) -> None:
    # Two rolls of one command for the same purpose: only their place tells them apart.
    ctx.roll("barrage", COUNT, unit=args["shooter"])
    ctx.roll("barrage", COUNT, unit=args["shooter"])


class Barrage(Skirmish):
    id = "test-barrage"

    def commands(self):
        return [
            *super().commands(),
            CommandSpec("barrage", "Fire twice.", _barrage, params=(Param("shooter", "own"),), rolls=True),
        ]


@pytest.fixture
def game(tmp_path):
    register(Barrage)
    game = Game.new(tmp_path / "g.ft", Barrage.id, clock=lambda: 2_000)
    game.execute("setup", role=REFEREE)
    try:
        yield game
    finally:
        game.close()
        unregister(Barrage.id)


def documented(key, seal, by, nonce, place, purpose, line, mine, count, sides=6) -> tuple[int, ...]:
    """docs/secrets.md's derivation, written here from its words alone: HMAC-SHA256 of the key over
    ``fireteam-dice/3|SEAL|HEX(BY)|NONCE|PLACE|SHA-256(JSON(PURPOSE))|LINE|CONTRIBUTION|BLOCK``, 4
    bytes a number, rejection sampled."""
    head = [b"fireteam-dice/3", seal.encode(), by.encode().hex().encode(), str(nonce).encode(), str(place).encode()]
    head += [hashlib.sha256(msgspec.json.encode(purpose)).hexdigest().encode(), line.encode(), mine.hex().encode()]
    limit, faces, block = 2**32 - 2**32 % sides, [], 0
    while len(faces) < count:
        stream = hmac.new(key, b"|".join([*head, str(block).encode()]), hashlib.sha256).digest()
        numbers = [int.from_bytes(stream[i : i + 4], "big") for i in range(0, 32, 4)]
        faces += [n % sides + 1 for n in numbers if n < limit]
        block += 1
    return tuple(faces[:count])


def test_the_engine_rolls_the_documented_derivation_of_every_input(game):
    """Each roll the table makes is the documented function of all its inputs: an engine that left
    one out (the place, say, so that a roll-off's two dice came out alike) gives other faces."""
    game.execute("barrage alpha", role="blue", saw=game.sealing.seal(), contribution=MINE)
    game.execute("barrage bravo", role="blue", saw=game.sealing.seal(), contribution=bytes(16))
    key = bytes.fromhex(game.state.vars[DICE_KEY])
    rolls = [e for e in game.history.timeline() if isinstance(e, ev.SharedRoll)]
    assert [(r.by, r.nonce, r.draw) for r in rolls] == [("blue", 1, 0), ("blue", 1, 1), ("blue", 2, 0), ("blue", 2, 1)]
    parsed = [game.parse(t, "blue") for t in ("barrage alpha", "barrage bravo")]
    mines, lines = [MINE, MINE, bytes(16), bytes(16)], [parsed[0], parsed[0], parsed[1], parsed[1]]
    for r, mine, line in zip(rolls, mines, lines, strict=True):
        assert r.line == command_digest(line)
        assert r.roll.faces == documented(key, r.seal, r.by, r.nonce, r.draw, r.roll.purpose, r.line, mine, COUNT)
    assert rolls[0].roll.faces != rolls[1].roll.faces  # the same purpose, another place
    game.execute("dice-key", role=REFEREE)
    result = verify(game.path)
    assert [c.status for c in result.dice.rolls] == [OK] * 4
    # Each line names what the seat's page kept of its share: its count (and its bytes, its key).
    assert result.dice.rolls[2].line().endswith(f"contribution {bytes(8).hex()}, draw 0), share 2 of blue: ok")
    assert [(r["by"], r["nonce"]) for r in result.as_json()["rolls"]] == [("blue", 1)] * 2 + [("blue", 2)] * 2


BASE = dict(
    key=b"k" * 32,
    seal="5e" * 32,
    by="blue",
    nonce=3,
    place=0,
    purpose="morale",
    line="11" * 32,
    contribution=MINE,
)
OTHER = dict(
    key=b"K" * 32,
    seal="e5" * 32,  # another game: every game and what-if seals a key of its own, salted
    by="red",
    nonce=4,
    place=1,
    purpose="morale again",
    line="22" * 32,
    contribution=bytes(16),
)


@pytest.mark.parametrize("changed", list(BASE), ids=list(BASE))
def test_each_input_alone_changes_the_faces(changed):
    """The derivation leaves none of its inputs out: changed alone, each gives other faces."""
    given = {**BASE, changed: OTHER[changed]}
    assert derive_share(**given, count=COUNT, sides=6) != derive_share(**BASE, count=COUNT, sides=6)
    assert derive_share(**given, count=COUNT, sides=6) == documented(*given.values(), COUNT)
