# ruff: noqa: F811  (pytest fixtures imported from coretests_support)
"""Leak tests: what a side or a spectator may not know never reaches its view, its
log, ``fireteam log --as`` or ``fireteam replay --as --json``, at any step."""

from __future__ import annotations

import json

import msgspec
import pytest
from coretests_support import DEMO_HIDDEN_NAMES, DEMO_HIDDEN_UNITS, new_demo, skirmish  # noqa: F401  (fixture)

from core import events as ev
from core.game import Game
from core.language.i18n import naming
from core.narrate import names_of
from core.replay import step_of_shown, visible_steps
from core.state import fold
from core.views import view_state
from tui.main import main as fireteam

PLAY = (
    "mark dahir wounded",
    "out egal shot",
    "back egal",
    "mark ahmed suppressed",
    "roll 2d6",
    "note the market is quiet",
    "mark dahir pinned",
    "undo",
    "clear dahir wounded",
    "next",
    "next",
)
SIDES = ("regulars", "irregulars")


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """The demo played with hidden militiamen touched by the referee; closed, to read."""
    path = tmp_path_factory.mktemp("views") / "demo.ftlog"
    game = new_demo(path, seed=31)
    for line in PLAY:
        game.execute(line)
    game.close()
    return Game.open(path, writable=False)


def _hidden_from(role: str) -> tuple[str, ...]:
    return () if role in ("referee", "irregulars") else (*DEMO_HIDDEN_UNITS, *DEMO_HIDDEN_NAMES)


def _secret_keys_hidden_from(game: Game, role: str, step: int | None = None) -> list[str]:
    state = game.state if step is None else game.timeline.state_at(step)
    if role == "referee":
        return []
    return [k for k, s in state.secrets.items() if s.owner != role and not s.revealed]


def _assert_absent(text: str, words, where: str) -> None:
    for word in words:
        assert word not in text, f"{word!r} leaks into {where}"


def test_the_demo_has_hidden_units_and_secrets(played):
    units = played.state.units
    assert all("hidden" in units[u].status for u in DEMO_HIDDEN_UNITS)
    owners = {s.owner for s in played.state.secrets.values()}
    assert {"regulars", "irregulars"} <= owners
    assert all(not s.revealed for s in played.state.secrets.values())


@pytest.mark.parametrize("role", ["regulars", "spectator", "irregulars"])
def test_view_state_at_every_step(played, role):
    for step in range(played.timeline.length + 1):
        view = view_state(played.timeline.state_at(step), role)
        text = msgspec.json.encode(view).decode()
        _assert_absent(text, _hidden_from(role), f"{role}'s view at step {step}")
        _assert_absent(text, _secret_keys_hidden_from(played, role, step), f"{role}'s view at step {step}")
        assert all(s.owner == role or s.revealed for s in view.secrets.values())
        assert not any(k.startswith("secret.") for k in view.vars)
    if role == "irregulars":
        assert set(DEMO_HIDDEN_UNITS) <= set(played.view(role).units)


@pytest.mark.parametrize("role", ["regulars", "spectator", "irregulars"])
def test_log_lines(played, role):
    lines = played.log_lines(role)
    text = "\n".join(line.text + msgspec.json.encode(line.event).decode() for line in lines)
    _assert_absent(text, _hidden_from(role), f"{role}'s log")
    _assert_absent(text, _secret_keys_hidden_from(played, role), f"{role}'s log")
    for line in lines:
        assert not line.event.vis or role in line.event.vis
        if isinstance(line.event, ev.SecretSet):
            assert line.event.owner == role
    if role == "spectator":
        assert all(line.event.vis == () for line in lines)


def test_the_referee_sees_everything(played):
    assert played.view("referee") is played.state
    assert set(DEMO_HIDDEN_UNITS) <= set(played.view("referee").units)
    assert len(played.log_lines("referee")) == played.log_length
    text = "\n".join(line.text for line in played.log_lines("referee"))
    for name in DEMO_HIDDEN_NAMES:
        assert name in text
    assert set(played.view("referee").secrets) == set(played.state.secrets)


def test_the_owner_sees_his_hidden_units_facts(played):
    texts = [line.text for line in played.log_lines("irregulars")]
    assert "Dahir Omar now wounded" in texts
    assert "Egal Yusuf out of action: shot" in texts
    assert "» referee: mark dahir wounded" in texts


@pytest.mark.parametrize("role", ["regulars", "spectator"])
def test_fireteam_log_as_a_role(played, role, capsys):
    assert fireteam(["log", str(played.path), "--as", role]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == len(played.log_lines(role))
    _assert_absent(out, _hidden_from(role), f"fireteam log --as {role}")
    _assert_absent(out, _secret_keys_hidden_from(played, role), f"fireteam log --as {role}")


@pytest.mark.parametrize("role", ["regulars", "spectator"])
def test_fireteam_replay_as_a_role_at_every_step(played, role, capsys):
    # A side's steps count the events it may see (core.replay.visible_steps, as the client's replay bar).
    steps = visible_steps(played.history, role, played.timeline.length)
    assert 0 < len(steps) < played.timeline.length
    for step in range(len(steps) + 1):
        assert fireteam(["replay", str(played.path), "--step", str(step), "--as", role, "--json"]) == 0
        out = capsys.readouterr().out
        data = json.loads(out)
        assert data["event_count"] == step and data["total_events"] == len(steps)
        hidden = _secret_keys_hidden_from(played, role, step_of_shown(steps, step))
        _assert_absent(out, _hidden_from(role), f"replay --as {role} --step {step}")
        _assert_absent(out, hidden, f"replay --as {role} --step {step}")
    assert fireteam(["replay", str(played.path), "--step", str(len(steps) + 1), "--as", role]) == 2


def test_a_secret_becomes_public_after_reveal(tmp_path):
    game = new_demo(tmp_path / "reveal.ftlog")
    game.execute("next")
    game.execute("next")
    key = next(k for k, s in game.state.secrets.items() if s.owner == "regulars" and not s.revealed)
    value = game.state.secrets[key].value
    for role in ("irregulars", "spectator"):
        assert key not in game.view(role).secrets
    game.execute(f"reveal {key}")
    for role in ("regulars", "irregulars", "spectator"):
        secret = game.view(role).secrets[key]
        assert secret.revealed and secret.value == value
        # the marker's role in the ruleset's words, not its key (issue #26)
        with naming(names_of(game.state)):  # the side by its name, as the log says it
            shown = f"revealed: {game.ruleset.describe_var(key, value)} (matches its commitment "
        assert any(line.text.startswith(shown) for line in game.log_lines(role))
    game.close()


def test_a_unit_that_stops_hiding_is_seen_by_all(tmp_path):
    game = new_demo(tmp_path / "unhide.ftlog")
    assert "dahir" not in game.view("regulars").units
    game.execute("clear dahir hidden")
    assert "dahir" in game.view("regulars").units and "dahir" in game.view("spectator").units
    game.execute("mark dahir hidden")
    assert "dahir" not in game.view("regulars").units
    game.close()


def test_a_sides_view_does_not_count_hidden_events(skirmish):
    before = skirmish.view("blue")
    skirmish.execute("walk ghost 3", role="red")  # hidden: blue must not notice anything
    assert skirmish.view("blue") == before
    assert skirmish.view("referee").event_count > 0


def test_a_units_scenario_stats_reach_its_state_through_the_save_encoding():
    """``UnitSpec.stats`` carries the numbers a scenario sets per piece into play and every view."""
    spec = ev.UnitSpec(id="tank", name="Panzer IV", side="red", kind="vehicle", stats={"armour": 4, "combat": 6})
    events = [ev.GameSetUp(scenario="t", sides=(ev.SideSpec("red", "Red"),)), ev.UnitAdded(unit=spec)]
    decoded = msgspec.json.decode(msgspec.json.encode(events), type=list[ev.AnyEvent])
    state = fold(decoded)
    assert state.units["tank"].stats == {"armour": 4, "combat": 6}
    assert view_state(state, "spectator").units["tank"].stats == {"armour": 4, "combat": 6}
    plain = msgspec.json.encode(ev.UnitAdded(unit=ev.UnitSpec(id="a", name="A", side="red")))
    assert b"stats" not in plain  # older saves and stat-less pieces stay byte-identical
