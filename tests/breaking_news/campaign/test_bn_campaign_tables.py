"""The campaign tables against the book: every number below is typed from
breaking-news-1.5.1-en.md (and the Italian draft where it differs)."""

from __future__ import annotations

from bn_campaign_support import IT

from core.rulesets.breaking_news import tables

# §3.0 — class: (name, side, Initiative/Morale, Spotting, Fire, Covering fire, Melee, Save, Suppression, PTS)
BOOK_CLASSES = {
    "R1": ("Special Forces", "regular", 5, -1, -1, 4, 5, 2, 5, 20),
    "R2": ("Elite", "regular", 5, 0, 0, 3, 4, 3, 4, 15),
    "R3": ("Veteran", "regular", 4, 0, 0, 2, 3, 3, 4, 12),
    "R4": ("Trained", "regular", 3, 0, 0, 1, 2, 4, 3, 10),
    "R5": ("Green Recruit", "regular", 2, 1, 1, 0, 1, 5, 2, 7),
    "Irr1": ("Hardened Militia", "irregular", 4, 0, 0, 1, 3, 4, 4, 11),
    "Irr2": ("Fanatics", "irregular", 3, 0, 1, 0, 2, 5, 3, 8),
    "Irr3": ("Militia", "irregular", 2, 1, 1, 0, 1, 5, 2, 5),
}


def test_troop_classes_every_column():
    """§3.0: every class's every column, against the book.

    Digest: AMB-56, DIFF-50, T-01.
    """
    got = {
        c.id: (c.name, c.side, c.init_morale, c.spotting, c.fire, c.covering, c.melee, c.save, c.suppression, c.points)
        for c in tables.troop_classes().values()
    }
    assert got == BOOK_CLASSES


def test_leadership_levels():
    # T-02: Leadership1 = 5 points ... Leadership4 = 20 points; modifier +1..+4
    assert {lv.level: (lv.modifier, lv.cost) for lv in tables.leadership().values()} == {
        1: (1, 5),
        2: (2, 10),
        3: (3, 15),
        4: (4, 20),
    }
    assert tables.leadership_modifier(0) == 0


def test_weapon_and_vehicle_costs():
    """Calculating points: the medic, each weapon and each vehicle type, against the book.

    Digest: T-17.
    """
    pts = tables.army_points()
    assert pts.medic == 10
    book = {"SNIPER": 15, "RPG": 7, "ATH": 15, "GL": 5, "LMG": 5, "MMG": 7, "HMG": 10, "AR": 0}
    assert {w: pts.weapon_cost(w) for w in book} == book
    assert pts.weapon_cost("BAZOOKA") is None
    assert {v.id: (v.base, v.plus_weapons) for v in pts.vehicles} == {
        "unprotected": (10, True),
        "protected": (15, True),
        "light": (25, True),
        "heavy": (50, False),
        "tank": (50, False),
    }


def test_extras_costs_english():
    """Extras: every EXTRA's cost and restriction, against the English draft.

    Digest: T-18.
    """
    x = tables.extras()
    assert {k: e.cost for k, e in x.items()} == {
        "infiltrators": 30,
        "ambush": 25,
        "helicopter": 25,
        "improved_support_fire": 15,
        "mortars": 15,
        "motivation": 15,
        "rules_of_engagement": -40,
        "intelligence": 10,
        "ied": 20,
        "ied_remote": 30,
        "embedded_journalist": -20,
        "independent_journalist": 20,
        "civilians": 10,
    }
    assert x["motivation"].platoon_cost == 0
    assert x["intelligence"].max_level == 3 and x["intelligence"].special_level == 4
    assert x["improved_support_fire"].excludes == ("rules_of_engagement",)
    assert x["mortars"].army == "irregular" and x["infiltrators"].requires == "special-forces"


def test_extras_italian_motivation_per_platoon():
    # DIFF-52: "15 punti per squadra o 30 punti per plotone"
    assert tables.extras(IT)["motivation"].platoon_cost == 30
    assert tables.extras(IT)["motivation"].cost == 15


def test_negotiation_levels_both_drafts():
    """Extras: Negotiation: each level's cost and points per turn in both drafts (level 4: 20 or 15).

    Digest: T-19.
    """
    en = {lv.level: (lv.cost, lv.dp_per_turn) for lv in tables.negotiation().values()}
    it = {lv.level: (lv.cost, lv.dp_per_turn) for lv in tables.negotiation(IT).values()}
    assert en == {1: (0, 5), 2: (5, 10), 3: (10, 15), 4: (20, 20)}
    assert it == {1: (0, 5), 2: (5, 10), 3: (10, 15), 4: (15, 20)}  # DIFF-61
    assert tables.negotiation()[4].only == ("msu", "secret-services")
    assert tables.negotiation_keep_away_cm() == 15


def test_defeat_points_english():
    """§14.0's defeat points list, line by line, against the English draft.

    Digest: T-16.
    """
    d = tables.defeat_points()
    assert {k: (r.points, r.roe_points) for k, r in d.items()} == {
        "first-fire": (5, 0),
        "roe-first-fire": (25, 0),
        "special-forces-lost": (15, 0),
        "regular-lost": (10, 0),
        "irregular-lost": (5, 0),
        "irregular-leader-lost": (10, 0),
        "building": (5, 10),
        "civilian": (5, 10),
        "journalist-captured": (30, 0),
        "disengagement": (15, 0),
        "exfiltration": (5, 0),
        "main-objective": (50, 0),
        "secondary-objective": (20, 0),
        "negotiation": (0, 0),
        "negotiation-broken": (10, 0),
        "negotiation-broken-first-fire": (5, 0),
    }
    assert d["civilian"].trigger == "killed"


def test_defeat_points_italian_differences():
    en, it = tables.defeat_points(), tables.defeat_points(IT)
    changed = {k for k in en if en[k] != it[k]}
    assert changed == {"civilian", "secondary-objective", "negotiation-broken-first-fire"}
    assert it["civilian"].trigger == "hit"  # DIFF-46
    assert it["secondary-objective"].points == 0  # DIFF-49
    assert it["negotiation-broken-first-fire"].points == 0  # DIFF-45, DIFF-62


def test_media_multipliers():
    """Extras: Media: embedded ×2, ×3 on civilians and buildings, ×2 the opponent's main objective;
    independent ×2, ×4, moving 2d6.

    Digest: T-20.
    """
    m = tables.media()
    assert (m["embedded"].all, m["embedded"].civilians_buildings, m["embedded"].opponent_main_objective) == (2, 3, 2)
    assert (m["independent"].all, m["independent"].civilians_buildings, m["independent"].move_dice) == (2, 4, 2)
