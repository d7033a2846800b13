# ruff: noqa: F811  (pytest fixtures imported from coretests_support)
"""Leak tests: what a side or a spectator may not know never reaches its view, its
log, ``fireteam log --as`` or ``fireteam replay --as --json``, at any step."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from pathlib import Path

import msgspec
import pytest
from coretests_support import DEMO_HIDDEN_NAMES, DEMO_HIDDEN_UNITS, new_demo, skirmish  # noqa: F401  (fixture)
from playing import names

from core.game import Game
from core.language.i18n import naming
from core.log import events as ev
from core.log.history import History
from core.log.narrate import names_of
from core.log.numbering import Numbering
from core.log.replay import step_of_shown, visible_steps
from core.log.state import GameState, Side, Unit, fold
from core.log.views import REFEREE, REFEREE_ONLY, MarkerLabels, narrowest, sides_for, view_state
from core.refusal import Refused
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
SAVES = Path(__file__).resolve().parents[2] / "saves"


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """The demo played with hidden militiamen touched by the referee; closed, to read."""
    path = tmp_path_factory.mktemp("views") / "demo.ftlog"
    game = new_demo(path, seed=31)
    for line in PLAY:
        game.execute(line, role=REFEREE)
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


@pytest.fixture(scope="module")
def recorded():
    """The demo's recorded game: secrets of both sides set, told and revealed, and a
    hidden figure's bookkeeping kept in ``secret.`` variables."""
    game = Game.open(SAVES / "demo-game.ft", writable=False)
    yield game
    game.close()


def _secret_vars(state) -> dict[str, object]:
    return {k: v for k, v in state.vars.items() if k.startswith("secret.")}


@pytest.mark.long
def test_no_secret_variable_reaches_a_side_or_the_spectator(recorded):
    states = [recorded.timeline.state_at(step) for step in range(recorded.timeline.length + 1)]
    held = [state for state in states if _secret_vars(state)]
    # The game does hold them (else nothing below could fail): the referee sees them.
    assert len(held) > 100 and "secret.reacted.aden" in _secret_vars(held[0])
    assert all(view_state(state, "referee").vars == state.vars for state in held)
    for role in ("regulars", "irregulars", "spectator"):
        for state in held:
            view = view_state(state, role)
            assert _secret_vars(view) == {}
            # Every other variable is public and reaches every role as it is.
            assert view.vars == {k: v for k, v in state.vars.items() if not k.startswith("secret.")}


@pytest.mark.parametrize("role", SIDES)
def test_a_side_sees_its_own_secrets_and_the_revealed_ones(recorded, role):
    enemy = next(side for side in SIDES if side != role)
    seen_own_unrevealed = seen_enemy_revealed = 0
    for step in range(recorded.timeline.length + 1):
        state = recorded.timeline.state_at(step)
        view = view_state(state, role)
        expected = {k: s for k, s in state.secrets.items() if s.owner == role or s.revealed}
        assert view.secrets == expected, f"{role}'s secrets at step {step}"
        seen_own_unrevealed += any(s.owner == role and not s.revealed for s in view.secrets.values())
        seen_enemy_revealed += any(s.owner == enemy for s in view.secrets.values())
    # Both cases happen in the game: its own markers before they are revealed, the enemy's after.
    assert seen_own_unrevealed > 100 and seen_enemy_revealed > 0
    final = view_state(recorded.state, role)
    own = {k for k, s in recorded.state.secrets.items() if s.owner == role}
    assert own and own <= set(final.secrets)
    assert all(final.secrets[k].value == recorded.state.secrets[k].value for k in own)


def test_the_spectator_sees_only_revealed_secrets(recorded):
    for step in range(recorded.timeline.length + 1):
        state = recorded.timeline.state_at(step)
        assert view_state(state, "spectator").secrets == {k: s for k, s in state.secrets.items() if s.revealed}


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


@pytest.mark.long
@pytest.mark.parametrize("role", ["regulars", "spectator"])
def test_fireteam_replay_as_a_role_at_every_step(played, role, capsys):
    # A side's steps count the events it may see (core.log.replay.visible_steps, as the client's replay bar).
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
    game.execute("next", role=REFEREE)
    game.execute("next", role=REFEREE)
    key = next(k for k, s in game.state.secrets.items() if s.owner == "regulars" and not s.revealed)
    value = game.state.secrets[key].value
    for role in ("irregulars", "spectator"):
        assert key not in game.view(role).secrets
    game.execute(f"reveal {key}", role=REFEREE)
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
    game.execute("clear dahir hidden", role=REFEREE)
    assert "dahir" in game.view("regulars").units and "dahir" in game.view("spectator").units
    game.execute("mark dahir hidden", role=REFEREE)
    assert "dahir" not in game.view("regulars").units
    game.close()


def test_a_sides_live_view_is_made_once_per_change_and_shared_by_all_who_ask(tmp_path):
    # A server's seats of one side read one game: they share its view instead of each copying the state.
    game = new_demo(tmp_path / "shared.ftlog")
    follower = Game.open(tmp_path / "shared.ftlog", writable=False)  # a seat worker's copy, following the save
    try:
        regulars = game.view("regulars")
        assert game.view("regulars") is regulars
        assert "dahir" not in regulars.units and "dahir" in game.view("irregulars").units  # each side its own
        assert game.view("referee") is game.state
        game.execute("clear dahir hidden", role=REFEREE)
        assert "dahir" in game.view("regulars").units and "dahir" not in regulars.units
        game.execute("undo", role=REFEREE)
        assert "dahir" not in game.view("regulars").units
        behind = follower.view("regulars")
        game.execute("clear dahir hidden", role=REFEREE)
        assert follower.view("regulars") is behind  # nothing followed yet
        follower.follow()
        assert "dahir" in follower.view("regulars").units
        assert follower.view("regulars") is follower.view("regulars")
    finally:
        follower.close()
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


# ------------------------------------------------- the rules of views.py, one by one


def test_a_commands_text_goes_only_to_those_who_see_every_one_of_its_facts():
    assert narrowest([]) == () and narrowest([(), ()]) == ()  # all public: everyone
    assert narrowest([(), ("red",), ()]) == ("red",)
    assert narrowest([("red", "blue"), ("blue", "red")]) == ("blue", "red")
    assert narrowest([("red", "blue"), (), ("blue",)]) == ("blue",)
    # Facts seen by disjoint audiences: no side sees them all, so only the referee does.
    assert narrowest([("red",), ("blue",)]) == REFEREE_ONLY
    assert narrowest([("blue",), ("red", "green"), ("red",)]) == REFEREE_ONLY


def _unit(uid: str, side: str, **kw) -> Unit:
    return Unit(id=uid, name=kw.pop("name", uid.title()), side=side, **kw)


def test_a_side_keeps_who_spotted_its_own_units_but_not_who_else_spotted_the_enemy():
    state = GameState(
        sides={s: Side(id=s, name=s) for s in ("red", "blue", "green")},
        units={
            "r": _unit("r", "red", status=("hidden",), spotted_by=("blue", "green")),
            "b": _unit("b", "blue", status=("hidden",), spotted_by=("red",)),
        },
        event_count=12,
    )
    blue = view_state(state, "blue")
    assert blue.units["r"].spotted_by == () and blue.units["b"].spotted_by == ("red",)
    red = view_state(state, "red")
    assert red.units["r"].spotted_by == ("blue", "green") and red.units["b"].spotted_by == ()
    assert set(view_state(state, "green").units) == {"r"} and view_state(state, "spectator").units == {}
    # The count of events folded would tick when the enemy acts unseen: a side is told none.
    assert blue.event_count == 0 and view_state(state, "referee").event_count == 12


def _reference_label(seed: int, cmd: int, drawn: int) -> str:
    """The label docs/rulings.md CORE-MARKER describes, computed apart from MarkerLabels."""
    digest = hmac.new(f"fireteam-marker:{seed}".encode(), f"{cmd}:{drawn}".encode(), hashlib.sha256).digest()
    n = int.from_bytes(digest[:8], "big")
    letters, digits = "ABCDEFGHJKLMNPQRSTUVWXYZ", "23456789"
    return letters[n % 24] + digits[(n // 24) % 8] + letters[(n // 192) % 24]


def test_a_commands_marker_labels_come_from_the_seed_the_command_and_the_draw():
    empty = GameState()
    labels = MarkerLabels(seed=2026, cmd=41)
    assert [labels.draw(empty) for _ in range(4)] == [_reference_label(2026, 41, i) for i in range(4)]
    first = MarkerLabels(seed=2026)  # a command numbered 0
    assert first.draw(empty) == _reference_label(2026, 0, 0)
    assert MarkerLabels(seed=2027, cmd=41).draw(empty) != _reference_label(2026, 41, 0)


def test_without_a_seed_marker_labels_are_drawn_at_random():
    empty = GameState()
    runs = [[MarkerLabels().draw(empty) for _ in range(12)] for _ in range(2)]
    assert runs[0] != runs[1]  # the same 12 labels twice: one chance in 4,608**12
    assert all(re.fullmatch(r"[A-HJ-NP-Z][2-9][A-HJ-NP-Z]", label) for label in runs[0])


def test_a_label_already_naming_something_on_the_table_is_drawn_again():
    seed, cmd = 7, 3
    first, second, third = (_reference_label(seed, cmd, i) for i in range(3))
    # The first draw is a marker already down, a unit's id, or a word of a unit's name (any case).
    for taken in (
        {"m": _unit("m", "red", marker=first), "x": _unit("x", "blue")},
        {"x": _unit("x", "blue"), first.lower(): _unit(first.lower(), "red", name="Pte Rossi")},
        {"n": _unit("n", "red", name=f"Sgt {first.lower()}"), "x": _unit("x", "blue", name="Pte Rossi")},
    ):
        assert MarkerLabels(seed, cmd).draw(GameState(units=taken)) == second
    both = {"a": _unit("a", "red", marker=first), "b": _unit("b", "blue", name=f"Capt {second}")}
    assert MarkerLabels(seed, cmd).draw(GameState(units=both)) == third


def test_a_table_with_every_label_taken_refuses_a_new_marker():
    every = [a + d + b for a in "ABCDEFGHJKLMNPQRSTUVWXYZ" for d in "23456789" for b in "ABCDEFGHJKLMNPQRSTUVWXYZ"]
    units = {f"u{i}": _unit(f"u{i}", "red", marker=label) for i, label in enumerate(every)}
    with pytest.raises(Refused, match="^no marker label is free: too many hidden units on the table$") as no:
        MarkerLabels(seed=1, cmd=1).draw(GameState(units=units))
    names(no.value, "ENG-6")


def test_a_command_still_arriving_gets_no_number_until_it_is_whole():
    """A game followed while it is written (or torn at its end): a command whose facts
    have not all arrived is not counted, so a side's numbers never move backwards."""
    history = History()

    def arrive(*events: ev.Event) -> None:
        base = len(history.store)
        history.store.append(list(events), [msgspec.json.encode(e) for e in events])
        history.feed(list(events), base)

    arrive(ev.Issued(cmd=1, n=1, by="blue", text="note one"), ev.Noted(text="one"))
    arrive(ev.Issued(cmd=2, n=1, by="red", text="secret", vis=("red",)), ev.Noted(text="two", vis=("red",)))
    arrive(ev.Issued(cmd=3, n=2, by="blue", text="note three"), ev.Noted(text="three"))
    blue = Numbering(history, "blue")
    assert history.pending() is not None
    assert [blue.shown(c) for c in (1, 2, 3)] == [1, None, None]
    arrive(ev.Noted(text="three, again"))
    assert history.pending() is None
    assert [blue.shown(c) for c in (1, 2, 3)] == [1, None, 2]
    assert [Numbering(history, "red").shown(c) for c in (1, 2, 3)] == [1, 2, 3]


#: The methods of a game, and of its concerns, whose answer depends on whose eyes they are for.
SEEING = {
    "Game": ("view", "describe", "log_lines", "complete", "odds"),
    "Reading": ("view", "describe", "log_lines", "facts_seen", "numbering"),
    "Undoing": ("undo_target", "redo_target", "undo_preview", "redo_preview"),
}


def test_no_method_that_decides_what_a_role_sees_has_a_role_by_default():
    """A caller that forgets whose view it asks for fails at once: no default falls open to the
    referee's (a Details dialog built without its role once showed the referee's file position)."""
    import inspect

    from core.game import Game
    from core.game.reading import Reading
    from core.game.undoing import Undoing

    owners = {"Game": Game, "Reading": Reading, "Undoing": Undoing}
    for owner, methods in SEEING.items():
        for name in methods:
            role = inspect.signature(getattr(owners[owner], name)).parameters["role"]
            assert role.default is inspect.Parameter.empty, f"{owner}.{name}: role has a default"


def test_a_side_is_shown_its_own_side_first_and_the_referee_and_a_spectator_the_scenarios_order():
    """``sides_for`` (#61: at 80x24 a second side's seat saw the enemy first, its own figures
    below the fold): the scenario's order is not the alphabet's, so a sort by name shows."""
    state = GameState(sides={s: Side(id=s, name=s) for s in ("red", "blue", "green")})
    assert sides_for(state, REFEREE) == sides_for(state, "spectator") == ["red", "blue", "green"]
    assert sides_for(state, "blue") == ["blue", "red", "green"]
    assert sides_for(state, "green") == ["green", "red", "blue"]
    assert sides_for(state, "red") == ["red", "blue", "green"]
