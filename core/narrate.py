"""Events in plain words, one line each, for the log pane and ``fireteam log``."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from core import events as ev
from core.commitments import matches
from core.i18n import CORE_DOMAIN, Text, render
from core.state import Unit


def _signed(v: int) -> str:
    return f"+{v}" if v > 0 else str(v)


def possessive(name: str) -> str:
    """``Sgt Rossi`` → ``Sgt Rossi's``; ``regulars`` → ``regulars'``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def describe_mod(m: ev.Mod, domain: str = CORE_DOMAIN) -> str:
    """``cover -1``; a modifier that only notes something (its value 0) is its label alone."""
    label = render(m.label, domain)
    return f"{label} {_signed(m.value)}" if m.value else label


def describe_roll(r: ev.Roll, domain: str = CORE_DOMAIN) -> str:
    faces = " ".join(str(f) for f in r.faces)
    dice = f"{len(r.faces)}d{r.sides}"
    need = ""
    if r.target is not None:
        need = f" needing {r.target} or less" if r.under else f" needing {r.target}+"
        need += " total" if r.total else ""
    mods = ""
    if r.mods:
        mods = " (" + ", ".join(describe_mod(m, domain) for m in r.mods) + ")"
    total = f" = {sum(r.faces)}" if r.total and len(r.faces) > 1 else ""
    manual = " [table dice]" if r.manual else ""
    outcome = f" → {render(r.outcome, domain)}" if r.outcome else ""
    return f"{render(r.purpose, domain)}: {dice}{need}{mods}: {faces}{total}{outcome}{manual}"


def describe(
    e: ev.Event,
    units: Mapping[str, Unit] | None = None,
    describe_var: Callable[[str, int | str], str | None] | None = None,
    number: Callable[[int], int | None] | None = None,
    domain: str = CORE_DOMAIN,
) -> str:
    """``describe_var`` lets a ruleset put its own counters in words (None: the default);
    ``number`` gives the number a command is shown by (``core.numbering``; None: the file's);
    ``domain`` is the catalogue of the ruleset's words (``Ruleset.domain``)."""

    def words(text: Text) -> str:
        return render(text, domain)

    def shown(cmd: int) -> int | None:
        return cmd if number is None else number(cmd)

    def name(uid: str) -> str:
        if units and uid in units:
            return units[uid].name
        return uid

    match e:
        case ev.Issued():
            again = f"  (again after an undo: #{shown(e.carries)})" if e.carries else ""
            return f"» {e.by}: {e.text}{again}"
        case ev.Undone():
            return f"↶ {e.by} undid command #{shown(e.cmd)}"
        case ev.Redone():
            return f"↷ {e.by} redid command #{shown(e.cmd)}"
        case ev.GameSetUp():
            return f"Scenario {e.scenario}: " + " vs ".join(s.name for s in e.sides)
        case ev.UnitAdded():
            u = e.unit
            extra = f" {u.cls}" if u.cls else ""
            weapons = f" with {', '.join(u.weapons)}" if u.weapons else ""
            hidden = " (hidden)" if "hidden" in u.status else ""
            return f"{u.name} joins {u.side}{extra}{weapons}{hidden}"
        case ev.PhaseBegan():
            who = f", {e.active} active" if e.active else ""
            card = f", card {e.card}" if e.card else ""
            return f"Turn {e.turn}: {e.phase}{who}{card}"
        case ev.Rolled():
            owner = name(e.unit) if e.unit else e.side
            return (f"{possessive(owner)} " if owner else "") + describe_roll(e.roll, domain)
        case ev.Moved():
            how = f" ({words(e.how)})" if e.how else ""
            return f"{name(e.unit)} moves {e.cm} cm{how}"
        case ev.StatusChanged():
            parts = [f"now {s}" for s in e.add] + [f"no longer {s}" for s in e.remove]
            return f"{name(e.unit)} " + ", ".join(parts)
        case ev.MarkerPlaced():
            return f"{name(e.unit)} is under the marker {e.label}"
        case ev.Spotted():
            return f"{name(e.unit)} spotted by {e.by_side}"
        case ev.UnitOut():
            return f"{name(e.unit)} out of action: {words(e.cause)}"
        case ev.UnitBack():
            return f"{name(e.unit)} back in action"
        case ev.DefeatPoints():
            return f"{e.side} scores {e.points} defeat points: {words(e.reason)}"
        case ev.SecretSet():
            return f"secret for {e.owner}: {e.key} = {e.value}"
        case ev.Revealed():
            shown = f"revealed: {e.key} = {e.value}" if e.value else f"revealed: {e.key}"
            return shown + _proof(e) if e.salt else shown
        case ev.Opened():
            return f"opened at the end: {e.key} = {e.value}{_proof(e)}"
        case ev.Committed():
            return f"commitment to a secret of {e.owner}: {e.digest[:16]}"
        case ev.VarSet():
            words = describe_var(e.key, e.value) if describe_var is not None else None
            return words or f"{e.key} = {e.value}"
        case ev.Noted():
            return f"note: {words(e.text)}"
        case ev.ScenarioRead():
            return f"scenario file {e.file} recorded ({len(e.text)} characters)"
        case ev.GameEnded():
            return f"Game over: {words(e.result)}"
    return type(e).__name__


def _proof(e: ev.Revealed | ev.Opened) -> str:
    if matches(e):
        return f" (matches its commitment {e.digest[:16]})"
    return f" (DOES NOT MATCH its commitment {e.digest[:16]})"
