"""``fireteam certify`` and ``fireteam league new|add|standings|dispute|rule`` (docs/league.md)."""

from __future__ import annotations

import argparse
import string
import sys
from pathlib import Path

from core.cli.lang import add_lang_option
from core.cli.output import UNWRITTEN, tell, written
from core.language.i18n import _, ngettext
from core.storage.errors import SaveError

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
    _add_league_parsers(sub)


def _add_league_parsers(sub: argparse._SubParsersAction) -> None:
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
    _key_option(p, _("the organiser's SSH key, to sign the season's settings (ssh-keygen -Y sign runs it)"))
    p.add_argument(
        "--counts",
        choices=("any", "organiser", "both"),
        default="any",
        help=_(
            "which games count: any (every game that verifies), organiser (confirmed by both players or signed "
            "by the organiser), both (confirmed by both players) (default: %(default)s)"
        ),
    )
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
    p.add_argument(
        "--key",
        type=Path,
        metavar="KEY",
        help=_(
            "the organiser's SSH key, to vouch for the players' confirmations at their seats: "
            "they count only signed by him (ssh-keygen -Y sign runs it)"
        ),
    )
    add_lang_option(p)
    p = actions.add_parser("standings", help=_("the season's standings and games"))
    p.add_argument("league", type=Path, metavar="LEAGUE")
    p.add_argument("--format", choices=("text", "md", "html", "json"), default="text")
    p.add_argument(
        "--receipt",
        action="append",
        default=[],
        metavar="RECEIPT",
        help=_("a receipt league add printed: refused (exit 1) unless this league file holds it"),
    )
    add_lang_option(p)
    _add_dispute_parsers(actions)


def _add_dispute_parsers(actions: argparse._SubParsersAction) -> None:
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
    _key_option(p, _("the organiser's SSH key, to sign the ruling (ssh-keygen -Y sign runs it)"))
    add_lang_option(p)


def _key_option(p: argparse.ArgumentParser, said: str) -> None:
    p.add_argument("--key", type=Path, required=True, metavar="KEY", help=said)


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
    level = level_of(confirmed, len({*cert.scores, *(p.side for p in cert.players)}), organiser=False)
    if confirmed:
        said = _("{level} (the save verifies; confirmed at a seat bound to the player: {sides})")
        lines.append(shown(said.format(level=_(level), sides=", ".join(confirmed))))
    else:
        lines.append(_("{level} (the save verifies; no player has confirmed it yet)").format(level=_(level)))
    if level != BOTH:
        said = _(
            "each player signs it with his own SSH key: ssh-keygen -Y sign -f ~/.ssh/id_ed25519 -n {ns} {file} "
            "(it writes {file}.sig; the second player signs a copy, or renames his); "
            "a player with no key types confirm at a served table's seat of his own instead (before league add)"
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
    from core.league import render, season
    from core.league.levels import COUNTS_SAID
    from core.secrets import shown

    path: Path = args.league
    if args.action == "standings":
        return _standings(path, args.format, args.receipt)
    if args.action == "new":
        made = season.new(
            path, args.name or path.stem, args.signers, args.organiser, _points(args.points), args.key, args.counts
        )
        said = _("{path}: a new league, {name}: {signers} keys, organiser {organiser}; points {w}/{d}/{l}; {counts}")
        o = made.opened
        shown_args = {"name": o.name, "signers": sum(not s.revoked for s in made.signers), "organiser": o.organiser}
        line = said.format(path=path, w=o.win, d=o.draw, l=o.loss, counts=_(COUNTS_SAID[o.counts]), **shown_args)
        return _written([shown(line), _receipt(made.head)], args.action)
    if args.action == "add":
        from core.league import certificate as certs

        game = season.add(path, args.save, args.cert, args.sigs, args.key)
        lines = [shown(render.game_line(game))]
        if changed := certs.rules_changed_said(game.cert):
            lines.append(changed)
        if game.unvouched:
            said = _(
                "its confirmations at seats ({sides}) left out: "
                "seat confirmations count only signed by the organiser (--key)"
            )
            lines.append(shown(said.format(sides=", ".join(game.unvouched))))
        return _written([*lines, _receipt(game.head)], args.action)
    if args.action == "dispute":
        return _written([shown(render.game_line(season.dispute(path, args.game, args.by, args.why)))], args.action)
    from core.league.records import RESULT, STANDS, VOID

    ruling = STANDS if args.stands else VOID if args.void else RESULT
    ruled = season.rule(path, args.game, ruling, args.why, args.key, winner=args.winner or "", draw=args.draw)
    return _written([shown(render.game_line(ruled))], args.action)


def _receipt(head: bytes) -> str:
    from core.league.folding import receipt

    said = _("receipt: {receipt} (the league's head after it: keep it; the standings show it beside the game)")
    return said.format(receipt=receipt(head))


def _written(lines: list[str], action: str) -> int:
    """What a command that wrote the league says, written whole: 0, or ``UNWRITTEN`` (what it
    wrote to the league stands; only its answer, the receipt, is lost)."""
    if written("".join(f"{line}\n" for line in lines), f"league {action}"):
        return 0
    tell(_("fireteam league: what it wrote to the league stands: `league standings` shows it"))
    return UNWRITTEN


def _standings(path: Path, form: str, receipts: list[str]) -> int:
    """The standings written whole, every signature in the file judged again: 1 if the re-check
    flagged anything or a receipt given names no record of the file (each said on standard
    error), ``UNWRITTEN`` if they could not be written."""
    from core.language.reader import lang
    from core.league import render, season, standings
    from core.secrets import shown

    j, league = season.read(path, recheck=True)
    held = {h.hex() for h in j.heads}
    unheld = [r for r in receipts if not (len(r) >= 8 and any(h.startswith(r.lower()) for h in held))]
    for r in unheld:
        if len(r) < 8 or any(c not in string.hexdigits for c in r):
            said = _("{path}: {receipt} is not a receipt (8 or more hexadecimal digits, as league add prints it)")
        else:
            said = _(
                "{path}: the receipt {receipt} names no record of this file: it was cut short or changed before it"
            )
        tell(shown(said.format(path=path, receipt=r)))
    table = standings.table(league)
    title = league.opened.name
    if form == "json":
        text = render.as_json(table, title)
    elif form == "md":
        text = render.markdown(table, title)
    elif form == "html":
        text = render.page(table, title, lang())
    else:
        text = render.text(table, title)
    if not written(text, "league standings"):
        return UNWRITTEN
    flagged = league.flagged
    for problem in flagged:
        tell(shown(problem))
    if flagged:
        said = ngettext(
            "{n} thing in this league file does not hold: what it touches is not counted",
            "{n} things in this league file do not hold: what they touch is not counted",
            len(flagged),
        )
        tell(said.format(n=len(flagged)))
    return 1 if flagged or unheld else 0
