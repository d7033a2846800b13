"""A browser page's record of the shares of the dice it sent, held against the save (issue #90, point 8):
``fireteam verify SAVE --side-copy RECORD`` names every roll of the record's seat whose share is not the
one the page sent (swapped or changed on its way) or that the page sent none for (dropped, and drawn by
the table); the honest record passes; the record is read as hostile input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from coretests_support import skirmish_registered

from core.dice.faces import CONTRIBUTION_BYTES
from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE
from core.secrets.sharecheck import MAX_RECORD_BYTES
from core.secrets.sidecopy import export, write
from core.secrets.verify import run
from tui.main import main as fireteam

SEAT = "rita"
LINE = "shoot alpha gunner"


@pytest.fixture(autouse=True)
def _skirmish():
    with skirmish_registered():
        yield


def share(n: int) -> bytes:
    return bytes([n]) * CONTRIBUTION_BYTES


@pytest.fixture
def game(tmp_path):
    """A skirmish made with no seed: its dice are sealed by its first command."""
    game = Game.new(tmp_path / "sealed.ft", "test-skirmish", clock=lambda: 2_000)
    game.execute("setup", role=REFEREE)
    yield game
    game.close()


def roll(game: Game, n: int, contribution: bytes | None = None, nonce: int | None = None) -> ev.SharedRoll:
    """Rita's command given with share ``n`` (or, as a proxy let it through, ``contribution``, None: drawn
    by the table), named as her next count (or ``nonce``)."""
    mine = share(n) if contribution is None else contribution
    done = game.execute(LINE, role="blue", by=SEAT, contribution=mine, saw=game.sealing.seal(), nonce=nonce)
    (rolled,) = [e for e in done.events if isinstance(e, ev.SharedRoll)]
    return rolled


def record(path: Path, game: Game, counts: dict[int, int], *, seat: str = SEAT, seal: str | None = None) -> Path:
    """The page's record, as its button downloads it: share n sent as count c, for each ``{c: n}``."""
    seal = game.sealing.seal() if seal is None else seal
    shares = [["2026-01-01T00:00:00.000Z", share(n).hex(), seal, c, "ab" * 32, seat] for c, n in counts.items()]
    path.write_text(json.dumps({"fireteam_shares": 1, "page": "http://127.0.0.1:8022", "shares": shares}))
    return path


def verified(game: Game, record_path: Path, *more: str) -> tuple[int, list[str]]:
    return run(game.path, side_copy=record_path, as_json="--json" in more)


def test_the_honest_pages_record_passes(game, tmp_path):
    for n in (1, 2, 3):
        roll(game, n)
    status, said = verified(game, record(tmp_path / "dice.json", game, {1: 1, 2: 2, 3: 3}))
    assert status == 0, said
    assert said[-1].endswith("(rita): 3 rolled shares checked: each used the share this page sent")


def test_a_swapped_share_is_named_with_what_the_page_sent(game, tmp_path):
    """A proxy put bytes ground against the key in place of the page's share 2: the save rolled them."""
    roll(game, 1)
    roll(game, 2, contribution=share(9))
    roll(game, 3)
    status, said = verified(game, record(tmp_path / "dice.json", game, {1: 1, 2: 2, 3: 3}))
    assert status == 1
    (named,) = [line for line in said if line.startswith("share ")]
    assert named.startswith("share 2 of rita, rolled at step ")
    assert f"contribution {share(9).hex()[:16]}" in named
    assert named.endswith(f"the page sent {share(2).hex()[:16]} for it: another share was put in its place on its way")
    assert said[-1].endswith("3 rolled shares checked: 1 did not use the share this page sent")
    status, said = verified(game, tmp_path / "dice.json", "--json")
    document = json.loads(said[0])
    assert status == 1 and document["page_record"]["checked"] == 3 and len(document["page_record"]["differ"]) == 1


def test_a_share_dropped_and_drawn_by_the_table_is_named(game, tmp_path):
    """A proxy dropped the page's share 2 (its face would be bad) and the table drew the roll itself."""
    roll(game, 1)
    game.execute(LINE, role="blue", by=SEAT)  # no share came: the table draws, as its seat's next count
    status, said = verified(game, record(tmp_path / "dice.json", game, {1: 1}))
    assert status == 1
    assert any(
        line.startswith("share 2 of rita")
        and line.endswith(
            "the page sent no share for it (one dropped on its way, or a line given from another browser)"
        )
        for line in said
    ), said


def test_a_share_whose_count_was_changed_on_its_way_is_named(game, tmp_path):
    """The page sent share 7 as count 3 (told so by a forged message); a proxy named it count 2."""
    roll(game, 1)
    roll(game, 7)
    status, said = verified(game, record(tmp_path / "dice.json", game, {1: 1, 3: 7}))
    assert status == 1
    assert any("its bytes are those the page sent as share 3 under key " in line for line in said), said


def test_rolls_older_than_the_record_are_said_not_failed(game, tmp_path):
    """A page keeps its last 500 shares: a roll counted before the record's first is not checked."""
    roll(game, 1)
    roll(game, 2)
    status, said = verified(game, record(tmp_path / "dice.json", game, {2: 2}))
    assert status == 0, said
    assert said[-1].endswith(
        "1 rolled share checked: each used the share this page sent (1 older than the record: not checked)"
    )


def test_another_games_record_fails_saying_so(game, tmp_path):
    roll(game, 1)
    status, said = verified(game, record(tmp_path / "dice.json", game, {1: 1}, seal="cd" * 32))
    assert status == 1 and said[-1].endswith("it names none of this game's keys (a record of another game)")


def test_the_players_own_side_copy_is_checked_against_his_record_too(game, tmp_path):
    """The player holds his side's copy, not the full save: his rolls are in it, and so checked."""
    roll(game, 1)
    roll(game, 2, contribution=share(9))
    write(export(game, "blue"), tmp_path / "blue.json")
    status, said = run(tmp_path / "blue.json", side_copy=record(tmp_path / "dice.json", game, {1: 1, 2: 2}))
    assert status == 1 and any(line.startswith("share 2 of rita") for line in said), said


@pytest.mark.parametrize(
    "body, why",
    [
        ('{"fireteam_shares": 1, "shares": [["t", "zz", "", 1, "", "rita"]]}', "not a valid record of a page's dice"),
        ('{"fireteam_shares": 1, "shares": [["t", "' + "00" * 16 + '", "", 0, "", "rita"]]}', "not a valid record"),
        ('{"fireteam_shares": 1, "shares": [], "more": 1}', "not a valid record"),
        ('{"fireteam_shares": 2, "shares": []}', "a record of a page's dice in format 2"),
        ('{"fireteam_shares": 1, "shares": [' + "[" * 5000 + "]" * 5000 + "]}", "not a valid record"),
    ],
)
def test_a_broken_record_is_refused_saying_why(game, tmp_path, body, why):
    path = tmp_path / "dice.json"
    path.write_text(body)
    status, said = verified(game, path)
    assert status == 2 and why in said[0] and "Traceback" not in said[0]


def test_a_record_over_its_limit_is_refused_before_it_is_read(game, tmp_path):
    path = tmp_path / "dice.json"
    path.write_bytes(b'{"fireteam_shares":' + b" " * MAX_RECORD_BYTES + b"1}")
    status, said = verified(game, path)
    assert status == 2 and "larger than a page's record of its dice can be" in said[0]


def test_the_command_line_takes_a_record_after_side_copy(game, tmp_path, capsys):
    roll(game, 1, contribution=share(9))
    path = record(tmp_path / "dice.json", game, {1: 1})
    game.close()
    assert fireteam(["verify", str(game.path), "--side-copy", str(path)]) == 1
    assert "another share was put in its place" in capsys.readouterr().out
