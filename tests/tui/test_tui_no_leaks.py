"""Nothing hidden leaks: what a side receives does not change when the referee acts unseen.

Two games from the same seed and the same commands; in one, the referee also
gives commands that touch only units hidden from the regulars (marks on the
irregulars' hidden fighters).  Everything the regulars and the spectator get
— their view, log lines and numbers, the dice pane, completion, the undo and
redo hints, the answer to each of their commands (numbers, lines, refusals),
their replay step by step, the ``ssh host status`` reply and, last, the whole
screen the app draws — must be the same, byte for byte.  The games' clocks move
on as a table's, the referee's hidden commands at times of their own: no time
of theirs may reach a side (its copy, its Details screen).

The regulars' commands here roll no dice: the seeded dice are drawn by the
file's command number, so a roll after a hidden command has other faces (which
tells nothing: the seed is not the players').
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from pathlib import Path

import msgspec
import pytest
from examples import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.dice.faces import NeedDice
from core.game import Game
from core.log import events as ev
from core.log.questions import NeedAnswer
from core.log.state import encode_state
from core.log.views import REFEREE
from core.ruleset import Refused
from core.secrets import sidecopy
from tui.app import FireteamApp
from tui.panes.dice import history_line
from tui.panes.log import line_text
from tui.screens.dialogs import event_details
from tui.screens.game import GameScreen
from tui.ssh.host import replies
from tui.ssh.seatsfile import Seat

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))
from playing import opened, play  # noqa: E402
from recorded import _as_recorded, without_digests  # noqa: E402  (test folders are not packages)
from waiting import piloted, press, settled, until  # noqa: E402

from tui.ssh.host.server import Table
from tui.viewpoint import Viewpoint, visible_step

pytestmark = pytest.mark.long

SEAT = Seat("reg", "regulars")
WATCHERS = ("regulars", "spectator")
#: What the referee may do that the regulars and the spectator cannot see.
_hidden = st.builds(
    lambda verb, unit, status: f"{verb} {unit} {status}",
    st.sampled_from(("mark", "clear")),
    st.sampled_from(("dahir", "egal")),
    st.sampled_from(("pinned", "suppressed", "wounded")),
)
#: The regulars' own moves (none rolls dice), undos, redos and mistakes.
_seat = st.one_of(
    st.builds(lambda unit, cm: f"move {unit} {cm}", st.sampled_from(("conti", "greco", "ferri")), st.integers(1, 4)),
    st.sampled_from(("undo", "redo", "note all quiet", "move dahir 2", "fire conti dahir", "mark conti pinned")),
)
_step = st.tuples(_seat, st.lists(_hidden, max_size=2))
_PREFIXES = ("", "m", "move ", "move d", "mark ", "mark e", "fire conti ", "clear ")


def _new(path: Path) -> Game:
    # Fixed salts too: the two games' commitments (shown in the log) must differ only by the hidden commands.
    lines = ("scenario demo", "next", "next")  # to turn 1: the regulars are active (seed 7)
    game = opened(path, "breaking-news", *lines, seed=7, clock=lambda: 1_000, salt=lambda: "0" * 32)
    assert game.state.active_side == "regulars"
    return game


def _plain(text) -> str:
    return text.plain if hasattr(text, "plain") else str(text)


#: Milliseconds between two steps, and into a step when the referee's hidden commands come (the
#: seat's command comes later): the games' clocks move on as a table's does, so every time a
#: side is given (its copy's, its Details screen's) is compared, and none of the referee's may be.
_STEP_MS, _HIDDEN_AT_MS, _SEAT_AT_MS = 60_000, 20_000, 40_000


def _play(game: Game, steps: list[tuple[str, list[str]]], *, hidden: bool) -> list[str]:
    """Run the steps; return what the regulars' seat was told after each of its commands."""
    told = []
    for k, (seat_line, referee_lines) in enumerate(steps):
        if hidden:
            game.clock = lambda k=k: 1_000 + k * _STEP_MS + _HIDDEN_AT_MS
            for line in referee_lines:
                with contextlib.suppress(Refused):  # "not pinned": the referee's mistakes are his own
                    game.execute(line, role=REFEREE)
        game.clock = lambda k=k: 1_000 + k * _STEP_MS + _SEAT_AT_MS
        before = game.log_length
        try:
            outcome = game.execute(seat_line, role=SEAT.role, by=SEAT.name)
        except Refused as e:
            told.append(f"refused: {e}")
            continue
        shown = [ln.text for ln in game.log_lines(SEAT.role, before, game.log_length)[1:]]
        told.append(f"#{game.reading.numbering(SEAT.role).shown(outcome.cmd)} {'; '.join(shown)}")
    return told


def _received(game: Game, role: str) -> dict[str, object]:
    """Everything ``role`` is shown of ``game``, as text and bytes."""
    lines = game.log_lines(role)
    vp = Viewpoint(game, role)
    screen = GameScreen(game, role=role, seat=SEAT.name if role == SEAT.role else "")
    replay = []
    step, shown = 0, None
    while True:  # the replay as the side steps through it (→), to its end
        vp.step = step
        if vp.shown_position() == shown:  # past the last event it may see: the same picture
            break
        shown = vp.shown_position()
        state = msgspec.structs.replace(vp.state(), event_count=0)
        replay.append((shown, encode_state(state), [_plain(line_text(ln)) for ln in vp.recent_rolls(6)]))
        step = visible_step(game, role, step, 1)
    return {
        "view": encode_state(game.view(role)),
        "log": [(_plain(line_text(ln)), ln.number, ln.undone) for ln in lines],
        # Each with its count of facts as the Details screen gives it (GameScreen._line_chosen).
        "details": [
            _plain(
                event_details(ln, {}, referee=False, facts=game.reading.facts_seen(ln.cmd, role) if ln.cmd else None)
            )
            for ln in lines
        ],
        "copy": _copy(game, role),
        "dice": [_plain(history_line(ln)) for ln in Viewpoint(game, role).recent_rolls(6)],
        "complete": [game.complete(p, role) for p in _PREFIXES],
        "hints": (screen.undo_redo.undo_preview(), screen.undo_redo.redo_preview(), screen.undo_redo.hint()),
        "replay": replay,
        "status": replies.status(Table("table", game), Seat(SEAT.name if role == SEAT.role else "spec", role)),
    }


def _copy(game: Game, role: str) -> bytes:
    """``fireteam export --as ROLE``, but for the moment the game was made (the two games' differ)."""
    copy = sidecopy.export(game, role)
    return msgspec.json.encode(msgspec.structs.replace(copy, header=msgspec.structs.replace(copy.header, created="")))


@settings(
    max_examples=int(os.environ.get("FIRETEAM_EXAMPLES", examples(25))),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(steps=st.lists(_step, min_size=1, max_size=12))
def test_hidden_referee_commands_change_nothing_a_side_receives(steps):
    with tempfile.TemporaryDirectory() as tmp:
        plain, busy = _new(Path(tmp) / "plain.ft"), _new(Path(tmp) / "busy.ft")
        try:
            assert _play(plain, steps, hidden=False) == _play(busy, steps, hidden=True)
            for role in WATCHERS:
                assert _received(plain, role) == _received(busy, role), role
        finally:
            plain.close()
            busy.close()


async def _screen(game: Game) -> tuple[str, str]:
    """The undo hint, and the whole screen as the app draws it."""
    async with piloted(game, (110, 36), role=SEAT.role, seat=SEAT.name, remote=True, settle=True) as (app, pilot):
        assert isinstance(app.screen, GameScreen)
        return app.screen.undo_redo.hint(), app.export_screenshot()


async def test_the_sides_screen_is_the_same_byte_for_byte(tmp_path):
    """The whole screen, drawn by the app: the hint, the log's numbers, the panes."""
    steps = [
        ("move conti 3", ["mark dahir pinned"]),
        ("note all quiet", ["mark egal suppressed", "clear dahir pinned"]),
        ("move greco 2", ["mark dahir wounded"]),
        ("undo", ["clear egal suppressed"]),
        ("move ferri 1", ["mark egal pinned"]),
    ]
    # One file name in two folders: the screen names the save.
    (tmp_path / "plain").mkdir()
    (tmp_path / "busy").mkdir()
    plain, busy = _new(tmp_path / "plain" / "game.ft"), _new(tmp_path / "busy" / "game.ft")
    try:
        assert _play(plain, steps, hidden=False) == _play(busy, steps, hidden=True)
        busy.execute("mark egal wounded", role=REFEREE)  # after the regulars' last command
        assert busy.log_length > plain.log_length + 10
        hint, shown = await _screen(plain)
        assert hint == "Ctrl+Z undoes #7 move ferri 1"
        # In the file it is another command, and not the last: a hidden one came after it.
        assert busy.undoing.undo_target("regulars") != plain.undoing.undo_target("regulars")
        assert busy.undoing.undo_target("regulars") != busy.history.last_effective()
        assert (hint, shown) == await _screen(busy)
    finally:
        plain.close()
        busy.close()


async def test_details_count_only_the_facts_a_side_sees(tmp_path):
    """Issue 28: a command's Details said "N facts follow" counting the facts hidden from the
    side too (the scenario's placement of the irregulars' hidden fighters); they count the
    lines of it the side's log holds."""
    from core.log import events as ev
    from tui.panes.log import LogView
    from tui.plain import Plain
    from tui.screens.dialogs import DetailsScreen

    game = _new(tmp_path / "g.ft")
    try:
        first = next(ln for ln in game.log_lines(SEAT.role) if isinstance(ln.event, ev.Issued))
        seen = sum(1 for ln in game.log_lines(SEAT.role) if ln.cmd == first.cmd) - 1
        assert 0 < seen < first.event.n  # the scenario places fighters hidden from the regulars
        async with piloted(game, (110, 36), role=SEAT.role, seat=SEAT.name, remote=True, settle=True) as (app, pilot):
            app.screen.query_one(LogView).post_message(LogView.LineChosen(first))
            await settled(pilot)
            assert isinstance(app.screen, DetailsScreen)
            shown = " ".join(_plain(w.render()) for w in app.screen.query(Plain))
            assert f"{seen} facts follow" in shown and f"{first.event.n} facts" not in shown
        assert game.reading.facts_seen(first.cmd, role="referee") == first.event.n  # the referee sees them all
    finally:
        game.close()


async def test_a_sides_game_screen_opens_details_without_the_referees_facts(tmp_path):
    """Issue 60: the game screen, not only ``event_details``, must give a side's Details as a
    side's: a line chosen at a side's seat (its log, Enter) tells no file position; the same
    line chosen at the referee's screen does, so the wiring is what is tested."""
    from tui.panes.log import LogView
    from tui.plain import Plain
    from tui.screens.dialogs import DetailsScreen

    game = _new(tmp_path / "g.ft")
    try:
        game.execute("mark dahir pinned", role=REFEREE)  # hidden from the regulars: positions differ
        game.execute("note all quiet", role="regulars", by="reg")
        shown: dict[str, str] = {}
        for role, app in (
            ("regulars", FireteamApp(game, role=SEAT.role, seat=SEAT.name, remote=True)),
            (REFEREE, FireteamApp(game, role=REFEREE)),
        ):
            async with app.run_test(size=(110, 36)) as pilot:
                await settled(pilot)
                await press(pilot, "f7")
                log = app.screen.query_one(LogView)
                assert app.focused is log
                assert log.line_at(log.cursor).text.endswith("all quiet")  # the last line, as each reads it
                await press(pilot, "enter")
                await until(pilot, lambda app=app: isinstance(app.screen, DetailsScreen), "the Details")
                shown[role] = " ".join(_plain(w.render()) for w in app.screen.query(Plain))
        assert "file position" not in shown["regulars"]
        assert "file position" in shown[REFEREE]
    finally:
        game.close()


def test_details_tell_a_side_no_file_position(tmp_path):
    game = _new(tmp_path / "g.ft")
    try:
        game.execute("mark dahir pinned", role=REFEREE)  # hidden from the regulars
        game.execute("note all quiet", role="regulars", by="reg")
        game.undo(role="regulars", by="reg")
        marker = game.log_lines("regulars")[-1]
        side = _plain(event_details(marker, {}, referee=False))
        assert "file position" not in side
        assert "cmd: 4" in side and "command #4" in side  # the regulars' fourth command, the file's fifth
        referee = _plain(event_details(game.log_lines("referee")[-1], {}, referee=True))
        assert "file position" in referee and "cmd: 5" in referee
        # Not saying whose the Details are gives a side's: no position, no count of the file's facts.
        assert _plain(event_details(marker, {})) == side
        issued = next(ln for ln in game.log_lines("regulars") if isinstance(ln.event, ev.Issued))
        unsaid = _plain(event_details(issued, {}))
        assert "file position" not in unsaid and "follow" not in unsaid
    finally:
        game.close()


async def _replay_screens(game: Game) -> tuple[str, int, list[tuple]]:
    """The regulars' replay (Ctrl+R), at its start, drawn whole, and its log's rows; then, in the
    same replay, with each of those rows chosen, the screen's rows of characters and the Details
    the screen builds for it (Enter on it).  The first row's dialog is opened and drawn; for the
    others the screen's dialog is taken as it is pushed and its text made as the dialog composes
    it: what the screen gives the dialog is all that can differ between two games (the dialog
    draws its text alone), and drawing some fifty modal screens twice made this the suite's
    longest test (about two minutes, most of it Textual repainting the game screen under each
    dialog and after it)."""
    from tui.panes.log import LogView
    from tui.screens.dialogs import DetailsScreen

    async with piloted(game, (110, 36), role=SEAT.role, seat=SEAT.name, remote=True, settle=True) as (app, pilot):
        await press(pilot, "ctrl+r")
        screen = app.screen
        assert isinstance(screen, GameScreen) and screen.replay
        await settled(pilot)
        shown = app.export_screenshot()
        view = screen.query_one(LogView)
        rows = view.index.rows(screen.vp.limit())
        view.focus()
        await press(pilot, "enter")
        assert isinstance(app.screen, DetailsScreen)
        drawn = app.export_screenshot()
        await press(pilot, "escape")
        assert app.screen is screen and app.focused is view
        pushed: list[DetailsScreen] = []
        app.push_screen = pushed.append  # the dialogs below are built by the screen, not drawn
        details: list[tuple] = []
        for chosen in range(rows):
            view.cursor = chosen
            await press(pilot, "enter")
            assert len(pushed) == chosen + 1 and isinstance(pushed[-1], DetailsScreen), chosen
            under = "\n".join(strip.text for strip in screen._compositor.render_strips())
            details.append((under, *_details_text(pushed[-1])))
        details[0] = (drawn, *details[0])
        return shown, rows, details


def _details_text(dialog) -> tuple:
    """A Details dialog's text, styles and all, made as its ``compose`` makes it."""
    from core.language.i18n import naming

    d = dialog
    with naming(d.naming):
        text = event_details(d.line, d.names, referee=d.referee, domain=d.domain, facts=d.facts)
    return text.plain, text.spans


async def test_a_sides_replay_hides_whether_a_hidden_command_followed_its_undo(tmp_path):
    """Issue 53: at a side's seat, ``note x`` and ``undo``, then the referee's hidden ``mark
    egal pinned``, then Ctrl+R: the replay began at the file position of the game's last
    effective event (the hidden one), which put the side's undone lines in view only when a
    hidden event followed them.  Its screen at the start of the replay, and the Details of
    each line on it as the screen opens them, are the same with the hidden command or without."""
    (tmp_path / "plain").mkdir()
    (tmp_path / "busy").mkdir()
    plain, busy = _new(tmp_path / "plain" / "game.ft"), _new(tmp_path / "busy" / "game.ft")
    try:
        for game in (plain, busy):
            game.execute("move conti 3", role="regulars", by="reg")
            game.execute("note x", role="regulars", by="reg")
            game.undo(role="regulars", by="reg")
        busy.execute("mark egal pinned", role=REFEREE)
        assert busy.history.last_effective() != plain.history.last_effective()
        shown, rows, details = await _replay_screens(plain)
        assert rows >= 3  # the game's own lines and the regulars' move
        assert len(details) == rows
        busy_shown, busy_rows, busy_details = await _replay_screens(busy)
        assert (shown, rows) == (busy_shown, busy_rows)
        for chosen, (one, other) in enumerate(zip(details, busy_details, strict=True)):
            assert one == other, chosen
    finally:
        plain.close()
        busy.close()


# ------------------------------------------------- which marker is which (issue 10)


class _Labels:
    """Marker labels given in order, shared by every command of a game."""

    def __init__(self, labels: list[str]) -> None:
        self.labels = labels

    def draw(self, state) -> str:
        return self.labels.pop(0)


#: The demo hides Dahir and Egal (both Irr3, of the Market team): their markers' labels,
#: in the order the scenario places them, then spares for figures the regulars hide.
_LABELS = ["K7Q", "P3X", "C4D", "E5F", "G6H", "J7K"]


def _marked(path: Path, swapped: bool) -> Game:
    game = Game.new(path, "breaking-news", seed=7, clock=lambda: 1_000, salt=lambda: "0" * 32)
    labels = list(_LABELS)
    if swapped:
        labels[0], labels[1] = labels[1], labels[0]
    source = _Labels(labels)
    game.marker_labels = lambda cmd: source
    play(game, "scenario demo", "next", "next")
    return game


#: The regulars sight and fire at the two markers (sightings that fail: a spotter at
#: 30 cm or more needs 4 or more), hide and move their own, take their commands back.
_at_marker = st.one_of(
    st.builds(
        lambda who, m, r, f: f"react-spot {who} {m} range={r} dice={f}",
        st.sampled_from(("conti", "greco", "ferri", "rossi")),
        st.sampled_from(("K7Q", "p3x")),
        st.sampled_from(("30", "30.5", "18in")),
        st.integers(1, 2),
    ),
    st.builds(
        lambda who, m, faces: f"speculative {who} {m} range=30 dice={','.join(map(str, faces))}",
        st.sampled_from(("conti", "greco", "ferri")),
        st.sampled_from(("K7Q", "P3X")),
        st.lists(st.integers(1, 6), min_size=1, max_size=3),
    ),
    st.sampled_from(("undo", "note all quiet", "hide marino", "move rossi 3", "react-spot marino K7Q range=12 dice=1")),
)


@settings(
    max_examples=int(os.environ.get("FIRETEAM_EXAMPLES", examples(25))),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(lines=st.lists(_at_marker, min_size=1, max_size=8))
def test_which_marker_is_which_man_changes_nothing_a_side_receives(lines):
    """Two games where Dahir and Egal are under each other's marker: whatever the regulars
    do to the markers (sightings that fail, speculative fire, hits and saves included), all
    they and the spectator receive is the same, byte for byte: a label tells nothing."""
    with tempfile.TemporaryDirectory() as tmp:
        games = [_marked(Path(tmp) / f"{n}.ft", swapped=bool(n)) for n in range(2)]
        try:
            assert games[0].state.units["dahir"].marker == games[1].state.units["egal"].marker == "K7Q"
            told: list[list[str]] = [[], []]
            for line in lines:
                for game, answers in zip(games, told, strict=True):
                    try:
                        game.execute(line, role=SEAT.role, by=SEAT.name)
                        answers.append("done")
                    except (Refused, NeedDice) as e:
                        answers.append(f"refused: {e}")
            assert told[0] == told[1]
            # A commitment's digest is of the hidden value and a secret random salt, so it
            # tells nothing; the salts fixed here to compare the games would make it differ
            # by the value alone, so the digests are left out of the comparison.
            for role in WATCHERS:
                seen = [without_digests(repr(_received(game, role))) for game in games]
                assert seen[0] == seen[1], role
        finally:
            for game in games:
                game.close()


# ------------------------------------------- every ruleset, a whole recorded game (issue 28)


def _script(game) -> list[tuple[str, str]]:
    """(role, command) of each line of a recorded game's script."""
    from core.cli.main import _COMMENT, script_lines

    out = []
    for raw in script_lines(game.script.read_text()):
        text = _COMMENT.sub("", raw).strip()
        if text:
            role = "referee"
            if text.startswith("@"):
                role, _sp, text = text[1:].partition(" ")
            out.append((role, text))
    return out


def _labels_in_order() -> None:
    """Marker labels drawn one after the other from here on (``_pick`` patched by the test).

    A label, like a die, is drawn from the secret seed by the file's command number, so after
    a hidden command it is another (which tells nothing: the seed is not the players'); drawn
    in order, the two games' labels are comparable."""
    import core.log.views

    counter = iter(range(10**6))
    letters, digits = core.log.views._LABEL_LETTERS, core.log.views._LABEL_DIGITS

    def pick(self) -> str:
        n = next(counter)
        return letters[n % len(letters)] + digits[n // len(letters) % len(digits)] + letters[n // 200 % len(letters)]

    core.log.views.MarkerLabels._pick = pick


def _replayed(
    path: Path, game, lines, faces: list[list[int] | None] | None, unseen_by: str = "", monkeypatch=None
) -> list:
    """Play ``lines`` in a new game at ``path``; with ``faces`` (those each line was given), those
    dice; else the seeded dice as the referee's table would roll them, recorded into a list that
    is returned.  With ``unseen_by``, before each of that side's lines the referee marks a piece
    hidden from it and clears the mark again: two commands it cannot see, that change nothing.
    A roll that cannot fail is drawn by the game's own dice even where faces are typed (ruling
    CORE-CERTAIN), seeded by the command's number, which the referee's commands shift: with
    ``monkeypatch``, the game draws each line's as it drew them without those commands (the
    dice the table would have used, as ``faces`` are the faces it typed)."""
    from core.dice.faces import SeededDice
    from core.log.views import unit_audience

    g = Game.new(path, game.ruleset, seed=game.seed, clock=lambda: 1_000, salt=lambda: "0" * 32)
    plain_cmd: dict[int, int] = {}  # a command's number here: the same line's without the referee's
    if monkeypatch is not None:
        monkeypatch.setattr("core.game.sealing.SeededDice", lambda seed, cmd: SeededDice(seed, plain_cmd.get(cmd, cmd)))
    _labels_in_order()
    given: list[list[int] | None] = []
    for i, (role, text) in enumerate(lines):
        g.clock = lambda i=i: 1_000 + i * _STEP_MS + _HIDDEN_AT_MS  # (as in _play: the clock moves on)
        if unseen_by and role == unseen_by:
            hidden = [u for u in g.state.units.values() if "hidden" in u.status and role not in unit_audience(u)]
            for u in hidden[:1]:
                status = next(s for s in ("pinned", "suppressed", "wounded", "shaken") if s not in u.status)
                with contextlib.suppress(Refused):
                    g.execute(f"mark {u.id} {status}", role=REFEREE)
                    g.execute(f"clear {u.id} {status}", role=REFEREE)
        g.clock = lambda i=i: 1_000 + i * _STEP_MS + _SEAT_AT_MS
        plain_cmd[g.history.next_cmd] = i + 1
        # A question (the card a table drew, with typed dice) is answered as the recorded game decided it.
        answers: list[str] = []
        if faces is not None:
            while True:
                try:
                    g.execute(text, role=role, faces=faces[i], answers=answers)
                    break
                except NeedAnswer as need:
                    answers.append(_as_recorded(g, need.question))
            continue
        rolled: list[int] = []
        seeded = SeededDice(game.seed, g.history.next_cmd)
        while True:
            try:
                g.execute(text, role=role, faces=None if "dice=" in text else rolled, answers=answers)
                break
            except NeedDice as need:
                rolled += seeded.roll(need.count, need.sides)
            except NeedAnswer as need:
                answers.append(_as_recorded(g, need.question))
        given.append(None if "dice=" in text else rolled)
    return [g, given]


def test_every_recorded_game_shows_each_side_the_same_with_the_referees_hidden_commands(tmp_path, monkeypatch):
    """Issue 28: each ruleset's recorded game played twice, the second time with the referee
    marking and clearing a piece hidden from one side before each of that side's commands: what
    that side and the spectator receive (view, log and numbers, details with their counts of
    facts, dice, completion, hints, replay, status, its copy) is the same, byte for byte, on
    clocks that move on (the referee's commands at times of their own)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))
    from recorded import recorded_games

    import core.log.views
    from core.log.views import SPECTATOR, roles

    monkeypatch.setattr(core.log.views.MarkerLabels, "_pick", core.log.views.MarkerLabels._pick)  # put back after
    checked = []
    for game in recorded_games():
        lines = _script(game)
        (tmp_path / game.name / "plain").mkdir(parents=True)
        plain, faces = _replayed(tmp_path / game.name / "plain" / "g.ft", game, lines, None)
        try:
            for side in [r for r in roles(plain.state) if r not in ("referee", SPECTATOR)]:
                (tmp_path / game.name / side).mkdir()
                busy, _given = _replayed(
                    tmp_path / game.name / side / "g.ft", game, lines, faces, unseen_by=side, monkeypatch=monkeypatch
                )
                try:
                    if busy.log_length == plain.log_length:
                        continue  # nothing of the other side was ever hidden from this one
                    checked.append((game.name, side))
                    for role in (side, SPECTATOR):
                        assert _received(plain, role) == _received(busy, role), (game.name, side, role)
                finally:
                    busy.close()
        finally:
            plain.close()
    # Bassa Intensità's recorded game hides no piece from a side by its status (its secrets are
    # set aside otherwise): the referee has nothing to mark unseen there.
    assert {name for name, _side in checked} == {"demo-game", "linea-di-tiro-game", "ludonet-game"}, checked
