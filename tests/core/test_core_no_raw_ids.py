"""What a side and a spectator read of every recorded game, in the log and the report,
speaks the players' words: no id of the rulesets' own (issue #26)."""

from __future__ import annotations

import re

import msgspec
import pytest
from recorded import RecordedGame, recorded_games
from registry_walk import RULESETS

from core.game import Game
from core.language.i18n import CORE_DOMAIN, Msg
from core.language.reader import reader, reading, set_process_language
from core.log import events as ev
from core.log.views import REFEREE
from tui.main import main as fireteam

#: A command's option as typed (``source=gun-102``, ``range=30``): command syntax.
_OPTION = re.compile(r"\b[a-z_]+=\S")
#: A command quoted by the report (“burst abdi source=gun-102 short”): what was typed.
_QUOTED = re.compile(r"“[^”]*”")


def _args(text: object) -> list[object]:
    """Every argument a message carries, its nested messages' too (and their templates:
    an id recorded as a message of its own, the ledger's ``first-fire``)."""
    if not isinstance(text, Msg):
        return []
    out: list[object] = []
    for value in dict(text.args).values():
        out.append(value.id if isinstance(value, Msg) else value)
        out += _args(value)
    return out


def _raw_ids(game: Game) -> set[str]:
    """The ids of the ruleset's own a player should never read, those shaped as ids
    (``marker.regulars.5``, ``aboard-truck``): secret keys, statuses, weapons, classes and
    profiles, defeat-point reasons and the arguments of a note."""
    ids: set[str] = set()
    for line in game.log_lines(role="referee"):
        e = line.event
        match e:
            case ev.SecretSet() | ev.Revealed() | ev.Opened():
                ids.add(e.key)
            case ev.UnitAdded():
                ids.update(e.unit.weapons)
                ids.update(e.unit.status)
                ids.add(e.unit.cls)
            case ev.StatusChanged():
                ids.update(e.add)
                ids.update(e.remove)
            case ev.DefeatPoints():
                ids.update(str(a) for a in _args(e.reason))
                if isinstance(e.reason, str):
                    ids.add(e.reason)
            case ev.Noted():
                ids.update(str(a) for a in _args(e.text))
            case ev.VarSet() if e.key.startswith("profile."):
                ids.add(e.key.partition(".")[2])
            case ev.PhaseBegan():
                ids.add(e.phase)  # a turn's banner names its phase in words (fire-elite: the elite's fire)
    return {i for i in ids if re.fullmatch(r"[a-z0-9]+(?:[-.][a-z0-9_]+)+", i)}


def _sides_lines(game: Game) -> list[re.Pattern[str]]:
    """A side named by its id where it has a name: in a defeat-point, spotting or
    activation line."""
    found = []
    for side in game.state.sides.values():
        if side.name == side.id:
            continue
        s = re.escape(side.id)
        found += [
            re.compile(rf"defeat points? to {s}\b"),
            re.compile(rf"spotted by {s}\b"),
            re.compile(rf", {s} active\b"),
        ]
    return found


def _cases() -> list[tuple[RecordedGame, str]]:
    cases = []
    for game in recorded_games():
        sides = Game.open(game.save, writable=False).state.sides
        cases += [(game, role) for role in (*sides, "spectator")]
    return cases


def _found(text: str, forbidden: set[str], patterns: list[re.Pattern[str]]) -> list[tuple[str, str]]:
    ids = "|".join(map(re.escape, sorted(forbidden, key=len, reverse=True)))
    patterns = [*patterns, _OPTION, re.compile(rf"(?<![\w.-])({ids})(?![\w-]|\.\w)")]
    found = []
    for line in text.splitlines():
        if line.lstrip().startswith("» "):
            continue  # a command as its player typed it
        line = _QUOTED.sub("", line)
        found += [(m.group(0), line.strip()) for p in patterns for m in p.finditer(line)]
    return found


@pytest.mark.parametrize(("game", "role"), _cases(), ids=lambda c: c if isinstance(c, str) else c.name)
def test_a_side_and_a_spectator_read_no_raw_id_in_the_log_or_the_report(game, role, capsys):
    opened = Game.open(game.save, writable=False)
    forbidden, sides = _raw_ids(opened), _sides_lines(opened)
    assert fireteam(["log", "--as", role, "--lang", "en", str(game.save)]) == 0
    log = capsys.readouterr().out
    assert fireteam(["report", "--as", role, "--lang", "en", str(game.save)]) == 0
    report = capsys.readouterr().out
    assert "note: " in log and "## " in report  # the scan reads the real text
    assert _found(log, forbidden, sides) == []
    assert _found(report, forbidden, sides) == []
    # a secret told, revealed or opened says what it was, not that the rules keep a value,
    # and names the piece it is about by its name
    secrets = re.compile(r"secret for|revealed:|opened at the end:|Revealed:")
    told = [line for line in (log + report).splitlines() if secrets.search(line)]
    assert not [line for line in told if "the referee's log names it" in line]
    pieces = _pieces_in_secrets(opened)
    assert not [(uid, line) for line in told for uid in pieces if re.search(rf"(?<![\w-]){uid}(?![\w-])", line)]


def _pieces_in_secrets(game: Game) -> set[str]:
    """The ids of the pieces a secret's key names (``secret.dies.abdi``) that have a name."""
    units = game.state.units
    keys = {
        line.event.key for line in game.log_lines(role="referee") if isinstance(line.event, ev.SecretSet | ev.Opened)
    }
    return {k.rpartition(".")[2] for k in keys if k.rpartition(".")[2] in units} - {
        uid for uid, u in units.items() if u.name == uid
    }


def test_a_secret_the_ruleset_cannot_read_is_shown_as_it_is(tmp_path):
    # A hostile save's fire support that is not stage:source:turn: the log still reads.
    game = Game.new(tmp_path / "g.ft", "bassa-intensita", seed=1)
    said = game.describe(ev.SecretSet(key="secret.support.x", owner="referee", value="no colons"), role="referee")
    assert said == "secret for referee: secret.support.x = no colons"
    game.close()


# ------------------------------------------------------- sides and pieces by name

#: The languages every reader may read a game in.
LANGUAGES = ("en", "it")
#: A variable as the referee's log shows one the rules have no words for: ``key = value``,
#: the scenario file's own data (``support.arty.side = us``).
_RAW_VAR = re.compile(r"^\s*[\w.-]+ = ")
_WORD = re.compile(r"[^\W\d_][\w'-]*")
_FIELD = re.compile(r"\{[^{}]*\}")


def _catalogue_words(lang: str, game: Game) -> set[str]:
    """Every word the sentences of the game's catalogues hold in ``lang`` (the English is
    the code's), but their fields and the commands they quote (``objectives regulars
    random``): a command is what a referee types, not the language's words."""
    from babel.messages.pofile import read_po

    from core.language.i18n import LOCALE_DIR

    verbs = sorted({n for spec in game.commands for n in (spec.name, *spec.aliases)}, key=len, reverse=True)
    quoted = re.compile(r"\b(?:" + "|".join(map(re.escape, verbs)) + r")\b[^();]*")
    words: set[str] = set()
    for domain in (CORE_DOMAIN, game.ruleset.domain):
        with open(LOCALE_DIR / "it" / "LC_MESSAGES" / f"{domain}.po", "rb") as f:
            for message in read_po(f, locale="it", domain=domain):
                said = message.id if lang == "en" else message.string
                for text in said if isinstance(said, tuple) else (said,):
                    words.update(_WORD.findall(quoted.sub("", _FIELD.sub("", text or ""))))
    return words


def _written(game: Game) -> tuple[set[str], set[str]]:
    """What people wrote, shown as they wrote it (a scenario's title and texts, a note, a
    result typed), to be taken out of the text like names; and the words of the kit a
    scenario names its pieces' weapons by ("bazooka"), shown as named."""
    names = {s.name for s in game.state.sides.values()} | {u.name for u in game.state.units.values()}
    texts: set[str] = {game.state.scenario}
    kit: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, Msg):
            for arg in dict(value.args).values():
                walk(arg)
        elif isinstance(value, str):
            if " " in value and value not in names:
                texts.add(value)
        elif isinstance(value, msgspec.Struct) and not isinstance(value, ev.UnitSpec | ev.Issued | ev.ScenarioRead):
            for field in value.__struct_fields__:
                walk(getattr(value, field))
        elif isinstance(value, tuple | list):
            for item in value:
                walk(item)

    for line in game.log_lines(role="referee"):
        walk(line.event)
        if isinstance(line.event, ev.UnitAdded):
            u = line.event.unit
            kit.update(w for things in (u.weapons, u.roles, u.status, (u.cls,)) for w in things)
    return texts, kit


def _referee_log(game: Game) -> str:
    """The referee's log without what the referee alone is meant to read as the code
    writes it: a variable the rules have no words for, and the command a note ends with
    (a side reads the note without it, ``Ruleset.note_for_a_side``)."""
    out = []
    for line in game.log_lines(role="referee"):
        e = line.event
        if isinstance(e, ev.Noted):
            said = game.describe(msgspec.structs.replace(e, text=game.ruleset.note_for_a_side(e.text)), role="referee")
        else:
            said = line.text
        if not _RAW_VAR.match(said):
            out.append(said)
    return "\n".join(out)


def _by_name_cases() -> list[tuple[RecordedGame, str, str]]:
    return [
        (game, role, lang)
        for game, role in [*_cases(), *((g, "referee") for g in recorded_games())]
        for lang in LANGUAGES
    ]


def _unnamed(text: str, game: Game, lang: str) -> list[tuple[str, str]]:
    """Each side or piece named by its id in ``text`` (one that has a name of its own),
    with its line: names and what people wrote are taken out first, and an id that is
    also a word of the language's sentences ("first") or of a piece's kit ("bazooka") is
    not told from that word here (the other language's pass finds it)."""
    s = game.state
    texts, kit = _written(game)
    shown = {x.name for x in (*s.sides.values(), *s.units.values())} | texts
    taken = re.compile("|".join(map(re.escape, sorted(shown, key=len, reverse=True))))
    ids = {x.id for x in (*s.sides.values(), *s.units.values()) if x.name != x.id}
    ids -= _catalogue_words(lang, game) | kit
    if not ids:
        return []
    pattern = re.compile(r"(?<![\w.-])(" + "|".join(map(re.escape, sorted(ids, key=len, reverse=True))) + r")(?![\w-])")
    found = []
    for line in text.splitlines():
        if line.lstrip().startswith("» "):
            line = line.partition(":")[0]  # who gave the command (what he typed is his)
        line = taken.sub("⟨name⟩", _QUOTED.sub("", line))
        found += [(m.group(0), line.strip()) for m in pattern.finditer(line)]
    return found


@pytest.fixture
def process_language():
    """``fireteam --lang`` sets the process's language: put it back for the tests after."""
    before = reader().lang
    yield
    set_process_language(before)


@pytest.mark.long
@pytest.mark.parametrize(("game", "role", "lang"), _by_name_cases(), ids=lambda c: c if isinstance(c, str) else c.name)
def test_every_reader_reads_sides_and_pieces_by_their_names(game, role, lang, capsys, process_language):
    """The log, the report (and so the client's log pane and Report screen) name every side
    and piece by its name, for every role, in both languages: the initiative, deployment
    and morale lines, a secret marker, who bought what, a list of pieces hit (#26)."""
    opened = Game.open(game.save, writable=False)
    if role == "referee":
        with reading(lang):
            log = _referee_log(opened)
    else:
        assert fireteam(["log", "--as", role, "--lang", lang, str(game.save)]) == 0
        log = capsys.readouterr().out
    assert fireteam(["report", "--as", role, "--lang", lang, str(game.save)]) == 0
    report = capsys.readouterr().out
    assert "»" in log and "#" in report
    assert _unnamed(log, opened, lang) == []
    assert _unnamed(report, opened, lang) == []


@pytest.mark.parametrize("game", recorded_games(), ids=lambda g: g.name)
def test_the_scan_for_ids_looks_for_every_side(game):
    """Every side's id is looked for in one language at least: the scan above has teeth."""
    opened = Game.open(game.save, writable=False)
    kit = _written(opened)[1]
    looked = {
        side for side in opened.state.sides for lang in LANGUAGES if side not in _catalogue_words(lang, opened) | kit
    }
    assert looked == set(opened.state.sides)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_turns_banner_names_its_phase_in_words(ruleset_id):
    """The log's banner of a phase (``Turn 1: observation``) says it in words: the phase's
    own English words, or a word of its title; never the code's id (Bassa Intensità's
    ``fire-elite``, ``observe``, ``cover``; #26).  ``setup`` is the state before a
    scenario: no banner opens it."""
    from core.log.narrate import describe
    from core.registry import get_ruleset

    ruleset = get_ruleset(ruleset_id)
    raw = []
    with reading("en"):
        for phase in ruleset.phases:
            if phase.id == "setup":
                continue
            said = describe(ev.PhaseBegan(turn=1, phase=phase.id), domain=ruleset.domain)
            name = said.removeprefix("Turn 1: ")
            if name == phase.id and phase.id not in re.split(r"\W+", phase.title.lower()):
                raw.append((phase.id, phase.title))
    assert raw == []


def test_the_command_that_sets_up_the_sides_names_them_as_it_reports(tmp_path):
    """``scenario demo``'s own lines (a script's output, the client's ✓ line) name the
    sides it sets up by their names, as the log does afterwards: they were described
    before the sides existed, by id (``irregulars bought Ambush``; #26)."""
    game = Game.new(tmp_path / "g.ft", "breaking-news", seed=7)
    with reading("en"):
        said = game.execute("scenario demo", role=REFEREE).lines
    assert "Somali militia bought Ambush" in said
    assert not [line for line in said if re.search(r"(?<![\w-])(irregulars|regulars)(?![\w-])", line)]
    game.close()
