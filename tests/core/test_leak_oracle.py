"""The leak oracle: random games with hidden pieces, markers, secrets and the referee's
commands, and, for every role, everything the role is given checked against a second,
deliberately simple model of what it may see (docs/testing.md).

The model (``Reference``) is written from the rules, not from ``core/log/views.py``:
docs/ssh.md "What each role can do", docs/architecture.md "Views", docs/secrets.md,
and the rulings CORE-HIDDEN, CORE-MARKER, CORE-TEXT and CORE-COMMIT of docs/rulings.md.
It watches each command as it is played, and works out on its own, from the table
before and after each fact, who may see every event written to the file:

* a fact about a piece that is hidden once the fact holds: its side and the sides that
  spotted it; a hidden piece set up: its side; a secret: its owner; a marker's label:
  the referee; anything else: everyone (CORE-HIDDEN, CORE-MARKER);
* a secret's commitment: whoever sees any other fact of its command, except for a
  hidden piece or a fact about one, seen only by those who see it (CORE-COMMIT);
* a command's text: those who may see every one of its facts, leaving out the facts
  about a piece it names by its marker that only that piece's side may see; the
  referee alone when no side sees them all; its own side always (CORE-TEXT);
* an undo or redo: as the command it names; a command carried past a side's undo: as
  the command it carries, fact for fact.

From those audiences alone, for the referee, each side and the spectator, it works
out the log (which events, numbered how), each command's number, the replay's steps
and the table at every step (units, spotted-by, markers, secrets, variables), the
side's copy (``fireteam export``); and it checks the report, the odds, the Details
screen and every text given to a role for the names and secret values that role
never saw.  Any difference is a leak (or a role denied what it may see).  At the end, at a
served table with table dice, what each role is told of a shot awaited at another seat (held
there, or typed at its own prompt) is checked against the shot's audience too.

It plays a ruleset made for it (``Hideout``, below): two sides with hidden pieces
under markers, secrets of each side, a hidden piece's bookkeeping in ``secret.``
variables, players' moves, shots and sightings (aimed at markers by label), the
referee's tools (mark, clear, out, back, roll, reveal, dp, note), and undo and redo
by anyone.  The suite runs a few examples; the ``oracle`` profile runs many::

    .venv/bin/pytest tests/core/test_leak_oracle.py --hypothesis-profile=oracle
"""

from __future__ import annotations

import contextlib
import tempfile
from itertools import accumulate
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.dice.faces import NeedDice
from core.game import Game
from core.language.i18n import CORE_DOMAIN, render
from core.log import events as ev
from core.log.outcome import DiceNeeded, Held
from core.log.replay import visible_steps
from core.log.state import TABLE_DICE, GameState, apply_in_place, copy_state
from core.log.views import unit_audience
from core.registry import register, unregister
from core.report import render_md
from core.report.build import build
from core.ruleset import CommandSpec, Context, Param, Phase, Refused, Ruleset
from core.rulesets.common import REFEREE_TOOLS
from core.secrets import sidecopy
from tui.screens.dialogs import event_details

#: A few games in the suite; as many as the ``oracle`` profile says in a longer run
#: (registered in conftest.py: ``--hypothesis-profile=oracle``).
EXAMPLES = settings().max_examples if settings.get_current_profile_name() == "oracle" else 12

REFEREE, SPECTATOR = "referee", "spectator"
SIDES = ("blue", "red")
ROLES = (REFEREE, *SIDES, SPECTATOR)
# Names and secret values no other text of the game contains, so finding one in a
# role's text means it reached that role.
PIECES = (
    ev.UnitSpec(id="anders", name="Bo Anders", side="blue", cls="veteran"),
    ev.UnitSpec(id="kovac", name="Vesna Kovac", side="blue", status=("hidden",)),
    ev.UnitSpec(id="marr", name="Ilse Marr", side="blue", status=("hidden",)),
    ev.UnitSpec(id="dunn", name="Ray Dunn", side="red"),
    ev.UnitSpec(id="quill", name="Zeke Quill", side="red", cls="rookie", status=("hidden",)),
    ev.UnitSpec(id="fitch", name="Oona Fitch", side="red", status=("hidden",)),
)
WORDS = ("amberjack", "bluegill", "cuttlefish", "dragonet", "eelpout", "flounder")


# ----------------------------------------------------------------- the game played


def _setup(ctx: Context, args: dict) -> None:
    ctx.emit(ev.GameSetUp(scenario="Hideout", sides=tuple(ev.SideSpec(s, s.title()) for s in SIDES)))
    for spec in PIECES:
        ctx.emit(ev.UnitAdded(unit=spec, vis=(spec.side,) if "hidden" in spec.status else ()))
    ctx.emit(ev.SecretSet(key="plan.blue", owner="blue", value="pincerwise", vis=("blue",)))
    ctx.emit(ev.SecretSet(key="plan.red", owner="red", value="feintward", vis=("red",)))
    ctx.emit(ev.PhaseBegan(turn=1, phase="play"))


def _walk(ctx: Context, args: dict) -> None:
    ctx.emit(ev.Moved(unit=args["unit"], cm=args["cm"]))


def _shoot(ctx: Context, args: dict) -> None:
    (face,) = ctx.roll("shot", 1, target=4, unit=args["shooter"], outcome=lambda f: "hit" if f[0] >= 4 else "miss")
    target = ctx.unit(args["target"])
    if face == 6:
        ctx.emit(ev.UnitOut(unit=target.id, cause="shot"))
    elif face >= 4 and "suppressed" not in target.status:
        ctx.emit(ev.StatusChanged(unit=target.id, add=("suppressed",)))


def _spot(ctx: Context, args: dict) -> None:
    target = ctx.unit(args["target"])
    if ctx.role not in SIDES or ctx.role in target.spotted_by or "hidden" not in target.status:
        raise Refused("nothing to spot")
    ctx.emit(ev.Spotted(unit=target.id, by_side=ctx.role))


def _tally(ctx: Context, args: dict) -> None:
    """A piece's bookkeeping, as Breaking News keeps a hidden figure's (its ledger)."""
    unit = ctx.unit(args["unit"])
    key = f"secret.tally.{unit.id}"
    ctx.emit(ev.VarSet(key=key, value=ctx.state.vars.get(key, 0) + 1, vis=unit_audience(unit)))


def _whisper(ctx: Context, args: dict) -> None:
    side, word = args["side"], args["word"]
    ctx.emit(ev.SecretSet(key=f"word.{side}.{word}", owner=side, value=word, vis=(side,)))


class Hideout(Ruleset):
    """Two sides with hidden pieces under markers, secrets, and commands that touch them."""

    id = "test-hideout"
    name = "Hideout (the leak oracle's game)"
    version = "0.1"
    domain = CORE_DOMAIN
    hidden_markers = True
    phases = (Phase("setup", "Set-up", "referee", "setup"), Phase("play", "Play", "both", "anything"))

    def commands(self):
        return [
            CommandSpec("setup", "Set the table.", _setup, who="referee", phases=("setup",)),
            CommandSpec("walk", "Move.", _walk, params=(Param("unit", "own"), Param("cm", "int", lo=1, hi=20))),
            CommandSpec(
                "shoot",
                "Fire at an enemy.",
                _shoot,
                params=(Param("shooter", "own"), Param("target", "enemy", markers=True)),
                rolls=True,
            ),
            CommandSpec("spot", "Look for a hidden enemy.", _spot, params=(Param("target", "enemy", markers=True),)),
            CommandSpec("tally", "Count something of a piece.", _tally, params=(Param("unit", "own"),)),
            CommandSpec(
                "whisper",
                "Tell a side a secret.",
                _whisper,
                params=(Param("side", "side"), Param("word", "choice", choices=WORDS)),
                who="referee",
            ),
            *REFEREE_TOOLS,
        ]


@contextlib.contextmanager
def hideout_registered():
    register(Hideout)
    try:
        yield
    finally:
        unregister(Hideout.id)


# ------------------------------------------------------------- the reference model

#: Everyone may see it.
PUBLIC = None


class Reference:
    """Who may see each event of the file, and what each role is then owed.

    An audience is ``PUBLIC`` or a frozenset of sides; the referee is in every audience.
    """

    def __init__(self) -> None:
        self.audience: list[frozenset[str] | None] = []  # by file index
        self.command_of: list[int] = []  # by file index: the command an event belongs to (0: an undo/redo)
        self.issued_at: dict[int, int] = {}  # command -> file index of its Issued
        self.effective: list[int] = []  # commands in effect, in the order they took effect
        self.spans: dict[int, range] = {}  # command -> file indices of its group

    # -- watching the game

    def watch(self, game: Game, before: GameState, start: int) -> None:
        """Work out the audiences of the events ``game`` wrote from file index ``start``."""
        events = game.history.store.slice(start, game.log_length)
        first = events[0]
        if type(first) is ev.Issued and not first.carries:
            self._command(start, events, before)
            return
        i = start
        while i < start + len(events):  # an undo (with commands carried past it) or a redo
            e = events[i - start]
            if type(e) in (ev.Undone, ev.Redone):
                self.audience.append(self.audience[self.issued_at[e.cmd]])
                self.command_of.append(0)
                if type(e) is ev.Undone:
                    self.effective.remove(e.cmd)
                else:
                    self.effective.append(e.cmd)
                i += 1
                continue
            assert type(e) is ev.Issued and e.carries
            original = self.spans[e.carries]
            assert len(original) == e.n + 1
            self.issued_at[e.cmd] = i
            self.spans[e.cmd] = range(i, i + e.n + 1)
            self.effective.append(e.cmd)
            for k in original:  # the same facts, seen by the same roles
                self.audience.append(self.audience[k])
                self.command_of.append(e.cmd)
            i += e.n + 1

    def _command(self, start: int, events: list[ev.Event], before: GameState) -> None:
        issued = events[0]
        facts = events[1:]
        assert type(issued) is ev.Issued and len(facts) == issued.n
        state = copy_state(before)
        audiences: list[frozenset[str] | None] = []
        for e in facts:
            apply_in_place(state, (e,))
            audiences.append(self._fact_audience(e, state))
        secret = [self._is_secret(e) for e in facts]
        # CORE-COMMIT: a commitment is seen by whoever sees any other fact of its command.
        others = [a for e, a, s in zip(facts, audiences, secret, strict=True) if not s and type(e) is not ev.Committed]
        anyone = PUBLIC if not others or any(a is PUBLIC for a in others) else frozenset().union(*others)
        for k, e in enumerate(facts):
            if type(e) is ev.Committed:
                fact, its = facts[k - 1], audiences[k - 1]
                of_a_piece = type(fact) is ev.UnitAdded or (type(fact) is ev.VarSet and its != frozenset())
                audiences[k] = its if (not others or of_a_piece) else anyone
        text = self._text_audience(issued, facts, audiences, before)
        self.issued_at[issued.cmd] = start
        self.spans[issued.cmd] = range(start, start + len(events))
        self.effective.append(issued.cmd)
        self.audience += [text, *audiences]
        self.command_of += [issued.cmd] * len(events)

    @staticmethod
    def _is_secret(e: ev.Event) -> bool:
        """docs/secrets.md: a SecretSet, a hidden piece set up, a ``secret.`` variable kept from someone."""
        if type(e) is ev.SecretSet:
            return True
        if type(e) is ev.UnitAdded:
            return "hidden" in e.unit.status
        return type(e) is ev.VarSet and e.key.startswith("secret.") and bool(e.vis)

    @staticmethod
    def _unit_audience(state: GameState, uid: str) -> frozenset[str] | None:
        u = state.units[uid]
        return frozenset((u.side, *u.spotted_by)) if "hidden" in u.status else PUBLIC

    def _fact_audience(self, e: ev.Event, state: GameState) -> frozenset[str] | None:
        t = type(e)
        if t is ev.MarkerPlaced:
            return frozenset()  # the referee's alone (CORE-MARKER)
        if t is ev.SecretSet:
            return frozenset({e.owner})
        if t is ev.UnitAdded:
            return frozenset({e.unit.side}) if "hidden" in e.unit.status else PUBLIC
        if t is ev.VarSet and e.key.startswith("secret.tally."):  # the piece's bookkeeping (Hideout's rule)
            return self._unit_audience(state, e.key.removeprefix("secret.tally."))
        if t is ev.Committed:
            return PUBLIC  # settled with its command's other facts
        uid = getattr(e, "unit", "")
        if isinstance(uid, str) and uid in state.units:
            return self._unit_audience(state, uid)  # once the fact holds (CORE-HIDDEN)
        return PUBLIC

    def _text_audience(self, issued: ev.Issued, facts, audiences, before: GameState) -> frozenset[str] | None:
        """CORE-TEXT with CORE-MARKER: the audience of a command's line."""
        labels = {u.marker: u for u in before.units.values() if _under_marker(u)}
        named = [labels[w.upper()] for w in issued.text.split() if w.upper() in labels]
        private = [frozenset((u.side, *u.spotted_by)) for u in named]
        seen: frozenset[str] | None = PUBLIC
        for e, a in zip(facts, audiences, strict=True):
            if type(e) in (ev.MarkerPlaced, ev.Committed) or a is PUBLIC:
                continue
            if any(a <= p for p in private):
                continue  # his own side's facts about the piece aimed at by its marker
            seen = a if seen is PUBLIC else seen & a
        if seen is not PUBLIC and issued.by in SIDES and issued.by not in seen:
            seen = seen | {issued.by}
        return seen

    # -- what each role is owed

    def sees(self, role: str, index: int) -> bool:
        a = self.audience[index]
        return role == REFEREE or a is PUBLIC or role in a

    def log(self, role: str) -> list[int]:
        """The lines it sees, and a header (the marker, which says nothing of it) for each run
        of facts of commands hidden from it that follows a line of one it sees (issue #61)."""
        out: list[int] = []
        for i in range(len(self.audience)):
            if self.sees(role, i) or self._heads_hidden_facts(role, i, out[-1] if out else None):
                out.append(i)
        return out

    def _heads_hidden_facts(self, role: str, i: int, before: int | None) -> bool:
        cmd = self.command_of[i]
        if not cmd or self.issued_at[cmd] != i or not any(self.sees(role, k) for k in self.spans[cmd][1:]):
            return False
        return before is None or not self.command_of[before] or self.sees(role, self.issued_at[self.command_of[before]])

    def number(self, role: str, cmd: int) -> int | None:
        """The number ``role`` knows command ``cmd`` by: its count of the commands it sees."""
        if role == REFEREE:
            return cmd
        seen = sorted(c for c, i in self.issued_at.items() if self.sees(role, i))
        return seen.index(cmd) + 1 if cmd in seen else None

    def timeline(self) -> list[int]:
        """The file indices of the effective history, step by step."""
        return [i for c in self.effective for i in self.spans[c]]

    def steps(self, role: str) -> list[int]:
        return [step for step, i in enumerate(self.timeline(), start=1) if self.sees(role, i)]


def _under_marker(u) -> bool:
    return bool(u.marker) and not u.out and "hidden" in u.status and "off-table" not in u.status


def reference_view(state: GameState, role: str) -> GameState:
    """docs/architecture.md "Views", rule by rule."""
    if role == REFEREE:
        return state
    out = copy_state(state)

    def sees(u) -> bool:
        return u.side == role or "hidden" not in u.status or role in u.spotted_by

    out.units = {}
    for uid, u in state.units.items():
        if sees(u):
            out.units[uid] = msgspec.structs.replace(u, spotted_by=u.spotted_by if u.side == role else ())
    out.markers = tuple(sorted(u.marker for u in state.units.values() if _under_marker(u) and not sees(u)))
    out.secrets = {k: s for k, s in state.secrets.items() if s.owner == role or s.revealed}
    out.vars = {k: v for k, v in state.vars.items() if not k.startswith("secret.")}
    out.event_count = 0
    return out


# ---------------------------------------------------------------- random games

_ids = [p.id for p in PIECES]
_command = st.one_of(
    st.tuples(st.sampled_from(SIDES), st.sampled_from(("walk {own} {cm}", "tally {own}", "shoot {own} {target}"))),
    st.tuples(st.sampled_from(SIDES), st.just("spot {target}")),
    st.tuples(st.sampled_from(ROLES[:3]), st.sampled_from(("undo", "redo"))),
    st.tuples(
        st.just(REFEREE),
        st.sampled_from(
            (
                "mark {unit} {status}",
                "clear {unit} {status}",
                "mark {unit} hidden",
                "clear {unit} hidden",
                "out {unit}",
                "back {unit}",
                "roll 1d6",
                "note {unit} waits",
                "reveal {key}",
                "whisper {side} {word}",
                "dp {side} 2",
                "walk {unit} {cm}",
                "spot {target}",
            )
        ),
    ),
)


def _line(data, game: Game, role: str, template: str) -> str:
    units = game.state.units
    own = [u for u in _ids if u in units and units[u].side == role] or _ids
    # A target by id (seen or not), or by the label of a marker on the table.
    targets = [*_ids, *(u.marker.lower() for u in units.values() if _under_marker(u)), "k9z"]
    keys = [*game.state.secrets, "plan.blue"]
    return template.format(
        own=data.draw(st.sampled_from(own)),
        unit=data.draw(st.sampled_from(_ids)),
        target=data.draw(st.sampled_from(targets)),
        status=data.draw(st.sampled_from(("pinned", "suppressed", "wounded"))),
        cm=data.draw(st.integers(1, 20)),
        key=data.draw(st.sampled_from(keys)),
        side=data.draw(st.sampled_from(SIDES)),
        word=data.draw(st.sampled_from(WORDS)),
    )


def play(data, path: Path) -> tuple[Game, Reference]:
    game = Game.new(path, Hideout.id, seed=data.draw(st.integers(0, 2**31), label="seed"), clock=lambda: 5_000)
    ref = Reference()
    steps = data.draw(st.lists(_command, min_size=4, max_size=18), label="commands")
    for role, template in [(REFEREE, "setup"), *steps]:
        line = _line(data, game, role, template) if "{" in template else template
        before, start = copy_state(game.state), game.log_length
        try:
            game.execute(line, role=role)
        except (Refused, NeedDice):
            assert game.log_length == start
            continue
        ref.watch(game, before, start)
    assert len(ref.audience) == game.log_length
    return game, ref


# ---------------------------------------------------------------------- the checks


def reference_seen(game: Game, ref: Reference, role: str) -> list[tuple[int, ev.Event]]:
    """docs/secrets.md, a side's copy: what the role came to see that was set up out of
    its sight, each with the step of the first fact it saw of it: a hidden piece as it
    stood just before that fact, a secret of another's when it was revealed to it."""
    if role == REFEREE:
        return []
    store, out = game.history.store, []
    pieces: set[str] = set()
    secrets: set[str] = set()
    state = GameState()
    for step, i in enumerate(ref.timeline(), start=1):
        e = store[i]
        if ref.sees(role, i):
            if type(e) is ev.UnitAdded:
                pieces.add(e.unit.id)
            if type(e) is ev.SecretSet:
                secrets.add(e.key)
            uid = getattr(e, "unit", None)
            if type(uid) is str and uid not in pieces and uid in state.units:
                pieces.add(uid)
                u = state.units[uid]
                spec = ev.UnitSpec(
                    id=u.id, name=u.name, side=u.side, team=u.team, kind=u.kind, cls=u.cls, weapons=u.weapons,
                    leadership=u.leadership, roles=u.roles, status=u.status, stats=u.stats,
                )  # fmt: skip
                out.append((step, ev.UnitAdded(unit=spec, vis=("referee",))))
            if type(e) is ev.Revealed and e.key not in secrets and e.key in state.secrets:
                secrets.add(e.key)
                s = state.secrets[e.key]
                out.append((step, ev.SecretSet(key=e.key, owner=s.owner, value=s.value, salt=s.salt, vis=("referee",))))
        apply_in_place(state, (e,))
    return out


def reference_report(game: Game, ref: Reference, role: str, end: int | None = None) -> dict[str, Any]:
    """docs/report.md: what a report holds, from the events of the effective history that
    ``role`` may see (a command it may not see counts, unnamed, by the facts it may), up to
    effective step ``end`` (default: all).
    Units are named as the table named them when first seen; in Hideout a man out of
    action is a loss, a man back is one fewer, and every score is in losses."""
    store, state = game.history.store, GameState()
    turns: dict[int, dict[str, list]] = {}
    units: dict[str, tuple] = {}
    out: dict[str, str] = {}
    moments: list[tuple] = []
    command: dict[str, Any] = {"text": "", "losses": {}, "points": {}, "words": [], "turn": 0}
    by, any_points = "", False

    def known(uid: str) -> str:
        if uid not in units:
            u = state.units.get(uid)
            cls = game.ruleset.piece_class(state, u.cls) if u and u.cls else ""
            units[uid] = (uid, u.name, u.side, u.kind, cls) if u else (uid, "an unseen piece", "", "", "")
        return units[uid][1]

    for i in ref.timeline()[:end]:
        e = store[i]
        apply_in_place(state, (e,))
        if type(e) is ev.Issued:
            by = e.by
            text = e.text if ref.sees(role, i) else ""
            command = {"text": text, "losses": {}, "points": {}, "words": [], "turn": state.turn}
            moments.append(command)
            continue
        if not ref.sees(role, i):
            continue
        keys = ("losses", "returns", "points", "notes", "spotted", "rolls", "keys")
        turn = turns.setdefault(state.turn, {k: [] for k in keys})
        t = type(e)
        if t is ev.UnitAdded:
            known(e.unit.id)
        elif t is ev.Noted and command["text"].startswith("note "):
            turn["notes"].append(render(e.text))
        elif t is ev.Spotted:
            turn["spotted"].append((known(e.unit), e.by_side))
        elif t is ev.UnitOut:
            name, side = known(e.unit), units[e.unit][2]
            out[e.unit] = render(e.cause)
            turn["losses"].append((name, side, out[e.unit]))
            command["losses"][side] = command["losses"].get(side, 0) + 1
            command["words"].append(f"{name} out of action: {out[e.unit]}")
        elif t is ev.UnitBack:
            name, side = known(e.unit), units[e.unit][2]
            turn["returns"].append((name, side, out.get(e.unit, "")))
            out[e.unit] = ""
            command["losses"][side] = command["losses"].get(side, 0) - 1
            command["words"].append(f"{name} back in action")
        elif t is ev.DefeatPoints:
            any_points = True
            turn["points"].append((e.side, e.points, render(e.reason)))
            command["points"][e.side] = command["points"].get(e.side, 0) + e.points
            command["words"].append(f"{state.sides[e.side].name}: {e.points:+d} defeat points, {render(e.reason)}")
        elif t is ev.Revealed:
            turn["keys"].append((e.key, e.value, game.ruleset.describe_named(state, e.key, e.value) or ""))
        elif t is ev.Rolled:
            owner = units[e.unit][2] if e.unit and known(e.unit) else (by if by in state.sides else "")
            turn["rolls"].append((state.turn, owner, units[e.unit][1] if e.unit else "", e.roll))
        elif t in (ev.Moved, ev.StatusChanged):
            known(e.unit)
    swings = []
    for c in moments:
        change = {s: c["points" if any_points else "losses"].get(s, 0) for s in state.sides}
        if any(change.values()):
            swing = max(change.values()) - min(change.values())
            swings.append((c["turn"], c["text"], change, swing, tuple(c["words"])))
    top = sorted((m for m in swings if m[3] > 0), key=lambda m: -m[3])[:3]
    last = max([0, *turns])
    lost = {
        side: [
            sum(x[1] == side for x in turns.get(t, {}).get("losses", []))
            - sum(x[1] == side for x in turns.get(t, {}).get("returns", []))
            for t in range(last + 1)
        ]
        for side in state.sides
    }
    pointed = {
        side: [sum(p[1] for p in turns.get(t, {}).get("points", []) if p[0] == side) for t in range(last + 1)]
        for side in state.sides
    }
    running = {side: list(accumulate(pointed[side] if any_points else lost[side])) for side in state.sides}
    return {
        "score": ("defeat points" if any_points else "losses", running, lost),
        "units": sorted((*u, out.get(u[0], "")) for u in units.values()),
        "turns": {t: turns[t] for t in sorted(turns)},
        "moments": [m for m in swings if any(m is x for x in top)],
    }


def report_as_given(game: Game, role: str, step: int | None = None) -> dict[str, Any]:
    """The same facts of the report ``role`` is given (up to its own step ``step``)."""
    facts = build(game, role, step).facts
    return {
        "units": sorted((u.id, u.name, u.side, u.kind, u.cls, u.out) for u in facts.units),
        "turns": {
            t.turn: {
                "losses": [(x.unit, x.side, x.cause) for x in t.losses],
                "returns": [(x.unit, x.side, x.cause) for x in t.returns],
                "points": [(p.side, p.points, p.reason) for p in t.points],
                "notes": list(t.notes),
                "spotted": list(t.spotted),
                "rolls": [(r.turn, r.side, r.unit, r.roll) for r in t.rolls],
                "keys": list(t.revealed),
            }
            for t in facts.turns
            if any((t.losses, t.returns, t.points, t.notes, t.spotted, t.rolls, t.revealed))
        },
        "moments": [(m.turn, m.command, m.change, m.swing, m.facts) for m in facts.moments],
        "score": (facts.score_name, facts.score_by_turn, facts.losses_by_turn),
    }


def _unseen_heads(copy) -> int:
    """The command lines a copy adds for facts whose command the role did not see."""
    heads, end = 0, 0
    seen = [(step, 0, e) for step, e in copy.seen] + [(step, 1, e) for step, e in copy.events]
    seen.sort(key=lambda x: x[:2])
    opened = False
    for step, _order, e in seen:
        if type(e) is ev.Issued:
            opened, end = True, step + e.n
        elif step <= end or (heads and not opened):
            continue
        else:
            heads, opened, end = heads + 1, False, 0
    return heads


def _never_seen(game: Game, ref: Reference, role: str) -> list[str]:
    """Words ``role`` must find in nothing it is given: the names of pieces it never saw
    and the values of secrets never shown to it."""
    if role == REFEREE:
        return []
    seen_units: set[str] = set()
    for step in range(game.timeline.length + 1):
        seen_units |= set(reference_view(game.timeline.state_at(step), role).units)
    for i in ref.log(role):  # a piece named by a fact the role saw (a sighting, a shot at a marker)
        uid = getattr(game.history.store[i], "unit", "")
        seen_units.add(uid if isinstance(uid, str) else uid.id)
    words = [p.name for p in PIECES if p.id not in seen_units]
    shown = {e.value for i in ref.log(role) if type(e := game.history.store[i]) in (ev.SecretSet, ev.Revealed)}
    secrets = [s.value for k, s in game.state.secrets.items()] + [
        e.value for e in game.history.store.slice(0, game.log_length) if type(e) is ev.SecretSet
    ]
    return words + sorted({v for v in secrets if v not in shown})


def _assert_none_in(texts: list[str], words: list[str], where: str) -> None:
    for text in texts:
        for word in words:
            assert word not in text, f"{word!r} reaches {where}: {text!r}"


def check(game: Game, ref: Reference, role: str, folder: Path) -> None:
    store = game.history.store
    # The log: the events the role may see, numbered by its own count of commands.
    lines = game.log_lines(role)
    assert [ln.index for ln in lines] == ref.log(role), f"{role}'s log"
    for ln in lines:
        e = ln.event
        named = e.cmd if type(e) in (ev.Undone, ev.Redone) else ref.command_of[ln.index]
        assert ln.number == (ref.number(role, named) or 0), f"{role}'s number of line {ln.index}"
    for cmd in ref.issued_at:
        assert game.reading.numbering(role).shown(cmd) == ref.number(role, cmd), f"{role}'s number of command {cmd}"
    # The replay: its steps, and the table at each of them; the table now.
    assert list(visible_steps(game.history, role, game.timeline.length)) == ref.steps(role), f"{role}'s replay"
    for step in range(game.timeline.length + 1):
        assert game.view(role, step) == reference_view(game.timeline.state_at(step), role), f"{role} at step {step}"
    assert game.view(role) == reference_view(game.state, role)
    # The side's copy: the effective events it may see, counted as the role counts them (issue
    # 28): the N-th it sees is step N, a command bears the role's number for it and counts the
    # facts of it the role sees.
    copy = sidecopy.export(game, role)
    timeline = ref.timeline()
    seen_at = [k for k, i in enumerate(timeline) if ref.sees(role, i)]  # positions in the game's timeline
    own_step = {k + 1: n for n, k in enumerate(seen_at, start=1)}  # the game's step -> the role's
    owed_events = []
    for k in seen_at:
        e = store[timeline[k]]
        if type(e) is ev.Issued:
            facts = sum(1 for i in timeline[k + 1 : k + 1 + e.n] if ref.sees(role, i))
            e = msgspec.structs.replace(e, cmd=ref.number(role, e.cmd) or 0, n=facts, carries=0)
        owed_events.append((own_step[k + 1], msgspec.json.encode(e)))
    assert [(step, msgspec.json.encode(e)) for step, e in copy.events] == owed_events, f"{role}'s copy"
    assert [(step, msgspec.json.encode(e)) for step, e in copy.seen] == [
        (own_step[step], msgspec.json.encode(e)) for step, e in reference_seen(game, ref, role)
    ], f"{role}'s copy: what it came to see"
    h = game.header
    assert (copy.role, copy.steps) == (role, len(seen_at))
    assert msgspec.to_builtins(copy.header) == msgspec.to_builtins(
        sidecopy.CopyHeader(h.ruleset, h.ruleset_version, h.engine, h.created, h.variant)
    )
    # The report: the facts of what it saw.
    given, owed = report_as_given(game, role), reference_report(game, ref, role)
    owed_turns = {t: v for t, v in owed["turns"].items() if any(v.values())}
    assert given["units"] == owed["units"], f"{role}'s report: units"
    assert given["turns"] == owed_turns, f"{role}'s report: turns"
    assert given["moments"] == owed["moments"], f"{role}'s report: moments"
    assert given["score"] == owed["score"], f"{role}'s report: the score"
    # ... and at every step of its replay, counted as it counts them (``report --as ROLE --step N``,
    # F4 in replay): up to its N-th step, of the steps it may see, never of the game's.
    steps = ref.steps(role)
    reports = []
    for shown in range(len(steps) + 1):
        report = build(game, role, shown)
        assert (report.facts.step, report.facts.steps) == (shown, len(steps)), f"{role}'s report at {shown}"
        at = report_as_given(game, role, shown)
        owed_at = reference_report(game, ref, role, steps[shown - 1] if shown else 0)
        owed_at["turns"] = {t: v for t, v in owed_at["turns"].items() if any(v.values())}
        assert at == owed_at, f"{role}'s report at its step {shown}"
        reports.append(render_md.render(report))
    # The copy reopened: the role's game, with no seed; its report is the role's report.
    path = folder / f"{role}.copy"
    sidecopy.write(copy, path)
    report = render_md.render(build(game, role))  # as the role reads it
    with contextlib.closing(sidecopy.open_copy(path)) as own:
        assert (own.copy_role, own.path, own.writable) == (role, path, False)
        assert own.header == msgspec.structs.replace(h, seed=0, parent=None)
        assert own.timeline.length == len(copy.events) + len(copy.seen) + _unseen_heads(copy)
        if role != REFEREE:
            # The same facts; not the same decisive moments: the copy cannot tell where one
            # command it did not see ends and the next begins (that would count them), so it
            # takes their facts as one command, of the turn the first began.
            from_copy = report_as_given(own, role)
            del from_copy["moments"], given["moments"]
            assert from_copy == given, f"{role}'s report from its copy"
    # The odds: naming a piece the role may not see is answered as naming none.
    view = game.view(role)
    for own in [u for u in view.units.values() if u.side == role][:1]:
        for target in _ids:
            if target not in view.units:
                said = game.odds(f"shoot {own.id} {target}", role=role)
                assert said == game.odds(f"shoot {own.id} nobody", role=role), f"{role}'s odds at {target}"
    # Every text the role is given, and the Details of every line it sees.
    texts = [ln.text for ln in lines] + [event_details(ln, {}, referee=role == REFEREE).plain for ln in lines]
    texts += [report, *reports, msgspec.json.encode(copy).decode()]
    _assert_none_in(texts, _never_seen(game, ref, role), f"what {role} is given")


def check_told_of_rolls(game: Game, ref: Reference) -> int:
    """At a served table with table dice, each piece's shot asked of its side's seat: held there
    when the referee gives it (``Awaiting.said``), typed at its own seat when the side does
    (``Rolling.said``).  A role hears anything of it (whose dice, the roll, that dice are awaited)
    only if it may see the roll's fact (the shooter's, CORE-HIDDEN), and never a name it never
    saw; nothing is recorded.  How many shots were asked (the check is not vacuous)."""
    game.execute(f"{TABLE_DICE} on", role=REFEREE)
    game.seated = lambda: {REFEREE, *SIDES}
    length, asked = game.log_length, 0
    never = {role: _never_seen(game, ref, role) for role in ROLES}
    for shooter in [u for u in game.state.units.values() if not u.out]:
        target = next(u.id for u in game.state.units.values() if u.side != shooter.side)
        audience = ref._unit_audience(game.state, shooter.id)
        for role, by in ((REFEREE, "rita"), (shooter.side, "seat")):
            result = game.submit(f"shoot {shooter.id} {target}", role=role, by=by, faces=[])
            if not isinstance(result, Held | DiceNeeded):
                continue
            asked += 1
            for told in ROLES:
                said = game.awaiting.said(told) if isinstance(result, Held) else game.rolling.said(told, "other")
                owed = told == REFEREE or audience is PUBLIC or told in audience
                assert bool(said) == owed, f"{told} told of {shooter.id}'s shot: {said!r}"
                _assert_none_in([said], never[told], f"what {told} is told of a roll awaited")
            if isinstance(result, Held):
                game.answer_held(role=REFEREE, by="rita")  # withdrawn
            else:
                game.unasked(by)
            assert game.awaiting.held is None and game.rolling.rolls == ()
    assert game.log_length == length
    return asked


@pytest.mark.long
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_role_gets_exactly_what_the_rules_let_it_see(data):
    with hideout_registered(), tempfile.TemporaryDirectory(prefix="oracle-") as tmp:
        folder = Path(tmp)
        game, ref = play(data, folder / "game.ft")
        try:
            for role in ROLES:
                check(game, ref, role, folder)
            check_told_of_rolls(game, ref)
        finally:
            game.close()


def test_the_oracle_sees_hidden_things_happen():
    """The model is not vacuous: a game where the referee and the players touch hidden
    pieces, markers and secrets gives each role a different log."""
    with hideout_registered(), tempfile.TemporaryDirectory(prefix="oracle-") as tmp:
        game = Game.new(Path(tmp) / "g.ft", Hideout.id, seed=3, clock=lambda: 5_000)
        ref = Reference()
        for role, line in [
            (REFEREE, "setup"),
            (REFEREE, "mark quill pinned"),
            ("red", "walk fitch 4"),
            ("red", "tally quill"),
            ("blue", "spot {fitch}"),  # blue sees fitch from now on
            (REFEREE, "whisper red eelpout"),
            ("blue", "shoot anders {quill} dice=5"),  # at a marker: his suppression is red's to know
            ("blue", "walk kovac 3"),
            ("red", "walk quill 2"),  # hidden from blue: carried past blue's undo
            ("blue", "undo"),
            ("red", "shoot quill anders dice=6"),  # unseen, but blue sees Anders fall
            (REFEREE, "back anders"),
            (REFEREE, "out quill"),  # red's loss, unseen by blue
            (REFEREE, "back quill"),
            (REFEREE, "note the bridge holds"),
            (REFEREE, "reveal plan.red"),
        ]:
            markers = {f"{{{u.id}}}": u.marker.lower() for u in game.state.units.values() if u.marker}
            for name, label in markers.items():
                line = line.replace(name, label)
            before, start = copy_state(game.state), game.log_length
            game.execute(line, role=role)
            ref.watch(game, before, start)
        logs = {role: ref.log(role) for role in ROLES}
        assert len(logs["referee"]) > len(logs["red"]) > len(logs["spectator"])
        assert len(logs["referee"]) > len(logs["blue"]) > len(logs["spectator"])
        blue = game.view("blue")
        assert "fitch" in blue.units and "quill" not in blue.units and not blue.units["anders"].out
        under = ("fitch", "quill", "marr", "kovac")
        assert game.view("spectator").markers == tuple(sorted(game.state.units[u].marker for u in under))
        for role in ROLES:
            check(game, ref, role, Path(tmp))
        assert check_told_of_rolls(game, ref) >= 6  # the sides' and the referee's, of hidden pieces too
        game.close()


def test_a_copy_made_before_it_kept_what_its_side_came_to_see_names_such_a_piece_unseen():
    """A side's copy from before ``seen`` (docs/secrets.md) holds a sighting of a piece it
    never saw set up: its report names the piece "an unseen piece" and nothing else of it."""
    with hideout_registered(), tempfile.TemporaryDirectory(prefix="oracle-") as tmp:
        game = Game.new(Path(tmp) / "g.ft", Hideout.id, seed=3, clock=lambda: 5_000)
        game.execute("setup", role=REFEREE)
        game.execute(f"spot {game.state.units['fitch'].marker.lower()}", role="blue")
        data = msgspec.to_builtins(sidecopy.export(game, "blue"))
        game.close()
        del data["seen"]
        (Path(tmp) / "old.copy").write_bytes(msgspec.json.encode(data))
        with contextlib.closing(sidecopy.open_copy(Path(tmp) / "old.copy")) as old:
            units = {u.id: u for u in build(old, "blue").facts.units}
    assert vars(units["fitch"]) == {
        "id": "fitch", "name": "an unseen piece", "side": "", "kind": "", "cls": "", "out": "", "out_turn": 0,
        "came_on": True, "off_table": False,  # the defaults: nothing of where it was
    }  # fmt: skip
    assert units["anders"].name == "Bo Anders" and units["anders"].cls == "veteran"
