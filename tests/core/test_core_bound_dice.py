"""Sealed dice a playing host cannot steer (issues #60, #75): a key chosen after a contribution
was seen cannot roll it, and a roll is bound to its game, its seat's share, place and purpose, so
``fireteam verify`` sees it moved, swapped or dropped before another; older saves' rolls verify by
their own derivation."""

from __future__ import annotations

import contextvars
from pathlib import Path

import pytest
from coretests_support import Skirmish
from playing import names
from test_core_secrets import rechain

from core.dice.faces import CONTRIBUTION_BYTES, Share, contributions_from, derive, derive_share
from core.game import Game
from core.log import events as ev
from core.log.state import DICE_KEY
from core.log.views import REFEREE
from core.registry import register, unregister
from core.ruleset import CommandSpec, Context, Param, Refused
from core.secrets.dicecheck import MISMATCH, OK
from core.secrets.sidecopy import export, write
from core.secrets.verify import verify

MINE = bytes(range(CONTRIBUTION_BYTES))


def _volley(ctx: Context, args: dict) -> None:
    # Two rolls of one command, each for a purpose of its own (a shot, then its effect).
    ctx.roll("shoot", 2, target=4, unit=args["shooter"])
    ctx.roll("effect", 1, unit=args["shooter"])


class Volley(Skirmish):
    id = "test-volley"

    def commands(self):
        return [
            *super().commands(),
            CommandSpec(
                "volley", "Fire, then roll the effect.", _volley, params=(Param("shooter", "own"),), rolls=True
            ),
        ]


@pytest.fixture
def game(tmp_path):
    register(Volley)
    game = Game.new(tmp_path / "g.ft", Volley.id, clock=lambda: 2_000)
    game.execute("setup", role=REFEREE)
    try:
        yield game
    finally:
        game.close()
        unregister(Volley.id)


def _rolls(events) -> list[dict]:
    return [r for r in events if r["t"] == "nroll"]


def _statuses(save: Path) -> list[str]:
    return [c.status for c in verify(save).dice.rolls]


# ------------------------------------------------------------ a key chosen after the contribution


def test_a_host_who_seals_a_key_after_seeing_a_contribution_cannot_roll_it(game):
    """The attack of issue #60: the browser's bytes come (naming the key they were drawn
    under), the host tries keys until one gives a 6, seals it with ``dice-key``, then runs
    the command with those bytes.  The table refuses it, by the page's way and the seat's."""
    seen = game.sealing.seal()
    key = bytes.fromhex(game.state.vars[DICE_KEY])
    grinded = next(
        k.hex() for k in (bytes([i]) * 32 for i in range(256)) if derive(k, MINE, 0, 1, 6) != derive(key, MINE, 0, 1, 6)
    )
    game.sealing.new_key = lambda: grinded
    game.execute("dice-key", role=REFEREE)
    assert game.sealing.seal() != seen
    with pytest.raises(Refused, match="sealed with a new key after this share") as no:
        game.execute("shoot alpha gunner", role="blue", contribution=MINE, saw=seen)
    names(no.value, "ENG-5")

    def seat() -> None:
        contributions_from(lambda: Share(MINE, seen))
        game.execute("shoot alpha gunner", role="blue")

    with pytest.raises(Refused, match="sealed with a new key after this share") as no:
        contextvars.copy_context().run(seat)
    names(no.value, "ENG-5")
    assert not _bound(game)
    # Drawn again under the key in force, it rolls.
    done = game.execute("shoot alpha gunner", role="blue", contribution=MINE, saw=game.sealing.seal())
    ((roll,),) = [[e for e in done.events if isinstance(e, ev.SharedRoll)]]
    assert roll.saw == roll.seal == game.sealing.seal()


def _bound(game: Game) -> list[ev.SharedRoll]:
    return [e for e in game.history.timeline() if isinstance(e, ev.SharedRoll)]


def test_verify_fails_a_roll_whose_key_was_sealed_after_its_contribution(game, tmp_path):
    """A host whose program let it through: the roll names the key its sender saw, not the
    one that rolled it, and ``verify`` fails it, in the save and in the side's copy."""
    seen = game.sealing.seal()
    game.execute("dice-key", role=REFEREE)
    game.execute("shoot alpha gunner", role="blue", saw=game.sealing.seal(), contribution=MINE)
    game.execute("dice-key", role=REFEREE)  # opens the key that rolled it
    game.close()
    save = game.path
    assert _statuses(save) == [OK]
    rechain(save, lambda records: _rolls(records)[0].update(saw=seen))
    (check,) = verify(save).dice.rolls
    assert check.status == MISMATCH and "sealed after its contribution" in check.why
    copy = tmp_path / "blue.json"
    write(export(Game.open(save, writable=False), "blue"), copy)
    assert _statuses(copy) == [MISMATCH] and not verify(copy).ok


# ------------------------------------------------------------ a roll bound to its place


def _played(game: Game) -> Path:
    game.execute("volley alpha", role="blue")
    game.execute("shoot bravo gunner", role="blue")
    game.execute("shoot alpha grunt", role="blue")
    game.execute("dice-key", role=REFEREE)
    game.close()
    assert _statuses(game.path) == [OK] * 4
    return game.path


def _drop(records: list[dict], roll: dict) -> None:
    """``roll`` taken out, and its command's count of facts told so (the file's own check)."""
    at = records.index(roll)
    issued = next(r for r in reversed(records[:at]) if r["t"] == "cmd")
    issued["n"] -= 1
    del records[at]


def test_verify_fails_a_dropped_roll(game):
    save = _played(game)
    rechain(save, lambda records: _drop(records, _rolls(records)[0]))
    result = verify(save)
    assert [c.status for c in result.dice.rolls] == [MISMATCH, OK, OK] and not result.ok
    assert "place 0 of its command is missing" in result.dice.rolls[0].why


def test_verify_fails_two_rolls_swapped_within_a_command(game):
    save = _played(game)

    def swap(records):
        a, b = _rolls(records)[:2]
        i, j = records.index(a), records.index(b)
        records[i], records[j] = b, a

    rechain(save, swap)
    result = verify(save)
    assert result.dice.rolls[0].status == MISMATCH and not result.ok


def test_verify_fails_two_commands_rolls_swapped_whole(game):
    save = _played(game)

    def swap(records):
        a, b = _rolls(records)[2:4]
        i, j = records.index(a), records.index(b)
        records[i], records[j] = b, a

    rechain(save, swap)
    result = verify(save)
    # Each derives from its own share: the second seen is a share its seat had passed.
    assert [c.status for c in result.dice.rolls] == [OK, OK, OK, MISMATCH] and not result.ok
    assert "used or passed before" in result.dice.rolls[3].why
    assert any("command #" in line and "mismatch" in line for line in result.report())  # what they decided


def test_verify_fails_a_roll_given_another_purpose_or_place(game):
    """Its purpose and place are inputs of its faces: changed, the faces no longer follow."""
    save = _played(game)
    played = Game.open(save, writable=False)
    key = bytes.fromhex(next(e.value for e in played.history.timeline() if type(e) is ev.VarSet))
    played.close()

    def other_faces(r: dict, purpose: str) -> bool:
        faces = tuple(r["roll"]["faces"])
        mine, sides = bytes.fromhex(r["contribution"]), r["roll"].get("sides", 6)
        said = (key, r["seal"], r["by"], r["nonce"], r["draw"], purpose, r["line"], mine, len(faces), sides)
        return derive_share(*said) != faces

    def edit(records):
        # A purpose that gives other faces: one die in six would give the same face again, which
        # no check could tell from the roll it was (and the test would pass by chance).
        roll = _rolls(records)[1]
        roll["roll"]["purpose"] = next(p for p in (f"shoot {i}" for i in range(100)) if other_faces(roll, p))

    rechain(save, edit)
    assert _statuses(save)[1] == MISMATCH


def test_an_older_saves_sealed_rolls_verify_by_their_own_derivation(game):
    """Saves made before the bound derivation hold ``sroll`` events drawn by ``derive``: they
    load and verify as they did (and a face changed there still fails)."""
    save = _played(game)
    played = Game.open(save, writable=False)
    key = bytes.fromhex(next(e.value for e in played.history.timeline() if type(e) is ev.VarSet))
    played.close()

    def older(records):
        for r in _rolls(records):
            r["t"] = "sroll"
            del r["saw"], r["by"], r["nonce"], r["line"]
            mine, count = bytes.fromhex(r["contribution"]), len(r["roll"]["faces"])
            r["roll"]["faces"] = list(derive(key, mine, r["draw"], count, r["roll"].get("sides", 6)))

    rechain(save, older)
    # Every roll derives as the older rolls did (the facts its faces decided were made for
    # other faces here, which verify's replay of the rules would rightly name).
    assert _statuses(save) == [OK] * 4
    rechain(save, lambda records: next(r for r in records if r["t"] == "sroll")["roll"].update(faces=[7, 7]))
    assert _statuses(save)[0] == MISMATCH


def test_a_what_if_of_a_game_with_an_undo_verifies_its_parents_rolls(game, tmp_path):
    """A fork numbers its parent's commands again (the undone ones left behind): the rolls it
    copied still name the parent's numbers, and verify takes them as the parent's."""
    from core.storage.fork import fork

    game.execute("shoot alpha gunner", role="blue")
    game.undo(role=REFEREE)
    game.execute("volley alpha", role="blue")
    fork(game.path, game.timeline.length, tmp_path / "whatif.ft")
    whatif = Game.open(tmp_path / "whatif.ft")
    whatif.execute("shoot bravo gunner", role="blue")
    whatif.close()
    assert verify(tmp_path / "whatif.ft").ok


#: A save made by the Fireteam before shares were counted (main at dfa15b3d): Breaking News'
#: demo to its deployment roll-off, then ``dice-key``; its sealed rolls are ``broll``.
OLDER_BOUND = Path(__file__).parent / "older" / "bound-dice.ft"


def test_a_save_of_bound_rolls_verifies_whole_by_their_own_derivation(tmp_path):
    """Its rolls re-derive by ``derive_bound`` (bound to their command's number) and its commands
    resolve again to the facts recorded; a face changed there fails."""
    result = verify(OLDER_BOUND)
    assert result.ok and [c.status for c in result.dice.rolls] == [OK] * 3
    assert all(type(c.roll) is ev.BoundRoll for c in result.dice.rolls)
    save = tmp_path / "older.ft"
    save.write_bytes(OLDER_BOUND.read_bytes())

    def changed(records):
        roll = next(r for r in records if r["t"] == "broll")["roll"]
        roll["faces"] = [roll["faces"][0] % 6 + 1]

    rechain(save, changed)
    assert [c.status for c in verify(save).dice.rolls][0] == MISMATCH
