"""Events as an English reader sees them: every field that holds words
(``core.language.i18n.Text``) given as its English sentence (``core.language.i18n.plain``), so a
test compares what a rule said, whatever form the event keeps it in."""

from __future__ import annotations

import msgspec

from core.language.i18n import Msg, plain
from core.log import events as ev

#: The event fields that hold words (core/log/events.py), by struct.
_TEXT = {
    ev.Moved: ("how",),
    ev.UnitOut: ("cause",),
    ev.DefeatPoints: ("reason",),
    ev.Noted: ("text",),
    ev.GameEnded: ("result",),
}


def english_roll(r: ev.Roll) -> ev.Roll:
    mods = tuple(msgspec.structs.replace(m, label=plain(m.label)) for m in r.mods)
    return msgspec.structs.replace(r, purpose=plain(r.purpose), outcome=plain(r.outcome), mods=mods)


def english(e: ev.Event) -> ev.Event:
    """``e`` with its words in English (an event without words comes back as it is)."""
    if isinstance(e, ev.Rolled):
        return msgspec.structs.replace(e, roll=english_roll(e.roll))
    fields = _TEXT.get(type(e), ())
    changed = {f: plain(getattr(e, f)) for f in fields if isinstance(getattr(e, f), Msg)}
    return msgspec.structs.replace(e, **changed) if changed else e
