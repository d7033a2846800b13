"""The dice in sentences: a roll asked of the table's dice, a command's question, the dice pane
(``dice``), and ``odds``."""

from __future__ import annotations

import msgspec

from core.dice.faces import DiceRequest
from core.game import Game, LogLine
from core.language.i18n import Domain
from core.log import events as ev
from core.log.narrate import describe_mod, whose
from core.log.questions import Question
from core.log.state import GameState
from core.ruleset import Refused
from tui import odds as chances
from tui.i18n import _, ngettext, percentage, scenario_words
from tui.lines.answers.words import sentence, stopped
from tui.lines.ink import Line, inked, outcome_kind, prefixed
from tui.lines.spoken import spoken_outcome
from tui.viewpoint import Viewpoint

#: Rolls ``dice`` names after the last one.
EARLIER_ROLLS = 5


def narrowed(request: DiceRequest, applying: tuple[str, ...]) -> DiceRequest:
    """``request`` with its command's dice narrowed to the steps that apply (``Ruleset.dice_that_apply``),
    its step counted among them; the step rolled now is kept whatever the ruleset said of it."""
    at = request.current()
    rolled = request.order[at] if at is not None else None
    order = tuple(step for step in request.order if step in applying or step == rolled)
    return msgspec.structs.replace(request, order=order, step=None if rolled is None else order.index(rolled))


def table_dice(request: DiceRequest, *, first: bool, verbose: bool, held: bool = False) -> list[Line]:
    """A roll asked of the table's dice.  Brief: one sentence, whose roll, what for, what it
    needs and its chance, as a radio call (the prompt says what to type: the whole answer to a
    fire was 77 s aloud, the command's order of dice 30 s of a ``next``); not the modifiers
    that make the need ("(base 5+, team leader +1)": 3.4 s of an Italian save's question).  ``verbose`` (or
    ``help`` at the prompt): the chance in full and, read off a table, what each face means
    (before the roll); on a command's ``first`` roll its dice in order; and which of them this
    roll is, every time (a referee typing a long fire sequence keeps his place by it).
    ``held``: asked of this seat for another's command, so first the roll it answers, as a
    result says it ("1 hit, Pte Conti."): a defender heard of his save before the hit."""
    before = answering(request) if held else ""
    if not verbose:
        chance = request.chance()
        # TRANSLATORS: a roll asked of the table's dice, then its chance:
        # "Ahmed Noor's save: 1d6, needs 5+; chance 33.3%"
        roll = request.text(mods=False)
        said = _("{roll}; chance {chance}").format(roll=roll, chance=chance) if chance else roll
        return [before + sentence(said)]
    out: list[Line] = [before + _("Table dice: {roll}.").format(roll=request.text())]
    chance = request.chance_text()
    if chance:
        out.append(sentence(_("Chance before the roll: {chance}").format(chance=chance)))
    meanings = request.meanings_text()
    if meanings:
        out.append(sentence(_("What the faces mean: {meanings}").format(meanings=meanings)))
    if request.order and first:
        words = Domain(request.domain)
        steps = "; ".join(f"{i}. {words.gettext(step)}" for i, step in enumerate(request.order, start=1))
        out.append(_("Its dice, in order: {steps}.").format(steps=steps))
    if request.current() is not None and len(request.order) > 1:
        out.append(sentence(request.step_text()))
    return out


def answering(request: DiceRequest) -> str:
    """``1 hit, Pte Conti. ``: the roll ``request`` answers, its outcome and whose ("" if none)."""
    if not request.answers:
        return ""
    outcome = spoken_outcome(request.answers) or Domain(request.domain).render(request.answers)
    said = sentence(outcome)
    return (said.removesuffix(".") + stopped(", " + request.answered_by) if request.answered_by else said) + " "


def question(asked: Question) -> list[Line]:
    """A command's question the game cannot decide (``core.log.questions``): what is asked,
    then each answer with what it means."""
    return [
        _("Question: {question}.").format(question=asked.text()),
        _("Answers: {answers}.").format(answers="; ".join(asked.options())),
    ]


def _faces(roll: ev.Roll) -> str:
    parts = []
    for face in roll.faces:
        met = chances.die_succeeds(roll, face)
        if met is None:
            parts.append(str(face))
        else:
            # TRANSLATORS: a die and whether it met what the roll needed ("5 met", "2 missed")
            parts.append(_("{face} met").format(face=face) if met else _("{face} missed").format(face=face))
    said = _("Faces: {faces}.").format(faces=", ".join(parts))
    if roll.total:
        total = sum(roll.faces)
        mods = chances.modifier_sum(roll) if roll.target is None and roll.mods else 0
        if mods:
            said += " " + _("Total {total}, {mods:+d} for the modifiers: {score}.").format(
                total=total, mods=mods, score=total + mods
            )
        else:
            said += " " + _("Total {total}.").format(total=total)
    return said


def _target(roll: ev.Roll, domain: str) -> list[str]:
    out = []
    need = chances.need(roll)
    if need:
        said = _("It needed a total of {need}") if chances.summed(roll) else _("It needed {need}")
        said = said.format(need=need)
        base = chances.base(roll)
        if base is not None and roll.mods:
            said += " " + _("(base {target})").format(target=base)
        out.append(said + ".")
    if roll.mods:
        mods = [describe_mod(m, domain) + (f" ({m.rule})" if m.rule else "") for m in roll.mods]
        out.append(_("Modifiers: {mods}.").format(mods="; ".join(mods)))
    if roll.rule:
        out.append(_("Rule {rule}.").format(rule=roll.rule))
    chance = chances.chance_text(roll)
    if chance:
        out.append(_("Before the roll: {chance}.").format(chance=chance))
    return out


def _roll_head(line: LogLine, names: dict[str, str], domain: str, *, faces: bool = False) -> Line:
    """A roll's outcome, then whose roll it was and what for (``faces``: and the faces, for an earlier roll)."""
    e = line.event
    assert isinstance(e, ev.Rolled)
    roll = e.roll
    purpose = Domain(domain).render(roll.purpose)
    whose_roll = names.get(e.unit, "") or names.get(e.side, "")
    what = whose(whose_roll, purpose) if whose_roll else purpose
    what += f", {len(roll.faces)}d{roll.sides}"
    if roll.manual:
        what += ", " + _("table dice")
    if faces:
        what += ": " + " ".join(str(f) for f in roll.faces)
    number_said = f"#{line.number} " if line.number else ""
    if roll.outcome:
        outcome = sentence(spoken_outcome(roll.outcome) or Domain(domain).render(roll.outcome))
        return inked(outcome, outcome_kind(chances.succeeded(roll)), f" {number_said}{sentence(what)}")
    return sentence(number_said + what)


def dice(game: Game, role: str, state: GameState) -> list[Line]:
    """The dice pane: the last roll in play in full, then the rolls before it."""
    rolls = Viewpoint(game, role).recent_rolls(EARLIER_ROLLS + 2)
    undone = any(r.undone for r in rolls)
    rolls = [r for r in rolls if not r.undone]
    if not rolls:
        return [_("No roll in play: the last was undone.") if undone else _("No dice rolled yet.")]
    # Whose each roll is, by the names this role may see (a unit it cannot see goes unnamed).
    names = {sid: scenario_words(s.name) for sid, s in state.sides.items()}
    names |= {uid: u.name for uid, u in state.units.items()}
    domain = game.ruleset.domain
    last = rolls[-1]
    assert isinstance(last.event, ev.Rolled)
    # TRANSLATORS: before the last roll's outcome and what the roll was
    out: list[Line] = [prefixed(_("Last roll:") + " ", _roll_head(last, names, domain))]
    out.append(_faces(last.event.roll))
    out += _target(last.event.roll, domain)
    earlier = rolls[:-1][-EARLIER_ROLLS:]
    if earlier:
        out.append(_("Before it, the newest first:"))
        for line in reversed(earlier):
            out.append(_roll_head(line, names, domain, faces=True))
    return out


def odds(game: Game, role: str, text: str) -> list[str]:
    """What a command would roll first, and the exact chances, without doing anything."""
    if not text.strip():
        raise Refused(_("odds COMMAND: a command that rolls, e.g. odds fire rossi ahmed range=30"))
    try:
        ahead = game.odds(text, role=role, why=True)
    except Refused as e:  # why, as giving it would say (the odds of a shocked man's fire said only "cannot")
        raise Refused(_("{command} cannot be given now: {why}").format(command=text.strip(), why=e)) from None
    if ahead is None:
        return [_("{command} rolls no dice now.").format(command=text.strip())]
    out = [
        sentence(
            _("{command} rolls first: {purpose}, {dice}").format(
                command=text.strip(), purpose=ahead.purpose, dice=f"{ahead.count}d{ahead.sides}"
            )
        )
    ]
    if ahead.summary:
        out.append(sentence(ahead.summary))
    if ahead.mods:
        mods = [describe_mod(m, game.ruleset.domain) + (f" ({m.rule})" if m.rule else "") for m in ahead.mods]
        out.append(_("Modifiers: {mods}.").format(mods="; ".join(mods)))
    if isinstance(ahead.check, ev.Each) and ahead.chances:
        each = [
            ngettext("{k} success {chance}", "{k} successes {chance}", k).format(k=k, chance=percentage(p))
            for k, p in enumerate(ahead.chances)
        ]
        out.append(_("Chance of each count: {counts}.").format(counts="; ".join(each)))
    return out
