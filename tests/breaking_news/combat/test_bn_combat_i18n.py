"""Breaking News in Italian and English: the same facts, kept as data in the events,
narrated in each reader's language with the book's words (rulings I18N-BN)."""

from __future__ import annotations

import msgspec
import pytest
from bn_combat_support import new_game
from playing import names

from core.language.i18n import M, plain, render
from core.language.reader import reading
from core.log import events as ev
from core.refusal import TYPING
from core.ruleset import Refused
from core.rulesets.breaking_news import hits
from core.rulesets.breaking_news.campaign import army
from core.rulesets.breaking_news.narration import describe_var

BN = "breaking_news"
#: The events that say something in words (core/log/events.py), and the variables.
WORDY = (ev.Rolled, ev.Moved, ev.UnitOut, ev.DefeatPoints, ev.Noted, ev.GameEnded, ev.VarSet, ev.StatusChanged)


def _words(outcome, lang: str) -> dict[str, list[str]]:
    """The words each kind of fact says, rendered for a reader of ``lang``."""
    out: dict[str, list[str]] = {"purpose": [], "outcome": [], "mods": [], "cause": [], "note": []}
    for e in outcome.events:
        if isinstance(e, ev.Rolled):
            out["purpose"].append(render(e.roll.purpose, BN, lang))
            out["outcome"].append(render(e.roll.outcome, BN, lang))
            out["mods"] += [render(m.label, BN, lang) for m in e.roll.mods]
        elif isinstance(e, ev.UnitOut):
            out["cause"].append(render(e.cause, BN, lang))
        elif isinstance(e, ev.Noted):
            out["note"].append(render(e.text, BN, lang))
    return out


def test_a_kill_is_narrated_in_italian_with_the_books_words(rng):
    # §8.0 assault rifle aimed at 30 cm needs 4+: the 4 hits; Irr2 saves on 5+: the 2 fails
    out = rng.execute("fire sarge kalash range=30 aimed dice=4,2", role="regulars")
    it = _words(out, "it")
    assert it["purpose"] == ["fuoco su Kalash Man a 30 cm con Fucile d'assalto mirato", "tiro salvezza"]
    assert it["outcome"] == ["1 colpo", "fallito: fuori combattimento"]
    assert it["cause"] == ["ucciso da regulars"]
    en = _words(out, "en")
    assert en["purpose"] == ["fire with Assault rifle aimed at Kalash Man, 30 cm", "save"]
    assert en["outcome"] == ["1 hit", "failed: out of action"]
    assert en["cause"] == ["killed by regulars"]
    with reading("it"):
        log = [rng.describe(e, role="referee") for e in out.events]
    # Italian order: the target, the range, then the weapon the firer owns (not "…, 30 cm di Sgt Stone")
    fired = "fuoco su Kalash Man a 30 cm con Fucile d'assalto mirato di Sgt Stone: 1d6 serve 4+: 4 → 1 colpo"
    assert f"{fired} [dadi al tavolo]" in log
    # the event records the side's id; the log names the side by its name
    assert any(line.endswith("ucciso da Rangers") for line in log)


def test_modifiers_and_a_saved_hit_in_italian(rng):
    # behind cover: +1 to the 4+ (§8.0), so the 5 hits; the save, protected +1 (§9.0), passes on 6
    out = rng.execute("fire sarge kalash range=30 aimed cover dice=5,6", role="regulars")
    it = _words(out, "it")
    assert it["mods"] == ["bersaglio dietro riparo", "dietro posizione protetta"]
    assert it["outcome"] == ["1 colpo", "salvato: soppresso"]
    assert it["note"][-1] == "Kalash Man era al riparo: soppresso, esce dalla vista (§10.0)"
    assert _words(out, "en")["mods"] == ["target behind cover", "behind protection"]


def test_the_events_are_the_same_json_whatever_the_readers_language(tmp_path, monkeypatch):
    lines = ["fire sarge kalash range=30 aimed dice=4,2", "fire m4 kid range=20 burst dice=1,1,1"]
    saved = {}
    for lang in ("it", "en"):
        with reading(lang):
            g = new_game(tmp_path / lang, "combat", monkeypatch=monkeypatch)
            for line in lines:
                g.execute(line, role="regulars")
            # the facts that hold words (a command's time and a secret's salt differ by nature)
            events = [line.event for line in g.log_lines(role="referee")]
            saved[lang] = [msgspec.json.encode(e) for e in events if isinstance(e, WORDY)]
            g.close()
    assert len(saved["it"]) > 10 and saved["it"] == saved["en"]
    assert any(b'"fire with {weapon} at {target}, {cm} cm"' in raw for raw in saved["it"])


def test_counters_read_in_italian():
    with reading("it"):
        assert describe_var("negotiation.regulars", "running") == "negoziazione di regulars: in corso"
        assert describe_var("taken.irregulars.4", "regulars") == "regulars ha acquisito il segnalino 4 di irregulars"
        assert describe_var("game_over", "morale:regulars").startswith(
            "la partita è finita: regulars ha fallito il morale con più punti sconfitta del nemico"
        )
        assert describe_var("game_over", "the players agreed") == "la partita è finita: the players agreed"
    assert describe_var("game_over", "exfiltration:irregulars") == "the game is over: irregulars left the field (§14.0)"


def test_a_cause_is_read_back_from_a_message_or_an_older_saves_sentence():
    assert hits.parse_cause(hits.cause(hits.KILLED, "regulars")) == ("killed", "regulars")
    assert hits.parse_cause("killed by regulars") == ("killed", "regulars")
    assert hits.parse_cause(hits.cause(hits.STABILISED, "irregulars")) == ("stabilised", "irregulars")
    assert hits.parse_cause("stabilised by irregulars") == ("stabilised", "irregulars")
    assert plain(hits.cause(hits.STABILISED, "irregulars")) == "stabilised, wounded by irregulars"
    assert render(hits.cause(hits.DIED, "regulars"), BN, "it") == "morto per le ferite da regulars"


def test_a_sides_possessive_reads_as_english_writes_it_and_as_italian_does():
    from core.rulesets.breaking_news.words import whose

    text = M("{whose} mortar is ready", whose=whose("regulars"))
    assert plain(text) == "regulars' mortar is ready"
    assert plain(M("{whose} mortar is ready", whose=whose("Rossi"))) == "Rossi's mortar is ready"
    assert render(text, BN, "it") == "mortaio di regulars pronto"


def test_every_name_the_tables_put_in_words_has_its_italian():
    """babel reads no TOML: words.TABLE_WORDS lists the tables' names, and this finds
    one a table gained without its Italian."""
    from core.language.catalogues import read
    from core.rulesets.breaking_news.tables import defeat_points, extras, troop_classes
    from core.rulesets.breaking_news.tables.combat import actions, fire_table, vehicle_saves, weapons
    from core.rulesets.breaking_news.words import IT

    names = {c.name for c in troop_classes().values()} | {a.name for a in actions().values()}
    names |= {d for row in fire_table().deviation.values() for d in row.directions}
    for variant in ("", IT):
        names |= {w.name for w in weapons(variant).values()} | {x.name for x in extras(variant).values()}
        names |= {v.name for v in vehicle_saves(variant).values()}
        names |= {line.category for line in defeat_points(variant).values()}
    catalogue = read("it", "breaking_news")
    assert len(names) > 40
    assert sorted(n for n in names if catalogue.get(n) is None or not catalogue.get(n).string) == []


#: A refusal is read in the language of the seat that typed the command (rulings I18N-BN).
REFUSALS = [
    # §8.0: the assault rifle reaches 150 cm
    (
        "regulars",
        "fire sarge kalash range=500 aimed",
        "the Assault rifle reaches 150 cm at most (§8.0)",
        "Fucile d'assalto arriva al massimo a 150 cm (§8.0)",
        "T-08",
    ),
    # a weapon the figure does not carry
    (
        "regulars",
        "fire sarge kalash range=30 aimed weapon=lasergun",
        "Sgt Stone carries AR, GRENADE; which is 'lasergun'?",
        "Sgt Stone porta AR, GRENADE; quale è 'lasergun'?",
        TYPING,
    ),
    # §8.0: only a burst is split between targets
    (
        "regulars",
        "fire sarge kalash kid range=20 aimed",
        "only a burst may be split between targets (§8.0)",
        "solo una raffica può essere suddivisa tra più bersagli (§8.0)",
        "FIRE-8",
    ),
    # §5.0: the irregulars are not the active side
    (
        "irregulars",
        "fire kalash sarge range=20",
        "Rangers are active: you may only react: react-fire",
        "sono attivi Rangers: puoi solo reagire: reagisci-spara",
        "ACT-2",
    ),
    # §5.0, §6.5: a move off the active side is a dodge
    (
        "irregulars",
        "move kalash 5",
        "Rangers are active: you may only react: react-dodge",
        "sono attivi Rangers: puoi solo reagire: reagisci-schiva",
        "ACT-2",
    ),
]


@pytest.mark.parametrize(("role", "line", "english", "italian", "rule"), REFUSALS)
def test_refusals_read_in_the_seats_language(rng, role, line, english, italian, rule):
    with pytest.raises(Refused) as said:
        rng.execute(line, role=role)
    assert str(said.value) == english
    names(said.value, rule)
    with reading("it"), pytest.raises(Refused) as said:
        rng.execute(line, role=role)
    assert str(said.value) == italian
    names(said.value, rule)
    with reading("en"), pytest.raises(Refused) as said:
        rng.execute(line, role=role)
    assert str(said.value) == english
    names(said.value, rule)


def test_a_reason_not_to_fire_after_moving_reads_in_italian(rng):
    # §5.0, §6.2: a figure that ran does not fire this turn
    rng.execute("move sarge 20 run", role="regulars")
    with reading("it"), pytest.raises(Refused) as said:
        rng.execute("fire sarge kalash range=30 aimed", role="regulars")
    names(said.value, "MOV-3")
    assert str(said.value) == "una figura che ha corso non può sparare in questo turno (§5.0, §6.2)"


def test_roster_problems_read_in_italian():
    # Calculating points: a weapon must be on the points list
    assert army.mount_error("LASER", "man") == "no weapon 'LASER' in the points list"
    with reading("it"):
        assert army.mount_error("LASER", "man") == "nessuna arma 'LASER' nella lista dei punti"


def test_a_cause_read_from_its_message_is_what_its_english_words_say():
    """``parse_cause`` reads the causes ``cause`` writes from the message itself (a
    re-rolled game reads every loss's cause at every settling): the same as from the
    message's English words, for every cause and any side, and for messages of other
    shapes (a hostile save's) too."""
    from core.rulesets.breaking_news.campaign import forces

    def from_words(text):
        what, _sep, side = plain(text).partition(" by ")
        return (what.removesuffix(", wounded") if what.startswith(hits.STABILISED) else what), side

    whats = [hits.KILLED, hits.WOUNDED, hits.DIED, hits.STABILISED, hits.KNOCKED_OUT, hits.DESTROYED]
    whats += [forces.CAPTURED, forces.EVACUATED, "ghost by night"]
    shapes = [hits.cause(what, side) for what in whats for side in ("regulars", "", "a by b", "1.5", "{x}")]
    shapes += [
        M("{what} by {side}", what=M("killed", side="x"), side="regulars"),
        M("{what} by {side}", what="killed", side="regulars"),
        M("{what} by {side}", what=M("killed"), side=3),
        M("{what} by {side}", what=M("killed")),
        M("{what} by {side}", what=M("killed"), side="regulars", more="x"),
        M("stabilised, wounded by {side}", side=M("regulars")),
        M("killed", side="regulars"),
    ]
    for text in shapes:
        assert hits.parse_cause(text) == from_words(text), text
