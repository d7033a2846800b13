"""No English left under ``--lang it`` (#61): each ruleset's recorded game played by an
Italian referee, its log, its report and the plain seat's help of every command, read for
English words.

The English words are the same game's own, played in English: what an English reader is
shown of it.  What a player typed (the commands echoed, the notes) and what the scenario
file names that is shown as written (its units, ids and codes) is taken out first; its
title, description, sides' and teams' names, victory, special rules, jokers, objectives', minefields'
and support's names and places are the catalogue's to translate
(``core.language.i18n.scenario_words``), so they are not.  The words the two languages
share, or the Italian books use as they are, are allowed by name below.
"""

from __future__ import annotations

import io
import re
import tomllib
from pathlib import Path

import pytest
from lines_support import Seat
from recorded import recorded_games

from core.cli.main import run_script
from core.commands.naming import names
from core.game import Game
from core.language.catalogues import DOMAINS, read
from core.language.i18n import scenario_words
from core.language.reader import reading
from core.log.views import REFEREE
from core.report import build, render_md

SCENARIOS = Path(__file__).resolve().parents[2] / "core" / "rulesets"

#: Words an Italian reader is shown in English on purpose: Italian words too, the books'
#: own loanwords and abbreviations, and the names of the rules' sections the books cite.
SHARED = {
    # Italian words that are English ones too
    "area",
    "base",
    "bonus",
    "bunker",
    "due",
    "decide",
    "extra",
    "media",
    "morale",
    "per",
    "scenario",
    "test",
    "tiro",
    "mortai",
    "cannoni",
    "linea",
    "bassa",
    "intensita",
    "ludonet",
    "convoy",
    # the Italian books' own loanwords (Breaking News: leader, leadership, intelligence, IED, RPG, LMG)
    "leader",
    "leadership",
    "intelligence",
    "ied",
    "rpg",
    "lmg",
    "hmg",
    "smg",
    "jolly",
    "stug",
    "file",
    "figure",
    "all",
    "via",
    "dice",
    "elite",
    "mine",
    "round",
    "milan",
    "tank",
    "mmg",
    "law",
    # Bassa Intensità's bombs: "o napalm" (BI-R251)
    "napalm",
    # the program's own names: Fireteam, its commands on the shell, a key, the rulesets' titles
    "fireteam",
    "verify",
    "toml",
    "ctrl",
    "breaking",
    "news",
    "intensità",
}
#: Phrases the books use in English: Breaking News' Italian draft says "fire team".
SHARED_PHRASES = re.compile(r"\bfire team\b")
#: The proper names the Italian words of a built-in scenario keep as they are (places,
#: formations, teams): its title, description, sides' names, victory... are translated (#61).
KEPT_NAMES = re.compile(
    r"\b(?:Afgooye|Bersaglieri|Jowhar|Vire|Cagny|Fife and Forfar Yeomanry|Kampfgruppe von Luck"
    # teams' names kept (ruling I18N-TEAM): call signs, clans, the Germans' own words
    r"|Alpha|Bravo|Haji|Warsame|Gruppe|Zug|Kompanie|RAF)\b"
)
#: What is quoted as the books or the program name it: a digest, a rule's key (LN-WEAPONS, BI-R042), a
#: rule cited by the English book's section (regola Extras: Negotiation), a command as
#: typed, quoted in the report (“next”).
CITED = re.compile(r"\b[0-9a-f]{16,64}\b|\b[A-Z]{2,}(?:-[A-Z0-9]+)+\b|regola [^;)]*|\(Extras?: [^)]*\)|“[^”]*”")

WORD = re.compile(r"[A-Za-zÀ-ÿ]{3,}")
#: The pieces Ludonet's examples name that only a user's scenario fields (ruling HELP-EXAMPLES).
UNFIELDED = ["flak", "typhoon", "karl", "max"]
#: Typed as written: a file, a secret's key (``marker.3``), a row of a table (``gun-102``).
AS_WRITTEN = re.compile(r"\S+\.toml\b|\b\w+\.\d+\b|(?<![/\w-])[a-z]+-\d+\b")
#: Help names a command's English name too, on purpose: "(in inglese activate; ...".
IN_ENGLISH = re.compile(r"\(in inglese [\w-]+")


def scenario_texts(ruleset: str, scenario: str) -> list[str]:
    """Every text of the scenario file shown as the file writes it (a piece's name as the Italian
    reader is shown it), longest first."""
    data = tomllib.loads((SCENARIOS / ruleset.replace("-", "_") / "scenarios" / f"{scenario}.toml").read_text())
    for key in ("title", "description", "special_rules"):  # translated (#61), as below
        data.pop(key, None)
    data.get("victory", {}).pop("summary", None)
    data.get("jokers", {}).pop("effect", None)
    for side in data.get("sides", ()):
        side.pop("name")
    # Ludonet's weapons (its scenarios' table, ruling LN-WEAPONS) are named in the reader's words (#61)
    own_weapons = {w.pop("id") for w in data.get("weapons", ())}
    for unit in data.get("units", ()):
        unit["weapons"] = [w for w in unit.get("weapons", ()) if w not in own_weapons]
        unit.pop("kind", None)  # a journalist, a civilian: the book's term, where a piece has no class
        unit.pop("team", None)  # translated (#61: "Press", "Market" in the Italian roster)
        # a piece named in words reads in Italian (#77: "Autocarro ACM 90"), a person as written
        unit["name"] = scenario_words(unit["name"], "it")
    for table, keys in (("objectives", ("name", "where")), ("mines", ("where",)), ("support", ("name",))):
        for entry in data.get(table, ()):
            for key in keys:
                entry.pop(key, None)
    out: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, dict):
            for k, v in value.items():
                out.append(str(k))
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(data)
    return sorted(set(out), key=len, reverse=True)


def scenario_names() -> list[str]:
    """The built-in scenarios' names, as help lists them to be typed."""
    return [p.stem for p in SCENARIOS.glob("*/scenarios/*.toml")]


def examples_texts(ruleset: str) -> list[str]:
    """What help's examples name as the files write it: a piece of any built-in scenario of
    ``ruleset`` (ruling HELP-EXAMPLES), a shipped roster and its figures' ids."""
    folder = SCENARIOS / ruleset.replace("-", "_") / "scenarios"
    out = [text for path in folder.glob("*.toml") for text in scenario_texts(ruleset, path.stem)]
    for path in folder.glob("*.toml"):  # a piece is named by any word of its name, a team by its name
        for unit in tomllib.loads(path.read_text(encoding="utf-8")).get("units", ()):
            out += [word.lower() for word in re.findall(r"\w+", unit.get("name", ""))]
            out += [unit["team"].lower()] if unit.get("team") else []
    out += UNFIELDED
    for roster in folder.glob("rosters/*.toml"):
        out += [roster.stem, *re.findall(r'^id = "([^"]+)"', roster.read_text(encoding="utf-8"), flags=re.M)]
    return out


def typed_texts(script: str) -> list[str]:
    """The referee's own words a script gives: its notes, and the end of every line, three
    words or more (a victory's reason, a mine's place), as a command shows them."""
    out = [m.group(1) for m in re.finditer(r'\bnote "([^"]*)"', script)]
    for line in script.splitlines():
        words = line.partition("#")[0].split()
        out += [" ".join(words[i:]) for i in range(1, len(words) - 2)]
    return out


def shown(game_name: str, lang: str, folder: Path) -> tuple[str, Game]:
    """Everything a reader in ``lang`` is shown of a recorded game: the script's answers,
    the referee's log and the report, and the plain seat's help of every command."""
    game = next(g for g in recorded_games() if g.name == game_name)
    save = folder / f"{lang}.ft"
    out = io.StringIO()
    with reading(lang):
        assert run_script(game.script, save, game.seed, game.ruleset, "", out=out) == 0
    played = Game.open(save)
    with reading(lang):
        # an inner variable's line is the code's key = value, out of the log's view (Reading.inner)
        log = [line.text for line in played.log_lines(REFEREE) if not line.inner]
        report = render_md.render(build(played, REFEREE))
    seat = Seat(played, lang=lang)
    helps = seat.say("forze" if lang == "it" else "roster") + seat.say("stato" if lang == "it" else "status")
    helps += seat.say("aiuto" if lang == "it" else "help")
    for spec in played.ruleset.commands():
        with reading(lang):
            mine, _english = names(spec, played.ruleset.domain)
        helps += seat.say(f"{'aiuto' if lang == 'it' else 'help'} {mine}")
    return "\n".join([out.getvalue(), *log, report, *helps]), played


def english_left(italian: str, english: str, given: list[str]) -> dict[str, str]:
    """The words of ``english`` found in ``italian``, each with the first line it is in,
    once the texts ``given`` (the scenario's, the notes) and the echoed commands are taken out."""
    vocabulary = {w.lower() for w in WORD.findall(english)} - SHARED
    left: dict[str, str] = {}
    names = re.compile("|".join(rf"(?<!\w){re.escape(t)}(?!\w)" for t in given))
    for line in italian.splitlines():
        if line.lstrip().startswith("»"):  # commands as typed: the English names are as good
            continue
        line = names.sub(" ", CITED.sub(" ", SHARED_PHRASES.sub(" ", IN_ENGLISH.sub(" ", AS_WRITTEN.sub(" ", line)))))
        line = KEPT_NAMES.sub(" ", line)
        for word in WORD.findall(line):
            if word.lower() in vocabulary and word.lower() not in left:
                left[word.lower()] = line.strip()[:160]
    return left


@pytest.mark.long  # a whole recorded game replayed and read in Italian (0.6-1.7 s of CPU each)
@pytest.mark.parametrize("name", [g.name for g in recorded_games()])
def test_each_rulesets_game_in_italian_shows_no_english(tmp_path, name):
    game = next(g for g in recorded_games() if g.name == name)
    script = game.script.read_text(encoding="utf-8")
    scenario = re.search(r"^scenario (\S+)", script, flags=re.M)
    assert scenario is not None
    given = sorted(
        {
            *scenario_texts(game.ruleset, scenario.group(1)),
            *typed_texts(script),
            *scenario_names(),
            *examples_texts(game.ruleset),
        },
        key=len,
        reverse=True,
    )
    english, en_game = shown(name, "en", tmp_path)
    italian, it_game = shown(name, "it", tmp_path)
    given += [str(tmp_path)]
    try:
        left = english_left(italian, english, given)
        assert left == {}
    finally:
        en_game.close()
        it_game.close()


#: The fields a message fills with a side's name.
SIDE_FIELDS = ("side", "first", "second", "other", "taker", "owner", "winner", "enemy")
#: A side's name and a plural verb of the third person after it ("{side} hanno", "{first}
#: sono", "{side} non difendono"), or before it ("li muovono {side}").
PLURAL_WITH_SIDE = re.compile(
    rf"\{{(?:{'|'.join(SIDE_FIELDS)})\}}(?: (?:non|già|ora))* (?:hanno|sono|\w+[aeio]no)\b"
    rf"|\b(?:hanno|sono|\w+[aeio]no) \{{(?:{'|'.join(SIDE_FIELDS)})\}}"
)


@pytest.mark.parametrize("domain", DOMAINS)
def test_a_sides_name_takes_a_singular_verb_in_italian(domain):
    """A side's Italian name is singular (ruling I18N-SIDE-NUMBER): "Milizia somala ha
    acquistato", never "hanno" as the English "Somali militia have" (#61)."""
    said = [s for m in read("it", domain) if m.id for s in (m.string if isinstance(m.string, tuple) else (m.string,))]
    plural = [s for s in said if PLURAL_WITH_SIDE.search(s)]
    assert plural == []


@pytest.fixture(scope="module")
def in_italian(tmp_path_factory):
    """A recorded game's lines as an Italian reader is shown them, played once a module."""
    played: dict[str, list[str]] = {}

    def lines(name: str) -> list[str]:
        if name not in played:
            italian, game = shown(name, "it", tmp_path_factory.mktemp(name))
            game.close()
            played[name] = italian.splitlines()
        return played[name]

    return lines


@pytest.mark.parametrize(
    ("game", "line"),
    [
        # a side's name with its verb in the singular (ruling I18N-SIDE-NUMBER)
        ("demo-game", "Reparto Bersaglieri ha acquistato Motivazione"),
        ("demo-game", "Milizia somala ha acquistato Imboscata"),
        ("demo-game", "Milizia somala è il primo giocatore"),
        ("demo-game", "Reparto Bersaglieri ha sparato il primo colpo"),
        ("demo-game", "Milizia somala ha fatto il test di morale nel turno 2"),
        (
            "demo-game",
            "Partita finita: Milizia somala ha vinto (Reparto Bersaglieri 30, Milizia somala 20) — "
            "vince Milizia somala con 20 punti sconfitta contro 30 di Reparto Bersaglieri (§14.0)",
        ),
        ("demo-game", "Sgt Rossi si unisce a Reparto Bersaglieri (Veterani) con AR"),
        ("bassa-intensita-game", "in questo turno muove prima Convoglio italiano (A.5.1)"),
        # a built-in team's name in the Italian roster (ruling I18N-TEAM)
        ("demo-game", "Squadra Stampa: 1 di 1 in gioco."),
        ("ludonet-game", "Sezione: 2 perdite già coperte dai suoi test di morale (LN-R070)"),
        # Ludonet's weapons in Italian, as the other books name them (#61)
        ("ludonet-game", "fucile tira fino a 60 cm (decisione LN-WEAPONS)"),
        ("ludonet-game", "lanciarazzi tira fino a 200 cm (decisione LN-WEAPONS)"),
        ("ludonet-game", "Cpl Dunn si unisce a Fife and Forfar Yeomanry con fucile"),
        # a check due said as a state he is in, not "ora controllo del morale dovuto" (BI-R180)
        ("bassa-intensita-game", "Farah ora in attesa di un controllo del morale, ora sotto il fuoco"),
        ("bassa-intensita-game", "Farah tolto «in attesa di un controllo del morale», tolto «sotto il fuoco»"),
        # the fire line in Italian order: the firer owns the weapon, the range is where it is fired
        (
            "demo-game",
            "fuoco su Dahir Omar a 39 cm con Mitragliatrice leggera (LMG) di Cpl Bianchi: "
            "4d6 serve 5+ per dado: 2 1 3 6 → 1 colpo",
        ),
        # Linea di Tiro's attacks left in Italian order
        ("linea-di-tiro-game", "StuG Berta ora ancora un attacco, tolto «ancora due attacchi»"),
    ],
)
def test_the_recorded_games_lines_read_as_italian(in_italian, game, line):
    assert line in in_italian(game)


def test_ludonets_name_is_italian_in_the_plain_seats_greeting_and_help(tmp_path):
    """#61: "Sei l'arbitro, a Ludonet quick skirmish 1996": the name is the catalogue's
    (ruling I18N-LUDONET-NAME)."""
    game = Game.new(tmp_path / "g.ft", "ludonet", seed=7)
    game.execute("scenario demo", role=REFEREE)
    seat = Seat(game, lang="it")
    said = [*seat.out, *seat.say("aiuto")]
    game.close()
    assert any(line.startswith("Sei l'arbitro, a Ludonet, regole rapide 1996,") for line in said), said
    assert any(line.startswith("I comandi di Ludonet, regole rapide che puoi dare:") for line in said), said
    assert not [line for line in said if "skirmish" in line]
