"""A tiny TOML writer for tests (msgspec's needs tomli_w) and a complete scenario
per ruleset: every field of its schema set to a valid value."""

from __future__ import annotations

import copy
import json
from typing import Any


def _scalar(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | str):
        return json.dumps(v, ensure_ascii=False) if isinstance(v, str) else str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_scalar(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_scalar(x)}" for k, x in v.items()) + "}"
    raise TypeError(v)


def dumps(doc: dict[str, Any]) -> str:
    """Top-level scalars, tables of scalars, and arrays of tables of scalars."""
    head: list[str] = []
    tail: list[str] = []
    for key, value in doc.items():
        if isinstance(value, dict) and all(isinstance(x, dict) for x in value.values()) and value:
            for sub, table in value.items():
                tail += [
                    "",
                    f"[{key}.{json.dumps(sub)}]",
                    *(f"{json.dumps(k) if key == 'translations' else k} = {_scalar(x)}" for k, x in table.items()),
                ]
        elif isinstance(value, dict) and key in ("victory", "jokers"):
            tail += ["", f"[{key}]", *(f"{k} = {_scalar(x)}" for k, x in value.items())]
        elif isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
            for table in value:
                tail += ["", f"[[{key}]]", *(f"{k} = {_scalar(x)}" for k, x in table.items())]
        else:
            head.append(f"{key} = {_scalar(value)}")
    return "\n".join(head + tail) + "\n"


COMMON: dict[str, Any] = {
    "id": "full",
    "title": "Every field",
    "description": "A scenario that sets every field.",
    "turns": 6,
    "night": True,
    "visibility": 40,
    "special_rules": ["No one crosses the river."],
    "victory": {"summary": "Hold the well.", "objectives": ["well"], "break_at": 50, "points": 10},
    "objectives": [
        {"id": "well", "name": "The well", "where": "centre", "points": 10, "owner": "a", "hidden": False},
        {"id": "cache", "name": "Cache", "where": "barn", "points": 5, "owner": "b", "hidden": True},
    ],
    "secrets": [{"key": "plan", "owner": "a", "value": "left flank"}],
    # the file's words in Italian too (docs/scenarios.md, Languages): a title, a name, a text
    "translations": {"it": {"Every field": "Ogni campo", "The car": "L'auto", "Hold the well.": "Tenere il pozzo."}},
}


def _units(kind_vehicle: str, cls_man: str, cls_vehicle: str, weapon: str, role: str, stat: str) -> list[dict]:
    return [
        {
            "id": "car",
            "name": "The car",
            "side": "a",
            "team": "Escort",
            "kind": kind_vehicle,
            "cls": cls_vehicle,
            "weapons": [weapon],
            "roles": [],
            "stats": {stat: 2},
        },
        {
            "id": "man1",
            "name": "Sgt One",
            "side": "a",
            "team": "Alpha",
            "kind": "man",
            "cls": cls_man,
            "weapons": [weapon],
            "leadership": 1,
            "roles": [role],
            "status": ["wounded"],
            "stats": {stat: 1},
            "aboard": "car",
        },
        {"id": "man2", "name": "Pte Two", "side": "b", "cls": cls_man, "weapons": [weapon], "status": ["hidden"]},
    ]


FULL: dict[str, dict[str, Any]] = {
    "bassa-intensita": COMMON
    | {
        "ruleset": "bassa-intensita",
        "moon": True,
        "options": [],
        "sides": [{"id": "a", "name": "Side A", "army": "nato"}, {"id": "b", "name": "Side B"}],
        "units": _units("vehicle", "veteran", "regular", "rifle", "leader", "gun_mm"),
        "support": [
            {
                "id": "bty",
                "name": "Battery",
                "side": "a",
                "kind": "general",
                "weapon": "mg",
                "count": 2,
                "ammo": 4,
                "cls": "regular",
                "stats": {"gun_mm": 105},
            }
        ],
        "mines": [{"id": "m1", "kind": "ap", "where": "the ford", "owner": "b", "hidden": True}],
        "rosters": {},
    },
    "linea-di-tiro": COMMON
    | {
        "ruleset": "linea-di-tiro",
        "options": [],
        "sides": [{"id": "a", "name": "Side A", "army": "allied"}, {"id": "b", "name": "Side B", "army": "axis"}],
        "units": [
            {k: v for k, v in u.items() if k != "weapons"}
            for u in _units("vehicle", "inf", "tank", "x", "recon", "morale")
        ],
        "support": [{"id": "arty", "name": "Guns", "side": "a", "kind": "artillery", "count": 2, "stats": {"he": 5}}],
        "profiles": [
            {
                "id": "tank",
                "name": "Tank",
                "vehicle": True,
                "morale": 4,
                "bound": 10,
                "speed": 30,
                "at": 5,
                "at_long": 4,
                "front": 5,
                "side": 3,
                "mg": 3,
                "defence": "tank",
            },
            {"id": "inf", "name": "Infantry", "vehicle": False, "morale": 3, "mg": 3},
        ],
        "jokers": {"effect": "a flare", "artillery": True},
        "rosters": {},
    },
    "ludonet": COMMON
    | {
        "ruleset": "ludonet",
        "options": ["igo-ugo"],
        "grenade_range": 10,
        "sides": [{"id": "a", "name": "Side A"}, {"id": "b", "name": "Side B"}],
        "units": _units("vehicle", "", "", "rifle", "expert", "cv"),
        "support": [{"id": "air", "name": "Stukas", "side": "b", "kind": "aircraft", "count": 2, "ammo": 3}],
        "weapons": [
            {"id": "rifle", "range": 60, "name": "Rifle", "heavy": False, "anti_tank": False, "anti_aircraft": False}
        ],
        "rosters": {},
    },
    "breaking-news": COMMON
    | {
        "ruleset": "breaking-news",
        "options": ["wounded"],
        "mission": 0,
        "points": 200,
        "platoon": ["a"],
        "forces": {"a": "msu"},
        "extras": {"a": {"negotiation": 2}},
        "sides": [{"id": "a", "name": "Side A", "army": "regular"}, {"id": "b", "name": "Side B", "army": "irregular"}],
        "units": _units("vehicle", "R3", "light", "LMG", "medic", "ammo"),
        "support": [],
        "rosters": {},
    },
}


FULL["bassa-intensita"]["units"][0]["roles"] = ["truck"]  # a vehicle names its type (A.6.2)
# Each Breaking News side has its one main commander (§5.0, §12.0).
FULL["breaking-news"]["units"][1]["roles"] = ["medic", "commander"]
FULL["breaking-news"]["units"][2]["roles"] = ["commander"]


def full(ruleset: str) -> dict[str, Any]:
    return copy.deepcopy(FULL[ruleset])
