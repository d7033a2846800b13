"""The replay bar: where a replay stands (step, turn and phase, speed, playing or paused) and what its
keys do: stepping by event, phase and turn, playing at a speed, a what-if game from the step shown.

It moves the game screen's viewpoint (``vp.step``); the screen draws its panes again when told
(``moved``), and the bar itself with them (``show``)."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.timer import Timer

from core.game import Game
from core.log.state import GameState
from core.log.views import REFEREE
from core.storage.errors import SaveError
from tui.i18n import N_, _, phase_words, role_words
from tui.keymap import short_key
from tui.plain import Plain, visible
from tui.screens.client import client_app
from tui.viewpoint import Viewpoint, position_after, visible_step

#: Replay speeds in events per second.
SPEEDS = (1, 2, 4, 8, 16, 32, 64, 128)
TICKS_PER_SECOND = 16
#: The replay bar's row of keys: the ids of the bindings each names, and what they do.
REPLAY_KEYS = (
    (("quit-replay",), N_("leave")),
    (("prev-event", "next-event"), N_("event")),
    (("prev-phase", "next-phase"), N_("phase")),
    (("prev-turn", "next-turn"), N_("turn")),
    (("go-to-turn",), N_("go to turn")),
    (("start", "end"), N_("start/end")),
    (("play-pause",), N_("play")),
    (("faster", "slower"), N_("speed")),
)


def why_not_play_from_here(game: Game, role: str, remote: bool) -> str:
    """Why this seat may not start a what-if game ("" if it may)."""
    # A what-if game needs the full save: the referee's, at his own client.
    if role != REFEREE:
        return _(
            "a what-if game is the referee's: it starts from the whole save, which holds what {role} may not see"
        ).format(role=role_words(role, game.state))
    if remote:
        return _("a what-if game is made at the referee's own client, not at a shared table's seat")
    return ""


class ReplayBar(Plain):
    """Where the replay stands, and the replay's keys' work over the screen's viewpoint."""

    DEFAULT_CSS = """
    ReplayBar { height: 2; background: $boost; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    def __init__(
        self, game: Game, role: str, vp: Viewpoint, *, speed: int, remote: bool, moved: Callable[[], None], **kwargs
    ) -> None:
        """``speed``: an index into ``SPEEDS`` (the user's, remembered); ``moved``: the screen's panes drawn again."""
        super().__init__(**kwargs)
        self.game = game
        self.role = role
        self.vp = vp
        self.speed = speed
        self.remote = remote
        self.moved = moved
        self._player: Timer | None = None

    def go(self, step: int) -> None:
        self.vp.step = max(0, min(self.vp.length, step))
        self.moved()

    def step(self, direction: int) -> None:
        assert self.vp.step is not None
        if self.role == REFEREE:
            self.go(self.vp.step + direction)
        else:
            self.go(visible_step(self.game, self.role, self.vp.step, direction))

    def play_from_here(self) -> None:
        """A what-if game from the step shown: a new save next to this one, played live at once."""
        from core.storage.fork import boundary_before, default_target, fork  # what only this key needs, imported then

        assert self.vp.step is not None
        why = why_not_play_from_here(self.game, self.role, self.remote)
        if why:
            self.notify(why, title=_("Cannot play from here"), severity="warning", markup=False)
            return
        self.stop()
        step = boundary_before(self.game, self.vp.step)
        try:
            done = fork(self.game.path, step, default_target(self.game.path, step))
            game = Game.open(done.to)
        except SaveError as e:
            self.notify(str(e), title=_("Cannot play from here"), severity="error", markup=False)
            return
        if step == self.vp.step:
            said = _("{save}: from step {step} of {source}, which is unchanged")
        else:
            said = _(
                "{save}: from step {step} (the start of the command at step {shown}) of {source}, which is unchanged"
            )
        client_app(self).switch_game(game)
        self.app.notify(
            said.format(save=done.to.name, step=step, shown=self.vp.step, source=self.game.path.name),
            title=_("A what-if game"),
            markup=False,
            timeout=10,
        )

    def by_phase(self, direction: int, *, by_turn: bool) -> None:
        """To the next (or previous) phase's start, or turn's."""
        assert self.vp.step is not None
        tl = self.game.timeline
        self.go(
            tl.next_phase(self.vp.step, by_turn=by_turn)
            if direction > 0
            else tl.previous_phase(self.vp.step, by_turn=by_turn)
        )

    def edge(self, direction: int) -> None:
        self.go(0 if direction < 0 else self.vp.length)

    def jump_turn(self) -> None:
        def answer(text: str | None) -> None:
            if not text:
                return
            try:
                turn = int(text)
            except ValueError:
                self.notify(_("not a turn number: {text}").format(text=repr(text)), severity="error", markup=False)
                return
            step = self.game.timeline.turn_start(turn)
            if step is None:
                self.notify(
                    _("turn {turn} was never reached: from {first} to {last}").format(
                        turn=turn, first=first, last=last
                    ),
                    severity="error",
                    markup=False,
                )
                return
            self.go(step)

        from tui.screens.dialogs import AskScreen

        reached = self.game.timeline.turns()
        if reached is None:
            self.notify(_("no turn has begun yet"), markup=False)
            return
        first, last = reached
        self.app.push_screen(
            AskScreen(_("Go to turn"), _("a turn from {first} to {last}").format(first=first, last=last)), answer
        )

    def play(self) -> None:
        """Play from the step shown (from the start, at the end), or pause."""
        if self._player is not None:
            self.stop()
        else:
            if self.vp.step is not None and self.vp.step >= self.vp.length:
                self.vp.step = 0
            self._player = self.set_interval(1 / min(SPEEDS[self.speed], TICKS_PER_SECOND), self._tick)
        self.moved()

    def stop(self) -> None:
        """Pause, if playing."""
        if self._player is not None:
            self._player.stop()
            self._player = None

    def _tick(self) -> None:
        assert self.vp.step is not None
        per_tick = max(1, SPEEDS[self.speed] // TICKS_PER_SECOND)
        step = self.vp.step
        for _step in range(per_tick):
            step = step + 1 if self.role == REFEREE else visible_step(self.game, self.role, step, 1)
        self.go(step)
        if self.vp.step >= self.vp.length:
            self.stop()
            self.show(self.vp.state())

    def faster(self, direction: int) -> None:
        """One speed up (or down), remembered for the next replay."""
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + direction))
        remember = getattr(self.app, "remember", None)
        if remember is not None:
            remember(replay_speed=self.speed)
        if self._player is not None:
            self.stop()
            self.play()
        else:
            self.show(self.vp.state())

    def show(self, state: GameState) -> None:
        """The bar for the step shown, whose ``state`` it is."""
        shown, total = self.vp.shown_position()
        text = Text()
        text.append(" ▶ " + _("playing") + " " if self._player else " ‖ " + _("paused") + " ", style="bold reverse")
        text.append("  " + _("step {shown}/{total}").format(shown=shown, total=total), style="bold")
        name = phase_words(self.game.ruleset, state.phase)
        text.append(visible("  " + _("turn {turn} · {phase}").format(turn=state.turn, phase=name)))
        text.append("  " + _("speed {speed}/s").format(speed=SPEEDS[self.speed]), style="dim")
        if self.role == REFEREE:  # a position in the file counts the hidden events too
            line = position_after(self.game, self.vp.step or 0) + 1
            text.append("  " + _("file line {line}").format(line=line), style="dim")
        else:
            text.append("  " + _("as {role}").format(role=role_words(self.role, state)), style="bold yellow")
        # Leaving first: the row is cut at the screen's edge, and how to leave is what a newcomer looks for.
        # Each key as it is bound now (the user's keymap: tui.keymap).
        keys = Text(
            "".join("  " + " ".join(short_key(self, key) for key in ids) + " " + _(what) for ids, what in REPLAY_KEYS),
            style="dim",
        )
        # Two lines always (its height is fixed): a new step repaints the bar, never lays out the screen.
        self.update(Text("\n").join([text, keys]), layout=False)
