"""``fireteam certify`` and ``fireteam league new|add|standings|dispute|rule`` (docs/league.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from core.cli.lang import add_lang_option
from core.cli.output import UNWRITTEN, written
from core.language.i18n import _
from core.storage.savefile import SaveError

#: The club's points for a win, a draw and a loss unless ``league new`` says otherwise.
DEFAULT_POINTS = (3, 1, 0)


def add_parsers(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("certify", help=_("a finished game's result as a certificate its players sign"))
    p.add_argument("path", type=Path, metavar="SAVE")
    p.add_argument(
        "-o",
        dest="out",
        type=Path,
        metavar="FILE",
        help=_("the certificate to write (default: SAVE.result; never overwritten)"),
    )
    add_lang_option(p)

    league = sub.add_parser("league", help=_("a club's season: signed results and standings in a league file"))
    add_lang_option(league)
    actions = league.add_subparsers(dest="action", metavar="ACTION", required=True)
    p = actions.add_parser("new", help=_("a new league file for a club"))
    p.add_argument("league", type=Path, metavar="LEAGUE")
    p.add_argument(
        "--signers",
        type=Path,
        required=True,
        metavar="FILE",
        help=_("the club's keys: an OpenSSH allowed_signers file"),
    )
    p.add_argument("--organiser", required=True, metavar="NAME", help=_("the organiser's identity in that file"))
    p.add_argument("--name", default="", help=_("the season's name (default: the file's)"))
    p.add_argument(
        "--points",
        default=",".join(map(str, DEFAULT_POINTS)),
        metavar="W,D,L",
        help=_("league points for a win, a draw and a loss (default: %(default)s)"),
    )
    add_lang_option(p)
    p = actions.add_parser("add", help=_("add a verified, certified and signed game"))
    p.add_argument("league", type=Path, metavar="LEAGUE")
    p.add_argument("save", type=Path, metavar="SAVE")
    p.add_argument("cert", type=Path, metavar="CERT")
    p.add_argument(
        "sigs",
        type=Path,
        nargs="*",
        metavar="SIG",
        help=_("ssh-keygen -Y sign -n fireteam-result signatures of CERT (none: both confirmed at their seats)"),
    )
    add_lang_option(p)
    p = actions.add_parser("standings", help=_("the season's standings and games"))
    p.add_argument("league", type=Path, metavar="LEAGUE")
    p.add_argument("--format", choices=("text", "md", "html", "json"), default="text")
    add_lang_option(p)
    p = actions.add_parser("dispute", help=_("dispute a game: it is frozen until the organiser rules"))
    p.add_argument("league", type=Path, metavar="LEAGUE")
    p.add_argument("game", metavar="GAME", help=_("the game's number in the league, or its id"))
    p.add_argument(
        "--by", required=True, metavar="NAME", help=_("who disputes it: one of its players, or the organiser")
    )
    p.add_argument("--why", required=True, help=_("what is disputed"))
    add_lang_option(p)
    p = actions.add_parser("rule", help=_("the organiser's ruling on a disputed game"))
    p.add_argument("league", type=Path, metavar="LEAGUE")
    p.add_argument("game", metavar="GAME", help=_("the game's number in the league, or its id"))
    ruling = p.add_mutually_exclusive_group(required=True)
    ruling.add_argument("--stands", action="store_true", help=_("the result stands"))
    ruling.add_argument("--void", action="store_true", help=_("the game does not count"))
    ruling.add_argument("--winner", metavar="SIDE", help=_("the game counts, won by this side"))
    ruling.add_argument("--draw", action="store_true", help=_("the game counts as a draw"))
    p.add_argument("--why", required=True, help=_("the ruling's reason"))
    add_lang_option(p)


def run(args: argparse.Namespace) -> int:
    try:
        if args.command == "certify":
            return _certify(args)
        return _league(args)
    except SaveError as e:
        print(str(e), file=sys.stderr)
        return 2 if not _refused(e) else 1


def _refused(e: SaveError) -> bool:
    from core.league.certificate import NotCounted

    return isinstance(e, NotCounted)


def _certify(args: argparse.Namespace) -> int:
    from core.league import certificate
    from core.league.certificate import NAMESPACE
    from core.league.levels import BOTH, level_of
    from core.secrets import shown

    cert, _verified = certificate.certify(args.path)
    target = args.out or certificate.default_path(args.path)
    certificate.write(cert, target)
    sides = ", ".join(f"{p.side}: {p.name}" + (f" ({p.key})" if p.key else "") for p in cert.players)
    result = _("a draw") if cert.draw else _("won by {side}").format(side=cert.winner)
    said = _("{file}: the certificate of {save}: {result}; players {players}")
    lines = [shown(said.format(file=target, save=args.path, result=result, players=sides or "-"))]
    if changed := certificate.rules_changed_said(cert):
        lines.append(changed)
    confirmed = certificate.confirmed_sides(args.path, cert)
    level = level_of(confirmed, len({*cert.scores, *(p.side for p in cert.players)}), organiser=True)
    if confirmed:
        said = _("{level} (the save verifies; confirmed at the seat: {sides})")
        lines.append(shown(said.format(level=_(level), sides=", ".join(confirmed))))
    else:
        lines.append(_("{level} (the save verifies; no player has confirmed it yet)").format(level=_(level)))
    if level != BOTH:
        said = _(
            "each player signs it with his own SSH key: ssh-keygen -Y sign -f ~/.ssh/id_ed25519 -n {ns} {file} "
            "(it writes {file}.sig; the second player signs a copy, or renames his); "
            "a player with no key types confirm at his seat instead (before league add)"
        )
        lines.append(shown(said.format(ns=NAMESPACE, file=target)))
    return 0 if written("".join(f"{line}\n" for line in lines), "certify") else UNWRITTEN


def _points(text: str) -> tuple[int, int, int]:
    try:
        win, draw, loss = (int(x) for x in text.split(","))
    except ValueError:
        raise SaveError(_("--points: three whole numbers, W,D,L (e.g. 3,1,0)")) from None
    if not all(-100 <= x <= 100 for x in (win, draw, loss)):
        raise SaveError(_("--points: each between -100 and 100"))
    return win, draw, loss


def _league(args: argparse.Namespace) -> int:
    from core.language.reader import lang
    from core.league import certificate as certs
    from core.league import render, season, standings
    from core.secrets import shown

    path: Path = args.league
    if args.action == "new":
        made = season.new(path, args.name or path.stem, args.signers, args.organiser, _points(args.points))
        said = _("{path}: a new league, {name}: {signers} keys, organiser {organiser}; points {w}/{d}/{l}")
        o = made.opened
        shown_args = {"name": o.name, "signers": len(made.signers), "organiser": o.organiser}
        print(shown(said.format(path=path, w=o.win, d=o.draw, l=o.loss, **shown_args)))
        return 0
    if args.action == "add":
        game = season.add(path, args.save, args.cert, args.sigs)
        said = shown(render.game_line(game)) + "\n"
        if changed := certs.rules_changed_said(game.cert):
            said += changed + "\n"
        return 0 if written(said, "league add") else UNWRITTEN
    if args.action == "dispute":
        print(shown(render.game_line(season.dispute(path, args.game, args.by, args.why))))
        return 0
    if args.action == "rule":
        from core.league.records import RESULT, STANDS, VOID

        ruling = STANDS if args.stands else VOID if args.void else RESULT
        game = season.rule(path, args.game, ruling, args.why, winner=args.winner or "", draw=args.draw)
        print(shown(render.game_line(game)))
        return 0
    league = season.load(path)
    table = standings.table(league)
    title = league.opened.name
    if args.format == "json":
        sys.stdout.write(render.as_json(table, title))
    elif args.format == "md":
        sys.stdout.write(render.markdown(table, title))
    elif args.format == "html":
        sys.stdout.write(render.page(table, title, lang()))
    else:
        sys.stdout.write(render.text(table, title))
    return 0
