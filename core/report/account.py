"""The report in plain words: the turn-by-turn account, the moments, the dice.

Every renderer (Markdown, HTML, the client's text) writes these same
sentences; each escapes them for its own format, since they quote the save.
They are in the reader's language (``core.language.i18n``), one whole template each.
"""

from __future__ import annotations

from core.language.i18n import N_, Domain, Text, _, naming, ngettext, render
from core.language.numerals import decimal, localised
from core.log import events as ev
from core.log.narrate import check_need
from core.report.build import Report
from core.report.luck import RollLuck, SideLuck
from core.report.model import Facts, Moment, TurnFacts

#: The report's headings, the same in every format (each renderer translates them).
FORCES = N_("Forces")
TURN_BY_TURN = N_("The game, turn by turn")
MOMENTS = N_("Decisive moments")
NO_MOMENT = N_("No command moved the balance.")
DICE = N_("The dice")
LUCKIEST = N_("The luckiest rolls")
UNLUCKIEST = N_("The unluckiest rolls")
REROLLED = N_("The same orders, re-rolled")
NONE = N_("none")


def title(report: Report) -> str:
    f = report.facts
    return _("After-action report: {scenario}").format(scenario=f.scenario or _("a game"))


def summary(report: Report) -> list[str]:
    """Who played what, from whose view, and how it ended."""
    f = report.facts
    against = _("against")
    sides = f" {against} ".join(s.name for s in f.sides) or _("no sides yet")
    lines = [_("{rules}: {sides}.").format(rules=f.rules, sides=sides)]
    if f.options is not None:  # the rules played by: which options were on, even none
        said = "; ".join(f.options)
        lines.append(
            _("Optional rules in force: {rules}.").format(rules=said) if said else _("No optional rules in force.")
        )
    if f.origin is not None:
        lines.append(
            _(
                "A what-if game: it leaves the original {path} (sha256 {sha256}) "
                "after step {step} and goes its own way from there."
            ).format(path=_file_name(f.origin.path), sha256=f.origin.sha256, step=f.origin.step)
        )
    lines.append(_viewpoint(f))
    if f.step < f.steps:
        lines.append(_("Up to step {step} of {steps}.").format(step=f.step, steps=f.steps))
    if f.result:
        lines.append(_("Result: {result}.").format(result=f.result))
    else:
        lines.append(_("No result yet: the game is not over."))
    return lines


def _file_name(path: str) -> str:
    """A save's file name without its folders: a report is shared, and the folders where the
    referee keeps his games (his home, his name) are not the readers'; the digest names it."""
    return path.replace("\\", "/").rsplit("/", 1)[-1]


def _viewpoint(f: Facts) -> str:
    if f.role == "referee":
        return _("As the referee saw it: every fact, hidden or not.")
    if f.role == "spectator":
        return _("As a spectator saw it: public facts only.")
    return _("As {side} saw it: their own units and secrets, and what they spotted of the enemy.").format(
        side=f.side_name(f.role)
    )


def forces(report: Report) -> list[tuple[str, list[str]]]:
    """Each side's units the reader knows of, with their fate."""
    f = report.facts
    out = []
    for s in f.sides:
        lines = []
        for u in (u for u in f.units if u.side == s.id):
            if u.out:
                fate = _("out of action in turn {turn}: {cause}").format(turn=u.out_turn, cause=u.out)
            elif not u.came_on:
                fate = _("never came on")
            elif u.off_table:
                fate = _("off the table at the end")
            else:
                fate = _("in play at the end")
            cls = f" ({u.cls})" if u.cls else ""
            lines.append(f"{u.name}{cls}: {fate}")
        army = f" — {Domain(f.domain).gettext(s.army)}" if s.army else ""  # the ruleset's word for it
        out.append((f"{s.name}{army}", lines or [_("no unit seen")]))
    return out


def turn_heading(t: TurnFacts) -> str:
    return _("Set-up and deployment") if t.turn == 0 else _("Turn {turn}").format(turn=t.turn)


def turn_label(turn: int) -> str:
    """A turn in a table or on a chart's axis: ``set-up`` for turn 0."""
    return _("set-up") if turn == 0 else str(turn)


def turn_account(report: Report, t: TurnFacts) -> list[str]:
    """What happened in one turn, in sentences."""
    f = report.facts
    name = f.side_name
    said: list[str] = []
    if t.cards:
        book = Domain(f.domain)
        said.append(_("Cards drawn: {cards}.").format(cards=", ".join(book.term(c) for c in t.cards)))
    if t.active:
        then = _("then")
        sides = f" {then} ".join(name(s) for s in t.active)
        if len(t.active) == 1:
            said.append(_("{sides} had the initiative.").format(sides=sides))
        else:
            said.append(_("{sides} took the initiative.").format(sides=sides))
    said.extend(f"“{n}”" for n in t.notes)
    for unit, side in t.spotted:
        said.append(_("{side} spotted {unit}.").format(side=name(side), unit=unit))
    for facts in f.sides:
        rolls = report.luck.of_turn.get(facts.id, {}).get(t.turn, [])
        if rolls:
            made = sum(j.successes for j in rolls)
            expected = decimal(float(sum(j.expected for j in rolls)), 1)
            if len(rolls) == 1:
                line = _("{side} rolled once against a target: {successes}, {expected} expected.")
            else:
                line = _("{side} rolled {n} times against a target: {successes}, {expected} expected.")
            said.append(line.format(side=facts.name, n=len(rolls), successes=_successes(made), expected=expected))
    for loss in t.losses:
        line = _("{unit} ({side}) was put out of action: {cause}.")
        said.append(line.format(unit=loss.unit, side=name(loss.side), cause=loss.cause))
    for back in t.returns:
        said.append(_("{unit} ({side}) came back into action.").format(unit=back.unit, side=name(back.side)))
    for p in t.points:
        # English said "points" even for one: kept, so reports read the same.
        line = ngettext(
            "{side} scored {points} defeat points: {reason}.",
            "{side} scored {points} defeat points: {reason}.",
            p.points,
        )
        said.append(line.format(side=name(p.side), points=p.points, reason=p.reason))
    for key, value, what in t.revealed:
        if what:
            said.append(_("Revealed: {what}.").format(what=what))
        elif value:
            said.append(_("Revealed: {key} was {value}.").format(key=key, value=value))
        else:
            said.append(_("Revealed: {key}.").format(key=key))
    if t.result:
        said.append(_("The game ended: {result}.").format(result=t.result))
    return said or [_("Nothing the reader saw changed the balance.")]


def score_name(report: Report) -> str:
    """What the score counts, in words: ``defeat points`` or ``losses``."""
    return _("losses") if report.facts.score_name == "losses" else _("defeat points")


def score_heading(report: Report) -> str:
    if report.facts.score_name == "losses":
        return _("Losses")
    return _("Losses and {score}").format(score=score_name(report))


def score_caption(report: Report) -> str:
    if report.facts.score_name == "losses":
        return _("Units put out of action in each turn (this ruleset scores no points: losses are the score).")
    return _("Units put out of action in each turn, and each side's {score} so far (more is worse).").format(
        score=score_name(report)
    )


def score_table(report: Report) -> tuple[list[str], list[list[str]]]:
    """Header and rows: per turn, each side's losses in it and its score so far."""
    f = report.facts
    head = [_("turn")]
    for s in f.sides:
        head.append(_("{side}: lost").format(side=s.name))
        if f.score_name != "losses":
            head.append(_("{side}: {score} so far").format(side=s.name, score=score_name(report)))
    rows = []
    for i, t in enumerate(f.turns):
        row = [turn_label(t.turn)]
        for s in f.sides:
            row.append(str(f.losses_by_turn[s.id][i]))
            if f.score_name != "losses":
                row.append(str(f.score_by_turn[s.id][i]))
        rows.append(row)
    return head, rows


def score_columns(report: Report) -> list[tuple[str, list[str]]]:
    """The score table's columns grouped under each side's name, for a table whose side
    names head their own columns (``score_table``'s heads name the side in each): after
    the turn's, each side's losses and score so far."""
    f = report.facts
    columns = [("", [_("turn")])]
    for s in f.sides:
        heads = [_("lost")]
        if f.score_name != "losses":
            heads.append(_("{score} so far").format(score=score_name(report)))
        columns.append((s.name, heads))
    return columns


def moment(report: Report, m: Moment) -> str:
    f = report.facts
    change = ", ".join(f"{f.side_name(s)} {v:+d}" for s, v in m.change.items() if v)
    fields = {
        "turn": m.turn,
        "command": m.command,
        "facts": "; ".join(m.facts),
        "score": score_name(report).capitalize(),
        "change": change,
        "swing": m.swing,
        "side": f.side_name(m.favours),
    }
    if m.command:
        said = _("Turn {turn} (“{command}”): {facts}. {score}: {change}; a swing of {swing} to {side}.")
    else:
        said = _("Turn {turn}: {facts}. {score}: {change}; a swing of {swing} to {side}.")
    return said.format(**fields)


def side_luck(report: Report, s: SideLuck) -> str:
    name = report.facts.side_name(s.side)
    if not s.rolls:
        return _("{side}: no roll with a target seen.").format(side=name)
    if s.exact:
        said = _(
            "{side}: {successes} in {rolls} rolls against {expected} expected; "
            "the chance of doing at least this well was {at_least}, "
            "of doing this badly or worse {at_most} (exactly)."
        )
    else:
        said = _(
            "{side}: {successes} in {rolls} rolls against {expected} expected; "
            "the chance of doing at least this well was {at_least}, "
            "of doing this badly or worse {at_most} (by the normal approximation)."
        )
    return said.format(
        side=name,
        successes=_successes(s.successes),
        rolls=len(s.rolls),
        expected=decimal(float(s.expected), 2),
        at_least=percent(s.p_at_least),
        at_most=percent(s.p_at_most),
    )


def roll(report: Report, j: RollLuck, lucky: bool) -> str:
    r = j.fact.roll
    f = report.facts
    who = f"{j.fact.unit}: " if j.fact.unit else ""
    faces = " ".join(str(x) for x in r.faces)
    odds = j.p_at_least if lucky else j.p_at_most
    fields = {
        "turn": j.fact.turn,
        "side": f.side_name(j.fact.side),
        "what": who + purpose_words(r.purpose, f),
        "dice": f"{len(r.faces)}d{r.sides}",
        "need": needed(r.check, len(r.faces)),
        "faces": faces,
        "successes": _successes(j.successes),
        "expected": decimal(float(j.expected), 2),
        "chance": percent(float(odds)),
    }
    if lucky:
        said = _(
            "Turn {turn}, {side}: {what} ({dice} {need}: {faces}) — {successes}, {expected} expected; "
            "a chance of {chance} of doing at least this well."
        )
    else:
        said = _(
            "Turn {turn}, {side}: {what} ({dice} {need}: {faces}) — {successes}, {expected} expected; "
            "a chance of {chance} of doing this badly or worse."
        )
    return said.format(**fields)


def purpose_words(purpose: Text, f: Facts) -> str:
    with naming(f.names()):  # a side the purpose names by id reads as its name
        return render(purpose, f.domain)


def needed(check: ev.Check | None, dice: int) -> str:
    """What the roll's check needed, as the log says it: ``needing 5+ per die``,
    ``needing 7+ total`` (a judged roll has one)."""
    need = check_need(check, dice)
    return _("needing {need}").format(need=need) if need else ""


def _successes(n: int) -> str:
    return ngettext("{n} success", "{n} successes", n).format(n=n)


def percent(p: float) -> str:
    """70.4%; a chance below 0.1% with two significant digits (0.0052%), never "0.0%"."""
    return localised(f"{p * 100:.1f}%" if p >= 0.001 else f"{p * 100:.2g}%")


def unjudged(report: Report) -> str:
    n = report.luck.unjudged
    return _("Rolls with no target, or rolled for no side, are not counted: {n}.").format(n=n)


def dice_kinds(report: Report) -> str:
    """How the report's rolls were made: sealed, seeded (older dice) or typed at the table."""
    kinds = report.luck_kinds
    said = _(
        "Of the rolls seen: {sealed} sealed (fireteam verify re-derives them), {seeded} seeded, "
        "{typed} typed at the table."
    )
    return said.format(sealed=kinds.get("sealed", 0), seeded=kinds.get("seeded", 0), typed=kinds.get("typed", 0))


def rerolled(report: Report) -> list[str]:
    """The re-rolls in words: each side's wins and by how much, beside the real result."""
    r = report.rerolls
    if r is None:
        return []
    f = report.facts
    name = f.side_name
    wins = r.wins()
    per_side = []
    for side in r.sides:
        share = wins.get(side, 0) / r.count
        said = _("{side} win {share} (by {margin} {score} on average)")
        per_side.append(
            said.format(
                side=name(side),
                share=percent(share),
                margin=decimal(round(r.mean_win_margin(side), 1)),
                score=_(r.score_name),
            )
        )
    draws = wins.get("", 0)
    if draws:
        per_side.append(_("no side ahead {share}").format(share=percent(draws / r.count)))
    head = _("With these orders, in {n} re-rolled games: {sides}.").format(
        n=decimal(r.count), sides="; ".join(per_side)
    )
    real_winner = max(r.sides, key=lambda side: r.margin(side, r.real)) if r.sides else ""
    if f.winner:  # the result as recorded (ruling CORE-RESULT-DATA), the referee's ruling too
        real = _("In this game, {side} won.").format(side=name(f.winner))
    elif f.draw:
        real = _("In this game, no side won: a draw.")
    elif real_winner and r.margin(real_winner, r.real) > 0:
        real = _("In this game, {side} won by {margin} {score}.").format(
            side=name(real_winner), margin=r.margin(real_winner, r.real), score=_(r.score_name)
        )
    else:
        real = _("In this game, no side came out ahead.")
    luck = [
        _("For {side}, this game's dice were worse than {share} of them.").format(
            side=name(side), share=percent(r.better_than_real(side))
        )
        for side in r.sides
    ]
    skipped = r.skipped().most_common(3)
    often = ", ".join(
        _("{order} ({n}; most often: {why})").format(order=text, n=decimal(n), why=r.why_skipped(text))
        for text, n in skipped
    )
    said = _("On average {n} orders of each re-rolled game were skipped (the new dice made them impossible)")
    lines = [head, real, *luck, said.format(n=decimal(round(r.mean_skipped(), 1))) + (f": {often}." if often else ".")]
    how = _(
        "Re-rolled from step {step} with seed {seed} (the same seed gives the same re-rolls), in {seconds} s "
        "({cpu} s of processor time); a side wins a re-rolled game with fewer {score}."
    )
    took = {"seconds": decimal(round(r.seconds, 1)), "cpu": decimal(round(r.cpu_seconds, 1))}
    lines.append(how.format(step=r.start, seed=r.seed, score=_(r.score_name), **took))
    return lines
