"""``fireteam bench --client`` runs and prints its figures (tiny sizes; the figures
themselves are never checked against a time: docs/benchmark.md has them).

The whole bench runs once, as the command (its starts are a dozen Python processes, most of
its CPU); ``--starts`` is checked in this process with the starts counted, not made: what
it adds is which starts it asks for and that it times no key.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.cachedir import CACHE_DIR_ENV
from tui.bench import client
from tui.main import main as fireteam

FIRETEAM = Path(sys.executable).with_name("fireteam")
KEYS = ("command", "undo", "redo", "replay_step")


@pytest.mark.subprocess
def test_client_bench_prints_every_figure(tmp_path):
    # With a user's own cache folder (none named for Fireteam): the bench leaves nothing in it.
    user_cache = tmp_path / "user-cache"
    env = {k: v for k, v in os.environ.items() if k != CACHE_DIR_ENV} | {"XDG_CACHE_HOME": str(user_cache)}
    (tmp_path / "run").mkdir()
    result = subprocess.run(
        [str(FIRETEAM), "bench", "--client", "--json", "--events", "2000", "--rounds", "1", "--start-rounds", "1"],
        capture_output=True,
        text=True,
        cwd=tmp_path / "run",
        env=env,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr
    (line,) = result.stdout.strip().splitlines()
    data = json.loads(line)
    assert data["events"] == 2000
    assert data["start_ratio"] > 0 and data["start_ratio_big"] > 0 and data["start_ratio_it"] > 0
    assert data["start_ratio_big_first_open"] > 0
    assert data["start_it"]["start_s"] > 0 and data["start_it"]["bare_start_s"] > 0
    for key in KEYS:
        assert data[f"{key}_p95_ms"] >= data[f"{key}_p50_ms"] > 0, key
    # Per save, each key's wall-clock median and CPU time, and the start.
    assert set(data["saves"]) == {"demo", "big"}
    for figures in data["saves"].values():
        for key in (*KEYS, "dialog"):
            assert figures[f"{key}_p50_ms"] >= figures[f"{key}_cpu_ms"] * 0.5 > 0, key
            assert figures[f"{key}_p95_ms"] >= figures[f"{key}_p50_ms"], key
            assert 0 <= figures[f"{key}_queued_ms"] <= figures[f"{key}_p95_ms"], key  # parts of the wall clock
            assert 0 <= figures[f"{key}_blocked_ms"] <= figures[f"{key}_p95_ms"], key
        assert figures["start_s"] > 0 and figures["bare_start_s"] > 0 and figures["start_cpu_ratio"] > 0
    # The top-level figure is the worse of the two saves.
    assert data["undo_p50_ms"] == max(f["undo_p50_ms"] for f in data["saves"].values())
    assert isinstance(data["targets_met"], bool)
    # The bench gave its commands to copies: no save was left behind where it ran.
    assert list((tmp_path / "run").iterdir()) == []
    assert not user_cache.exists()  # its tables, CSS, catalogues and opens were the bench's own


def test_the_starts_alone_are_timed_with_starts(tmp_path, monkeypatch, capsys):
    started: list[tuple[str, str | None]] = []

    def start_once(what: str, cwd: Path, lang: str | None = None, tree: Path | None = None) -> tuple[float, float]:
        assert tree is None  # (no other checkout's)
        started.append((Path(what).name, lang))
        return (1.0, 0.5) if what == "bare" else (1.25, 0.75)  # seconds to the first frame, and of CPU

    monkeypatch.setattr(client, "_start_once", start_once)
    monkeypatch.chdir(tmp_path)
    cache = os.environ[CACHE_DIR_ENV]
    assert fireteam(["bench", "--client", "--starts", "--json", "--events", "2000", "--start-rounds", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    # One untimed start of each, then two rounds of the bare app and each save in turn;
    # the big save twice a round (with its open cache, and as a first open); the demo's in Italian too.
    saves = [("bare", None), ("demo.ft", None), ("big.ft", None), ("big.ft", None)]
    italian = [("bare", None), ("demo.ft", "it")]
    assert started == saves * 3 + italian * 3
    assert data["events"] == 2000
    assert data["start_ratio"] == data["start_ratio_big"] == data["start_ratio_it"] == 1.25
    assert data["start_ratio_big_first_open"] == 1.25
    first_open = data["start_big_first_open"]
    assert first_open["start_ratio"] == data["start_ratio_big_first_open"] and first_open["start_cpu_ratio"] == 1.5
    assert not any(k.startswith(KEYS) for k in data), data  # no key was timed
    assert set(data["saves"]) == {"demo", "big"}
    for figures in data["saves"].values():
        assert figures["start_cpu_ratio"] == 1.5 and not any(k.startswith(KEYS) for k in figures), figures
    assert data["targets_met"] is True  # judged on its starts alone, each within its target
    assert list(tmp_path.iterdir()) == []
    assert os.environ[CACHE_DIR_ENV] == cache  # the bench's own cache folder was for its run only


def test_another_checkouts_starts_are_timed_in_the_same_rounds(tmp_path, monkeypatch, capsys):
    started: list[tuple[str, str | None, Path | None]] = []

    def start_once(what: str, cwd: Path, lang: str | None = None, tree: Path | None = None) -> tuple[float, float]:
        started.append((Path(what).name, lang, tree))
        return (1.0, 0.5) if what == "bare" else (1.5, 0.75) if tree else (1.25, 0.75)

    monkeypatch.setattr(client, "_start_once", start_once)
    monkeypatch.chdir(tmp_path)
    other = tmp_path / "older"
    (other / "tui").mkdir(parents=True)
    (other / "tui" / "main.py").touch()
    args = ["bench", "--client", "--starts", "--json", "--events", "2000", "--start-rounds", "1"]
    assert fireteam([*args, "--against", "older"]) == 0
    data = json.loads(capsys.readouterr().out)
    # Each save's start by this checkout, then by the other, after the round's bare start.
    saves = [("bare", None, None)] + [
        (name, None, tree) for name in ("demo.ft", "big.ft", "big.ft") for tree in (None, other)
    ]
    italian = [("bare", None, None), ("demo.ft", "it", None), ("demo.ft", "it", other)]
    assert started == saves * 2 + italian * 2
    assert data["against"] == str(other)
    assert data["start_ratio"] == data["start_ratio_it"] == 1.25
    assert data["against_ratio_demo"] == data["against_ratio_big"] == data["against_ratio_it"] == 1.5
    assert data["against_ratio_big_first_open"] == 1.5
    assert data["saves"]["demo"]["against_s"] == 1.5


def test_against_a_folder_that_is_no_checkout_is_refused(tmp_path, capsys):
    assert fireteam(["bench", "--client", "--starts", "--against", str(tmp_path)]) == 2
    assert "not a Fireteam checkout" in capsys.readouterr().err


@pytest.mark.subprocess
def test_another_checkout_starts_with_this_benchs_child(tmp_path):
    """Its Fireteam found first on the path, this bench's child module beside it: here the checkout
    itself, started as another would be (its own caches)."""
    demo = tmp_path / "demo.ft"
    demo.write_bytes(client.DEMO_SAVE.read_bytes())
    root = client.DEMO_SAVE.parents[1]
    figures = client.start_ratios({"demo": demo}, 1, tmp_path, against=root)["demo"]
    assert figures["start_s"] > 0 and figures["against_s"] > 0 and figures["against_ratio"] > 0
    assert (tmp_path / "against" / "child" / f"{client.CHILD_MODULE}.py").is_file()
    assert (tmp_path / "against" / "pycache").is_dir()  # its compiled modules, not this checkout's


def test_the_targets_are_met_only_when_every_start_and_both_saves_keys_are_within_them():
    from tui.bench.client import KEYS, KEYS_P95, targets_met

    def results(demo=1.1, big=1.1, first=1.4, italian=1.1, slowest=10.0, slowest_p95=20.0) -> dict:
        saves = {name: dict.fromkeys(KEYS, 10.0) | dict.fromkeys(KEYS_P95, 20.0) for name in ("demo", "big")}
        saves["big"]["undo_p50_ms"] = slowest
        saves["big"]["redo_p95_ms"] = slowest_p95
        return {
            "start_ratio": demo,
            "start_ratio_big": big,
            "start_ratio_big_first_open": first,
            "start_ratio_it": italian,
            "saves": saves,
        }

    assert targets_met(results(1.3, 1.3, 2.0, 1.3, 16.0, 33.0))  # each at its target's edge
    assert not targets_met(results(demo=1.31))
    assert not targets_met(results(big=1.31))  # the big save's start counts too
    assert not targets_met(results(first=2.01))  # and its first open
    assert not targets_met(results(italian=1.31))
    assert not targets_met(results(slowest=16.1))  # a key's median on either save
    assert not targets_met(results(slowest_p95=33.1))  # and its 95th percentile
    # A run of the starts alone (``--starts``) is judged on its starts.
    starts_only = results() | {"saves": {"demo": {"start_ratio": 1.1}, "big": {"start_ratio": 1.1}}}
    assert targets_met(starts_only)
    assert not targets_met(starts_only | {"start_ratio_it": 1.31})


def test_the_95th_percentile_is_a_sample_by_nearest_rank():
    from tui.bench.client import percentile

    samples = [float(v) for v in range(1, 16)]  # 15 rounds, as the bench takes
    assert percentile(samples, 95) == 15.0
    assert percentile(samples, 50) == 8.0
    assert percentile([3.0], 95) == 3.0
    assert percentile(list(range(1, 101)), 95) == 95


def test_the_rules_bench_counts_each_share_of_a_question_set():
    """``fireteam bench --rules``'s arithmetic (``tui.bench.rulesearch.shares``), on answers made up
    here: right first, in three, abstained, pairs agreeing (a pair of one is none), rulings named,
    the first answer carrying the rule's statement in the question's language, and the bars."""
    from core.explain.rulesearch import Answer, Found
    from core.explain.rulesmap import ByReferee, Topic
    from tui.bench.rulesearch import shares

    def rule(rule_id: str, says: str = "", says_it: str = "") -> Found:
        return Found(ByReferee(id=rule_id, section="§1", title=rule_id, command="note", says=says, says_it=says_it), 1)

    a1, a2, b1 = rule("A-1", "A says (§1).", "A dice (§1)."), rule("A-2"), rule("B-1", "B says (§1).", "B dice (§1).")
    draw = Topic(en="a draw", it="un pareggio", ruling="BN-VIC-DRAW", says="A draw.", says_it="Pareggio.")

    def q(expect: list[str], lang: str = "en", **more: str) -> dict:
        return {"ruleset": "breaking-news", "lang": lang, "text": "?", "expect": expect, **more}

    asked = [
        (q(["A-1"], pair="p1"), Answer("?", "en", (a1,))),  # right first, its statement said
        (q(["A-1"], "it", pair="p1"), Answer("?", "it", (b1, a1))),  # in three; the pair leads apart
        (q(["A-2"]), Answer("?", "en", (a2,))),  # right first, but A-2 says nothing: its title only
        (q([], ruling="BN-VIC-DRAW", pair="p2"), Answer("?", "en", silent=draw, nearest=(a1,))),  # the ruling named
        (q([], "it", pair="p2"), Answer("?", "it")),  # the pair agrees: neither answers
        (q([], ruling="BN-PTS-UNLISTED"), Answer("?", "en", (b1,))),  # answered: no abstention, no ruling
        (q(["A-1"], pair="p3"), Answer("?", "en")),  # missed; a pair of one question is no pair
    ]
    figures = shares(asked)
    assert {name: figures[name] for name in ("right_first", "right_in_three", "abstained", "pairs_agree")} == {
        "right_first": 2 / 4,
        "right_in_three": 3 / 4,
        "abstained": 2 / 3,
        "pairs_agree": 1 / 2,
    }
    assert (figures["rulings_named"], figures["rulings_named_of"]) == (1 / 2, 2)
    assert (figures["stated"], figures["stated_of"]) == (3 / 4, 4)  # A-1 in English, B-1 in Italian and English
    assert figures["bars_met"] is False
    met = shares([asked[0], asked[3], asked[4]])
    assert (met["right_first"], met["abstained"], met["pairs_agree"], met["bars_met"]) == (1.0, 1.0, 1.0, True)
    assert shares([asked[0], asked[5]])["bars_met"] is False  # 1 of 2 abstained: under 90%


def test_the_rules_bench_measures_a_set_with_the_search():
    """``measure`` asks each question of its ruleset's index and times it: two questions asked in
    both languages, which the search answers alike, and one the book leaves to a ruling."""
    from tui.bench.rulesearch import measure

    asked = [
        {"ruleset": "breaking-news", "text": "can a suppressed soldier shoot back?", "expect": ["SUP-2"], "pair": "a"},
        {"ruleset": "breaking-news", "text": "un uomo soppresso può sparare?", "expect": ["SUP-2"], "pair": "a"},
        {"ruleset": "breaking-news", "text": "what if both sides end with equal defeat points?", "expect": [],
         "ruling": "BN-VIC-DRAW"},
    ]  # fmt: skip
    figures = measure(asked, rounds=1)
    assert figures["questions"] == 3 and figures["ask_ms_p95"] > 0 and "build_ms_breaking-news" in figures
    assert (figures["right_first"], figures["abstained"], figures["pairs_agree"], figures["rulings_named"]) == (
        1.0,
        1.0,
        1.0,
        1.0,
    )
    fast = figures["first_ask_ms_p95"] < 50 and figures["ask_ms_p95"] < 50  # (the load's, not checked: a time)
    assert figures["stated"] == 1.0 and figures["bars_met"] is fast
