"""``confirm`` at a seat (issue #74, record 5): who, when, how often, and what a certificate makes of it.

Games are short Ludonet games played by ``fireteam script``'s code with seeded dice, their players
named at the table; the digest a seat adds is the one ``core.league.atseat`` computes.
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

import pytest
from playing import names

from core.cli.main import run_script
from core.game import Game
from core.league import certificate
from core.league.atseat import with_digest
from core.league.levels import BOTH, ONE_PLAYER, ORGANISER_ONLY, PLAYER_AND_ORGANISER, UNCONFIRMED, level_of
from core.log import events as ev
from core.refusal import TYPING
from core.ruleset import Refused
from core.secrets.verify import verify

#: Each side's player sat at a seat of his own, by his invitation (a browser's), as a served table seats him.
INVITED = "german=anna via=invitation; british=bruno via=invitation"
PLAYER = {"german": "anna", "british": "bruno", "referee": "referee"}


def play(folder: Path, end: str = "victory german held", seats: str = INVITED) -> Path:
    players = "".join(f"players {line.strip()}\n" for line in seats.split(";"))
    script = folder / "g.script"
    script.write_text(f"scenario tanks\n{players}next\n{end}\n", encoding="utf-8")
    save = folder / "g.ft"
    assert run_script(script, save, 7, "ludonet", "", out=io.StringIO()) == 0
    return save


def confirm(save: Path, role: str, text: str = "confirm", by: str = "") -> list[ev.Event]:
    """``text`` given at the seat of ``role``'s player (``by``) as a seat gives it (its digest added): the facts."""
    by = by or PLAYER[role]
    game = Game.open(save)
    try:
        outcome = game.execute(with_digest(game, text, role, by), role=role, by=by)
        return list(outcome.events)
    finally:
        game.close()


def refusal(save: Path, role: str, text: str = "confirm", *, rule: str) -> Refused:
    by = PLAYER[role]
    game = Game.open(save)
    try:
        with pytest.raises(Refused) as e:
            game.execute(with_digest(game, text, role, by), role=role, by=by)
        names(e.value, rule)
        return e.value
    finally:
        game.close()


def test_a_player_confirms_the_certificates_digest_and_it_moves_nothing_it_confirmed(tmp_path):
    save = play(tmp_path)
    before, _v = certificate.certify(save)
    facts = confirm(save, "german")
    (fact,) = [e for e in facts if isinstance(e, ev.Confirmed)]
    assert (fact.side, fact.name) == ("german", "anna")
    assert fact.result == hashlib.sha256(before.encoded()).hexdigest()
    # The certificate of the save with the confirmation in it is the one confirmed, byte for byte,
    # and the second player's seat computes the same digest.
    after, verified = certificate.certify(save)
    assert verified.ok and after.encoded() == before.encoded()
    (second,) = [e for e in confirm(save, "british") if isinstance(e, ev.Confirmed)]
    assert second.result == fact.result and second.name == "bruno"
    assert certificate.confirmed_sides(save, after) == ("british", "german")
    assert verify(save).ok  # the confirmations resolve again through the rules as any command


def test_of_two_seats_sharing_a_side_the_one_who_confirms_is_named(tmp_path):
    """Seen at a served table: bruno confirmed, and the log said carla (the side's last seat)."""
    save = play(tmp_path, seats=f"{INVITED}; german=carla via=invitation")
    (fact,) = [e for e in confirm(save, "german", by="anna") if isinstance(e, ev.Confirmed)]
    assert (fact.side, fact.name) == ("german", "anna")


def test_a_confirmation_before_the_end_is_refused_with_its_rule(tmp_path):
    save = play(tmp_path, end="note not yet")
    e = refusal(save, "german", "confirm " + "a" * 64, rule="ENG-9")
    assert e.rules == ("ENG-9",) and "ended" in str(e)
    assert with_digest(Game.open(save, writable=False), "confirm", "german", "anna") == "confirm"  # nothing to add yet


def test_the_referee_cannot_confirm_for_a_side(tmp_path):
    save = play(tmp_path)
    e = refusal(save, "referee", "confirm " + "a" * 64, rule="ENG-1")
    assert e.rules == ("ENG-1",)
    assert not any(isinstance(f, ev.Confirmed) for f in Game.open(save, writable=False).history.timeline())


def test_a_side_confirms_once(tmp_path):
    save = play(tmp_path)
    confirm(save, "german")
    e = refusal(save, "german", rule="ENG-9")
    assert e.rules == ("ENG-9",) and "once" in str(e)


def test_a_side_no_player_sits_for_cannot_confirm(tmp_path):
    save = play(tmp_path, seats="german=anna via=invitation")
    game = Game.open(save)
    try:
        with pytest.raises(Refused) as e:
            game.execute("confirm " + "a" * 64, role="british", by="bruno")
        names(e.value, "ENG-9")
    finally:
        game.close()
    assert e.value.rules == ("ENG-9",) and "players" in str(e.value)


def test_a_line_without_the_seats_digest_is_refused(tmp_path):
    save = play(tmp_path)
    game = Game.open(save)
    try:
        with pytest.raises(Refused, match="64 hex digits") as no:
            game.execute("confirm", role="german", by="anna")
        names(no.value, TYPING)  # the seat adds the digest: a line without it is mistyped
    finally:
        game.close()


def test_the_italian_word(tmp_path):
    from core.language.reader import reading

    save = play(tmp_path)
    game = Game.open(save)
    try:
        with reading("it"):
            line = with_digest(game, "conferma", "german", "anna")
        assert line.startswith("confirm ") and len(line.split()[1]) == 64
        outcome = game.execute(line, role="german", by="anna")
        assert any(isinstance(e, ev.Confirmed) for e in outcome.events)
    finally:
        game.close()


def test_each_level():
    assert level_of({"german", "british"}, 2, organiser=True) == BOTH
    assert level_of({"german", "british"}, 2, organiser=False) == BOTH
    assert level_of({"german"}, 2, organiser=True) == PLAYER_AND_ORGANISER
    assert level_of(set(), 2, organiser=True) == ORGANISER_ONLY
    assert level_of({"german"}, 2, organiser=False) == ONE_PLAYER
    assert level_of(set(), 2, organiser=False) == UNCONFIRMED


@pytest.mark.parametrize(
    ("sides", "level"),
    [
        ((), "unconfirmed"),
        (("german",), "confirmed by one player only"),
        (("german", "british"), "confirmed by both players"),
    ],
)
def test_certify_prints_the_level(tmp_path, capsys, sides, level):
    from tui.main import main as fireteam

    save = play(tmp_path)
    for side in sides:
        confirm(save, side)
    assert fireteam(["certify", str(save), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert level in out
    assert ("ssh-keygen -Y sign" in out) == (len(sides) < 2)


@pytest.fixture
def club(tmp_path: Path) -> tuple[Path, dict[str, Path]]:
    from tests.shared.club import club_keys, new_league

    club_keys(tmp_path, ("anna", "org"))
    return new_league(tmp_path), {name: tmp_path / name for name in ("anna", "org")}


@pytest.mark.subprocess
def test_league_add_counts_confirmations_at_the_seat_with_signatures(tmp_path, club):
    from core.league import season
    from tests.shared.keys import sign

    league, keys = club
    save = play(tmp_path)
    confirm(save, "british")  # bruno has no key: he confirms at his seat
    cert, _v = certificate.certify(save)
    path = certificate.default_path(save)
    certificate.write(cert, path)
    alone = season.add(league, save, path, [], keys["org"])  # the organiser vouches for it
    assert alone.level == ONE_PLAYER and alone.confirmed == ("british",)
    # anna signs with her key: both players, one each way (a second league, the same game).
    other = tmp_path / "other.league"
    season.new(other, "Other", tmp_path / "allowed_signers", "org", (3, 1, 0), keys["org"])
    both = season.add(other, save, path, [sign(keys["anna"], path)], keys["org"])
    assert both.level == BOTH
    assert season.load(other).games[0].level == BOTH  # as the league file keeps it


@pytest.mark.subprocess
def test_a_confirmation_of_another_result_does_not_count(tmp_path, club):
    from core.league import season

    league, _keys = club
    save = play(tmp_path)
    confirm(save, "german", "confirm " + "a" * 64)  # typed by hand: a digest that is no certificate's
    cert, _v = certificate.certify(save)
    path = certificate.default_path(save)
    certificate.write(cert, path)
    game = season.add(league, save, path, [])
    assert game.confirmed == () and game.level == UNCONFIRMED
