# ruff: noqa: F811  (pytest fixtures imported from linea_di_tiro_support)
"""Linea di Tiro: the spotting, movement, assault and artillery tables against the book."""

from __future__ import annotations

import re

from linea_di_tiro_support import book  # noqa: F401  (fixture)

from core.rulesets.linea_di_tiro.tables import Profile, artillery, assault, movement, spotting


def _section(book: str, heading: str) -> str:
    return book.split(heading)[1].split("\n## ")[0]


def test_spotting_distances_are_the_books(book):
    """Rules: LT-R032."""
    text = _section(book, "## Visibilità")
    listed = {}
    for line in text.splitlines():
        m = re.match(r"• (.+)\t(∞|\d+ cm)$", line.strip())
        if m:
            listed[m.group(1)] = None if m.group(2) == "∞" else int(m.group(2).split()[0])
    words = {
        ("vehicle", "moving-open"): "mezzi in movimento all'aperto",
        ("vehicle", "still-open"): "mezzi fermi all'aperto",
        ("infantry", "moving-open"): "fanteria in movimento all'aperto",
        ("infantry", "bound"): 'fanteria in "balzo"',
        ("vehicle", "still-cover"): "mezzi fermi al coperto",
        ("infantry", "still-cover"): "fanteria ferma al coperto",
        ("infantry", "ambush"): "fanteria in imboscata",
    }
    assert len(listed) == 7
    book_rows = [r for r in spotting().targets if r.source == "book"]
    assert len(book_rows) == 7
    for row in book_rows:
        expected = listed[words[(row.kind, row.state)]]
        assert (None if row.unlimited else row.cm) == expected, row
    # the rows the book leaves out each name their ruling
    assert all(r.source == "LT-SPOT-GAPS" for r in spotting().targets if r.source != "book")
    assert "raddoppia ogni volta che si fa fuoco" in text and spotting().fire_factor == 2
    assert "dimezzata se chi osserva è un mezzo (tranne mezzi da ricognizione)" in text
    assert spotting().vehicle_observer_divisor == 2


def test_movement_is_the_books(book):
    """Rules: LT-R041, LT-R042, LT-AMB-29."""
    text = _section(book, "## Movimento")
    assert "un *balzo* è di 10 cm" in text and movement().bound_cm == 10
    assert "di norma il triplo" in text and movement().speed_times == 3
    assert "max 60°" in text and movement().max_turn_deg == 60
    # a piece whose data give no bound/speed moves as the book's general values
    plain = Profile(id="x", name="x", vehicle=False, morale=3)
    assert plain.bound == movement().bound_cm and plain.speed == movement().speed_times * movement().bound_cm
    assert movement().options == {"A1": "bound", "A2": "bound", "A5": "speed"}


def test_assault_numbers_are_the_books(book):
    text = _section(book, "## Assalto")
    assert "distrutta con un risultato  $\\leq 4$" in text and assault().overrun_cover_max == 4
    ratings = {r.role: r.rating for r in assault().ratings}
    assert "armi controcarro improvvisate **1**" in text and ratings["improvised-at"] == 1
    assert "armi anticarro adeguate **3**" in text and ratings["trained-at"] == 3
    assert "cacciatori di carri specializzati **5**" in text and ratings["tank-hunters"] == 5
    assert "carri senza mitragliatrici +1" in text and assault().no_mg_bonus == 1
    assert "carri particolarmente protetti -1" in text and assault().protected_malus == -1
    m = assault().melee
    assert "+2 se è trincerata" in text and m.entrenched == 2
    assert "-1 se attaccata da dietro" in text and m.from_behind == -1
    assert "-2 se immobilizzata" in text and m.immobilised == -2
    assert "combattono con -3 al dado" in text and m.gun == -3


def test_artillery_square_is_the_books(book):
    text = _section(book, "## Artiglieria")
    assert "quadrato di 10 cm di lato" in text and artillery().square_cm == 10
    assert "comando di compagnia" in text and "company-command" in artillery().caller_roles


def test_he_bonus_is_the_books(book):
    from core.rulesets.linea_di_tiro.tables import mg_table

    assert "+1 al fattore d'attacco per ogni tiro consecutivo con proiettili HE" in book
    assert mg_table().he_bonus == 1
