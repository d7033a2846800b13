"""Breaking News bookkeeping (``VarSet``, keys listed in ``ledger.py``) in plain words.

The log shows every event; these phrases keep the ruleset's counters readable
instead of ``key = value``.  Keys with no phrase fall back to that form.  Each
phrase is a message of the ``breaking_news`` catalogue, rendered for the reader.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache

from core.language.i18n import N_, M, Msg, piece_name
from core.rulesets.breaking_news.words import DOMAIN, listing, whose

#: A phrase is given the key's named parts (``side``, ``unit``…) as its pattern matched them, and its value.
Phrase = Callable[[Mapping[str, str], int | str], Msg | None]

#: The words a key holds as its value (negotiation.py, extras.py, commands/support.py).
_VALUES = {
    "running": N_("running"),
    "broken": N_("broken"),
    "ended": N_("ended"),
    "landed": N_("landed"),
    "gone": N_("gone"),
    "spent": N_("spent"),
    # an IED's kind (Extras: Explosives), the value of its secret
    "proximity": N_("proximity"),
    "remote": N_("remote-controlled"),
}


def _value(value: int | str) -> Msg | str:
    return M(_VALUES[value]) if isinstance(value, str) and value in _VALUES else str(value)


def _extra_name(extra_id: str) -> Msg:
    if extra_id == "motivation_platoon":
        return M("Motivation at the platoon's price")
    if extra_id == "negotiation":  # its levels have a table of their own
        return M("Negotiation")
    from core.rulesets.breaking_news.tables import extras  # (read to name an extra: no start's log pane does)

    extra = extras().get(extra_id)
    return M(extra.name) if extra else M("{extra}", extra=extra_id.replace("_", " "))


def _action(m: Mapping[str, str], value: int | str) -> Msg:
    """``N:TURN:ids:K`` (hits.next_action): K, the number within the activation; an older
    save's holds only N, counted all game long."""
    parts = str(value).split(":")
    n = parts[3] if len(parts) > 3 else parts[0]
    return M("action {n} of this activation", n=int(n) if n.isdigit() else 0)


def _bought(m: Mapping[str, str], value: int | str) -> Msg:
    name = _extra_name(m["id"])
    if not value:
        return M("{side} no longer has {extra}", side=m["side"], extra=name)
    if isinstance(value, int) and value > 1:
        return M("{side} bought {extra} (level {level})", side=m["side"], extra=name, level=value)
    return M("{side} bought {extra}", side=m["side"], extra=name)


def _marker(m: Mapping[str, str], value: int | str) -> Msg | None:
    whose_marker = whose(m["side"])
    if value == "main":
        return M("{whose} marker {n} is the main objective (§4.1)", whose=whose_marker, n=m["n"])
    if value == "secondary":
        return M("{whose} marker {n} is a secondary objective (§4.1)", whose=whose_marker, n=m["n"])
    if value == "fake":
        return M("{whose} marker {n} is a fake (§4.1)", whose=whose_marker, n=m["n"])
    return None


def _struck(m: Mapping[str, str], value: int | str) -> Msg:
    """``N:ids:K`` (reactions.record_struck): the action numbered K, as the line before it
    said ("action 1 of this activation", not 3, its number all game long); an older save's
    holds only N."""
    action, _, rest = str(value).partition(":")
    ids, _, within = rest.partition(":")
    action = within or action
    units = ", ".join(piece_name(uid) for uid in ids.split(",") if uid)
    return M("hit by action {action}, may still answer it: {units}", action=action, units=units)


def _reacted(m: Mapping[str, str], value: int | str) -> Msg:
    """``N:K`` (reactions.mark_reacted): the action numbered K, as the line that numbered it said
    ("action 1 of this activation"); an older save's holds only N, counted all game long."""
    action, _, within = str(value).partition(":")
    n = within or action
    return M("{unit} has reacted to action {n}", unit=m["unit"], n=int(n) if n.isdigit() else 0)


def _covering(m: Mapping[str, str], value: int | str) -> Msg:
    areas = [part.partition("=") for part in str(value).split(";") if part]
    if not areas:
        return M("no covering fire")
    worth = [M("{area} worth {value}", area=area, value=v) for area, _, v in areas]
    return M("under covering fire: {areas}", areas=listing(worth))


def _game_over(m: Mapping[str, str], value: int | str) -> Msg:
    """``game_over`` holds why (victory.py): an id and its side or turn, or the
    referee's own words, shown as he typed them."""
    why, _, arg = str(value).partition(":")
    if why == "last-turn" and arg:
        reason = M("turn {turn}, the scenario's last, is over", turn=arg)
    elif why == "morale" and arg:
        reason = M(
            "{side} failed morale with more defeat points than the enemy (§12.0); "
            "figures within 10 cm of an enemy are captured: record them with capture",
            side=arg,
        )
    elif why == "exfiltration" and arg:
        reason = M("{side} left the field (§14.0)", side=arg)
    elif why == "broken" and "," in arg:
        reason = M("both sides reached the scenario's break point")
    elif why == "broken" and arg:
        reason = M("{side} reached the scenario's break point", side=arg)
    elif why == "referee" and not arg:
        reason = M("the referee ends the game")
    else:
        return M("the game is over: {reason}", reason=str(value))
    return M("the game is over: {reason}", reason=reason)


def _penalty(m: Mapping[str, str], v: int | str) -> Msg:
    if v:
        return M("{whose} initiative penalty is now -{n}", whose=whose(m["side"]), n=v)
    return M("{whose} initiative penalty is gone", whose=whose(m["side"]))


_PHRASES: tuple[tuple[str, Phrase], ...] = (
    (r"mission", lambda m, v: M("mission type {n}", n=v)),
    (r"turns", lambda m, v: M("the game lasts {n} turns", n=v) if v else M("no turn limit")),
    (r"points", lambda m, v: M("armies of {n} points", n=v)),
    (r"points\.(?P<side>[^.]+)", lambda m, v: M("{side} built to {n} points", side=m["side"], n=v)),
    (r"force\.(?P<side>[^.]+)", lambda m, v: M("{side} field a {force} force", side=m["side"], force=v)),
    (r"extra\.(?P<side>[^.]+)\.(?P<id>.+)", _bought),
    (r"platoon\.(?P<side>[^.]+)", lambda m, v: M("{side} play as a platoon", side=m["side"]) if v else None),
    (r"first_player", lambda m, v: M("{side} is the first player", side=v)),
    (r"second_player", lambda m, v: M("{side} is the second player", side=v)),
    (r"deploy\.stage", lambda m, v: M("deployment step {n}", n=v)),
    (r"first_fire", lambda m, v: M("{side} fired first", side=v)),
    (r"first_fire\.scored", lambda m, v: M("first fire scored")),
    (r"action", _action),
    (
        r"morale\.(?P<side>[^.]+)\.tested",
        lambda m, v: M("{side} tested morale in turn {turn}", side=m["side"], turn=v),
    ),
    (
        r"morale\.(?P<side>[^.]+)\.failed",
        lambda m, v: M("{side} failed morale in turn {turn}", side=m["side"], turn=v),
    ),
    (r"motivation\.(?P<side>[^.]+)\.used", lambda m, v: M("{side} used their Motivation", side=m["side"])),
    (
        r"negotiation\.(?P<side>[^.]+)",
        lambda m, v: M("{whose} negotiation: {state}", whose=whose(m["side"]), state=_value(v)),
    ),
    (r"civilians\.control", lambda m, v: M("{side} moves the civilians this turn", side=v)),
    (r"civilians\.turn", lambda m, v: M("civilians' control rolled for turn {turn}", turn=v)),
    (
        r"helicopter\.(?P<side>[^.]+)",
        lambda m, v: M("{whose} helicopter: {state}", whose=whose(m["side"]), state=_value(v)),
    ),
    (
        r"ambush\.(?P<side>[^.]+)",
        lambda m, v: (
            M("{side} get +1 to the next initiative (ambush)", side=m["side"])
            if v
            else M("{whose} ambush bonus used", whose=whose(m["side"]))
        ),
    ),
    (
        r"ied\.(?P<side>[^.]+)\.(?P<n>\d+)",
        lambda m, v: M("{whose} IED {n}: {state}", whose=whose(m["side"]), n=m["n"], state=_value(v)),
    ),
    # §4.1: a defending side's five markers, one main, two secondary, two fakes; what a
    # marker was, in its owner's secret, its reveal and the end's opening alike
    (r"marker\.(?P<side>[^.]+)\.(?P<n>\d+)", _marker),
    # §4.1 (mission 2): the Irregular player's secret die, its face
    (r"objective\.die", lambda m, v: M("the secret objective die shows {face} (§4.1)", face=v)),
    (r"ambush_used\.(?P<side>[^.]+)", lambda m, v: M("{side} have sprung their ambush", side=m["side"])),
    (r"intelligence\.(?P<side>[^.]+)", lambda m, v: M("{side} used Intelligence", side=m["side"])),
    (
        r"taken\.(?P<owner>[^.]+)\.(?P<n>\d+)",
        lambda m, v: M("{side} took {whose} marker {n}", side=v, whose=whose(m["owner"]), n=m["n"]),
    ),
    (
        r"activating\.(?P<side>[^.]+)",
        lambda m, v: M("{side} activate squad {squad}", side=m["side"], squad=v) if v else None,
    ),
    (
        r"activated\.(?P<side>[^.]+)\.(?P<squad>.+)",
        lambda m, v: M("{side} squad {squad} has acted", side=m["side"], squad=m["squad"]),
    ),
    (r"initiative_penalty\.(?P<side>[^.]+)", _penalty),
    (
        r"option\.(?P<name>.+)",
        lambda m, v: M("optional rule {name}: {state}", name=m["name"], state=M("on") if v else M("off")),
    ),
    (r"mortar-ready\.(?P<side>[^.]+)", lambda m, v: M("{whose} mortar is ready", whose=whose(m["side"]))),
    (r"mortar-fired\.(?P<side>[^.]+)", lambda m, v: M("{whose} mortar has fired", whose=whose(m["side"]))),
    (r"mortar-silenced\.(?P<side>[^.]+)", lambda m, v: M("{whose} mortar is silenced", whose=whose(m["side"]))),
    (r"game_over", _game_over),
    (r"struck", _struck),
    (r"covering", _covering),
    (
        r"secret\.lost\.(?P<unit>.+)",
        lambda m, v: M("{whose} loss counted in turn {turn}", whose=whose(m["unit"]), turn=v),
    ),
    (
        r"secret\.aboard\.(?P<unit>.+)",
        lambda m, v: (
            M("{unit} aboard {vehicle}", unit=m["unit"], vehicle=v) if v else M("{unit} on foot", unit=m["unit"])
        ),
    ),
    (
        r"secret\.wound\.(?P<unit>.+)",
        # 0: stabilised, carried off or dead of it: no turn is counted down any more
        lambda m, v: (
            M("{whose} wound is fatal in turn {turn}", whose=whose(m["unit"]), turn=v)
            if v
            else M("{whose} wound no longer counts down", whose=whose(m["unit"]))
        ),
    ),
    (r"secret\.reacted\.(?P<unit>.+)", _reacted),
    (r"secret\.civilian\.(?P<unit>.+)", lambda m, v: M("{unit} scored as a civilian hit", unit=m["unit"])),
)


def literal_head(pattern: str) -> str:
    """What every key ``pattern`` matches starts with: its text before its first group
    (each pattern starts with a literal: letters, digits, ``_``, ``-`` and ``\\.``)."""
    return pattern.partition("(")[0].replace("\\.", ".")


#: Each phrase's pattern with its literal head, and None for a pattern that is its head alone
#: (``mission``, ``deploy\.stage``): a pattern is compiled only once a key starts with its
#: head, and a literal one never (a log shows a handful of the 42 kinds of key: compiling
#: all of them was 1.5-2.4 ms of a client's start; the literal ones a demo's log shows, 0.2).
_HEADED = tuple((literal_head(pattern), pattern if "(" in pattern else None, phrase) for pattern, phrase in _PHRASES)


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def describe_var(key: str, value: int | str) -> str | None:
    """``key = value`` in the reader's language; None where there is no phrase."""
    found = _phrase(key)
    words = found[0](found[1], value) if found is not None else None
    return None if words is None else DOMAIN.render(words)


def says_var(key: str, value: int | str) -> bool:
    """Whether :func:`describe_var` has words for ``key = value``, told without writing them: an
    extra bought always has, and its name is read from the extras table only to be shown."""
    found = _phrase(key)
    return found is not None and (found[0] is _bought or found[0](found[1], value) is not None)


def _phrase(key: str) -> tuple[Phrase, Mapping[str, str]] | None:
    """The phrase for ``key``, and the key's named parts as its pattern matched them."""
    for head, pattern, phrase in _HEADED:
        if pattern is None:
            if key == head:
                return phrase, {}
        elif key.startswith(head) and (m := _compiled(pattern).fullmatch(key)):
            return phrase, m.groupdict()
    return None
