"""A Ludonet unit ("reparto", LN-R070) named as people say it: by any word of its
team's name, or its start; an ambiguous word is answered with the candidates."""

from __future__ import annotations

import pytest
from ln_support import play, rolls, to_phase
from playing import names

from core.language.i18n import plain
from core.language.reader import reading
from core.log.views import REFEREE
from core.refusal import TYPING
from core.ruleset import Refused


def test_a_team_by_any_word_of_its_name(armoured):
    for typed in ("gruppe", "Vogt", "gr", "GRUPPE VOGT", "gruppe v"):
        assert armoured.parse(f"morale {typed}", REFEREE).args == {"team": "Gruppe Vogt"}, typed
    assert armoured.parse("morale section", REFEREE).args == {"team": "Section 1"}
    assert armoured.parse("morale team=vogt", REFEREE).args == {"team": "Gruppe Vogt"}


def test_an_ambiguous_or_unknown_team_is_refused_with_the_candidates(armoured):
    with pytest.raises(Refused) as refused:
        armoured.parse("morale t", REFEREE)
    names(refused.value, TYPING)
    assert str(refused.value) == "'t' could be PIAT team, Transport or Troop"
    with pytest.raises(Refused) as refused:
        armoured.parse("morale nobody", REFEREE)
    names(refused.value, TYPING)
    assert str(refused.value) == "no team 'nobody'"


def test_tab_offers_the_teams(armoured):
    assert armoured.complete("morale gr", role="referee") == ["Gruppe Vogt"]
    assert armoured.complete("morale t", role="referee") == ["PIAT team", "Transport", "Troop"]


def test_morale_by_one_word_of_the_team(armoured):
    to_phase(armoured, 1, "morale")
    play(armoured, "out kurt", "out otto", "out mg42")
    facts = play(armoured, "@garrison morale gruppe dice=2")  # LN-R070: 1-2 shaken
    (roll,) = rolls(facts)
    assert (plain(roll.purpose), plain(roll.outcome)) == ("morale of Gruppe Vogt", "shaken: falls back")


def test_the_scenarios_numbers_and_written_deployments_read_as_words(tmp_path):
    """Ruling LN-WEAPONS, LN-R001 (#48): the log said ``weapon.Sten.range = 20``,
    ``grenade_range = 10`` and ``revealed: deployment.paras = …``, the keys of the variables."""
    from core.game import Game
    from core.log import events as ev
    from core.log.state import DICE_KEY

    game = Game.new(tmp_path / "ln.ft", "ludonet", seed=3)
    game.execute("scenario demo", role=REFEREE)
    game.execute("next dice=6,1", role=REFEREE)  # the first player: the game begins
    game.execute("victory paras the farm is taken", role=REFEREE)
    lines = [
        line
        for line in game.log_lines(role="referee")
        if isinstance(line.event, ev.VarSet | ev.SecretSet | ev.Revealed) and line.event.key != DICE_KEY
    ]
    texts = [line.text for line in lines]
    assert "Sten reaches 20 cm (ruling LN-WEAPONS)" in texts
    assert "MG 42 is a heavy weapon: +1 to the damage die (LN-R036)" in texts
    assert "a grenade is thrown up to 10 cm (LN-R038)" in texts
    assert any(t.startswith("revealed: 7th Parachute Battalion's written deployment: Section 1 behind") for t in texts)
    assert not [t for t in texts if " = " in t], texts
    game.close()


def test_tab_offers_the_teams_by_the_italian_readers_names(armoured):
    """A built-in team offered as the Italian reader reads it (ruling I18N-TEAM, #61), found by
    a word of either name; what Tab puts on the line parses to the same team."""
    with reading("it"):
        assert armoured.complete("morale sez", role="referee") == ["Sezione 1"]
        assert armoured.complete("morale sec", role="referee") == ["Sezione 1"]
        assert armoured.complete("morale t", role="referee") == ["PIAT team", "Plotone carri", "Transport"]
        assert armoured.parse("morale Plotone carri", REFEREE).args == {"team": "Troop"}
        with pytest.raises(Refused) as refused:
            armoured.parse("morale t", REFEREE)
        names(refused.value, TYPING)
    assert str(refused.value) == "'t' può essere PIAT team, Plotone carri (Troop) o Transport"


def test_a_team_named_as_another_reads_is_the_one_so_written(armoured):
    """A user's team called what a built-in one reads as in Italian (*Plotone carri*, the
    Troop's Italian name) is that team when typed whole; a word of both is refused with both."""
    import msgspec

    from core.commands.pieces import find_team

    state = armoured.state
    lorry = state.units["lorry"]
    state.units["lorry"] = msgspec.structs.replace(lorry, team="Plotone carri")
    try:
        with reading("it"):
            assert find_team("plotone carri", state, REFEREE) == "Plotone carri"
            assert find_team("troop", state, REFEREE) == "Troop"
            with pytest.raises(Refused) as refused:
                find_team("plot", state, REFEREE)
            names(refused.value, TYPING)
        assert str(refused.value) == "'plot' può essere Plotone carri o Plotone carri (Troop)"
    finally:
        state.units["lorry"] = lorry
