"""``fireteam event new|enter|drop|pair|clock|add|rule|pairings|standings|show|check`` (docs/event.md)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from core.cli.lang import add_lang_option
from core.language.i18n import _
from core.storage.errors import SaveError

DEFAULT_KEY = "~/.ssh/id_ed25519"


def _key(p: argparse.ArgumentParser, who: str) -> None:
    p.add_argument(
        "--key",
        type=Path,
        default=Path(DEFAULT_KEY).expanduser(),
        metavar="KEY",
        help=_("{who}'s SSH key, for ssh-keygen -Y sign (default: %(default)s)").format(who=who),
    )


def add_parsers(sub: argparse._SubParsersAction) -> None:
    event = sub.add_parser("event", help=_("an event day of a league: entries, pairings, rounds, standings"))
    add_lang_option(event)
    actions = event.add_subparsers(dest="action", metavar="ACTION", required=True)

    def action(name: str, helps: str, organiser: bool = False) -> argparse.ArgumentParser:
        p = actions.add_parser(name, help=helps)
        p.add_argument("event", type=Path, metavar="EVENT")
        if organiser:
            _key(p, _("the organiser"))
        add_lang_option(p)
        return p

    p = action("new", _("a new event file beside its league"), organiser=True)
    p.add_argument("--league", type=Path, required=True, metavar="LEAGUE")
    p.add_argument("--rounds", type=int, required=True, metavar="N")
    p.add_argument("--system", choices=("swiss", "roundrobin"), required=True)
    p.add_argument("--scenario", required=True, help=_("the scenario every table plays (its two sides pair)"))
    p.add_argument("--ruleset", default="breaking-news", metavar="RULESET", help=_("the scenario's ruleset"))
    p.add_argument("--minutes", type=int, default=0, metavar="M", help=_("a round's time (default: no clock)"))
    p.add_argument("--bye", type=int, metavar="POINTS", help=_("a bye's points (default: a win's)"))
    p.add_argument("--seeding", choices=("rating", "random"), default="rating", help=_("round one's order"))
    p.add_argument("--name", default="", help=_("the event's name (default: the file's)"))

    p = action("enter", _("enter club players (late, once round 1 is paired)"), organiser=True)
    p.add_argument("names", nargs="+", metavar="NAME")

    p = action("drop", _("a player leaves the event: signed by him or by the organiser"))
    p.add_argument("name", metavar="NAME")
    p.add_argument("--by", required=True, metavar="WHO", help=_("who signs: the player, or the organiser"))
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument("--key", type=Path, metavar="KEY", help=_("sign here with this SSH key"))
    how.add_argument("--sig", type=Path, metavar="FILE", help=_("a signature of the statement, made elsewhere"))
    how.add_argument("--statement", action="store_true", help=_("print the statement to sign, and stop"))

    action("pair", _("pair the next round, once every table of this one has ended"))

    p = action("clock", _("start the round's clock, or extend a table's time"), organiser=True)
    p.add_argument(
        "--minutes", type=int, metavar="M", help=_("the round's time (default: the event's), or the extension")
    )
    p.add_argument("--table", type=int, default=0, metavar="T", help=_("extend this table's time"))

    p = action("add", _("add a table's certified game to the event and the league"))
    p.add_argument("save", type=Path, metavar="SAVE")
    p.add_argument("cert", type=Path, metavar="CERT")
    p.add_argument("sigs", type=Path, nargs="*", metavar="SIG")
    p.add_argument(
        "--key",
        type=Path,
        metavar="KEY",
        help=_("the organiser's SSH key, to vouch for the players' confirmations at their seats (as league add)"),
    )
    p.add_argument("--table", type=int, required=True, metavar="T")
    p.add_argument("--round", type=int, default=0, metavar="R", help=_("default: the current round"))

    p = action("rule", _("the organiser's ruling on a table: a no-show, or a game unfinished at time"), organiser=True)
    p.add_argument("--table", type=int, required=True, metavar="T")
    kind = p.add_mutually_exclusive_group(required=True)
    kind.add_argument("--absent", nargs="+", metavar="NAME", help=_("who did not come"))
    kind.add_argument("--draw", action="store_true", help=_("unfinished at time: a draw"))
    kind.add_argument("--both-lose", action="store_true", help=_("unfinished at time: both lose"))
    p.add_argument("--why", required=True, help=_("the ruling's reason"))

    for name, helps in (
        ("pairings", _("a round's tables, their state and clock")),
        ("standings", _("the standings")),
        ("show", _("the event: its settings, players, tables and standings")),
    ):
        p = action(name, helps)
        form = p.add_mutually_exclusive_group()
        form.add_argument("--json", action="store_true", help=_("the whole event as JSON, the same in every language"))
        if name != "show":
            form.add_argument("--html", action="store_true", help=_("the page to print or open (the relay's)"))
        if name == "pairings":
            p.add_argument("--round", type=int, metavar="R")
    action("check", _("derive every round's pairing again from the file and compare"))


def run(args: argparse.Namespace) -> int:
    from core.league.certificate import NotCounted

    try:
        return _run(args)
    except NotCounted as e:
        print(str(e), file=sys.stderr)
        return 1
    except SaveError as e:
        print(str(e), file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    from core.event import eventfile, render
    from core.event.records import BOTH_LOSE, DRAW, NO_SHOW, UNFINISHED

    path: Path = args.event
    a = args.action
    if a in ("pairings", "standings", "show"):
        journal, event = eventfile.read(path)
        if args.json:
            json.dump(render.as_data(event, journal.head), sys.stdout, ensure_ascii=False, indent=1)
            sys.stdout.write("\n")
            return 0
        if getattr(args, "html", False):
            from core.event import pages

            head = journal.head
            page = pages.standings_page(event, head) if a == "standings" else pages.round_page(event, head, args.round)
            sys.stdout.write(page.html)
            return 0
        lines = {
            "pairings": lambda: render.pairings(event, args.round),
            "standings": lambda: render.standing_lines(event),
            "show": lambda: [*render.settings(event), *render.pairings(event), *render.standing_lines(event)],
        }[a]()
        print("\n".join([*lines, render.receipt(journal.head)]))
        return 0
    if a == "check":
        return _check(path)
    if a == "new":
        made, head = eventfile.new(
            path,
            args.league,
            args.key,
            name=args.name or path.stem,
            ruleset=args.ruleset,
            scenario=args.scenario,
            system=args.system,
            rounds=args.rounds,
            minutes=args.minutes,
            bye=args.bye,
            seeding=args.seeding,
        )
        print("\n".join([*render.settings(made), render.receipt(head)]))
        return 0
    if a == "enter":
        for name in args.names:
            event, head = eventfile.enter(path, name, args.key)
            print(
                _("{name} entered ({n} players); {receipt}").format(
                    name=name, n=len(event.players), receipt=render.receipt(head)
                )
            )
        return 0
    if a == "drop":
        return _drop(args, path)
    if a == "pair":
        event, head = eventfile.pair(path)
    elif a == "clock":
        event, head = eventfile.clock(path, args.key, args.minutes, args.table)
    elif a == "add":
        event, head = eventfile.add(path, args.save, args.cert, args.sigs, args.table, args.round, args.key)
    else:
        if args.absent:
            kind, outcome = NO_SHOW, ""
        else:
            kind, outcome = UNFINISHED, DRAW if args.draw else BOTH_LOSE
        event, head = eventfile.rule(path, args.key, args.table, kind, args.why, tuple(args.absent or ()), outcome)
    print("\n".join([*render.pairings(event), render.receipt(head)]))
    return 0


def _drop(args: argparse.Namespace, path: Path) -> int:
    from core.event import eventfile, render, signing

    if args.statement:
        event = eventfile.load(path)
        sys.stdout.buffer.write(signing.statement(event.id, eventfile.drop_statement(event, args.name, args.by)))
        return 0
    signature = ""
    if args.sig is not None:
        try:
            signature = args.sig.read_text(encoding="ascii")[: 16 << 10]
        except (OSError, UnicodeDecodeError) as e:
            raise SaveError(_("{path}: cannot read: {error}").format(path=args.sig, error=e)) from None
    event, head = eventfile.drop(path, args.name, args.by, args.key, signature)
    print(_("{name} dropped; {receipt}").format(name=args.name, receipt=render.receipt(head)))
    return 0


def _check(path: Path) -> int:
    from core.event import eventfile

    same, differ = eventfile.rederive(path)
    for number in same:
        print(_("round {r}: the engine pairs it again the same").format(r=number))
    for number in differ:
        print(_("round {r}: the engine pairs it otherwise: not the pairing the file holds").format(r=number))
    return 1 if differ else 0
