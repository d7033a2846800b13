# ruff: noqa: F811  (the club, a pytest fixture, imported from test_league_add)
"""Issue #90, point 2: a command is resolved in the language it was given in.

A line keeps the names of units and sides as its player typed them (``fine-partita paracadutisti
presa``): read again by a reader of another language, it named no side, and ``verify`` called an
Italian table's game forged in English. Each command now records its language (``Issued.lang``)
and every reader reads it again in it; a command of an older session, which names none, is read in
each language Fireteam speaks, English first (ruling CORE-GIVEN-IN).
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import msgspec
import pytest
from forged import rewrite
from test_core_held_dice import FIRE, served
from test_league_add import club  # noqa: F401

from core.cli.main import run_script
from core.language.reader import reading
from core.league import certificate, season
from core.log import events as ev
from core.log.outcome import Held, Outcome
from core.secrets.verify import verify
from tests.shared.keys import sign
from tui.main import main as fireteam

#: The issue's game: Ludonet's demo ended by an Italian referee, the paras named in Italian.
ENDED_IN_ITALIAN = "scenario demo\n{players}next\nnext\nfine-partita paracadutisti presa\n"
#: The same game as 0.2.0 wrote it (2026-11-28, before languages were recorded): no command names one.
OLDER = Path(__file__).resolve().parent / "saves" / "ludonet-italian-0.2.0.ft"


def _ended_in_italian(folder: Path, players: str = "") -> Path:
    script, save = folder / "F", folder / "g.ft"
    script.write_text(ENDED_IN_ITALIAN.format(players=players), encoding="utf-8")
    with reading("it"):
        assert run_script(script, save, None, "ludonet", "", out=io.StringIO()) == 0
    return save


def _verdict(save: Path, lang: str, *more: str) -> tuple[int, dict]:
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("sys.stdout", out)
        status = fireteam(["verify", "--json", str(save), *more, "--lang", lang])
    document = json.loads(out.getvalue())
    return status, {k: document[k] for k in ("ok", "finished", "facts", "side_copy") if k in document}


def test_a_game_ended_in_italian_verifies_the_same_in_english_and_in_italian(tmp_path):
    save = _ended_in_italian(tmp_path)
    ending = [e for e in _issued(save) if e.text.startswith("end-game")]
    assert [(e.text, e.lang) for e in ending] == [("end-game paracadutisti presa", "it")]
    english, italian = _verdict(save, "en"), _verdict(save, "it")
    assert english == italian and english[0] == 0 and english[1]["facts"]["differ"] == []


def test_its_certificate_and_a_sides_copy_are_the_same_in_every_language(tmp_path):
    save = _ended_in_italian(tmp_path)
    made = {}
    for lang in ("en", "it"):
        assert fireteam(["certify", str(save), "-o", str(tmp_path / f"{lang}.result"), "--lang", lang]) == 0
        made[lang] = (tmp_path / f"{lang}.result").read_bytes()
        assert (
            fireteam(["export", str(save), "--as", "paras", "-o", str(tmp_path / f"{lang}.copy"), "--lang", lang]) == 0
        )
    assert made["en"] == made["it"]
    assert (tmp_path / "en.copy").read_bytes() == (tmp_path / "it.copy").read_bytes()
    for lang in ("en", "it"):
        status, verdict = _verdict(save, lang, "--side-copy", str(tmp_path / "it.copy"))
        assert status == 0 and verdict["side_copy"]["differ"] == []


@pytest.mark.subprocess
def test_an_italian_tables_result_is_added_by_an_english_organiser(tmp_path, club):
    league, keys = club
    save = _ended_in_italian(tmp_path, players="giocatori paras=anna garrison=bruno\n")
    with reading("it"):
        cert, _verified = certificate.certify(save)
    path = certificate.default_path(save)
    certificate.write(cert, path)
    with reading("en"):
        game = season.add(league, save, path, [sign(keys["anna"], path)])
    assert (game.winner, game.players) == ("paras", {"paras": ("anna",), "garrison": ("bruno",)})


def test_an_older_save_given_in_italian_names_no_language_and_still_verifies(capsys):
    assert {e.lang for e in _issued(OLDER)} == {""} and _issued(OLDER)[0].version == "0.2.0"
    for lang in ("en", "it"):
        assert fireteam(["verify", str(OLDER), "--lang", lang]) == 0
    assert "forged" not in capsys.readouterr().out


def test_a_language_an_older_fireteam_never_recorded_is_not_believed(tmp_path, capsys):
    save = tmp_path / "g.ft"
    shutil.copyfile(OLDER, save)
    rewrite(save, lambda events: [_with_lang(e, "it") if type(e) is ev.Issued and e.cmd == 4 else e for e in events])
    assert fireteam(["verify", str(save)]) == 1
    said = "not believed: it names the language it was given in (it), which Fireteam 0.2.0 did not record"
    assert said in capsys.readouterr().out


def test_a_language_this_fireteam_does_not_read_is_not_believed(tmp_path, capsys):
    save = _ended_in_italian(tmp_path)
    rewrite(save, lambda events: [_with_lang(e, "xx") if type(e) is ev.Issued and e.cmd == 4 else e for e in events])
    assert fireteam(["verify", str(save)]) == 1
    assert "it names a language this Fireteam does not read (xx)" in capsys.readouterr().out


def test_a_command_held_at_an_italian_seat_is_recorded_in_italian_whoever_answers(tmp_path):
    g, _told = served(tmp_path, {"regulars", "irregulars"})
    with reading("it"):
        held = g.submit("spara conti bashir distanza=40", role="regulars", by="pia", faces=[6])
    assert isinstance(held, Held) and (held.awaited.text, held.awaited.lang) == (FIRE, "it")
    with reading("en"):
        done = g.answer_held(role="irregulars", by="fon", faces=[4])
    assert isinstance(done, Outcome) and g.history.issued(done.cmd).lang == "it"
    g.close()
    assert verify(g.path).status == 0


def _issued(save: Path) -> list[ev.Issued]:
    from core.game import Game

    game = Game.open(save, writable=False)
    try:
        return [e for e in game.history.store.slice(0, len(game.history.store)) if type(e) is ev.Issued]
    finally:
        game.close()


def _with_lang(e: ev.Issued, lang: str) -> ev.Issued:
    return msgspec.structs.replace(e, lang=lang)
