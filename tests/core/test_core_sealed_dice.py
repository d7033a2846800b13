"""Dice nobody can foresee (issue #52): a sealed key, the issuer's contribution, and
``fireteam verify`` re-deriving every roll."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from coretests_support import file_events, new_skirmish, skirmish_registered
from playing import names
from recorded import SAVES
from test_core_secrets import rechain

from core.dice.faces import CONTRIBUTION_BYTES, Share, derive, derive_share
from core.game import Game
from core.log import events as ev
from core.log.state import DICE_KEY
from core.log.views import REFEREE, REFEREE_ONLY
from core.ruleset import Refused
from core.secrets import commitments
from core.secrets.dicecheck import MISMATCH, OK, SEALED
from core.secrets.sidecopy import export, write
from core.secrets.verify import verify
from core.storage.fork import fork
from tui.main import main as fireteam

MINE = bytes(range(CONTRIBUTION_BYTES))


@pytest.fixture(autouse=True)
def _skirmish():
    with skirmish_registered():
        yield


@pytest.fixture
def sealed(tmp_path):
    """A skirmish made with no seed: its dice are sealed by its first command."""
    game = Game.new(tmp_path / "sealed.ft", "test-skirmish", clock=lambda: 2_000)
    game.execute("setup", role=REFEREE)
    yield game
    game.close()


def key_fact(game: Game) -> ev.VarSet:
    (fact,) = [e for e in game.history.timeline() if type(e) is ev.VarSet and e.key == DICE_KEY]
    return fact


def sealed_rolls(events) -> list[ev.SharedRoll]:
    return [e for e in events if isinstance(e, ev.SealedRoll)]


def faces(key: bytes, roll: ev.SharedRoll, mine: bytes = MINE) -> tuple[int, ...]:
    """What ``roll``'s inputs give, ``mine`` its contribution."""
    r = roll.roll
    said = (key, roll.seal, roll.by, roll.nonce, roll.draw, r.purpose, roll.line, mine, len(r.faces), r.sides)
    return derive_share(*said)


def test_a_new_game_commits_its_key_with_its_first_command_and_rolls_from_it(sealed):
    fact = key_fact(sealed)
    group = sealed.history.group(1)
    at = group.index(fact)
    commitment = group[at + 1]
    # The key is the referee's; its commitment is everyone's, right after it.
    assert fact.vis == REFEREE_ONLY and type(commitment) is ev.Committed and commitment.vis == ()
    assert commitment.digest == commitments.fact_digest(fact)
    seeded = new_skirmish(sealed.path.with_name("seeded.ft"))
    assert group[0].vis == seeded.history.issued(1).vis  # the key narrows no one's view of the command
    done = sealed.execute("shoot alpha gunner", role="blue", saw=sealed.sealing.seal(), contribution=MINE)
    (roll,) = sealed_rolls(done.events)
    assert (roll.seal, roll.contribution, roll.draw) == (commitment.digest, MINE.hex(), 0)
    # Blue's first share, for this command, drawn under this key.
    assert (roll.by, roll.nonce, roll.saw) == ("blue", 1, commitment.digest)
    key, purpose = bytes.fromhex(fact.value), roll.roll.purpose
    assert roll.roll.faces == derive_share(key, commitment.digest, "blue", 1, 0, purpose, roll.line, MINE, 2, 6)
    # And nobody but the referee reads the key in the log.
    assert not any(fact.value in line.text for line in sealed.log_lines("blue"))


def test_a_game_given_a_seed_and_an_older_save_keep_their_seeded_dice(tmp_path):
    game = new_skirmish(tmp_path / "seeded.ft", seed=5)
    done = game.execute("shoot alpha gunner", role="blue")
    assert [type(e) for e in done.events[1:]] == [ev.Rolled]
    assert DICE_KEY not in game.state.vars
    old = Game.open(SAVES / "demo-game.ft", writable=False)
    assert not sealed_rolls(old.history.timeline()) and verify(SAVES / "demo-game.ft").dice.seeded == 70


def test_a_host_that_knows_its_key_cannot_compute_a_roll_before_the_contribution(sealed):
    """The host holds the key; the roll it will record is a function of the contribution,
    which the issuer's client draws when the command is given, after the request."""
    key = bytes.fromhex(key_fact(sealed).value)
    asked: list[str] = []

    def contribute() -> bytes:
        # Drawn by the client (here, this process) only once the command is asked for.
        asked.append(sealed.history.issued(sealed.history.next_cmd - 1).text)
        return MINE

    sealed.sealing.contribute = contribute
    done = sealed.execute("shoot alpha gunner", role="blue")
    assert asked == ["setup"]  # asked while the shot was being resolved, once
    (roll,) = sealed_rolls(done.events)
    assert roll.roll.faces == faces(key, roll)
    # With the key alone, every face is as likely as any other: what the contribution
    # will be decides it (600 contributions: each face 100 times on average).
    seal, purpose = roll.seal, roll.roll.purpose
    firsts = Counter(
        derive_share(key, seal, "blue", 1, 0, purpose, roll.line, i.to_bytes(CONTRIBUTION_BYTES, "big"), 1, 6)[0]
        for i in range(600)
    )
    assert set(firsts) == {1, 2, 3, 4, 5, 6} and all(55 <= n <= 145 for n in firsts.values()), firsts


def test_the_faces_are_unbiased_for_dice_that_do_not_divide_the_stream():
    """Rejection sampling: a d54 (a deck's shuffle) and a d6 come out flat."""
    key = bytes(32)
    for sides, draws in ((6, 6000), (54, 27000)):
        counts = Counter(f for draw in range(draws // 1000) for f in derive(key, MINE, draw, 1000, sides))
        expected = draws / sides
        chi2 = sum((counts[f] - expected) ** 2 / expected for f in range(1, sides + 1))
        assert set(counts) == set(range(1, sides + 1))
        assert chi2 < sides * 2.5  # far above any chance bias (mean: sides-1), far below 256 % sides's


def test_a_contribution_used_again_is_refused(sealed):
    sealed.execute("shoot alpha gunner", role="blue", saw=sealed.sealing.seal(), contribution=MINE)
    with pytest.raises(Refused, match="used before") as no:
        sealed.execute("shoot bravo gunner", role="blue", saw=sealed.sealing.seal(), contribution=MINE)
    names(no.value, "ENG-5")
    with pytest.raises(Refused, match="random bytes") as no:
        sealed.execute("shoot bravo gunner", role="blue", saw=sealed.sealing.seal(), contribution=b"short")
    names(no.value, "ENG-5")
    assert len(sealed_rolls(sealed.history.timeline())) == 1


def test_dice_key_opens_the_part_played_and_a_sides_copy_verifies_it(sealed, tmp_path, capsys):
    first = key_fact(sealed)
    sealed.execute("shoot alpha gunner", role="blue")
    done = sealed.execute("dice-key", role=REFEREE)
    opened = next(e for e in done.events if type(e) is ev.Opened)
    assert opened.vis == () and opened.value == first.value and commitments.matches(opened)
    later = sealed.execute("shoot bravo gunner", role="blue")
    assert sealed_rolls(later.events)[0].seal != sealed_rolls(sealed.history.timeline())[0].seal
    copy = tmp_path / "blue.json"
    write(export(sealed, "blue"), copy)
    result = verify(copy)
    # The roll before dice-key is checked; the one after waits for its key's opening.
    assert [c.status for c in result.dice.rolls] == [OK, SEALED] and result.ok
    assert fireteam(["verify", str(sealed.path)]) == 0  # the full save holds both keys
    out = capsys.readouterr().out
    assert "dice: 2 sealed rolls re-derived: each is the roll its inputs give" in out


def _played(tmp_path) -> Path:
    game = Game.new(tmp_path / "played.ft", "test-skirmish", clock=lambda: 2_000)
    game.execute("setup", role=REFEREE)
    game.execute("shoot alpha gunner", role="blue", saw=game.sealing.seal(), contribution=MINE)
    game.execute("shoot bravo gunner", role="blue")
    game.execute("dice-key", role=REFEREE)
    game.close()
    assert verify(tmp_path / "played.ft").ok
    return tmp_path / "played.ft"


def _first_roll(records):
    return next(r for r in records if r["t"] == "nroll")


def test_verify_catches_a_changed_roll(tmp_path, capsys):
    save = _played(tmp_path)

    def edit(records):
        roll = _first_roll(records)["roll"]
        roll["faces"] = [7 - roll["faces"][0], roll["faces"][1]]

    rechain(save, edit)
    Game.open(save, writable=False).close()  # the file's own checks pass
    assert fireteam(["verify", str(save)]) == 1
    out = capsys.readouterr().out.splitlines()
    (bad,) = [line for line in out if line.startswith("roll at step ") and MISMATCH in line]
    assert "its inputs give" in bad


def test_verify_catches_a_changed_contribution(tmp_path):
    save = _played(tmp_path)
    played = Game.open(save, writable=False)
    keys = [e for e in played.history.timeline() if type(e) is ev.VarSet and e.key == DICE_KEY]
    key = bytes.fromhex(keys[0].value)  # the first roll's (dice-key opens it and seals a new one)
    (first, *_rest) = sealed_rolls(played.history.timeline())
    played.close()
    # Another contribution whose dice differ: one in 36 gives the same two faces, which is no change.
    other = next(
        mine
        for mine in (i.to_bytes(CONTRIBUTION_BYTES, "big") for i in range(1, 1000))
        if faces(key, first, mine) != first.roll.faces
    )
    rechain(save, lambda records: _first_roll(records).update(contribution=other.hex()))
    result = verify(save)
    assert [c.status for c in result.dice.rolls] == [MISMATCH, OK] and not result.ok


def test_verify_catches_a_changed_key(tmp_path):
    save = _played(tmp_path)
    other = "ab" * 32

    def edit(records):
        # The key replaced everywhere it is written: its fact and its opening.
        for r in records:
            if r.get("key") == DICE_KEY and r["t"] in ("var", "open"):
                r["value"] = other

    rechain(save, edit)
    result = verify(save)
    assert [c.status for c in result.dice.rolls] == [MISMATCH, MISMATCH] and not result.ok
    assert "does not match its commitment" in result.dice.rolls[0].why


def _two_shots(tmp_path) -> Path:
    """A full save, its key never opened: setup seals it, and two shots roll it."""
    game = Game.new(tmp_path / "shots.ft", "test-skirmish", clock=lambda: 2_000)
    game.execute("setup", role=REFEREE)
    game.execute("shoot alpha gunner", role="blue", saw=game.sealing.seal(), contribution=MINE)
    game.execute("shoot bravo gunner", role="blue")
    game.close()
    assert verify(tmp_path / "shots.ft").ok
    return tmp_path / "shots.ft"


def test_verify_fails_a_full_save_whose_rolls_key_was_removed(tmp_path, capsys):
    """Without the key's fact (and its commitment) no roll can be re-derived: in a full save,
    which always holds it, that is a failure, not a key still sealed (issue #60)."""
    save = _two_shots(tmp_path)

    def edit(records):
        at = next(i for i, r in enumerate(records) if r["t"] == "var" and r["key"] == DICE_KEY)
        assert records[at + 1]["t"] == "commit"
        del records[at : at + 2]
        records[0]["n"] -= 2  # the setup's count of facts, as a careful editor keeps it

    rechain(save, edit)
    Game.open(save, writable=False).close()  # the file's own checks pass
    result = verify(save)
    assert not result.checks or all(c.key != DICE_KEY for c in result.checks)  # nothing else tells
    assert [c.status for c in result.dice.rolls] == [SEALED, SEALED] and not result.ok
    assert fireteam(["verify", str(save)]) == 1
    assert "dice: 2 sealed rolls re-derived: 2 failed" in capsys.readouterr().out


def test_verify_fails_two_rolls_from_the_same_inputs(tmp_path):
    """A roll copied onto another command with its contribution and faces derives right, and
    its faces were known before it was rolled: the second of the two fails (issue #60).  A
    bound roll so copied is out of its command at once; a save's older rolls (``sroll``, bound
    to their key, contribution and draw alone) meet this check, so the rolls are made older first."""
    save = _two_shots(tmp_path)
    played = Game.open(save, writable=False)
    key = bytes.fromhex(next(e.value for e in played.history.timeline() if type(e) is ev.VarSet and e.key == DICE_KEY))
    played.close()

    def edit(records):
        first, second = [r for r in records if r["t"] == "nroll"]
        for r in (first, second):
            r["t"] = "sroll"
            del r["saw"], r["by"], r["nonce"], r["line"]
            mine, count = bytes.fromhex(r["contribution"]), len(r["roll"]["faces"])
            faces = derive(key, mine, r["draw"], count, r["roll"].get("sides", 6))
            r["roll"]["faces"] = list(faces)
        second.update(contribution=first["contribution"], draw=first["draw"])
        second["roll"].update(faces=first["roll"]["faces"], outcome=first["roll"]["outcome"])

    rechain(save, edit)
    Game.open(save, writable=False).close()
    result = verify(save)
    first, second = result.dice.rolls
    assert (first.status, second.status) == (OK, MISMATCH) and not result.ok
    assert second.why == f"the same inputs as the roll at step {first.step}: its faces were known"


def test_verify_json_lists_every_roll(tmp_path, capsys):
    save = _played(tmp_path)
    assert fireteam(["verify", "--json", str(save)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and [r["status"] for r in data["rolls"]] == [OK, OK]
    assert data["rolls"][0]["contribution"] == MINE.hex()


def test_a_fork_draws_a_key_of_its_own_with_its_first_command(sealed, tmp_path):
    """A what-if that kept its parent's key would roll with a key its parent's holder
    knows (and, once the parent ends, everyone): its first command of its own seals one."""
    sealed.execute("shoot alpha gunner", role="blue")
    step = sealed.timeline.length
    fork(sealed.path, step, tmp_path / "whatif.ft")
    # Nothing the user did not give: the fork ends with its parent's last command.
    assert [e.text for e in file_events(tmp_path / "whatif.ft") if type(e) is ev.Issued][-1] == "shoot alpha gunner"
    whatif = Game.open(tmp_path / "whatif.ft")
    parent_key = key_fact(sealed).value
    assert whatif.state.vars[DICE_KEY] == parent_key  # until the what-if gives a command
    mine = bytes(CONTRIBUTION_BYTES)
    twin = sealed.execute("shoot bravo gunner", role="blue", saw=sealed.sealing.seal(), contribution=mine)
    other = whatif.execute("shoot bravo gunner", role="blue", saw=whatif.sealing.seal(), contribution=mine)
    fork_key = whatif.state.vars[DICE_KEY]
    assert fork_key != parent_key
    # Sealed as a new game's first command seals: its key and commitment, no opening of the parent's.
    assert [type(e) for e in other.events[1:4]] == [ev.VarSet, ev.Committed, ev.SharedRoll]
    assert not any(type(e) is ev.Opened for e in other.events)
    (a,), (b,) = sealed_rolls(twin.events), sealed_rolls(other.events)
    assert a.seal != b.seal and b.seal == other.events[2].digest
    assert b.roll.faces == faces(bytes.fromhex(fork_key), b, mine)
    # Its first command undone, the next one seals again: never the parent's key.
    whatif.undo(role=REFEREE)
    again = whatif.execute("shoot bravo gunner", role="blue")
    assert whatif.state.vars[DICE_KEY] not in (parent_key, fork_key)
    assert sealed_rolls(again.events)[0].seal == again.events[2].digest
    # Then the what-if's own key stays in force.
    later = whatif.execute("shoot alpha gunner", role="blue")
    assert not any(type(e) is ev.VarSet for e in later.events)
    whatif.close()
    assert verify(tmp_path / "whatif.ft").ok


def test_a_fork_of_seeded_dice_draws_a_new_seed_and_seals_a_new_game(tmp_path):
    game = new_skirmish(tmp_path / "seeded.ft", seed=5)
    game.execute("shoot alpha gunner", role="blue")
    game.close()
    fork(tmp_path / "seeded.ft", game.timeline.length, tmp_path / "later.ft", seed=None)
    later = Game.open(tmp_path / "later.ft")
    assert later.header.seed != 5
    # Seeded dice go on seeded, from the what-if's own seed: not the parent's faces again.
    other = later.execute("shoot bravo gunner", role="blue")
    assert [type(e) for e in other.events[1:]] == [ev.Rolled]
    assert DICE_KEY not in later.state.vars
    later.close()
    # At step 0 the what-if is a new game: its first command seals its dice.
    fork(tmp_path / "seeded.ft", 0, tmp_path / "a.ft", seed=None)
    assert not file_events(tmp_path / "a.ft")
    fresh = Game.open(tmp_path / "a.ft")
    first = fresh.execute("setup", role=REFEREE)
    assert any(type(e) is ev.VarSet and e.key == DICE_KEY for e in first.events)
    fresh.close()


def test_a_seats_sent_contribution_is_taken_by_its_next_command_only(sealed):
    """A seat's context names where its commands take their contribution (a browser seat's
    page): each command takes what was sent, once; other contexts draw their own."""
    import contextvars

    from core.dice.faces import contributions_from

    sent = [Share(MINE, sealed.sealing.seal())]

    def seat() -> tuple:
        contributions_from(lambda: sent.pop() if sent else None)
        first = sealed.execute("shoot alpha gunner", role="blue")
        second = sealed.execute("shoot bravo gunner", role="blue")
        return first, second

    first, second = contextvars.copy_context().run(seat)
    assert sealed_rolls(first.events)[0].contribution == MINE.hex()
    assert sealed_rolls(second.events)[0].contribution != MINE.hex()  # nothing sent: drawn here
    sent.append(Share(MINE, sealed.sealing.seal()))
    outside = sealed.execute("shoot alpha gunner", role="blue")  # another context: not the seat's
    assert sealed_rolls(outside.events)[0].contribution != MINE.hex() and len(sent) == 1


def test_a_share_with_neither_seal_nor_count_does_not_pass_the_tables_own_check(sealed):
    """Issue #90, point 10: the door refuses a line whose share names no keys, so a share with no seal
    never reached the table in the suite, and the table's own check (``core.dice.shares``) could have
    let it roll.  Whatever the door does, a share that names no key does not roll while the dice are
    sealed: rolled under whatever key is in force when its command comes, the host could seal keys
    after seeing it until one suited him.  Its count alone does not make it one."""
    for nonce in (None, 1):
        with pytest.raises(Refused, match="this share of the dice names no key") as no:
            sealed.execute("shoot alpha gunner", role="blue", contribution=MINE, saw=None, nonce=nonce)
        names(no.value, "ENG-5")
    # The control: the same bytes naming the key in force, with no count, roll as the seat's next.
    done = sealed.execute("shoot alpha gunner", role="blue", contribution=MINE, saw=sealed.sealing.seal())
    (roll,) = sealed_rolls(done.events)
    assert (roll.contribution, roll.nonce, roll.saw) == (MINE.hex(), 1, roll.seal)
