"""Bassa Intensità in Italian and English: the same commands make the same events
(words kept as messages, never as sentences), each reader sees them in his own
language, and every message the game can hold is in the Italian catalogue."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import msgspec
import pytest
from playing import names, play, refused
from recorded import RecordedGame, effective_facts

from core.dice.faces import NeedDice
from core.game import Game
from core.language.catalogues import read
from core.language.i18n import M, Msg, plain
from core.language.reader import reading
from core.log import events as ev
from core.log.views import REFEREE
from core.refusal import TYPING
from core.ruleset import Refused
from core.rulesets.bassa_intensita import BassaIntensita, casualties
from core.rulesets.bassa_intensita.words import DOMAIN, render

GAME = RecordedGame("bassa-intensita-game", "bassa-intensita", 2026)
SAVE = GAME.save
#: The demo scenario to the elite's fire phase; Lt Ferrante (Elite 6, short range +1)
#: fires twice at Omar: a 7 hits and the damage die's 3 shocks him, an 8 misses.
FIRE = ("next dice=5,2", "next", "next", "next", "next", "fire ferrante omar range=10 dice=7,3,8")


def _new(tmp_path: Path, name: str) -> Game:
    g = Game.new(tmp_path / name, "bassa-intensita", seed=11)
    g.execute("scenario demo", role=REFEREE)
    return g


@pytest.fixture
def g(tmp_path):
    with closing(_new(tmp_path, "bi.ft")) as g:
        yield g


def _words(e: ev.Event) -> list:
    """Whatever an event says in words (a command's own text is what was typed)."""
    if isinstance(e, ev.Issued):
        return []
    if isinstance(e, ev.Rolled):
        return [e.roll.purpose, e.roll.outcome, *(m.label for m in e.roll.mods)]
    return [getattr(e, f) for f in ("text", "how", "cause", "reason", "result") if hasattr(e, f)]


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_recorded_game_makes_the_same_events_whatever_the_readers_language(tmp_path, lang):
    with reading(lang):
        made = GAME.regenerate(tmp_path)
    facts = effective_facts(made, languages=False)  # (each command records the language it was read in)
    assert msgspec.json.encode(facts) == msgspec.json.encode(effective_facts(SAVE, languages=False))


def test_a_shot_narrated_in_italian_and_in_english(g):
    facts = play(g, *FIRE)
    shots = [e for e in facts if isinstance(e, ev.Rolled) and e.roll.rule == "A.9.4"]
    damage = next(e for e in facts if isinstance(e, ev.Rolled) and e.roll.rule == "A.12.1")
    shock = next(e for e in facts if isinstance(e, ev.StatusChanged) and e.unit == "omar")
    note = next(e for e in facts if isinstance(e, ev.Noted))
    with reading("it"):
        hit, miss, hurt, shocked, due = (g.describe(e, role="referee") for e in (*shots, damage, shock, note))
    fire = "tiro con fucile d'assalto contro Omar Haji (distanza breve) di Lt Ferrante: 1d10 serve 7 o meno "
    assert hit == fire + "(Qualità Elite +6, distanza breve +1): 7 → colpito: tirare i danni (A.12) [dadi al tavolo]"
    assert miss == fire + "(Qualità Elite +6, distanza breve +1): 8 → mancato [dadi al tavolo]"
    assert hurt == "danni di Omar Haji: 1d10: 3 → shoccato [dadi al tavolo]"
    assert shocked == "Omar Haji ora shoccato, ora shoccato in questo turno, ora a terra"
    assert due.endswith("Omar Haji deve controllare il morale: lo chiedono le tabelle dei risultati (M7, A.13.1)")
    with reading("en"):
        hit, hurt = g.describe(shots[0], role="referee"), g.describe(damage, role="referee")
    assert hit == (
        "Lt Ferrante's fire with his Assault rifle at Omar Haji (short range): 1d10 needing 7 or less "
        "(Elite Quality +6, short range +1): 7 → hit: roll damage (A.12) [table dice]"
    )
    assert hurt == "Omar Haji's damage: 1d10: 3 → shocked [table dice]"


def test_a_failed_morale_check_and_the_result_in_italian(g):
    play(g, *FIRE)
    facts = play(g, "morale omar dice=9,6")
    # Regular 4 + 3, under automatic fire -2: a 9 fails; the effect's 6 is a surrender,
    # with no enemy near to surrender to: panic; shocked by the hit, he lies prone and
    # stands up to flee, -25% of his run (BI-R042, BI-AMB-45): 18 cm
    check, effect = (e for e in facts if isinstance(e, ev.Rolled))
    moved = next(e for e in facts if isinstance(e, ev.Moved))
    play(g, "victory folgore the village is searched")
    with reading("it"):
        assert g.describe(check, role="referee") == (
            "morale (il controllo dovuto) di Omar Haji: 1d10 serve 5 o meno (Qualità regolare +4, morale +3, "
            "sotto fuoco esplosivo o automatico -2): 9 → fallito: tirare l'effetto [dadi al tavolo]"
        )
        assert g.describe(effect, role="referee") == "effetto sul morale di Omar Haji: 1d6: 6 → resa [dadi al tavolo]"
        assert (
            g.describe(moved, role="referee")
            == "Omar Haji muove di 18 cm (panico: verso un riparo, lontano dal nemico)"
        )
        assert render(g.state.result) == (
            "vince Pattuglia della Folgore: the village is searched. "
            "Perdite: Pattuglia della Folgore: nessuna perdita; Milizia del villaggio: nessuna perdita"
        )
    assert plain(g.state.result) == (
        "Folgore patrol win: the village is searched. Losses: Folgore patrol: no losses; Village militia: no losses"
    )


def test_a_refusal_reads_in_the_language_of_whoever_gave_the_command(g):
    play(g, *FIRE[:-1])
    with (
        reading("it"),
        pytest.raises(Refused, match=r"^400 cm è fuori gittata per fucile d'assalto \(BI-R075\)$") as no,
    ):
        play(g, "fire ferrante omar range=400")
    names(no.value, "BI-R075")
    refused(
        g, "fire ferrante omar range=400", r"^400 cm is out of range of the Assault rifle \(BI-R075\)$", rule="BI-R075"
    )
    with (
        reading("it"),
        pytest.raises(Refused, match=r"^Sgt Marra ha Qualità Veterano e agisce nel proprio livello") as no,
    ):
        play(g, "fire marra omar range=20")
    names(no.value, "BI-R061")


def test_a_request_for_table_dice_says_what_for_in_the_askers_language(g):
    play(g, *FIRE[:-1])
    with reading("it"):
        with pytest.raises(NeedDice) as asked:
            g.execute("fire ferrante omar range=10", role=REFEREE, faces=[])
        said = asked.value.request.text()
    assert said == (
        "tiro con fucile d'assalto contro Omar Haji (distanza breve) di Lt Ferrante: 1d10, serve 7 o meno "
        "(Qualità Elite +6, distanza breve +1)"
    )
    with pytest.raises(NeedDice) as asked:
        g.execute("fire ferrante omar range=10", role=REFEREE, faces=[])
    said = asked.value.request.text()
    assert said == (
        "Lt Ferrante's fire with his Assault rifle at Omar Haji (short range): 1d10, needs 7 or less "
        "(Elite Quality +6, short range +1)"
    )


def test_the_rulesets_own_words_follow_the_reader():
    r = BassaIntensita()
    with reading("it"):
        assert r.describe_var("scenario.night", "dark") == "è notte (notte senza luna)"
        assert r.describe_var("aircraft.regulars", "down") == "l'aereo di regulars è abbattuto"
        assert r.describe_var("secret.dies.abdi", 0) == "la ferita di abdi è medicata"
        assert r.describe_var("smoke.1", "grenade|5 x 20|Pte Bruno|7") == (
            "fumo: bomba fumogena (5 x 20 cm, entro 10 cm da lui) di Pte Bruno, fino alla fine del turno 7"
        )
        assert r.class_name("rabble") == "Marmaglia"
    assert r.describe_var("aircraft.regulars", "down") == "regulars' aircraft is shot down"
    assert r.class_name("rabble") == "Rabble"


@pytest.mark.parametrize(
    "purpose, hurts",
    [
        (casualties.PENETRATION, True),
        (casualties.CAUGHT_BY_HE, True),
        (casualties.HIT_ABOARD, True),
        (M("damage"), False),
        ("armour penetrated?", True),  # a save from before messages
        ("damage", False),
    ],
)
def test_a_roll_against_the_unit_is_known_by_its_template_not_its_words(purpose, hurts):
    roll = ev.Roll(purpose=purpose, faces=(3,), sides=10, target=5, under=True)
    with reading("it"):
        assert BassaIntensita().success_hurts_unit(roll) is hurts


def msg_ids(text: object) -> Iterator[str]:
    """Every template in ``text`` and its nested messages."""
    if isinstance(text, Msg):
        yield text.id
        for v in text.args.values():
            yield from msg_ids(v)


def test_every_message_of_the_recorded_game_is_in_the_italian_catalogue():
    events = [line.event for line in Game.open(SAVE, writable=False).log_lines(role="referee")]
    # the scenario's own notes come from its file, as written: the rules' words begin with the first turn
    first = next(i for i, e in enumerate(events) if isinstance(e, ev.PhaseBegan) and e.turn == 1)
    said = [w for e in events[first:] for w in _words(e) if w]
    assert said and all(isinstance(w, Msg) for w in said), "an event holds a sentence, not a message"
    used = {i for w in said for i in msg_ids(w)}
    catalogue = read("it", DOMAIN)
    missing = sorted(i for i in used if not (catalogue.get(i) and catalogue.get(i).string))
    assert len(used) > 80 and missing == []


def test_movement_modifiers_are_typed_and_listed_by_the_italian_books_words(g):
    """BI-R042 (#61): an Italian referee types a movement modifier as the book's table names
    it (``via=porta,ostacolo-piccolo``), sees the Italian listed with the English noted, and
    the record keeps the English ids, so the line replays alike in either language."""
    play(g, "next dice=5,2", "next")
    with reading("it"):
        issued, *facts = g.execute("move ferrante 4 via=porta", role=REFEREE).events
        play(g, "move marra 0 via=ostacolo-grande")
        refused(g, "move sanna 4 via=tetto", "porta", rule=TYPING)
        spec = next(s for s in g.commands if s.name == "move")
        usage = g.usage(spec)
    assert isinstance(issued, ev.Issued) and issued.text == "move ferrante 4 via=door"
    with reading("it"):
        assert g.describe(next(e for e in facts if isinstance(e, ev.Moved)), role=REFEREE) == (
            "Lt Ferrante muove di 4 cm (normale, attraverso una porta)"
        )
    assert "porta" in usage and "ostacolo-piccolo" in usage and "door" not in usage
    play(g, "move deiana 4 via=door")  # the English id, as a script or an English seat types it


@pytest.mark.parametrize(
    ("italian", "english"),
    [("cannone-150", "gun-150"), ("cannone-grande", "gun-big"), ("bomba-antiuomo", "bomb-ap")],
)
def test_a_bursts_source_is_typed_by_its_italian_name_in_either_language(tmp_path, italian, english):
    """A.10.2/A.10.3, BI-R251 (#61): a gun/mortar row and an aircraft's bombs have Italian
    names a referee may type (``origine=cannone-150``), in either language as a weapon's are,
    and they land the same burst as the English id, with the same faces."""
    _the_same_rolls_by_either_name(tmp_path, "burst omar source={} long dice=2,6", italian, english)


def test_the_burst_help_lists_the_italian_sources():
    """#61: the help of ``scoppio`` names the sources as an Italian referee types them."""
    spec = next(s for s in BassaIntensita().commands() if s.name == "burst")
    with reading("it"):
        helped = render(spec.help)
    assert "bomba-a-mano" in helped and "cannone-59" in helped and "bomba-anticarro" in helped
    assert not {"hand-grenade", "gun-59", "bomb-at"} & set(helped.replace("(", " ").replace(",", " ").split())


def test_a_fire_for_effects_note_names_the_source_as_the_referee_types_it():
    """BI-R104 (#61): the note that tells the referee the burst to land says the source as he
    types it in his language; the save keeps its id."""
    from core.rulesets.bassa_intensita.commands import support

    note = support._area_words("gun-102")
    assert note.args["source"] == "gun-102"
    for lang, said in (
        ("it", "scoppio UNITÀ origine=cannone-102 indiretto"),  # the option's Italian name, as typed
        ("en", "burst UNIT source=gun-102 indirect"),
    ):
        with reading(lang):
            assert render(BassaIntensita().note_for_the_referee(note)).endswith(said)


def test_an_air_strikes_note_names_the_bombs_as_the_referee_types_them():
    """BI-R251 (#61): the air strike's note names the burst's source as the referee types it
    in his language (``origine=bomba-anticarro``), as a fire for effect's does, and the bombs as
    the call's ``bomba=`` names them; English keeps the ids."""
    from core.rulesets.bassa_intensita.commands import support

    note = M(support.AIR_NOTE, bomb="at", long="60 x 20", short="20")
    for lang, said in (
        (
            "it",
            "bombe anticarro: un'area di 60 x 20 cm a distanza lunga, il suo centro di 20 cm a distanza breve "
            "(scoppio UNITÀ origine=bomba-anticarro); poi può seguire",
        ),
        (
            "en",
            "at bombs: a 60 x 20 cm area at long distance, its centre 20 cm at short "
            "(burst UNIT source=bomb-at); then a strafing pass may follow",
        ),
    ):
        with reading(lang):
            assert said in render(BassaIntensita().note_for_the_referee(note))


def test_a_burst_of_no_he_source_lists_the_sources_in_the_referees_language(g):
    """A.10.2 (#61): the refusal lists the sources as the referee types them: Italian names
    under Italian (``lanciarazzi-rpg``, ``cannone-102``, ``bomba-anticarro``), the ids in English."""
    play(g, *FIRE[:-1])
    with reading("it"), pytest.raises(Refused) as italian:
        play(g, "burst omar source=nosuch long")
    names(italian.value, TYPING)
    listed = set(str(italian.value).partition(": ")[2].split(", "))
    assert {"lanciarazzi-rpg", "cannone-102", "bomba-anticarro", "missile-controcarro"} <= listed
    assert not {"rpg", "gun-102", "bomb-at", "atgm"} & listed
    with pytest.raises(Refused) as english:
        play(g, "burst omar source=nosuch long")
    names(english.value, TYPING)
    assert {"rpg", "gun-102", "bomb-at", "atgm"} <= set(str(english.value).partition(": ")[2].split(", "))


@pytest.mark.parametrize(("italian", "english"), [("mina-anticarro", "at-mine"), ("granata-anticarro", "at-grenade")])
def test_an_at_mine_or_grenade_is_typed_by_the_books_italian_words(tmp_path, italian, english):
    """A.12.3, BI-R130, BI-R222 (#61): ``colpito … arma=mina-anticarro`` is the AT mine's hit,
    typed in either language, with the same faces as the English id's."""
    _the_same_rolls_by_either_name(tmp_path, "hit omar weapon={} dice=6", italian, english)


def _the_same_rolls_by_either_name(tmp_path, command: str, italian: str, english: str) -> None:
    """``command`` with the Italian name typed by an Italian and an English referee, and with
    the English id, rolls the same rules against the same targets with the same outcomes."""
    said = {}
    for lang, name in (("it", italian), ("en", italian), ("en", english)):
        g = _new(tmp_path, f"{lang}-{name}.ft")
        play(g, *FIRE[:-1])
        with reading(lang):
            facts = play(g, command.format(name))
        said[lang, name] = [
            (r.roll.rule, r.roll.target, plain(r.roll.outcome)) for r in facts if isinstance(r, ev.Rolled)
        ]
        g.close()
    assert said["it", italian] == said["en", italian] == said["en", english] != []


def test_every_weapon_and_source_has_a_typed_name_of_its_own_in_every_language():
    """A name typed for a weapon or a burst's source picks one: Italian's "Cannone <103mm" and
    "Cannone >103mm" were both typed ``cannone-103mm`` (the signs fold to a hyphen)."""
    from core.rulesets.bassa_intensita.commands.casualties import BURST_SOURCES
    from core.rulesets.bassa_intensita.rules.damage import PEN_ONLY
    from core.rulesets.bassa_intensita.tables import weapons
    from core.rulesets.bassa_intensita.words import typed_names

    terms = sorted({*weapons(), *BURST_SOURCES, *PEN_ONLY})
    named: dict[str, str] = {}
    clashes = []
    for term in terms:
        for name in typed_names(term):
            if named.setdefault(name, term) != term:
                clashes.append((name, named[name], term))
    assert clashes == []
