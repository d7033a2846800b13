"""Hidden information around the fight: the markers' roles, the Irregular player's
secret die, IEDs, the helicopter's landing point and turn, hidden figures and the
explosives bought stay with their owner (and the referee) until an event shows
them — in the state, the log, and ``fireteam replay --as SIDE --json``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from bn_campaign_support import new_game, run
from playing import refused

from core.language.i18n import plain
from core.log import events as ev
from core.log.views import REFEREE

REGULAR_SECRETS = ("marker.regulars", "helicopter.regulars", "Landing")
IRREGULAR_SECRETS = (
    "objective.die",
    "ied.irregulars",
    "extra.irregulars.ied",
    "marker.irregulars",
    "Dahir",
    "dahir",
    "Egal",
)


def _deployed(tmp_path: Path):
    """The open scenario, both forces deployed in §4.2's order, every secret set."""
    roster = tmp_path / "heli.toml"
    shipped = Path(__file__).parents[3] / "core/rulesets/breaking_news/scenarios/rosters"
    roster.write_text((shipped / "bersaglieri.toml").read_text().replace("intelligence = 1", "helicopter = true"))
    militia = tmp_path / "militia.toml"
    militia.write_text((shipped / "militia.toml").read_text().replace("ambush = 1", "ambush = 1\nied = 1"))
    game = new_game(tmp_path, "open")
    run(game, f"roster {roster} regulars limit=200", f"roster {militia} irregulars limit=200")
    run(game, "objectives regulars 4 2 5", role="regulars")
    run(game, "objectives irregulars 3 1 5", "objective-roll dice=3", role="irregulars")
    game.execute("rolloff dice=6,1", role=REFEREE)  # regulars first: irregulars deploy first
    run(game, "deploy aden ahmed bashir hassan dahir egal jama omar civ1 civ2 reed", role="irregulars")
    run(game, "deploy rossi bianchi conti russo greco marino ferri colombo lupo", role="regulars")
    run(game, "plant 2", role="irregulars")
    run(game, "helicopter 5 3", role="regulars")
    return game


def _leaks(game, role: str, words) -> list[str]:
    view = game.view(role)
    texts = [line.text for line in game.log_lines(role)]
    texts += list(view.secrets) + [str(s.value) for s in view.secrets.values()]
    texts += list(view.units) + [u.name for u in view.units.values()] + list(view.vars)
    return [t for t in texts if any(w in t for w in words)]


@pytest.fixture
def deployed(tmp_path):
    game = _deployed(tmp_path)
    yield game
    game.close()


def test_each_side_sees_only_its_own_secrets(deployed):
    assert _leaks(deployed, "regulars", IRREGULAR_SECRETS) == []
    assert _leaks(deployed, "irregulars", ("marker.regulars", "helicopter.regulars")) == []
    for role in ("spectator",):
        assert _leaks(deployed, role, IRREGULAR_SECRETS + ("marker.regulars", "helicopter.regulars")) == []
    own = deployed.view("irregulars").secrets
    assert own["objective.die"].value == "3" and own["ied.irregulars.2"].value == "proximity"
    assert deployed.view("regulars").secrets["helicopter.regulars.turn"].value == "3"
    assert set(deployed.view("referee").secrets) >= {"objective.die", "ied.irregulars.2", "helicopter.regulars.marker"}


@pytest.mark.subprocess
def test_replay_as_a_side_shows_no_enemy_secret(deployed):
    deployed.close()
    for role, words in (("regulars", IRREGULAR_SECRETS), ("irregulars", ("marker.regulars", "helicopter.regulars"))):
        out = subprocess.run(
            [sys.executable, "-m", "tui.main", "replay", str(deployed.path), "--as", role, "--json"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        data = json.loads(out)
        assert not [w for w in words if w in out], role
        assert data["sides"]
    log = subprocess.run(
        [sys.executable, "-m", "tui.main", "log", str(deployed.path), "--as", "regulars"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "roll the secret objective die" in log and "objective.die" not in log


def test_the_helicopter_lands_in_the_open(deployed):
    """Extras: Helicopter evacuation: the landing marker and turn stay secret until it lands in turn 3;
    Rossi and Conti board (not losses); at the end of the turn its waiting roll is a 1: it leaves for
    good.

    Digest: EXT-3.
    """
    run(deployed, "next", "next dice=6,6,1,1", "next", "next", "next dice=6,6,1,1", "next", "next")
    assert "helicopter.regulars.marker" not in deployed.view("irregulars").secrets
    deployed.execute("next dice=6,6,1,1", role=REFEREE)  # turn 3 begins: it lands
    assert deployed.view("irregulars").secrets["helicopter.regulars.marker"].value == "regulars.5"
    assert deployed.state.vars["helicopter.regulars"] == "landed"
    deployed.execute("board rossi conti", role="regulars")
    assert plain(deployed.state.units["rossi"].out) == "evacuated by helicopter"
    run(deployed, "next")
    deployed.execute("next dice=1", role=REFEREE)  # the waiting roll: a 1, it leaves
    assert deployed.state.vars["helicopter.regulars"] == "gone"
    assert plain(deployed.state.units["helicopter-regulars"].out) == "left the field"
    assert deployed.state.sides["regulars"].defeat_points == 0  # evacuated men are not lost


def test_the_landed_helicopter_can_be_shot_down(deployed):
    """Extras: Helicopter evacuation, "helicopters can be fired upon": on the ground it is
    a figure the enemy names, hit as §8.4 says of helicopters: small arms and rockets
    only, always at long range, saving as light armour (rulings BN-HELI-TARGET).

    Digest: EXT-3.
    """
    run(deployed, "next", "next dice=6,6,1,1", "next", "next", "next dice=6,6,1,1", "next", "next")
    deployed.execute("next dice=1,1,6,6", role=REFEREE)  # turn 3: it lands; the irregulars win the initiative
    heli = deployed.state.units["helicopter-regulars"]
    assert (heli.side, heli.kind, heli.cls, heli.in_play) == ("regulars", "vehicle", "light", True)
    assert "helicopter-regulars" in deployed.view("irregulars").units
    refused(deployed, "move helicopter-regulars 20", "waits on its landing point", rule="EXT-3")
    # Aden (Irr1) fires his AR at 20 cm, read at its long band: 6+.  The 6 hits; the
    # save needs 3+ (§9.2 light armour against light weapons) and the 2 fails it.
    out = deployed.execute("fire aden helicopter-regulars range=20 dice=6,2", role="irregulars")
    to_hit, vsave = [e.roll for e in out.events if isinstance(e, ev.Rolled)]
    assert (to_hit.target, vsave.target, plain(vsave.outcome)) == (6, 3, "knocked out")
    assert plain(deployed.state.units["helicopter-regulars"].out) == "knocked out by irregulars"
    run(deployed, "next", "next")
    deployed.execute("next dice=6,6,1,1", role=REFEREE)
    refused(deployed, "@regulars board rossi conti", "Regulars. helicopter was knocked out by Irregulars", rule="EXT-3")
    assert deployed.state.vars["helicopter.regulars"] == "landed"  # no waiting roll for a wreck


def test_a_set_off_ied_is_shown_to_all(deployed):
    run(deployed, "next", "next dice=1,1,6,6")
    deployed.execute("ied irregulars.2 dice=5", role="irregulars")
    run(deployed, "next")
    assert deployed.view("regulars").secrets["ied.irregulars.2"].revealed


def test_planting_rules(deployed):
    refused(deployed, "@irregulars plant 3", "not allowed in the initiative phase|own fake markers", rule="EXT-9")


def test_plant_only_under_own_fakes(tmp_path):
    """Extras: Explosives: the Irregular player plants an IED under his own fake markers only, as many as
    he bought.

    Digest: EXT-9.
    """
    game = new_game(tmp_path)
    refused(game, "@irregulars plant 3", "your own fake markers", rule="EXT-9")  # their main objective
    refused(game, "@regulars plant 1", "only Irregulars", rule="EXT-9")
    game.execute("plant 2", role="irregulars")
    refused(game, "@irregulars plant 4", "bought 1 proximity IED", rule="EXT-9")
    refused(game, "@irregulars plant 4 remote", "bought 0 remote", rule="EXT-9")


def test_hidden_figures_stay_hidden_through_deployment(deployed):
    regulars = deployed.view("regulars")
    assert "dahir" not in regulars.units and "egal" not in regulars.units
    assert "dahir" in deployed.view("irregulars").units
