"""``man fireteam``: the manual page, made from the command's own parsers (``python -m tui.manpage``).

docs/fireteam.1 is its output, committed, installed in ``share/man/man1`` and kept in step
by ``tests/tui/test_manpage.py``; after changing an option, run
``python -m tui.manpage > docs/fireteam.1``.  Always English: the page is one file.
"""

from __future__ import annotations

import argparse
import sys

from core import folders
from core.registry import BUILTIN, RulesetIds

SEE_ALSO = "The documents installed in share/doc/fireteam: README.md, client.md, commands.md, files.md, ssh.md."


def verify_statuses() -> list[tuple[int, str]]:
    """``fireteam verify``'s exit statuses (docs/secrets.md), from the code that returns them."""
    from core.cli.output import UNWRITTEN
    from core.secrets.verify import NEWER, RULES_CHANGED

    return [
        (0, "every commitment, sealed roll and command checks out"),
        (
            1,
            "forged or damaged: a commitment, a die or a command's facts are not what its inputs and rules give, "
            "or a command claims a version or a language no Fireteam could have written there",
        ),
        (2, "the file cannot be read (a corrupt save, a damaged copy)"),
        (
            RULES_CHANGED,
            "recorded by an older Fireteam: every commitment and die checks out, and some commands give other "
            'facts under this version\'s rules, each said "recorded by VERSION; rules changed since" with its '
            "rule and step (CHANGELOG.md names the changes)",
        ),
        (
            UNWRITTEN,
            "the verdict could not be written whole (standard output closed, a broken pipe, a full disk); standard "
            "error says so (export, certify and league add exit with it too)",
        ),
        (
            NEWER,
            "written in part by a Fireteam newer than this one: nothing else failed, and its commands are not "
            "judged here; verify it with that version (certify and league add refuse it)",
        ),
    ]


def roff(text: str) -> str:
    """``text`` as roff reads it literally: backslashes, hyphens and a leading dot or quote escaped."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join("\\&" + line if line.startswith((".", "'")) else line for line in text.split("\n"))


def _choices(action: argparse.Action) -> str:
    """What ``%(choices)s`` says in the page, as argparse says it; the rulesets as the same page
    on every machine names them: the built-ins, not the plugins installed where it is made."""
    if isinstance(action.choices, RulesetIds):
        return ", ".join([*BUILTIN, "or an installed plugin's"])
    return ", ".join(map(str, action.choices or ()))


def _metavar(action: argparse.Action) -> str:
    """What stands for the value(s) of ``action``, as its usage says it: a tuple (``nargs=2``) one name a value."""
    metavar = action.metavar or action.dest.upper()
    return metavar if isinstance(metavar, str) else " ".join(metavar)


def _options(parser: argparse.ArgumentParser) -> list[str]:
    lines = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) or action.help == argparse.SUPPRESS:
            continue
        if action.option_strings:
            metavar = "" if action.nargs == 0 else " " + _metavar(action)
            names = ", ".join(f"\\fB{roff(o)}\\fR{roff(metavar)}" for o in action.option_strings)
        else:
            names = f"\\fI{roff(_metavar(action))}\\fR"
        text = (action.help or "") % {"default": action.default, "prog": parser.prog, "choices": _choices(action)}
        lines += [".TP", names, roff(text)]
    return lines


def _commands(parser: argparse.ArgumentParser, prefix: str) -> list[str]:
    """A section for each subcommand of ``parser``, and for each of theirs (``league add``)."""
    out: list[str] = []
    for commands in [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]:
        helps = {choice.dest: choice.help for choice in commands._choices_actions}
        for name, child in commands.choices.items():
            usage = " ".join(child.format_usage().removeprefix("usage: ").split())
            out += [f".SS {roff(prefix + name)}", roff(helps.get(name) or ""), ".PP", roff(usage)]
            out += [".RS", *_options(child), ".RE", *_commands(child, f"{prefix}{name} ")]
    return out


def page() -> str:
    from core.language.reader import set_process_language
    from tui.main import _app_parser, _parser, _version

    set_process_language("en")
    top, client = _parser(), _app_parser()
    out = [
        f'.TH FIRETEAM 1 "" "fireteam {_version()}" "User Commands"',
        ".SH NAME",
        "fireteam \\- a terminal referee for tabletop miniature skirmish wargames",
        ".SH SYNOPSIS",
        roff(client.usage or ""),
        ".br",
        "fireteam \\fICOMMAND\\fR ...",
        ".SH DESCRIPTION",
        roff(client.description or ""),
        roff(top.description or ""),
        ".SH OPTIONS",
        *_options(client),
        ".SH COMMANDS",
    ]
    out += _commands(top, "")
    out += [".SH EXIT STATUS", roff("fireteam verify:")]
    for status, meaning in verify_statuses():
        out += [".TP", f"\\fB{status}\\fR", roff(meaning)]
    out += [".SH ENVIRONMENT"]
    for kind, (variable, _function) in folders.KINDS.items():
        out += [".TP", f"\\fB{roff(variable)}\\fR", roff(f"the {kind} folder (fireteam paths prints them all)")]
    out += [".TP", "\\fBLANG\\fR", "the language, when \\-\\-lang does not say (it or en)"]
    out += [".SH SEE ALSO", roff(SEE_ALSO)]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.stdout.write(page())
