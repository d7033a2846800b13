"""Breaking News bookkeeping (``VarSet``, keys listed in ``ledger.py``) in plain words.

The log shows every event; these phrases keep the ruleset's counters readable
instead of ``key = value``.  Keys with no phrase fall back to that form.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from core.ruleset import possessive
from core.rulesets.breaking_news.tables import extras

Phrase = Callable[[re.Match[str], int | str], str | None]


def _extra_name(extra_id: str) -> str:
    if extra_id == "motivation_platoon":
        return "Motivation at the platoon's price"
    extra = extras().get(extra_id)
    return extra.name if extra else extra_id.replace("_", " ")


def _bought(m: re.Match[str], value: int | str) -> str:
    name = _extra_name(m["id"])
    level = f" (level {value})" if isinstance(value, int) and value > 1 else ""
    return f"{m['side']} bought {name}{level}" if value else f"{m['side']} no longer has {name}"


def _struck(m: re.Match[str], value: int | str) -> str:
    action, _, ids = str(value).partition(":")
    return f"hit by action {action}, may still answer it: {ids.replace(',', ', ')}"


def _covering(m: re.Match[str], value: int | str) -> str:
    areas = [part.replace("=", " worth ") for part in str(value).split(";") if part]
    return "under covering fire: " + ", ".join(areas) if areas else "no covering fire"


_PHRASES: tuple[tuple[str, Phrase], ...] = (
    (r"mission", lambda m, v: f"mission type {v}"),
    (r"turns", lambda m, v: f"the game lasts {v} turns" if v else "no turn limit"),
    (r"points", lambda m, v: f"armies of {v} points"),
    (r"points\.(?P<side>[^.]+)", lambda m, v: f"{m['side']} built to {v} points"),
    (r"force\.(?P<side>[^.]+)", lambda m, v: f"{m['side']} field a {v} force"),
    (r"extra\.(?P<side>[^.]+)\.(?P<id>.+)", _bought),
    (r"platoon\.(?P<side>[^.]+)", lambda m, v: f"{m['side']} play as a platoon" if v else None),
    (r"first_player", lambda m, v: f"{v} is the first player"),
    (r"second_player", lambda m, v: f"{v} is the second player"),
    (r"deploy\.stage", lambda m, v: f"deployment step {v}"),
    (r"first_fire", lambda m, v: f"{v} fired first"),
    (r"first_fire\.scored", lambda m, v: "first fire scored"),
    (r"action", lambda m, v: f"action {v} of this activation"),
    (r"morale\.(?P<side>[^.]+)\.tested", lambda m, v: f"{m['side']} tested morale in turn {v}"),
    (r"morale\.(?P<side>[^.]+)\.failed", lambda m, v: f"{m['side']} failed morale in turn {v}"),
    (r"motivation\.(?P<side>[^.]+)\.used", lambda m, v: f"{m['side']} used their Motivation"),
    (r"negotiation\.(?P<side>[^.]+)", lambda m, v: f"{possessive(m['side'])} negotiation: {v}"),
    (r"civilians\.control", lambda m, v: f"{v} moves the civilians this turn"),
    (r"civilians\.turn", lambda m, v: f"civilians' control rolled for turn {v}"),
    (r"helicopter\.(?P<side>[^.]+)", lambda m, v: f"{possessive(m['side'])} helicopter: {v}"),
    (
        r"ambush\.(?P<side>[^.]+)",
        lambda m, v: (
            f"{m['side']} get +1 to the next initiative (ambush)" if v else f"{possessive(m['side'])} ambush bonus used"
        ),
    ),
    (r"ied\.(?P<side>[^.]+)\.(?P<n>\d+)", lambda m, v: f"{possessive(m['side'])} IED {m['n']}: {v}"),
    (r"ambush_used\.(?P<side>[^.]+)", lambda m, v: f"{m['side']} have sprung their ambush"),
    (r"intelligence\.(?P<side>[^.]+)", lambda m, v: f"{m['side']} used Intelligence"),
    (r"taken\.(?P<owner>[^.]+)\.(?P<n>\d+)", lambda m, v: f"{v} took {possessive(m['owner'])} marker {m['n']}"),
    (r"activating\.(?P<side>[^.]+)", lambda m, v: f"{m['side']} activate squad {v}" if v else None),
    (r"activated\.(?P<side>[^.]+)\.(?P<squad>.+)", lambda m, v: f"{m['side']} squad {m['squad']} has acted"),
    (
        r"initiative_penalty\.(?P<side>[^.]+)",
        lambda m, v: (
            f"{possessive(m['side'])} initiative penalty is now -{v}"
            if v
            else f"{possessive(m['side'])} initiative penalty is gone"
        ),
    ),
    (r"option\.(?P<name>.+)", lambda m, v: f"optional rule {m['name']}: {'on' if v else 'off'}"),
    (r"mortar-ready\.(?P<side>[^.]+)", lambda m, v: f"{possessive(m['side'])} mortar is ready"),
    (r"mortar-fired\.(?P<side>[^.]+)", lambda m, v: f"{possessive(m['side'])} mortar has fired"),
    (r"mortar-silenced\.(?P<side>[^.]+)", lambda m, v: f"{possessive(m['side'])} mortar is silenced"),
    (r"game_over", lambda m, v: f"the game is over: {v}"),
    (r"struck", _struck),
    (r"covering", _covering),
    (r"secret\.lost\.(?P<unit>.+)", lambda m, v: f"{possessive(m['unit'])} loss counted in turn {v}"),
    (r"secret\.aboard\.(?P<unit>.+)", lambda m, v: f"{m['unit']} aboard {v}" if v else f"{m['unit']} on foot"),
    (
        r"secret\.wound\.(?P<unit>.+)",
        # 0: stabilised, carried off or dead of it: no turn is counted down any more
        lambda m, v: (
            f"{possessive(m['unit'])} wound is fatal in turn {v}"
            if v
            else f"{possessive(m['unit'])} wound no longer counts down"
        ),
    ),
    (r"secret\.reacted\.(?P<unit>.+)", lambda m, v: f"{m['unit']} has reacted to action {v}"),
    (r"secret\.civilian\.(?P<unit>.+)", lambda m, v: f"{m['unit']} scored as a civilian hit"),
)
_COMPILED = tuple((re.compile(pattern), phrase) for pattern, phrase in _PHRASES)


def describe_var(key: str, value: int | str) -> str | None:
    for pattern, phrase in _COMPILED:
        m = pattern.fullmatch(key)
        if m:
            return phrase(m, value)
    return None
