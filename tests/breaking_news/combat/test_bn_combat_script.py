"""A whole turn of Breaking News combat through ``fireteam script``: the save it
writes replays to the same state, and each side's log keeps the other's secrets."""

from __future__ import annotations

import io
import re

from bn_combat_support import HERE

import core.rulesets.breaking_news as bn
from core.cli.main import run_script
from core.game import Game
from core.language.i18n import plain


def test_skirmish_script(tmp_path, monkeypatch):
    monkeypatch.setattr(bn, "SCENARIOS", HERE / "scenarios")
    out = io.StringIO()
    save = tmp_path / "skirmish.ftlog"
    assert run_script(HERE / "skirmish.ft", save, 7, "breaking-news", "", out=out) == 0
    text = out.getvalue()
    assert "Kid Smg's save: 1d6 needing 5+: 1 → failed: out of action" in text
    g = Game.open(save, writable=False)
    s = g.state
    assert s.turn == 2 and s.phase == "initiative"
    assert plain(s.units["kid"].out) == "wounded by regulars"
    assert {"suppressed", "hidden"} <= set(s.units["kalash"].status)
    assert not {"fired", "moved"} & set(s.units["m4"].status)  # the turn's badges went with it
    regulars = [line.text for line in g.log_lines("regulars")]
    assert not any("Shadow" in t for t in regulars)
    assert any(re.search(r"sighting of a hidden figure \(marker [A-Z][2-9][A-Z]\) at 15 cm", t) for t in regulars)
    irregulars = [line.text for line in g.log_lines("irregulars")]
    assert any("Shadow moves 4 cm" in t for t in irregulars)
    assert "kalash" not in g.view("regulars").units and "shadow" not in g.view("regulars").units
