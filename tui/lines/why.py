"""``why`` and ``? COMMAND`` in words (issue #76), for every door: the line client and the
plain seat say these lines, the Textual client shows them.

``why`` after a refusal names the rule that refused it; after a roll, or ``why N`` for
step N of the reader's log, it gives the numbers the engine used (the base, each
modifier, the face needed, the chance before the roll) and the rules the roll names:
each with its title and note as the rules map words them (in the reader's language where
the map has them so, else in English, said to be so), its status in the map and the ruling
taken.  A step is read from the lines the reader's log holds (``Game.log_lines``):
a roll hidden from him is not among them, and nothing of it is said.

``? COMMAND`` says what the command would need and do, face by face, without giving it
(``core.explain.ahead``); refused as giving it would be.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from core.explain.ahead import ahead, roll_said
from core.explain.rulesask import also, stated, statement
from core.explain.rulesmap import STATUSES, Entry, cited
from core.explain.why import reasons, roll_rules
from core.game import Game, LogLine
from core.language.reader import SOURCE, lang
from core.log import events as ev
from core.log.narrate import describe_mod
from core.refusal import TYPING, Refused
from tui import odds as chances
from tui.i18n import N_, _
from tui.lines.answers import stopped

#: The most faces' outcomes ``?`` lists one by one (the rest are said as their odds).
SHOWN_OUTCOMES = 12
#: The section of the engine's own rules (``core/explain/engine_rules.toml``), said in the reader's language.
ENGINE_SECTION = N_("Engine")


def rule_lines(game: Game, ids: Iterable[str]) -> list[str]:
    """The rules of ``ids`` as ``rule?`` says them (``core.explain.rulesask``): the first in a
    sentence or two, what it says in the reader's language then its id, name and status; the
    others by name only, in one line (what each says is ``rule? ID``'s).  A rule with no statement
    in that language (a plugin's map) by its title, section and status, what the map notes of it
    and the ruling taken, in the reader's language where the map has them in it, else in
    English, said to be so."""
    found = reasons(game.ruleset, ids)
    rules = [r for r in found if r is not None]
    out = [_("No rule refuses it: the line is mistyped or misused (a typing error).")] if None in found else []
    if not rules:
        return out
    first = rules[0]
    return out + [stated(first) if statement(first) else _unstated(first), *also(rules[1:])]


def _unstated(r: Entry) -> str:
    english = lang() == SOURCE
    status = _(STATUSES.get(r.status, r.status))
    named = r.title.rstrip(".…") if english or not r.title_it else r.title_it.rstrip(".…")
    if not english and not r.title_it:
        # TRANSLATORS: a rule's title the rules map gives in English only, at a seat in another language
        named = _("{title} (in English)").format(title=named)
    section = _(ENGINE_SECTION) if r.section == ENGINE_SECTION else r.section
    said = _("Rule {id} ({section}, {status}): {title}.").format(id=r.id, section=section, status=status, title=named)
    if r.why and (english or r.why_it):
        said += " " + _("Fireteam: {note}.").format(note=(r.why if english else r.why_it).rstrip("."))
    elif r.why:
        # TRANSLATORS: what the rules map notes of a rule, which it gives in English only
        said += " " + _("Fireteam, in English: {note}.").format(note=r.why.rstrip("."))
    if r.ruling:
        said += " " + _("Ruling {ruling} (docs/rulings.md).").format(ruling=r.ruling)
    return said


def why_refused(game: Game, why: str, rules: Sequence[str]) -> list[str]:
    """``why`` after a refusal: what it said, then the rule that refused it."""
    out = [_("Refused: {why}").format(why=stopped(why))]  # (a "did you mean …?" keeps its own mark)
    return out + (rule_lines(game, rules) or [_("This refusal names no rule yet.")])


def why_roll(game: Game, rolled: ev.Rolled, role: str) -> list[str]:
    """A roll as ``role``'s log says it (who rolled what, what it needed and came to), its chance
    before the roll, what its first rule says, then that rule's name, how the engine got there (the
    book's number and each modifier with its section) and its other rules by name: the answer
    first, its working after, as a plain seat cuts it to be heard in under 30 s (``tui.lines.heard``).  The
    need is said once: the book's number and the modifiers are left out of the roll's line where
    they are said after it (heard twice, they took 2.5 s), and the chance is said alone."""
    domain, roll = game.ruleset.domain, rolled.roll
    rules = rule_lines(game, roll_rules(game.ruleset, roll))
    rules = rules or [_("The roll names no rule of the map ({rule}).").format(rule=roll.rule or "-")]
    out = [game.describe(_unworked(rolled), role)]
    chance = chances.chance_alone(roll)
    if chance:
        out.append(_("Before the roll: {chance}.").format(chance=chance))
    out.append(rules[0])
    base = chances.base(roll)
    if base is not None:
        under = bool(getattr(roll.check, "under", False))
        said = _("{target} or less").format(target=base) if under else f"{base}+"
        out.append(_("The book's number before the modifiers: {base}.").format(base=said))
    for m in roll.mods:
        out.append(_("Modifier: {mod}.").format(mod=describe_mod(m, domain) + (f" ({m.rule})" if m.rule else "")))
    return out + rules[1:]


def _unworked(rolled: ev.Rolled) -> ev.Rolled:
    """``rolled`` without the book's number and the modifiers that moved its need (``why_roll``
    says them after it); a score's modifiers, part of the total it shows, are kept."""
    roll = rolled.roll
    if roll.target is None or not (roll.mods or getattr(roll.check, "base", None) is not None):
        return rolled
    check = roll.check
    if check is not None and getattr(check, "base", None) is not None:
        check = msgspec.structs.replace(check, base=None)
    return msgspec.structs.replace(rolled, roll=msgspec.structs.replace(roll, mods=(), check=check))


def why_step(game: Game, role: str, number: int) -> list[str]:
    """``why N``: step N of ``role``'s log, its command and each of its rolls ``role`` may see."""
    lines = [
        line
        for line in game.log_lines(role)
        if line.number == number and not isinstance(line.event, ev.Undone | ev.Redone)
    ]
    if not lines:
        raise Refused(_("no step {n} in your log").format(n=number), rule=TYPING)
    return _explained(game, role, lines)


def why_last_roll(game: Game, role: str, recent: list[LogLine]) -> list[str]:
    """``why`` after a roll: the last roll in play ``role`` may see (``recent``, newest last)."""
    rolls = [r for r in recent if not r.undone and isinstance(r.event, ev.Rolled)]
    if not rolls:
        raise Refused(_("nothing to explain yet: no refusal and no roll in play"), rule=TYPING)
    roll = rolls[-1].event
    assert isinstance(roll, ev.Rolled)
    return why_roll(game, roll, role)


def _explained(game: Game, role: str, lines: list[LogLine]) -> list[str]:
    out: list[str] = []
    for line in lines:
        e = line.event
        if isinstance(e, ev.Issued) and e.text:
            out.append(_("Step {n}: {command}.").format(n=line.number, command=game.localize(e.text)))
            spec_rules = _spec_rules(game, e.text, line)
            out += rule_lines(game, spec_rules)
        elif isinstance(e, ev.Rolled):
            out += why_roll(game, e, role)
    return out


def _spec_rules(game: Game, text: str, line: LogLine) -> tuple[str, ...]:
    verb = text.split(maxsplit=1)[0] if text.split() else ""
    spec = next((s for s in game.commands if verb in (s.name, *s.aliases)), None)
    return cited(game.ruleset.rules_map(), spec.rule) if spec is not None and spec.rule else ()


def ask(game: Game, role: str, text: str) -> list[str]:
    """``? COMMAND``: what it would need and do, nothing given; refused as giving it would be.
    The roll it would need and its chance first, then what its first rule says, what each face
    would do, and its other rules."""
    if not text.strip():
        raise Refused(_("? COMMAND: a command to ask before giving it, e.g. ? fire rossi ahmed range=30"), rule=TYPING)
    said = ahead(game, text.strip(), role)
    rules = rule_lines(game, said.rules)
    out: list[str] = []
    if said.roll is None:
        out.append(_("It rolls no dice now; it would record:"))
        return out + (list(said.lines) or [_("nothing")]) + rules
    out.append(_("It would roll first: {roll}.").format(roll=roll_said(said.roll)))  # (the command: just typed)
    chance = said.roll.chance() or said.roll.chance_text()  # (its need just said; an opposed roll, in full)
    if chance:
        out.append(_("Before the roll: {chance}.").format(chance=chance))
    out += rules[:1]
    every = said.roll.sides**said.roll.count
    for o in said.outcomes[:SHOWN_OUTCOMES]:
        faces = ", ".join(" ".join(str(f) for f in combo) for combo in o.faces)
        if len(o.faces) == every:  # every face does the same: no list of them all
            faces = _("any roll")
        does = o.refused and _("refused: {why}").format(why=o.refused)
        does = does or "; ".join(x for x in (o.outcome, *o.lines) if x)
        if o.then:
            does = (does + "; " if does else "") + _("then {roll}").format(roll=o.then)
        out.append(_("On {faces}: {does}.").format(faces=faces, does=does or _("nothing more")))
    if len(said.outcomes) > SHOWN_OUTCOMES or (said.outcomes == () and said.roll.count):
        out.append(_("(More faces than are listed one by one: the odds above say them.)"))
    return out + rules[1:]
