"""``fireteam rules``: every ruleset's rules map as a referee reads it, and as JSON (#27)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from core.registry import BUILTIN, get_ruleset
from tui.main import main as fireteam

KEYS = {"id", "status", "code", "tests", "section", "ruling", "ruleset", "title"}


def test_the_json_is_every_rule_of_every_ruleset_with_its_keys(capsys):
    assert fireteam(["rules", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert isinstance(rows, list) and all(set(row) >= KEYS for row in rows)
    for rid in BUILTIN:  # (a test may register a ruleset of its own, without a map)
        rmap = get_ruleset(rid).rules_map()
        assert rmap is not None
        mine = [row for row in rows if row["ruleset"] == rid]
        assert [row["id"] for row in mine] == [r.id for r in rmap.rules]
        assert Counter(row["status"] for row in mine) == {s: n for s, n in rmap.counts().items() if n}
    assert "todo" not in {row["status"] for row in rows}
    fire_5 = next(row for row in rows if (row["ruleset"], row["id"]) == ("breaking-news", "FIRE-5"))
    assert fire_5["status"] == "enforced" and fire_5["section"] == "§8.0" and fire_5["ruling"] == "BN-C-OVERFLOW"
    assert fire_5["title"].startswith("Burst overflow — for burst fire with T > 6, the firer loses")
    assert "core.rulesets.breaking_news.rules.fire:shot" in fire_5["code"]
    assert all(t.startswith("tests/") and "::test_" in t for t in fire_5["tests"])


def test_the_italian_drafts_rules_are_the_variant_ones(capsys):
    """``--status variant``: the differences the Italian draft plays (digest DIFF-), each naming it."""
    assert fireteam(["rules", "--ruleset", "breaking-news", "--status", "variant", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows and {row["variant"] for row in rows} == {"it-2009-12-09"}
    assert {"DIFF-24", "DIFF-31", "DIFF-38", "DIFF-41", "DIFF-56"} <= {row["id"] for row in rows}
    assert all(row["tests"] and row["code"] for row in rows)


def test_the_text_counts_explains_and_lists_what_the_referee_does(capsys):
    assert fireteam(["rules", "--ruleset", "ludonet"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "Ludonet quick skirmish 1996: 48 rules (42 enforced, 1 partial, 2 ruling, 2 referee, 1 not applicable)"
    )
    assert any(line.split()[:1] == ["referee"] and "left to the referee" in line for line in out)
    i = next(i for i, line in enumerate(out) if line.startswith("Left to the referee (2)"))
    assert [line.split()[0] for line in out[i + 1 : i + 3]] == ["LN-AMB-22", "LN-AMB-23"]
    assert all(": clear" in line for line in out[i + 1 : i + 3])
    assert out[i + 1].endswith("B.1: clear  Hidden deployment reveal rule")


def test_the_text_filtered_by_status_says_how_many_are_shown(capsys):
    assert fireteam(["rules", "--ruleset", "breaking-news", "--status", "variant"]) == 0
    out = capsys.readouterr().out
    rmap = get_ruleset("breaking-news").rules_map()
    assert rmap is not None
    assert f"{rmap.counts()['variant']} rules shown" in out
    assert "DIFF-41" in out and "variant Italian draft of 9 December 2009" in out and "FIRE-5 " not in out
    assert "it-2009-12-09" not in out  # the variant in words, never its id (#48)


@pytest.mark.long  # it asks every ruleset's map (an index of each built: 1.5-1.8 s of CPU)
def test_rules_ask_answers_a_question_in_either_language_for_a_ruleset_or_each(capsys):
    """``fireteam rules ask WORDS`` (#76): the question answered without a game."""
    assert fireteam(["rules", "--ruleset", "ludonet", "ask", "quante", "ferite", "eliminano", "una", "figura?"]) == 0
    out = capsys.readouterr().out.splitlines()
    says = get_ruleset("ludonet").rules_map().get("LN-R037").says
    assert out == [
        f"{says.removesuffix(' (B.6).')}. Rule LN-R037 (B.6): Two wounds eliminate a figure, enforced."
        " Ruling LN-WOUND (docs/rulings.md).",  # what it says, its name, the ruling Fireteam reads it by (#91)
        "Also: LN-R035, If the shot hits, the target rolls 1d6.",  # the wound's roll, near enough
    ]
    assert fireteam(["rules", "--lang", "it", "ask", "what", "does", "flibbertigibbet", "mean?"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == [
        "Bassa Intensità",
        "Le regole non lo dicono: nulla nelle regole di Bassa Intensità corrisponde abbastanza bene.",
    ]
    assert len([line for line in out if line.startswith("Le regole non lo dicono")]) == len(BUILTIN)
    assert fireteam(["rules", "ask"]) == 2
    assert "fireteam rules ask WORDS" in capsys.readouterr().err
