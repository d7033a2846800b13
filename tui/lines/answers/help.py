"""The line client's help: its own words (``help``), one command in full (``help COMMAND``)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from core.commands import example_words, local_name, localize_line, meanings, names, spec_domain, usage
from core.game import Game
from core.language.i18n import Domain
from core.log.state import TABLE_DICE
from core.log.views import REFEREE, SPECTATOR
from core.ruleset import CommandSpec
from tui.i18n import N_, _
from tui.lines.answers.words import sentence, stopped

#: The line client's own words: what follows each (words in capitals stand for what to type), and what it does.
OWN_WORDS: dict[str, tuple[str, str]] = {
    "status": ("", N_("where the game stands: the turn and phase, who acts, what comes next")),
    "roster": ("", N_("every side, team and figure you can see, with their state")),
    # TRANSLATORS: NAME, N, COMMAND stand for what the player types; keep them in capitals
    "who": (N_("NAME"), N_("one figure in full")),
    "phase": ("", N_("the phase, its rule, the phases of a turn and what comes next")),
    "log": (N_("N"), N_("the last N lines of the log, 10 if N is not given")),
    "dice": ("", N_("the last roll in full, and the rolls before it")),
    "odds": (N_("COMMAND"), N_("what the command would roll first, and its chances, without giving it")),
    "rule?": (
        N_("WORDS"),
        N_("a rules question, in Italian or English: what the rule that answers it says, or that the rules do not say"),
    ),
    "why": (
        N_("N"),
        N_("the rule behind the last refusal or roll, and the numbers the engine used; why N: step N of the log"),
    ),
    "?": (N_("COMMAND"), N_("what the command would need and do on each face, and its rules, without giving it")),
    "more": ("", N_("the rest of the last answer, which is said in under half a minute: why, ?, rule? and the end")),
    "help": (N_("COMMAND"), N_("that command in full; help alone, this list")),
    "secrets": ("", N_("every secret opened so far, in full, each checked against its commitment")),
    "copy": (
        "",
        N_("your side's copy of the game so far, kept on your machine, to hold the referee's save against later"),
    ),
    # TRANSLATORS: what follows verbose: its choices as typed (verbose on, verbose off)
    "verbose": (
        N_("on or off"),
        N_(
            "the answers in full (a roll with its command's dice in order, its step, what its faces mean, "
            "and said back with its faces) or brief; verbose alone says which"
        ),
    ),
    "quit": ("", N_("leave; Ctrl+D leaves too")),
}


#: ``status`` where the game shows defeat points (``Ruleset.shows_defeat_points``): a game
#: that scores none does not name them (#61).
STATUS_SCORED = N_("where the game stands: the turn and phase, who acts, what comes next, the defeat points")


def own_word(key: str, word: str, game: Game) -> str:
    """What one of the line client's words does, in a sentence (``word``: as the reader types it)."""
    follows, does = OWN_WORDS[key]
    if key == "status" and game.ruleset.shows_defeat_points(game.state):
        does = STATUS_SCORED
    return stopped(f"{word} {_(follows)}: {_(does)}" if follows else f"{word}: {_(does)}")


def table_dice_commands(game: Game) -> tuple[str, str]:
    """``table-dice on`` and ``table-dice off`` as the reader types them (its catalogue's names)."""
    spec = next(s for s in game.commands if s.name == TABLE_DICE)
    command, own = names(spec, game.ruleset.domain)[0], spec_domain(spec, game.ruleset.domain)
    on, off = (f"{command} {local_name('choice', choice, own)}" for choice in ("on", "off"))
    return on, off


def help_lines(game: Game, role: str, own: Iterable[tuple[str, str]]) -> list[str]:
    """The line client's words, then the game's commands this role may give."""
    table, game_rolls = table_dice_commands(game)
    out = [_("Type a command and press Enter. To read the game:")]
    out += [own_word(key, word, game) for key, word in own]
    out.append(
        _("The game's commands, and the names in them, may be shortened to any start that names one thing only.")
    )
    out.append(_("Undo and redo ask y or n before they act."))
    out.append(_("A command may give the faces of real dice: dice=6,4,3."))
    if role == REFEREE:
        said = _("{table} asks for the faces of every roll, at every seat; {game} lets the game roll them again.")
    else:  # the referee's choice for the whole table (core.log.state.TABLE_DICE)
        said = _("The referee chooses whether the table's dice are typed, for every seat ({table} or {game}).")
    out.append(said.format(table=table, game=game_rolls))
    if role == SPECTATOR:
        out.append(_("Spectators watch: they give no commands."))
        return out
    domain = game.ruleset.domain
    mine = [s for s in game.commands if role == REFEREE or s.who != REFEREE]
    out.append(
        _("The commands of {ruleset} you may give: {commands}.").format(
            ruleset=game.ruleset.shown_name(), commands=", ".join(names(s, domain)[0] for s in mine)
        )
    )
    out.append(_("help COMMAND tells one in full, e.g. help {command}.").format(command=names(mine[0], domain)[0]))
    return out


#: A ruling cited among a command's rules (``CommandSpec.rule``).
RULING = re.compile(r"\bruling ")


def rule_cited(rule: str) -> str:
    """``rule LN-R020, ruling LN-BARRAGE``; ``ruling LN-END`` alone: a ruling is the program's own
    decision where the book is unclear (docs/rulings.md), not a rule of the book's."""
    # TRANSLATORS: the program's own decision where the book is unclear, cited by its key: "ruling LN-END"
    said = RULING.sub(_("ruling") + " ", rule)
    return said if RULING.match(rule) else _("rule {rule}").format(rule=said)


def command_help(game: Game, spec: CommandSpec) -> list[str]:
    """One command in full: what it does, its usage, each argument, its dice, examples."""
    domain = game.ruleset.domain
    words = Domain(domain)
    said = words.render  # a help's words ("" stays "": gettext would give the catalogue's header)

    local, english = names(spec, domain)
    own = spec_domain(spec, domain)  # the catalogue naming its aliases and choices
    head = f"{local}: {said(spec.help)}" if spec.help else local
    extra = []
    if local != english:
        extra.append(_("in English {name}").format(name=english))
    if spec.aliases:
        extra.append(_("also {names}").format(names=", ".join(local_name("command", a, own) for a in spec.aliases)))
    if spec.rule:
        extra.append(rule_cited(spec.rule))
    if spec.who == REFEREE:
        extra.append(_("referee only"))
    if spec.phases:
        extra.append(_("phases: {phases}").format(phases=", ".join(words.pgettext("phase", p) for p in spec.phases)))
    out = [stopped(head.removesuffix(".") + (" (" + "; ".join(extra) + ")" if extra else ""))]
    # "[aimed|burst]" is read "aimed or burst": a bar is no word to a screen reader.
    # TRANSLATORS: between two choices of a command's usage, "[aimed or burst]"
    written = usage(spec, domain).replace("|", " " + _("or") + " ")
    out.append(sentence(_("Usage: {usage}").format(usage=written)))
    coded = meanings(spec, domain)
    for p in spec.params:
        parts = [said(p.help)] if p.help else []
        option = local_name("option", p.name, own)  # as the usage names it: the command's own catalogue's word
        # A text's choices (a scenario's name) are taken as typed: "open" is no open ground's "aperto".
        choices = list(p.choices) if p.kind == "text" else [local_name("choice", c, own) for c in p.choices]
        if len(choices) == 1:  # a flag: its one word, unless the line names it already ("long: ...")
            if choices[0] != option:
                # TRANSLATORS: an argument that takes one word only, in its help: "winner: ...; the word draw"
                parts.append(_("the word {choice}").format(choice=choices[0]))
        elif choices and len(choices) <= 12:
            parts.append(_("one of {choices}").format(choices=", ".join(choices)))
        if p.kind == "int":
            parts.append(_("from {lo} to {hi}").format(lo=p.lo, hi=p.hi))
        if p.kind == "distance":
            parts.append(_("from {lo} to {hi} {measure}").format(lo=p.lo, hi=p.hi, measure=p.measure))
        if p.markers:
            parts.append(_("or a hidden marker's label"))
        if parts:
            out.append(stopped(f"{option}: {'; '.join(parts)}"))
        for choice, meaning in zip(p.choices, p.meanings, strict=False):
            out.append(stopped(f"{local_name('choice', choice, own)}: {coded.get(choice) or said(meaning)}"))
    if spec.dice:
        out.append(_("Its dice, in order: {dice}.").format(dice="; ".join(said(d) for d in spec.dice)))
    for example in spec.examples:  # in the names the reader types (spara … distanza=), and his words
        typed = localize_line(example, game.commands, game.ruleset.domain, example_words)
        out.append(sentence(_("For example: {example}").format(example=typed)))
    return out
