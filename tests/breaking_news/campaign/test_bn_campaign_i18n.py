"""The final count of Breaking News (§14.0) in Italian: the ledger, the journalists'
multipliers and the result, each kept as a message and rendered for the reader."""

from __future__ import annotations

from bn_campaign_support import run

from core.language.i18n import render
from core.language.reader import reading
from core.log import events as ev
from core.log.views import REFEREE


def test_the_final_count_reads_in_italian(demo):
    run(demo, "next", "next dice=6,6,1,1")
    run(demo, "out conti killed by irregulars", "out civ1 killed by regulars", "out aden killed by regulars")
    out = demo.execute("victory the patrol withdraws", role=REFEREE)
    notes = [e.text for e in out.events if isinstance(e, ev.Noted)]
    (end,) = [e for e in out.events if isinstance(e, ev.GameEnded)]
    it = [render(n, "breaking_news", "it") for n in notes]
    # regulars: casualties 10 x2 + civilians 5 x3 (embedded journalist) = 35; irregulars: 10
    assert "regulars: perdite 10 ×2, civili 5 ×3 = 35 punti sconfitta" in it
    assert "irregulars: perdite 10 = 10 punti sconfitta" in it
    assert (
        render(end.result, "breaking_news", "it")
        == "vince Milizia somala con 10 punti sconfitta contro 35 di Reparto Bersaglieri (§14.0)"
    )
    points = [e for e in out.events if isinstance(e, ev.DefeatPoints)]
    assert render(points[-1].reason, "breaking_news", "it") == (
        "quanto aggiungono i moltiplicatori dei giornalisti (Extra: Media)"
    )
    with reading("it"):
        assert demo.describe(end, role="referee").endswith(
            "vince Milizia somala con 10 punti sconfitta contro 35 di Reparto Bersaglieri (§14.0)"
        )
        # the referee's own reason is his words, as typed
        assert demo.ruleset.describe_var("game_over", "the patrol withdraws") == (
            "la partita è finita: the patrol withdraws"
        )
