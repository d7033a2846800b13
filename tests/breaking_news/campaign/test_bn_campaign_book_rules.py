"""Rules of the book around the fight that no test named before the rules map (issue
#27), each through the commands with exact dice: given these faces, this outcome."""

from __future__ import annotations

from bn_campaign_support import rolls, run


def test_wnd_2_a_stabilised_man_is_no_loss(demo):
    """§9.3 (digest WND-2, DP-5): a wounded man a medic reaches is stabilised: he fights no
    more, but counts neither for morale nor for defeat points.  Conti and Bianchi are
    badly wounded; Ferri, the medic, stabilises Conti: the Bersaglieri lose 10 (Bianchi
    alone), and their morale test counts one loss: 4 dice (Veterans), a 1 at least."""
    run(demo, "option wounded on", "next", "next dice=6,6,1,1")
    run(demo, "out conti wounded by irregulars", "out bianchi wounded by irregulars")
    demo.execute("medic ferri conti", role="regulars")
    demo.execute("next")
    assert demo.state.sides["regulars"].dp_by_category == {"casualties": 10}
    (test,) = rolls(demo.execute("morale regulars dice=1,1,1,1", role="regulars"))
    assert (len(test.faces), test.target, test.outcome) == (4, 1, "passed")
