"""What a side and a spectator read of every recorded game, in the log and the report,
speaks the players' words: no id of the rulesets' own (issue #26)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))

from recorded import RecordedGame, recorded_games  # noqa: E402

from core import events as ev  # noqa: E402
from core.game import Game  # noqa: E402
from core.language.i18n import Msg  # noqa: E402
from tui.main import main as fireteam  # noqa: E402

#: A command's option as typed (``source=gun-102``, ``range=30``): command syntax.
_OPTION = re.compile(r"\b[a-z_]+=\S")
#: A command quoted by the report (“burst abdi source=gun-102 short”): what was typed.
_QUOTED = re.compile(r"“[^”]*”")


def _args(text: object) -> list[object]:
    """Every argument a message carries, its nested messages' too (and their templates:
    an id recorded as a message of its own, the ledger's ``first-fire``)."""
    if not isinstance(text, Msg):
        return []
    out: list[object] = []
    for value in dict(text.args).values():
        out.append(value.id if isinstance(value, Msg) else value)
        out += _args(value)
    return out


def _raw_ids(game: Game) -> set[str]:
    """The ids of the ruleset's own a player should never read, those shaped as ids
    (``marker.regulars.5``, ``aboard-truck``): secret keys, statuses, weapons, classes and
    profiles, defeat-point reasons and the arguments of a note."""
    ids: set[str] = set()
    for line in game.log_lines():
        e = line.event
        match e:
            case ev.SecretSet() | ev.Revealed() | ev.Opened():
                ids.add(e.key)
            case ev.UnitAdded():
                ids.update(e.unit.weapons)
                ids.update(e.unit.status)
                ids.add(e.unit.cls)
            case ev.StatusChanged():
                ids.update(e.add)
                ids.update(e.remove)
            case ev.DefeatPoints():
                ids.update(str(a) for a in _args(e.reason))
                if isinstance(e.reason, str):
                    ids.add(e.reason)
            case ev.Noted():
                ids.update(str(a) for a in _args(e.text))
            case ev.VarSet() if e.key.startswith("profile."):
                ids.add(e.key.partition(".")[2])
    return {i for i in ids if re.fullmatch(r"[a-z0-9]+(?:[-.][a-z0-9_]+)+", i)}


def _sides_lines(game: Game) -> list[re.Pattern[str]]:
    """A side named by its id where it has a name: in a defeat-point, spotting or
    activation line."""
    found = []
    for side in game.state.sides.values():
        if side.name == side.id:
            continue
        s = re.escape(side.id)
        found += [
            re.compile(rf"(?<![\w-]){s} scores -?\d+ defeat point"),
            re.compile(rf"spotted by {s}\b"),
            re.compile(rf", {s} active\b"),
        ]
    return found


def _cases() -> list[tuple[RecordedGame, str]]:
    cases = []
    for game in recorded_games():
        sides = Game.open(game.save, writable=False).state.sides
        cases += [(game, role) for role in (*sides, "spectator")]
    return cases


def _found(text: str, forbidden: set[str], patterns: list[re.Pattern[str]]) -> list[tuple[str, str]]:
    ids = "|".join(map(re.escape, sorted(forbidden, key=len, reverse=True)))
    patterns = [*patterns, _OPTION, re.compile(rf"(?<![\w.-])({ids})(?![\w-]|\.\w)")]
    found = []
    for line in text.splitlines():
        if line.lstrip().startswith("» "):
            continue  # a command as its player typed it
        line = _QUOTED.sub("", line)
        found += [(m.group(0), line.strip()) for p in patterns for m in p.finditer(line)]
    return found


@pytest.mark.parametrize(("game", "role"), _cases(), ids=lambda c: c if isinstance(c, str) else c.name)
def test_a_side_and_a_spectator_read_no_raw_id_in_the_log_or_the_report(game, role, capsys):
    opened = Game.open(game.save, writable=False)
    forbidden, sides = _raw_ids(opened), _sides_lines(opened)
    assert fireteam(["log", "--as", role, "--lang", "en", str(game.save)]) == 0
    log = capsys.readouterr().out
    assert fireteam(["report", "--as", role, "--lang", "en", str(game.save)]) == 0
    report = capsys.readouterr().out
    assert "note: " in log and "## " in report  # the scan reads the real text
    assert _found(log, forbidden, sides) == []
    assert _found(report, forbidden, sides) == []
    # a secret told, revealed or opened says what it was, not that the rules keep a value,
    # and names the piece it is about by its name
    secrets = re.compile(r"secret for|revealed:|opened at the end:|Revealed:")
    told = [line for line in (log + report).splitlines() if secrets.search(line)]
    assert not [line for line in told if "the referee's log names it" in line]
    pieces = _pieces_in_secrets(opened)
    assert not [(uid, line) for line in told for uid in pieces if re.search(rf"(?<![\w-]){uid}(?![\w-])", line)]


def _pieces_in_secrets(game: Game) -> set[str]:
    """The ids of the pieces a secret's key names (``secret.dies.abdi``) that have a name."""
    units = game.state.units
    keys = {line.event.key for line in game.log_lines() if isinstance(line.event, ev.SecretSet | ev.Opened)}
    return {k.rpartition(".")[2] for k in keys if k.rpartition(".")[2] in units} - {
        uid for uid, u in units.items() if u.name == uid
    }


def test_a_secret_the_ruleset_cannot_read_is_shown_as_it_is(tmp_path):
    # A hostile save's fire support that is not stage:source:turn: the log still reads.
    game = Game.new(tmp_path / "g.ft", "bassa-intensita", seed=1)
    said = game.describe(ev.SecretSet(key="secret.support.x", owner="referee", value="no colons"))
    assert said == "secret for referee: secret.support.x = no colons"
    game.close()
