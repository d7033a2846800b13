"""``fireteam verify SAVE --side-copy COPY``: a side's copy held against the full save.

A side's copy proves less alone than the full save (``core.secrets.verify``): it lacks
what the side did not see, so what its rolls decided cannot be played again.  Once the
game is over and the full save re-derives, the side's copy binds it: the save, exported
as the copy's role (``core.secrets.sidecopy.export``, which is deterministic: the same
save gives the same copy, byte for byte), must give every event of the copy at the
same step, and nothing the copy lacks.  A fact of the copy changed, added, dropped or
moved is named by its step; so is a save rewritten after the side kept its copy.

A copy kept during the game (a seat's ``copy``: docs/ssh.md) holds the steps the side had
seen then: it must be the first steps of what the save gives the side now, ending where a
command ended, and each set-up it saw (``SideCopy.seen``) at the step the save gives it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from core.game import Game
from core.language.i18n import _
from core.secrets import shown
from core.secrets.rederive import brief
from core.secrets.sidecopy import SideCopy, command_starts, export, looks_like_side_copy, read
from core.storage.errors import SaveError

#: The differing steps named one by one; past them, only counted (an event added early
#: moves every later one, which would otherwise print the whole game).
MAX_NAMED = 10


@dataclass
class Compared:
    """A side's copy against the full save: the steps at which they differ, in words."""

    copy: Path
    role: str = ""
    events: int = 0
    #: The steps the save gives this side, where the copy was kept before the last of them
    #: (a live seat's copy, a proper first part of the save's); 0 for a copy as long as the save's.
    kept_of: int = 0
    differs: list[str] = field(default_factory=list)
    #: Differing steps past ``MAX_NAMED``, counted only.
    more: int = 0

    @property
    def ok(self) -> bool:
        return not self.differs

    def report(self) -> list[str]:
        lines = list(self.differs)
        if self.more:
            lines.append(_("… and {n} more steps differ").format(n=self.more))
        if self.ok and self.kept_of:
            said = _(
                "the copy was kept at step {step} of the {steps} the save gives this side now: "
                "each is in the save at its step"
            )
            verdict = said.format(step=self.events, steps=self.kept_of)
        elif self.ok:
            verdict = _("each is in the save at its step, and the save gives this side nothing more")
        else:
            verdict = _("{n} differ from the save").format(n=len(self.differs) + self.more)
        said = _("side's copy {copy} ({role}): {n} events checked against the save: {verdict}")
        return [*lines, said.format(copy=self.copy, role=shown(self.role), n=self.events, verdict=verdict)]

    def as_json(self) -> dict:
        return {
            "file": str(self.copy),
            "role": self.role,
            "events": self.events,
            "kept_of": self.kept_of,
            "differ": self.differs,
            "more": self.more,
        }


def compare(game: Game, copy_path: Path) -> Compared:
    """``copy_path`` (a side's copy, read as hostile input) against ``game``, a full save."""
    if copy_path.exists() and not looks_like_side_copy(copy_path):  # (a missing one: ``read`` says so)
        said = _("{path}: not a side's copy of a game (give the full save first, the copy after {option})")
        raise SaveError(said.format(path=copy_path, option="--side-copy"))
    copy = read(copy_path)
    result = Compared(copy_path, copy.role, len(copy.events))
    mine = export(game, copy.role)  # (a role the game lacks sees nothing but the public facts)
    if copy.header != mine.header:
        said = _("the copy's header {was} is not this save's {now}: the copy of another game")
        _differ(result, said.format(was=_json(copy.header), now=_json(mine.header)))
        return result  # (its events, step by step, would only say so again)
    if copy.steps < mine.steps and copy.steps + 1 in command_starts(game, copy.role):
        # Kept before the save's end, where a command ended: the save's first steps must be the copy.
        kept = msgspec.structs.replace(
            mine,
            steps=copy.steps,
            events=[(step, e) for step, e in mine.events if step <= copy.steps],
            seen=[(step, e) for step, e in mine.seen if step <= copy.steps],
        )
        result.kept_of = mine.steps
        _events(result, copy, kept)
        return result
    if copy.steps != mine.steps:
        said = _("the copy counts {was} steps, the save gives this side {now}")
        _differ(result, said.format(was=copy.steps, now=mine.steps))
    _events(result, copy, mine)
    return result


def _events(result: Compared, copy: SideCopy, mine: SideCopy) -> None:
    for what, theirs, ours in (
        (_("the event"), copy.events, mine.events),
        (_("the set-up seen"), copy.seen, mine.seen),
    ):
        for k in range(max(len(theirs), len(ours))):
            was = theirs[k] if k < len(theirs) else None
            now = ours[k] if k < len(ours) else None
            if was is not None and now is not None and was[0] == now[0] and _json(was[1]) == _json(now[1]):
                continue
            if was is None:
                assert now is not None
                said = _("step {step}: the save gives this side {what} {now}, which the copy lacks")
                _differ(result, said.format(step=now[0], what=what, now=brief(now[1])))
            elif now is None:
                said = _("step {step}: the copy holds {what} {was}, which the save does not give this side")
                _differ(result, said.format(step=was[0], what=what, was=brief(was[1])))
            elif _json(was[1]) == _json(now[1]):
                # The same fact at another step: said whole (only its step differs).
                said = _("step {step}: the copy holds {what} {was} here; the save gives it to this side at step {at}")
                _differ(result, said.format(step=was[0], what=what, was=brief(was[1]), at=now[0]))
            else:
                said = _("step {step}: the copy holds {what} {was}, the save gives this side {now} at step {at}")
                line = said.format(
                    step=was[0], what=what, was=brief(was[1], now[1]), now=brief(now[1], was[1]), at=now[0]
                )
                _differ(result, line)


def _differ(result: Compared, line: str) -> None:
    if len(result.differs) < MAX_NAMED:
        result.differs.append(shown(line))
    else:
        result.more += 1


def _json(value: object) -> str:
    return msgspec.json.encode(value).decode()
