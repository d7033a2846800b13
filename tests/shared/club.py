"""A club's league for tests, made as a club makes it (docs/league.md): keys and signatures by
``ssh-keygen``, games played by ``fireteam script``'s code with seeded dice, certificates by
``fireteam certify``'s, a league whose settings the organiser signed."""

from __future__ import annotations

import io
import json
import subprocess
import zlib
from collections.abc import Callable
from pathlib import Path

from core.cli.main import run_script
from core.game import Game
from core.league import certificate, season
from core.league.atseat import with_digest
from core.log import events as ev
from tests.shared.keys import keygen, sign, signer_line

CLUB = ("anna", "bruno", "carla", "org")


def play(
    folder: Path,
    name: str,
    seats: str = "german=anna british=bruno",
    end: str = "victory german held",
    seed: int = 7,
) -> Path:
    """A short Ludonet game, seeded, ended by the referee; ``seats`` one ``players`` line, or
    several separated by ``;`` (``german=anna via=invitation; british=bruno via=invitation``)."""
    players = "".join(f"players {line.strip()}\n" for line in seats.split(";"))
    script = folder / f"{name}.script"
    script.write_text(f"scenario tanks\n{players}next\n{end}\n", encoding="utf-8")
    save = folder / f"{name}.ft"
    assert run_script(script, save, seed, "ludonet", "", out=io.StringIO()) == 0
    return save


def club_keys(folder: Path, names: tuple[str, ...] = CLUB, options: dict[str, str] | None = None) -> Path:
    """A key for each name and the club's allowed_signers file (``options``: name → the options of its line)."""
    lines = []
    for name in names:
        line = signer_line(keygen(folder, name), name)
        if options and name in options:
            line = line.replace(f"{name} ", f"{name} {options[name]} ", 1)
        lines.append(line)
    signers = folder / "allowed_signers"
    signers.write_text("\n".join(lines) + "\n")
    return signers


def new_league(folder: Path, name: str = "club", counts: str = "any") -> Path:
    """A league of the club whose keys are in ``folder`` (``club_keys``), signed by its organiser ``org``."""
    league = folder / f"{name}.league"
    season.new(league, "Club", folder / "allowed_signers", "org", (3, 1, 0), folder / "org", counts)
    return league


def certified(save: Path, folder: Path, *signers: str) -> tuple[Path, list[Path]]:
    """The save's certificate written beside it, signed by each of ``signers`` (their keys in ``folder``)."""
    cert, _verified = certificate.certify(save)
    path = certificate.default_path(save)
    certificate.write(cert, path)
    return path, [signed(path, folder / name, name) for name in signers]


def signed(cert: Path, key: Path, name: str) -> Path:
    sig = sign(key, cert)
    return sig.rename(cert.with_name(f"{cert.name}.{name}.sig"))


def confirm_at(save: Path, side: str, by: str) -> list[ev.Event]:
    """``confirm`` typed at the seat ``by`` of ``side``, as a seat gives it (its digest added)."""
    game = Game.open(save)
    try:
        return list(game.execute(with_digest(game, "confirm", side, by), role=side, by=by).events)
    finally:
        game.close()


def fingerprint(key: Path) -> str:
    """A key's fingerprint, as ``ssh-keygen -l`` says it."""
    line = subprocess.run(["ssh-keygen", "-l", "-f", str(key)], capture_output=True, text=True, check=True).stdout
    return line.split()[1]


def rechained(path: Path, edit: Callable[[list[dict]], None]) -> None:
    """The league file's lines edited as JSON (the header first) and their checks chained again:
    what whoever holds the file can do, and the CRC-32 chain cannot see."""
    lines = path.read_bytes().split(b"\n")[:-1]
    records = [json.loads(line[9:]) for line in lines]
    edit(records)
    out, check = [], 0
    for i, record in enumerate(records):
        payload = json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode()
        check = zlib.crc32(payload) if i == 0 else zlib.crc32(payload, check)
        out.append(b"%08x %b" % (check, payload))
    path.write_bytes(b"\n".join(out) + b"\n")
