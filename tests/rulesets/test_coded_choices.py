"""Coded choices say what they mean, from the rulesets' own tables, in the reader's
language: Linea di Tiro's activation options A1-A7 (digest C.3, LT-R020), Bassa
Intensità's morale triggers m1-m7 (A.13.1), Breaking News's optional rules."""

from __future__ import annotations

from core.commands import meanings
from core.language.reader import reading
from core.rulesets.linea_di_tiro.commands import COMMANDS
from core.rulesets.linea_di_tiro.tables import options

ACTIVATE = next(s for s in COMMANDS if s.name == "activate")


def test_each_option_says_what_it_means():
    said = meanings(ACTIVATE, "linea_di_tiro")
    assert said["A1"] == "bound and prepare an attack (either order)"
    assert said["A5"] == "move at full speed"
    assert said["A7"] == "remove an immobilisation"
    assert [said[o] for o in options()] == [o.title for o in options().values()]


def test_in_italian():
    with reading("it"):
        assert meanings(ACTIVATE, "linea_di_tiro")["A5"] == "muoversi a piena velocità"


def test_bassa_intensitas_morale_triggers_say_what_they_mean():
    """Rules: BI-R180."""
    from core.rulesets.bassa_intensita.commands.morale import COMMANDS as BI

    morale = next(s for s in BI if s.name == "morale")
    said = meanings(morale, "bassa_intensita")  # A.13.1: m1-m7
    assert said["m1"] == "saw a friendly armoured vehicle destroyed within 20 cm"
    assert said["m7"] == "the combat result tables ask for it"
    with reading("it"):
        italian = meanings(morale, "bassa_intensita")
    assert italian["m1"] == "ha visto un proprio veicolo corazzato distrutto entro 20 cm"


def test_breaking_news_optional_rules_say_their_sections():
    from core.rulesets.breaking_news.commands.support import COMMANDS as BN

    option = next(s for s in BN if s.name == "option")
    assert meanings(option, "breaking_news")["deviation"] == "§8.0.2 missed area shots deviate"
