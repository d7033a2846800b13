"""Issue #90, point 3: a side can have several players (partners, a replacement).

Bruno played the British at his seat; Elena sat later at a second seat of the same side. The
certificate named only Elena, the league refused Bruno's signature ("played no side"), and Bruno
vanished from the standings. Now the certificate lists every player who sat for a side and how
many of its commands each gave; the league credits the side's result to each of them; any of them
signs or confirms for the side; a confirmation counts only from a seat bound to that player.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.game import Game
from core.league import certificate, season, standings
from core.league.levels import BOTH, UNCONFIRMED
from tests.shared.club import CLUB, certified, club_keys, confirm_at, fingerprint, new_league, play

pytestmark = pytest.mark.subprocess  # ssh-keygen makes the club's keys and signs


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    club_keys(tmp_path, (*CLUB, "elena"))
    return tmp_path


def shared_side(folder: Path, name: str = "g") -> Path:
    """Anna the Germans; Bruno, then Elena, at seats of the British bound to their keys."""
    f = {n: fingerprint(folder / n) for n in ("anna", "bruno", "elena")}
    seats = (
        f"german=anna key={f['anna']} via=key; british=bruno key={f['bruno']} via=key; "
        f"british=elena key={f['elena']} via=key"
    )
    return play(folder, name, seats=seats, end="victory british held")


def test_a_shared_side_credits_each_of_its_players_and_either_signature_is_enough(folder):
    save = shared_side(folder)
    cert, sigs = certified(save, folder, "anna", "bruno")
    names = [(p["side"], p["name"]) for p in json.loads(cert.read_bytes())["players"]]
    assert names == [("british", "bruno"), ("british", "elena"), ("german", "anna")]
    game = season.add(new_league(folder), save, cert, sigs)  # refused before: "bruno ... played no side"
    assert game.players == {"british": ("bruno", "elena"), "german": ("anna",)} and game.level == BOTH
    rows = {r.player: r for r in standings.table(season.load(folder / "club.league")).rows}
    assert (rows["bruno"].won, rows["elena"].won, rows["anna"].lost) == (1, 1, 1)
    # Elena's signature instead of Bruno's counts for the British as well.
    _cert, (elena,) = certified_again(save, folder, "elena")
    other = new_league(folder, "other")
    assert season.add(other, save, cert, [sigs[0], elena]).level == BOTH


def certified_again(save: Path, folder: Path, *signers: str) -> tuple[Path, list[Path]]:
    from tests.shared.club import signed

    cert = certificate.default_path(save)
    return cert, [signed(cert, folder / n, n) for n in signers]


def test_a_partner_confirming_at_his_own_seat_confirms_the_side(folder):
    """Elena's confirm was refused once Bruno's had blocked the side; now either one's counts."""
    save = shared_side(folder)
    confirm_at(save, "british", "elena")
    cert, sigs = certified(save, folder, "anna")
    assert certificate.confirmed_sides(save, certificate.load(cert)[0]) == ("british",)
    game = season.add(new_league(folder), save, cert, sigs, folder / "org")  # the organiser vouches for elena's
    assert game.level == BOTH and game.confirmed == ("british",)


def test_the_certificate_names_who_gave_the_sides_commands(folder):
    save = shared_side(folder)
    game = Game.open(save)
    try:
        game.execute("note the farm is ours", role="british", by="elena")
    finally:
        game.close()
    given = {p.name: p.commands for p in certificate.certify(save)[0].players}
    assert given == {"bruno": 0, "elena": 1, "anna": 0}


@pytest.mark.parametrize("by", ["anna", "referee", "british"])
def test_a_confirmation_from_another_players_seat_or_the_referees_does_not_count(folder, by):
    """Anna's seat, the referee's screen, or the side's role at a single table confirming for the British."""
    save = shared_side(folder)
    game = Game.open(save)
    try:
        digest = certificate.digest(certificate.certify(save)[0])
        # The engine records it (its rules are the table's), naming the side's player: the league does not count it.
        game.execute(f"confirm {digest}", role="british", by=by)
    finally:
        game.close()
    cert, _sigs = certified(save, folder)
    assert certificate.confirmed_sides(save, certificate.load(cert)[0]) == ()
    assert season.add(new_league(folder), save, cert, []).level == UNCONFIRMED


def test_a_seat_not_bound_to_its_player_is_told_to_sign(folder):
    from core.league.atseat import with_digest
    from core.ruleset import Refused

    save = play(folder, "named")  # players named at a single table: no seat is bound to them
    game = Game.open(save)
    try:
        with pytest.raises(Refused, match="only at your own seat") as no:
            with_digest(game, "confirm", "german", "german")
        assert no.value.rules == ("ENG-9",)
    finally:
        game.close()
