"""Defeat points (§14.0, T-16), the journalist multipliers (T-20), Negotiation
(T-19, EX-07) and the final count."""

from __future__ import annotations

import pytest
from bn_campaign_support import IT, dp, events, new_game, run
from playing import names, refused

from core.dice.faces import ManualDice
from core.language.i18n import plain
from core.log import events as ev
from core.log.state import copy_state
from core.log.views import REFEREE
from core.ruleset import Context, Refused
from core.rulesets.breaking_news import ledger
from core.rulesets.breaking_news.campaign import army


def _open(tmp_path, variant: str = "", name: str = "g.ft"):
    """Bersaglieri (Negotiation 3, embedded journalist) against militia (independent journalist)."""
    game = new_game(tmp_path, "open", variant=variant, name=name)
    run(game, "roster bersaglieri regulars", "roster militia irregulars")
    run(game, "objectives regulars 4 2 5", "objectives irregulars 3 1 5")
    return game


def _ledger(game, side):
    return {k: v for k, v in game.state.sides[side].dp_by_category.items() if v}


def test_first_fire_is_scored_from_combats_record(demo):
    """§14.0: Rossi fires first (and misses): the Bersaglieri take 5 when the phase ends, once.

    Digest: FIRE-15, T-16.
    """
    run(demo, "next", "next dice=6,6,1,1", "fire rossi ahmed range=30 aimed dice=1")
    assert demo.state.vars["first_fire"] == "regulars"
    demo.execute("next", role=REFEREE)
    assert _ledger(demo, "regulars") == {"first-fire": 5}
    refused(demo, "score first-fire irregulars", "fired first already", rule="FIRE-15")


def test_casualty_lines(demo):
    """§14.0: a regular lost is 10; an irregular 5, his leader 10 (Aden and Dahir: 15).

    Digest: DP-1, T-16.
    """
    run(demo, "next", "next dice=6,6,1,1")
    run(demo, "out bianchi killed by irregulars", "out aden killed by regulars", "out dahir died of wounds by regulars")
    demo.execute("next", role=REFEREE)
    assert _ledger(demo, "regulars") == {"casualties": 10}
    assert _ledger(demo, "irregulars") == {"casualties": 15}


def test_a_man_back_in_action_is_struck_off(demo):
    """§14.0: Conti, wounded, costs 10; back in action he is struck off again, and no morale test is due.

    Digest: DP-5.
    """
    run(demo, "next", "next dice=6,6,1,1", "out conti wounded by irregulars", "next")
    assert dp(demo, "regulars") == 10
    run(demo, "back conti", "next")  # no longer a loss: struck off, and no morale test is due
    assert dp(demo, "regulars") == 0
    assert demo.state.phase == "initiative"


def test_civilians_killed_by_the_regulars_only(demo):
    """§14.0, Extras: Civilians: a civilian killed by the regulars costs them 5; one killed by the militia
    costs nothing.

    Digest: AMB-54, EXT-11.
    """
    run(demo, "next", "next dice=6,6,1,1", "out civ1 killed by regulars", "out civ2 killed by irregulars", "next")
    assert _ledger(demo, "regulars") == {"civilians": 5}
    assert dp(demo, "irregulars") == 0


def test_a_civilian_hit_scores_in_the_italian_draft_only(tmp_path):
    """§14.0 (digest DIFF-46, ruling BN-DP-CIVILIANS): a civilian the Regulars hit but do not kill costs
    them 5 in the Italian draft (every civilian hit), nothing in the English one (killed)."""
    for variant, expected in (("", []), (IT, [5])):
        game = new_game(tmp_path, variant=variant, name=f"civ{variant}.ft")
        ctx = Context(copy_state(game.state), ManualDice([]), "referee", game.ruleset)
        ledger.civilian_hit(ctx, ctx.state.units["civ1"], "regulars", killed=False)
        assert [e.points for e in ctx.events if isinstance(e, ev.DefeatPoints)] == expected


def test_score_lines_and_their_limits(demo):
    """§14.0: the referee scores two buildings hit by the regulars' support fire (10); civilians only
    against the Regular player; an exfiltration 5.

    Digest: ART-5, DIFF-44.
    """
    run(demo, "next", "next dice=6,6,1,1")
    demo.execute("score building regulars count=2", role=REFEREE)
    assert _ledger(demo, "regulars") == {"buildings": 10}
    refused(demo, "score civilian irregulars", "only the Regular player", rule="DP-1")
    demo.execute("score exfiltration irregulars", role=REFEREE)
    assert _ledger(demo, "irregulars") == {"exfiltration": 5}


def test_rules_of_engagement_double_the_first_shot_and_civilians(tmp_path):
    """Extras: Rules of Engagement: firing first costs 5 + 25; a civilian 10 instead of 5.

    Digest: DP-2, EXT-7, FIRE-15.
    """
    roster = tmp_path / "roe.toml"
    text = army.ROSTERS / "bersaglieri.toml"
    body = open(text).read().replace("improved_support_fire = true", "rules_of_engagement = true")
    roster.write_text(body)
    game = new_game(tmp_path, "open")
    run(game, f"roster {roster} regulars", "roster militia irregulars")
    run(game, "objectives regulars 4 2 5", "objectives irregulars 3 1 5", "next", "next dice=6,6,1,1")
    run(game, "score first-fire regulars", "score civilian regulars")
    assert _ledger(game, "regulars") == {"first-fire": 30, "civilians": 10}


def test_ex07_negotiation_english(tmp_path):
    """EX-07: the Bersaglieri negotiate at level 3: 15 after turn 1, 30 after turn 2; the militia fire
    first: the 30 go, and they take 10 + 5.

    Digest: AMB-58, DIFF-59, DP-4, EXT-12, T-19.
    """
    game = _open(tmp_path)
    game.execute("negotiate", role="regulars")
    run(game, "next", "next dice=6,6,1,1", "next", "next")
    assert _ledger(game, "regulars") == {"negotiation": 15}
    run(game, "next dice=1,1,6,6", "next", "next")
    assert _ledger(game, "regulars") == {"negotiation": 30}
    run(game, "next dice=1,1,6,6", "score first-fire irregulars")
    assert _ledger(game, "regulars") == {}
    assert _ledger(game, "irregulars") == {"negotiation-broken": 10, "first-fire": 5}  # 10 + 5, EX-07


def test_ex07_negotiation_italian_breaker_pays_10_only(tmp_path):
    """EX-07 in the Italian draft: declared in turn 1; 30 after two turns; the militia firing first pay
    10, not 10 + 5 (DIFF-45).

    Digest: AMB-58, DIFF-58, DIFF-62.
    """
    game = _open(tmp_path, IT)
    refused(game, "@regulars negotiate", "first turn", rule="DIFF-58")
    run(game, "next", "next dice=6,6,1,1")
    game.execute("negotiate", role="regulars")
    run(game, "next", "next", "next dice=1,1,6,6", "next", "next")
    assert _ledger(game, "regulars") == {"negotiation": 30}
    run(game, "next dice=1,1,6,6", "score first-fire irregulars")
    assert _ledger(game, "irregulars") == {"negotiation-broken": 10}


def test_negotiation_timing_english(tmp_path):
    """Extras: Negotiation, English draft: declared before the first initiative, by the Regular player
    only.

    Digest: EXT-12.
    """
    game = _open(tmp_path)
    run(game, "next", "next dice=6,6,1,1")
    refused(game, "@regulars negotiate", "before the first initiative", rule="DIFF-58")
    with pytest.raises(Refused, match="Regular player negotiates") as no:
        _open(tmp_path, name="b.ft").execute("negotiate", role="irregulars")
    names(no.value, "EXT-12")


def test_negotiation_points_stand_or_go_at_the_end(tmp_path):
    """Extras: Negotiation: at the end the negotiator (level 3) rolls: a 3 cancels his 15 points, a 4
    keeps them.

    Digest: AMB-58, DIFF-60, DP-4, EX-07, EXT-12.
    """
    for face, expected in ((3, 0), (4, 15)):
        game = _open(tmp_path, name=f"n{face}.ft")
        run(game, "negotiate regulars", "next", "next dice=6,6,1,1", "next", "next")
        out = game.execute(f"victory dice={face}", role=REFEREE)
        (roll,) = [e.roll for e in events(out, ev.Rolled) if (e.side, e.roll.purpose) == ("regulars", "negotiation")]
        assert roll.outcome == ("points cancelled" if face <= 3 else "points stand")
        assert game.state.sides["regulars"].dp_by_category["negotiation"] == expected


def test_a_negotiator_who_fires_first_keeps_his_points(tmp_path):
    """Extras: Negotiation (ruling BN-NEG-SELF): the Bersaglieri fire first: they keep their 15, pay the
    normal 5, and the negotiation ends.

    Digest: AMB-58.
    """
    game = _open(tmp_path)
    run(game, "negotiate regulars", "next", "next dice=6,6,1,1", "next", "next")
    run(game, "next dice=6,6,1,1", "score first-fire regulars")
    assert _ledger(game, "regulars") == {"negotiation": 15, "first-fire": 5}
    assert game.state.vars["negotiation.regulars"] == "ended"


def test_breaching_the_15cm_breaks_the_negotiation(tmp_path):
    """Extras: Negotiation: the referee rules the militia came within 15 cm: the 15 points go and the
    militia take 10.

    Digest: AMB-58, EXT-12.
    """
    game = _open(tmp_path)
    run(game, "negotiate regulars", "next", "next dice=6,6,1,1", "next", "next")
    game.execute("negotiate regulars breach", role=REFEREE)
    assert _ledger(game, "regulars") == {}
    assert _ledger(game, "irregulars") == {"negotiation-broken": 10}


def test_journalist_captured(tmp_path):
    """Extras: Media, §14.0: the militia capture a journalist: 30 to the Bersaglieri; the Regular player
    cannot capture.

    Digest: DIFF-54, DP-1, EXT-10.
    """
    game = _open(tmp_path)
    run(game, "next", "next dice=6,6,1,1")  # regulars active
    for journalist in ("reed", "lupo"):  # their own embedded one as well as the militia's
        refused(
            game,
            f"@regulars capture {journalist}",
            r"only the Irregulars \(irregulars\) capture journalists",
            rule="EXT-10",
        )
    run(game, "next", "next", "next dice=1,1,6,6")  # irregulars active
    game.execute("capture lupo", role="irregulars")
    assert _ledger(game, "regulars") == {"journalists": 30}
    assert game.state.units["lupo"].has("captured")


def test_irregulars_capture_their_own_independent_journalist(tmp_path):
    """Extras: Media: the Irregular player moves the independent journalists, and
    either kind is captured by Irregulars who contact them; the Regular side pays 30
    (ruling BN-MEDIA-CAPTURE).  Reed is the militia's independent journalist.

    Digest: EXT-10.
    """
    game = _open(tmp_path)
    run(game, "next", "next dice=1,1,6,6")  # irregulars active
    game.execute("capture reed", role="irregulars")
    assert plain(game.state.units["reed"].out) == "captured by irregulars"
    assert _ledger(game, "regulars") == {"journalists": 30}
    assert _ledger(game, "irregulars") == {}


def test_the_referee_records_a_capture_for_the_irregulars(tmp_path):
    game = _open(tmp_path)
    run(game, "next", "next dice=6,6,1,1")
    game.execute("capture reed", role=REFEREE)  # the referee, for the Irregular player
    assert plain(game.state.units["reed"].out) == "captured by irregulars"
    assert _ledger(game, "regulars") == {"journalists": 30}


def test_final_count_with_the_multipliers(demo):
    """§14.0: the final count: the Bersaglieri's 10 casualty points ×2 and 5 for a civilian ×3 (embedded
    journalist): 35 against 10; the most points lose.

    Digest: T-20, VIC-2.
    """
    run(demo, "next", "next dice=6,6,1,1")
    run(demo, "out conti killed by irregulars", "out civ1 killed by regulars", "out aden killed by regulars")
    out = demo.execute("victory the patrol withdraws", role=REFEREE)
    notes = [e.text for e in events(out, ev.Noted)]
    # regulars: casualties 10 x2 + civilians 5 x3 (embedded journalist) = 35; irregulars: 10
    assert "regulars: casualties 10 ×2, civilians 5 ×3 = 35 defeat points" in notes
    assert "irregulars: casualties 10 = 10 defeat points" in notes
    (end,) = events(out, ev.GameEnded)
    assert end.result == "Somali militia win with 10 defeat points against 35 for Bersaglieri (§14.0)"
    assert (end.winner, end.draw, end.scores) == ("irregulars", False, {"regulars": 35, "irregulars": 10})
    assert all(s.revealed for s in demo.state.secrets.values())
    refused(demo, "next", "game is over", rule="ENG-2")


def test_the_italian_drafts_final_count_ends_as_data(demo_it):
    """14.0 of the Italian draft, as §14.0 (ruling BN-VIC-DRAW): Conti lost, 10 ×2 with the embedded
    journalist (Extras: Media), against Aden the leader (10), Bashir and Ahmed (5 each): 20 and 20, a
    draw; the end fact holds no winner, the draw and both scores."""
    run(demo_it, "next", "next dice=6,6,1,1")
    run(demo_it, "out conti killed by irregulars", "out aden killed by regulars")
    run(demo_it, "out bashir killed by regulars", "out ahmed killed by regulars")
    (end,) = events(demo_it.execute("victory", role=REFEREE), ev.GameEnded)
    assert end.result == "a draw: Bersaglieri and Somali militia both have 20 defeat points"
    assert (end.winner, end.draw, end.scores) == ("", True, {"regulars": 20, "irregulars": 20})
    assert (demo_it.state.winner, demo_it.state.draw, demo_it.state.scores) == ("", True, end.scores)


def test_exfiltration_ends_the_game(demo):
    """§14.0: the militia leave the field of their own will: 5 for exfiltration, the game ends, and the
    Bersaglieri win.

    Digest: VIC-1.
    """
    run(demo, "next", "next dice=1,1,6,6")
    demo.execute("exfiltrate irregulars", role="irregulars")
    assert demo.state.phase == "final"
    assert _ledger(demo, "irregulars") == {"exfiltration": 5}
    assert all(
        plain(u.out) == "left the field"
        for u in demo.state.units.values()
        if u.side == "irregulars" and u.kind == "man"
    )
    out = demo.execute("next", role=REFEREE)
    (end,) = events(out, ev.GameEnded)
    assert "Bersaglieri win" in end.result
    assert (end.winner, end.draw, end.scores) == ("regulars", False, {"regulars": 0, "irregulars": 5})


def test_the_final_count_books_the_multipliers(demo):
    """Extras: Media: the final count books what the multipliers add (20) in a media column: 35 in all.

    Digest: DP-3.
    """
    run(demo, "next", "next dice=6,6,1,1", "out conti killed by irregulars", "score civilian regulars")
    demo.execute("victory", role=REFEREE)
    regulars = demo.state.sides["regulars"]
    assert regulars.dp_by_category == {"casualties": 10, "civilians": 5, "media": 20}
    assert regulars.defeat_points == 35  # what fireteam replay shows is the final count


def test_diff_57_either_side_negotiates_in_the_italian_draft(tmp_path):
    """Extras: Negotiation (digest DIFF-57, DIFF-58; ruling BN-NEG-WHO): the Italian draft gives every
    squad a negotiation value, so the militia may negotiate, in the first turn; the English draft
    refuses them (the Regular player negotiates)."""
    english = _open(tmp_path, name="en.ft")
    run(english, "next", "next dice=1,1,6,6")
    refused(english, "@irregulars negotiate", "Regular player negotiates", rule="DIFF-57")
    italian = _open(tmp_path, IT, name="it.ft")
    run(italian, "next", "next dice=1,1,6,6")
    italian.execute("negotiate", role="irregulars")
    assert italian.state.vars["negotiation.irregulars"]
