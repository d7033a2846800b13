"""The client in Italian and English: chosen by --lang, the saved setting or the locale,
changed live from the command palette, and each app (each SSH seat) with its own reader."""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from playing import opened
from skirmish import game_fixture, patrol_game  # noqa: F401  (a fixture)
from textual.command import CommandInput
from waiting import IN_CHILD, piloted, press, screen_of, settled, until

import core.language.i18n as i18n
from core.dice.probability import check_summary
from core.language import reader as readers
from core.language.i18n import M
from core.language.reader import Reader, lang, reader, set_process_language, use_reader
from core.log.events import All, AtLeast, Each, Mod, Roll
from core.log.views import REFEREE
from tui import odds
from tui.i18n import phase_name, start_language
from tui.main import main as fireteam
from tui.panes.dice import DicePane, chance_line, roll_summary, target_text
from tui.panes.log import LogPane, LogView
from tui.panes.phase import PhasePane
from tui.panes.roster import RosterPane
from tui.run import prepare_language
from tui.screens.dialogs import ConfirmBox
from tui.screens.game import GameScreen
from tui.screens.help import HelpEntry, HelpScreen, command_names
from tui.textual_internals import FooterKey
from tui.userdata import Settings, UserStore

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
OPENING = ("next", "next", "shoot cole ivan 40", "mark diaz wounded")


@pytest.fixture(autouse=True)
def english_after(monkeypatch):
    """No locale from the machine running the tests, and the process back in English after each."""
    for key in LOCALE:
        monkeypatch.delenv(key, raising=False)
    yield
    set_process_language("en")


def footer_words(app) -> list[str]:
    return [str(k.description) for k in app.screen.query(FooterKey) if k.description]


def phase_line(app) -> str:
    return str(app.screen.query_one(PhasePane).render())


def log_rows(app) -> str:
    view = app.screen.query_one(LogView)
    return "\n".join(view.render_line(y).text for y in range(view.size.height))


# ----------------------------------------------------------------- choosing


def test_the_language_is_lang_then_the_saved_setting_then_the_locale_then_english():
    it = {"LANG": "it_IT.UTF-8"}
    assert start_language("en", "it", it) == "en"
    assert start_language(None, "it", {"LANG": "C"}) == "it"
    assert start_language(None, "", it) == "it"
    assert start_language(None, "", {}) == "en"
    assert start_language(None, "fr", {"LANG": "fr_FR"}) == "en"  # a language the client has not


@pytest.mark.long
async def test_at_an_italian_locale_the_client_shows_italian_panes_phase_footer_and_help(monkeypatch, tmp_path):
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    prepare_language(None)  # what `fireteam` does before the app starts
    async with piloted(patrol_game(tmp_path / "g.ft", commands=OPENING), settle=True) as (app, pilot):
        screen = app.screen
        assert screen.query_one(RosterPane).border_title == "Forze"
        assert screen.query_one(LogPane).border_title == "Registro delle azioni"
        assert screen.query_one(DicePane).border_title == "Ultimo tiro"
        line = phase_line(app)
        assert "Turno 1" in line and "Punti sconfitta" in line and "attivo" in line
        assert "arbitro" in str(screen.query_one(PhasePane).border_title)
        assert {"Aiuto", "Azioni", "Annulla"} <= set(footer_words(app))
        await press(pilot, "f1")
        help_screen = screen_of(app, HelpScreen)
        shown = " ".join(str(p.render()) for p in help_screen.query("Plain"))
        assert "Aiuto di Fireteam" in shown and " Tasti " in shown and " Comandi " in shown
        entries = " ".join(entry.text for entry in help_screen.query(HelpEntry))
        assert "tavolozza dei comandi: ogni azione" in entries and "i comandi stanno su una riga" in entries


@pytest.mark.long
async def test_lang_en_overrides_an_italian_locale_and_a_saved_italian_setting(monkeypatch, tmp_path):
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    store = UserStore(tmp_path / "config", tmp_path / "data")
    store.save_settings(Settings(lang="it"))
    prepare_language("en")
    async with piloted(patrol_game(tmp_path / "g.ft", commands=OPENING), store=store, lang="en") as (app, pilot):
        await settled(pilot)
        assert lang() == "en"
        assert app.screen.query_one(RosterPane).border_title == "Roster"
        assert "Turn 1" in phase_line(app)


async def test_a_saved_setting_is_used_when_no_lang_is_given(tmp_path):
    store = UserStore(tmp_path / "config", tmp_path / "data")
    store.save_settings(Settings(lang="it"))
    prepare_language(None)  # no locale: English, until the setting is read
    async with piloted(patrol_game(tmp_path / "g.ft", commands=OPENING), store=store, settle=True) as (app, pilot):
        assert app.screen.query_one(RosterPane).border_title == "Forze"


def test_a_saved_language_the_client_has_not_is_ignored_with_a_notice(tmp_path):
    store = UserStore(tmp_path / "config", tmp_path / "data")
    store.settings_path.parent.mkdir(parents=True)
    store.settings_path.write_text('{"lang": "xx"}')
    assert store.load_settings() == Settings()
    assert any("settings ignored" in n for n in store.notices)


# --------------------------------------------------------------------- live


@pytest.mark.long
async def test_the_palette_entry_switches_language_live_every_pane_and_the_log(tmp_path):
    store = UserStore(tmp_path / "config", tmp_path / "data")
    game = patrol_game(tmp_path / "g.ft", commands=OPENING)
    async with piloted(game, store=store, settle=True) as (app, pilot):
        screen = screen_of(app, GameScreen)
        assert "(undone)" not in log_rows(app)
        await press(pilot, "ctrl+z", "y")  # an undone line says so in the reader's language
        assert "(undone)" in log_rows(app)
        entries = {name: action for name, _help, action in screen.palette_actions()}
        assert entries["Language: Italiano"] == "language('it')"
        assert "Language: English" not in entries
        await screen.run_action("language('it')")
        await settled(pilot)
        assert lang() == "it"
        assert screen.query_one(RosterPane).border_title == "Forze"
        assert screen.query_one(LogPane).border_title == "Registro delle azioni"
        assert "Turno 1" in phase_line(app)
        assert "(annullato)" in log_rows(app) and "(undone)" not in log_rows(app)
        assert "Aiuto" in footer_words(app)
        assert {name for name, _help, _a in screen.palette_actions()} >= {"Lingua: English", "Aiuto"}
        await press(pilot, "ctrl+p")
        assert app.screen.query_one(CommandInput).placeholder == "Cerca tra i comandi…"
        await press(pilot, "escape")
        await app.workers.wait_for_complete()
        assert store.load_settings().lang == "it"  # remembered for the next start
        await screen.run_action("language('en')")
        await settled(pilot)
        assert screen.query_one(RosterPane).border_title == "Roster"
        assert "Turn 1" in phase_line(app)
        assert "(undone)" in log_rows(app)
        assert "Help" in footer_words(app)


@pytest.mark.long
async def test_two_apps_in_one_process_each_read_their_own_language(tmp_path):
    """As two SSH seats do: each app in a task with its own reader; a change in one leaves the other."""
    game = patrol_game(tmp_path / "g.ft", commands=OPENING)
    seen: dict[str, tuple[str, str]] = {}

    async def seat(name: str, code: str, switch_to: str | None) -> None:
        use_reader(Reader(code))
        async with piloted(game, role="referee", remote=True, settle=True) as (app, pilot):
            if switch_to:
                app.set_language(switch_to)
                await settled(pilot)
            await asyncio.sleep(0)
            seen[name] = (reader().lang, str(app.screen.query_one(RosterPane).border_title))

    await asyncio.gather(asyncio.create_task(seat("anna", "it", None)), asyncio.create_task(seat("bob", "it", "en")))
    assert seen == {"anna": ("it", "Forze"), "bob": ("en", "Roster")}
    assert lang() == "en"  # the process's own reader was never touched


# ------------------------------------------------------------- phase names


@pytest.fixture
def catalogue(tmp_path, monkeypatch):
    """A made-up Italian catalogue for a domain (the client's own kept): what a ruleset's
    catalogue will say, whatever the real ones hold today."""

    def make(domain: str, po: str) -> None:
        folder = tmp_path / "locale" / "it" / "LC_MESSAGES"
        folder.mkdir(parents=True)
        shutil.copy(i18n.LOCALE_DIR / "it" / "LC_MESSAGES" / "client.po", folder / "client.po")
        header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        (folder / f"{domain}.po").write_text(header + po, encoding="utf-8")
        monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "locale")
        i18n.forget_catalogues()

    yield make
    monkeypatch.undo()
    i18n.forget_catalogues()


def test_a_phase_is_named_from_its_rulesets_catalogue_else_by_its_title(game, catalogue):
    """The book's name for a phase (``msgctxt "phase"``) where its catalogue has one."""
    ruleset = game.ruleset
    activation = ruleset.phase("activation")
    assert phase_name(ruleset, activation) == "Activation"
    catalogue(
        ruleset.domain,
        'msgctxt "phase"\nmsgid "activation"\nmsgstr "Attivazione"\n\nmsgid "End of turn"\nmsgstr "Fine del turno"\n',
    )
    with readers.reading("it"):
        assert phase_name(ruleset, activation) == "Attivazione"
        assert phase_name(ruleset, ruleset.phase("end")) == "Fine del turno"  # its title translated
        assert phase_name(ruleset, ruleset.phase("setup")) == "Set-up"  # neither: the title
    assert phase_name(ruleset, activation) == "Activation"  # an English reader's


@pytest.mark.long
async def test_the_help_shows_each_commands_italian_and_english_names_in_either_language(game, catalogue):
    catalogue(game.ruleset.domain, 'msgctxt "command"\nmsgid "shoot"\nmsgstr "spara"\n')
    shoot = next(spec for spec in game.commands if spec.name == "shoot")
    assert command_names(shoot, game.ruleset.domain) == ["shoot", "spara"]
    for code in ("en", "it"):
        with readers.reading(code):
            async with piloted(game, settle=True) as (app, pilot):
                await press(pilot, "f1")
                texts = [entry.text for entry in app.screen.query(HelpEntry)]
                assert any(t.startswith("shoot spara ") for t in texts), code


# ---------------------------------------------------------------- the dice


def test_the_dice_pane_says_a_rolls_chance_target_and_owner_in_italian():
    """3 dice needing one 5+, 1 - (4/6)^3 = 19/27 = 70.4%; two saves at 5+, (2/6)^2 = 11.1%."""
    check = AtLeast(face=5, base=4)
    roll = Roll(M("fire"), (2, 5, 1), target=5, mods=(Mod(M("range"), 1, "§8.0"),), outcome=M("1 hit"), check=check)
    with readers.reading("it"):
        assert odds.chance_text(roll) == "70,4% di fare almeno un 5+ con 3d6"
        under = Roll("save", (3,), target=4, under=True, check=AtLeast(face=4, under=True))
        assert odds.chance_text(under) == "66,7% di fare 4 o meno con 1d6"
        save = Roll("save", (5, 3), target=5, check=All(face=5))
        assert odds.chance_text(save) == "11,1% di fare 5+ su ogni dado di 2d6"
        assert odds.chance_text(Roll("fire", (4,), check=Each(face=4))) == (
            "50,0% a dado di fare 4+ con 1d6, 50,0% di fare almeno un successo"
        )
        assert check_summary(save.check, 2) == "serve 5+ su ognuno di 2d6: 11,1%"
        assert chance_line(roll).plain == "prima del tiro: 70,4% di fare almeno un 5+ con 3d6"
        assert target_text(roll).plain == "serve 5+ (base 4) · range +1 §8.0"
        assert roll_summary(roll, "Pte Greco").plain == "1 hit · fire di Pte Greco 3d6"
    assert odds.chance_text(roll) == "70.4% for at least one 5+ on 3d6"
    assert roll_summary(roll, "Pte Greco").plain == "1 hit · Pte Greco's fire 3d6"


# ------------------------------------------------------------ the command


def test_fireteam_lang_it_gives_its_help_and_its_errors_in_italian(tmp_path, capsys):
    with pytest.raises(SystemExit):
        fireteam(["--lang", "it", "game.ft", "--help"])  # the client's own options (the first word is a save)
    said = capsys.readouterr().out
    assert "un salvataggio da aprire" in said and "la lingua del client" in said
    missing = tmp_path / "missing.ft"
    assert fireteam([str(missing), "--replay", "--lang=it"]) == 2
    assert (
        capsys.readouterr().err == f"fireteam: impossibile aprire il salvataggio: {missing}: salvataggio inesistente\n"
    )
    assert fireteam([str(missing), "--replay", "--lang", "en"]) == 2
    assert capsys.readouterr().err == f"fireteam: cannot open the save: {missing}: no such save\n"


# ------------------------------------------------------------ the start

#: A client started on a copy of the demo save in a language, in a process of its own, its
#: catalogues those of a folder (argv[3]), babel importable or not (argv[4]): what its roster
#: is called, and whether babel was imported.
STARTED = """
import asyncio, shutil, sys
from pathlib import Path
if sys.argv[4] == "no-babel":
    sys.modules["babel"] = None  # as an install without it
import core.language.i18n as i18n
i18n.LOCALE_DIR = Path(sys.argv[3])
from core.game import Game
from tui.app import FireteamApp
from tui.run import prepare_language
from tui.panes.roster import RosterPane
from tui.userdata import UserStore

lang, folder = sys.argv[1], Path(sys.argv[2])
save = folder / "saves" / f"{lang}.ft"
save.parent.mkdir(exist_ok=True)
shutil.copyfile("saves/demo-game.ft", save)
prepare_language(lang)

async def start():
    app = FireteamApp(Game.open(save), role="referee", store=UserStore(folder / "config", folder / "data"), lang=lang)
    async with app.run_test(size=(100, 30)) as pilot:
        await settled(pilot)
        print(app.screen.query_one(RosterPane).border_title)

asyncio.run(start())
print(sys.modules.get("babel") is not None)
"""


def _start(lang: str, folder: Path, locale: Path, babel: str = "babel") -> tuple[list[str], str]:
    result = subprocess.run(
        [sys.executable, "-c", IN_CHILD + STARTED, lang, str(folder), str(locale), babel],
        capture_output=True, text=True, cwd=ROOT, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines(), result.stderr


def _catalogues(folder: Path, *, compiled: bool) -> Path:
    """A copy of the catalogues' sources, compiled as a build compiles them (setup.py) or not."""
    from core.language import compiled as build  # (as setup.py compiles them)

    for po in (ROOT / "core" / "language" / "locale").glob("*/LC_MESSAGES/*.po"):
        copy = folder / po.relative_to(ROOT / "core" / "language" / "locale")
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(po, copy)
        if compiled:
            copy.with_suffix(build.SUFFIX).write_bytes(build.compiled(po.read_bytes(), po.parts[-3], po.stem))
    return folder


@pytest.mark.subprocess
def test_a_start_reads_the_compiled_catalogues_with_no_babel(tmp_path):
    built = _catalogues(tmp_path / "built", compiled=True)
    assert _start("en", tmp_path, built, "no-babel") == (["Roster", "False"], "")
    assert _start("it", tmp_path, built, "no-babel") == (["Forze", "False"], "")


@pytest.mark.subprocess
def test_a_checkout_never_built_compiles_with_babel_or_says_it_speaks_english(tmp_path):
    sources = _catalogues(tmp_path / "sources", compiled=False)
    assert _start("it", tmp_path, sources) == (["Forze", "True"], "")  # compiled, and left for the next start
    assert sorted(p.stem for p in sources.glob("it/LC_MESSAGES/*.msgpack")) == ["breaking_news", "client", "fireteam"]
    assert _start("it", tmp_path, sources, "no-babel") == (["Forze", "False"], "")
    for made in sources.glob("*/LC_MESSAGES/*.msgpack"):
        made.unlink()
    lines, said = _start("it", tmp_path, sources, "no-babel")
    assert lines == ["Roster", "False"]
    assert said == (
        "fireteam: the it catalogues are not compiled here (pip install -e . again, or pip install babel): "
        "English instead\n"
    )


def test_a_seat_names_its_side_as_the_roster_does_in_italian(tmp_path):
    """Found at a served table (#61): an Italian phone's title read "come Village militia", its
    command line "fon (Village militia)" and a held roll "dato da Folgore patrol", while its
    roster said Milizia del villaggio and Pattuglia della Folgore."""
    from core.language.reader import reading
    from tui.i18n import role_words

    g = opened(tmp_path / "g.ft", "bassa-intensita", "scenario demo", seed=1)
    with reading("it"):
        assert (role_words("militia", g.state), role_words("folgore", g.state)) == (
            "Milizia del villaggio",
            "Pattuglia della Folgore",
        )
        assert role_words(REFEREE, g.state) == "arbitro"
    g.close()


async def test_the_replay_bar_names_the_games_end_in_the_readers_language(tmp_path):
    """Found replaying a finished game in Italian (#61): the bar read "turno 7 · ended", the
    state's id, while the phase pane above it said the book's word."""
    from core.game import Game
    from tui.screens.replay_bar import ReplayBar

    save = tmp_path / "ludonet-game.ft"
    shutil.copy(Path(__file__).resolve().parents[2] / "saves" / "ludonet-game.ft", save)
    game = Game.open(save, writable=False)
    assert game.state.phase == "ended"
    with readers.reading("it"):
        async with piloted(game, replay=True, settle=True) as (app, pilot):
            bar = app.screen.query_one(ReplayBar).render_line(0).text
    game.close()
    assert "turno 7 · finita" in bar and "ended" not in bar, bar


async def test_the_help_gives_linea_di_tiros_defences_and_examples_in_italian(tmp_path):
    """#61: under --lang it, the help's `mg` named its defences and arguments in English
    (`defence: … [moving-open|…]`, `es. mg gis grenadiers defence=still-open`) while its usage
    line, the plain seat's help and the command line took the catalogue's Italian."""
    g = opened(tmp_path / "lt.ft", "linea-di-tiro", "scenario demo", seed=5)
    with readers.reading("it"):
        async with piloted(g, settle=True) as (app, pilot):
            await press(pilot, "f1")
            # (an entry's text is its help lowercased, as it is searched)
            (mg,) = [entry.text for entry in app.screen.query(HelpEntry) if entry.text.startswith("mg ")]
    assert "difesa: cosa sta facendo il bersaglio" in mg
    assert "[movimento-scoperto|balzo-scoperto|" in mg.split("difesa:")[1]  # its choices, as the usage names them
    assert "es. mg gis grenadiers difesa=fermo-scoperto" in mg
    assert "pronto: impiega un attacco preparato" in mg
    for english in ("still-open", "moving-open", "defence", "ready", "ambush"):
        assert english not in mg, english
    g.close()


async def test_the_logs_count_of_newer_lines_agrees_with_its_number_in_italian(tmp_path):
    """The log said "▼ 1 più recenti (Fine)" at a served table (#61): one line is "più recente"."""
    with readers.reading("it"):
        async with piloted(patrol_game(tmp_path / "g.ft", commands=OPENING), settle=True) as (app, pilot):
            pane = app.screen.query_one(LogPane)
            said = []
            for count in (1, 3):
                pane.post_message(LogView.Newer(count))
                shown = f"▼ {count} "
                await until(pilot, lambda shown=shown: str(pane.border_subtitle or "").startswith(shown), shown)
                said.append(pane.border_subtitle)
            assert said == ["▼ 1 più recente (Fine)", "▼ 3 più recenti (Fine)"]


async def test_the_italian_undo_box_takes_s_for_si_as_the_plain_seat_does(tmp_path):
    """An Italian referee's "s" (sì) at the undo box dropped the question and went to the
    command line behind it (#61); the box said "Invio/y", the plain seat asks "s o n"."""
    with readers.reading("it"):
        game = patrol_game(tmp_path / "g.ft", commands=OPENING)
        async with piloted(game, settle=True) as (app, pilot):
            live = len(game.history.eff_cmds)
            await press(pilot, "ctrl+z")
            box = app.screen.query_one(ConfirmBox)
            assert box.asking and "Invio/s: sì   Esc/n: no" in [str(w.render()) for w in box.query("Plain")]
            await press(pilot, "s")
            await until(pilot, lambda: len(game.history.eff_cmds) == live - 1, "undone")
            assert not box.asking and app.screen.query_one("CommandInput").value == ""
    game.close()


async def test_the_italian_undo_and_redo_say_one_verb_ripristina(tmp_path):
    """#61: the undo box said "Ctrl+Y lo ripristina", the line after it "(Ctrl+Y lo ripete)",
    and the redo "ripetuto": one verb for one thing."""
    with readers.reading("it"):
        game = patrol_game(tmp_path / "g.ft", commands=OPENING)
        async with piloted(game, settle=True) as (app, pilot):
            await press(pilot, "ctrl+z")
            box = app.screen.query_one(ConfirmBox)
            asked = " ".join(str(w.render()) for w in box.query("Plain"))
            await press(pilot, "s")
            hint = app.screen.query_one("#cmd-hint")
            await until(pilot, lambda: "annullato" in str(hint.render()), "the undo's line")
            undone = str(hint.render())
            await press(pilot, "ctrl+y")
            await until(pilot, lambda: box.asking, "the redo's box")
            await press(pilot, "s")
            await until(pilot, lambda: "↷" in str(hint.render()), "the redo's line")
            redone = str(hint.render())
    game.close()
    assert "Ctrl+Y lo ripristina" in asked, asked
    assert undone.startswith("↶ annullato: ") and undone.endswith("(Ctrl+Y lo ripristina)"), undone
    assert redone.startswith("↷ ripristinato: "), redone


@pytest.mark.parametrize("domain", ["client", "fireteam"])
def test_every_italian_message_of_redo_says_ripristina(domain):
    """#61: redo was "ripete", "ripetuto", "riporta" and "ripristina" in one client; the
    command is typed `ripeti` (ruling I18N-COMMANDS), which a message may name as a word."""
    from core.language.catalogues import read

    said = {
        m.id: m.string
        for m in read("it", domain)
        if m.id and m.context is None and isinstance(m.id, str) and re.search(r"\bredo(es|ne)?\b", m.id)
    }
    assert said
    wrong = {k: v for k, v in said.items() if re.search(r"ripet(?!i\b)|riport", v)}
    assert wrong == {}
