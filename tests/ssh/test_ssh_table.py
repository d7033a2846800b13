"""End to end: real SSH clients with terminals, sitting at one shared table."""

from __future__ import annotations

import asyncio
import re

import asyncssh
import pytest
from ssh_club import WATCHING, Player, wait_until
from ssh_memory import widget_strings
from textual.pilot import Pilot

from core.language.i18n import naming
from core.log.narrate import names_of
from core.log.views import event_visible

pytestmark = pytest.mark.server

HIDDEN = ("Dahir Omar", "Egal Yusuf")  # the demo's hidden irregulars


async def test_a_command_from_one_seat_appears_at_once_on_every_other_seat(club):
    rita, reg, irr = await asyncio.gather(club.connect("rita"), club.connect("reg"), club.connect("irr"))
    await asyncio.gather(
        rita.wait_for("rita (referee)"), reg.wait_for("reg (Bersaglieri)"), irr.wait_for("irr (Somali militia)")
    )
    reg.command('note "smoke over the market"')
    await asyncio.gather(*(p.wait_for("smoke over the market") for p in (rita, reg, irr)))
    irr.command('note "shots from the minaret"')
    await asyncio.gather(*(p.wait_for("shots from the minaret") for p in (rita, reg, irr)))
    issued = [ln.event for ln in club.game.log_lines(role="referee") if ln.event.__class__.__name__ == "Issued"]
    assert [(e.by, e.text) for e in issued[-2:]] == [
        ("reg", 'note "smoke over the market"'),
        ("irr", 'note "shots from the minaret"'),
    ]


def regulars_secrets(game) -> list[str]:
    """The regulars' secret objectives as the log says them (" Bersaglieri's marker 4 is the
    main objective (§4.1)"...): what each marker is, never its key, the side by its name
    (issue #26); with the space before, so that the irregulars' own markers' words do not
    hold them."""
    with naming(names_of(game.state)):
        said = [
            " " + (game.ruleset.describe_var(key, secret.value) or "")
            for key, secret in game.state.secrets.items()
            if secret.owner == "regulars"
        ]
    assert said and all(s.strip() for s in said), "the demo gives the regulars secret objectives, each in words"
    return said


async def test_each_seat_sees_only_its_own_view(club):
    # The regulars' terminal is tall enough for the log to show the set-up's secrets with their
    # commitments, and wide enough for a secret's words in full.
    rita, reg, irr, spec = await asyncio.gather(
        *(club.connect(s, size=(160, 60) if s == "reg" else (100, 40)) for s in ("rita", "reg", "irr", "spec"))
    )
    for player in (rita, irr):
        await player.wait_for(*HIDDEN)
    await reg.wait_for("Faysal Abdi", "Turn 0: deployment")
    await spec.wait_for("Faysal Abdi", "Turn 0: deployment")
    # Everyone redraws after a command, and still the hidden men stay hidden.
    rita.command('note "the market is quiet"')
    for player in (reg, spec):
        await player.wait_for("the market is quiet")
    for player in (reg, spec):
        assert not any(name in player.text() for name in HIDDEN)
        # Not on the screen, and never sent down the wire either.
        assert not any(name in "".join(player.raw) for name in HIDDEN)
    # The regulars' secret objectives reach the regulars, and never the irregulars or the spectator.
    secrets = regulars_secrets(club.game)
    assert all(key in "".join(reg.raw) for key in secrets)
    for player in (irr, spec):
        assert not any(key in "".join(player.raw) for key in secrets)
    # Nor are they anywhere in the memory of those sessions' widgets.
    for seat, hidden in (("reg", HIDDEN), ("spec", (*HIDDEN, *secrets)), ("irr", tuple(secrets))):
        strings = widget_strings(club.app(seat))  # the spectator's: the shared screen he watches
        leaks = [s for s in strings if any(secret in s for secret in hidden)]
        assert leaks == [], f"{seat}'s widgets hold {leaks[:3]}"
    # The walk does find what a seat may see (so it would find a leak).
    assert any("Dahir Omar" in s for s in widget_strings(club.session("irr").app))
    assert any(secrets[0] in s for s in widget_strings(club.session("reg").app))


async def test_a_sides_replay_hides_what_its_live_view_hides(club):
    reg = await club.seated("reg", "reg (Bersaglieri)")
    before = len(reg.raw)
    await reg.typed("\x1b[15~", "paused", "as Bersaglieri")  # F5: replay this game
    total = club.game.timeline.length
    # The steps count only the events the regulars may see: the count of all
    # of them would tell how many hidden ones there were.
    seen = sum(event_visible(e, "regulars") for e in club.game.history.timeline(0, total))
    assert 0 < seen < total
    reg.type("<")  # to the start, then forward event by event (over those the regulars may see)
    await reg.wait_for(f"step 0/{seen}")
    await reg.typed("\x1b[C" * seen, f"step {seen}/{seen}")
    replayed = "".join(reg.raw[before:])
    assert not any(name in replayed for name in HIDDEN)
    assert f"/{total}" not in replayed and "file line" not in replayed
    strings = widget_strings(club.session("reg").app)
    assert not [s for s in strings if any(name in s for name in HIDDEN)]


async def test_a_spectator_only_watches(club):
    spec, rita = await asyncio.gather(club.connect("spec"), club.connect("rita"))
    await asyncio.gather(spec.wait_for(WATCHING), rita.wait_for("rita (referee)"))
    spec.command('note "I want to play"')
    # His keys reach no app (tests/ssh/test_ssh_spectators.py): he is told so on his own terminal.
    await wait_until(lambda: "Spectators watch: they cannot give commands" in "".join(spec.raw))
    rita.command('note "the game goes on"')
    await spec.wait_for("the game goes on")
    assert "I want to play" not in rita.text() and "I want to play" not in club.log()
    assert club.game.log_lines(role="referee")[-1].text == "note: the game goes on"
    assert not any("I want to play" in line.text for line in club.game.log_lines(role="referee"))


#: For whichever side wins the first initiative: a man to hide (no dice), a shooter and a target.
ACTIONS = {"regulars": ("conti", "rossi", "ahmed"), "irregulars": ("faysal", "aden", "rossi")}


async def test_a_player_may_undo_only_his_own_last_command_and_not_once_dice_were_rolled(club):
    rita, reg, irr = await asyncio.gather(club.connect("rita"), club.connect("reg"), club.connect("irr"))
    seats = {"rita": rita, "regulars": reg, "irregulars": irr}
    await asyncio.gather(*(p.wait_for("type a command") for p in seats.values()))
    game, history = club.game, club.game.history
    for _ in range(4):  # deployment → initiative → activation (rolling initiative on the way)
        if game.state.phase == "activation":
            break
        before = game.log_length
        rita.command("next")
        await wait_until(lambda before=before: game.log_length > before)
    assert game.state.phase == "activation"
    active = game.state.active_side
    player, other = seats[active], seats[game.state.reacting_side]
    hider, shooter, target = ACTIONS[active]

    player.command(f"hide {hider}")  # rolls no dice
    await wait_until(lambda: "hidden" in game.state.units[hider].status)
    hide = history.last_effective()
    await other.gives("undo", "ask the referee to undo it")
    player.command("undo")
    await rita.wait_for(f"undid command #{hide}")
    assert "hidden" not in game.state.units[hider].status

    player.command(f"fire {shooter} {target} range=30 aimed")  # rolls dice
    await wait_until(lambda: history.issued(history.last_effective()).text.startswith("fire"))
    fire = history.last_effective()
    await player.gives("undo", "dice were rolled or something was revealed; only the referee can undo that")
    assert history.last_effective() == fire
    rita.command("undo")  # the referee may undo anything
    await player.wait_for(f"undid command #{fire}")
    assert history.last_effective() == hide - 1


async def test_unknown_keys_and_passwords_are_refused(club):
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    with pytest.raises(asyncssh.PermissionDenied):
        await club.connect("rita", key=stranger)
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncssh.connect(
            "127.0.0.1",
            club.port,
            username="rita",
            password="rita",
            client_keys=None,
            known_hosts=None,
            agent_path=None,
            preferred_auth="password,keyboard-interactive",
        )
    assert club.server.sessions == []
    assert "unknown key refused" in club.log()


async def test_the_role_comes_from_the_seats_file_not_from_the_client(club):
    conn = await asyncssh.connect(
        "127.0.0.1", club.port, username="referee", client_keys=[club.keys["reg"]], known_hosts=None, agent_path=None
    )

    player = Player(100, 40)
    chan, _ = await conn.create_session(
        lambda: player, term_type="xterm", term_size=(100, 40), env={"FIRETEAM_ROLE": "referee", "ROLE": "referee"}
    )
    player.conn, player.chan = conn, chan
    club.players.append(player)
    await player.wait_for("reg (Bersaglieri)")
    assert club.session("reg").seat.role == "regulars"
    assert "Dahir Omar" not in player.text()


async def test_terminal_size_and_resizes_come_from_the_client(club):
    reg = await club.seated("reg", "reg (Bersaglieri)", size=(90, 30))
    app = club.session("reg").app
    assert tuple(app.size) == (90, 30)
    reg.resize(60, 20)
    await wait_until(lambda: tuple(app.size) == (60, 20))
    # The client's terminal is redrawn to its new width: the title box closes at column 60.
    await wait_until(lambda: reg.text().splitlines()[0].rstrip().endswith("╮"), show=reg.text)
    assert len(reg.text().splitlines()[0].rstrip()) == 60


@pytest.mark.parametrize(
    ("term", "colorterm", "system"),
    [("xterm-256color", None, "256"), ("xterm", None, "standard"), ("xterm-256color", "truecolor", "truecolor")],
)
@pytest.mark.parametrize("seat", ["irr", "spec"])  # a player's own app; the screen shared by the spectators
async def test_colours_follow_the_clients_terminal(club, term, colorterm, system, seat):
    conn = await asyncssh.connect(
        "127.0.0.1", club.port, username="p", client_keys=[club.keys[seat]], known_hosts=None, agent_path=None
    )

    player = Player(80, 24)
    env = {"COLORTERM": colorterm} if colorterm else {}
    chan, _ = await conn.create_session(lambda: player, term_type=term, term_size=(80, 24), env=env)
    player.conn, player.chan = conn, chan
    club.players.append(player)
    await player.wait_for(WATCHING if seat == "spec" else "irr (Somali militia)")
    raw = "".join(player.raw)
    assert ("\x1b[38;2;" in raw) == (system == "truecolor")
    assert ("\x1b[38;5;" in raw) == (system == "256")
    assert "\x1b[9" in raw or "\x1b[3" in raw  # some colour is shown in every case


@pytest.mark.parametrize("no_color", [False, True])
async def test_a_screen_seat_whose_client_sends_no_color_is_drawn_in_greys(club, no_color):
    conn = await asyncssh.connect(
        "127.0.0.1", club.port, username="p", client_keys=[club.keys["reg"]], known_hosts=None, agent_path=None
    )
    player = Player(100, 30)
    env = {"COLORTERM": "truecolor", **({"NO_COLOR": "1"} if no_color else {})}
    chan, _ = await conn.create_session(lambda: player, term_type="xterm-256color", term_size=(100, 30), env=env)
    player.conn, player.chan = conn, chan
    club.players.append(player)
    await player.wait_for("reg (Bersaglieri)")
    colours = set(re.findall(r"\x1b\[(?:[0-9;]*;)?[34]8;2;(\d+);(\d+);(\d+)", "".join(player.raw)))
    greys = {c for c in colours if len(set(c)) == 1}
    assert colours and (greys == colours) == no_color  # only greys, as the client asked (tui.contrast)


async def test_nothing_lands_on_the_servers_disk_or_browser(club, tmp_path, monkeypatch):
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda url, *a, **k: opened.append(url))
    monkeypatch.chdir(tmp_path)
    rita = await club.seated("rita", "rita (referee)")
    app = club.session("rita").app
    await rita.typed("\x1b[24~", "screenshots are not saved on a shared table")  # F12: save a screenshot
    # Textual's own ways to a file or a browser go through the driver, which refuses them.
    app.call_later(app.deliver_screenshot, None, str(tmp_path))
    app.call_later(app.open_url, "https://example.org/rules")
    await rita.gives('note "still here"', "still here")
    # The save, and the label of its lock, which the server holds while it runs.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.ft", "table.ft.lock"]
    assert opened == []


async def test_an_idle_seat_is_sent_nothing(club):
    # No blinking cursor over SSH: it would be a frame drawn by the server and
    # sent to every seat twice a second, idle or not.
    await club.seated("rita", "rita (referee)", "type a command")
    session = club.session("rita")
    app = session.app
    assert app.screen.query_one("CommandInput").cursor_blink is False
    # Nothing of the seat's app repeats on its own, but the screen's own update timer
    # (which runs only while something is to be drawn).
    nodes = [app, *app.screen.walk_children(with_self=True)]
    ticking = [
        (type(node).__name__, timer.name)
        for node in nodes
        for timer in node._timers
        if timer._repeat is None and timer._active.is_set() and timer.name != "screen_update"
    ]
    assert ticking == []
    # Once the first screen and its follow-ups are handled and drawn, what the server
    # writes to this seat over the next seconds is at most one late repaint, never a
    # steady stream (a blink would be one every half second).
    await Pilot(app)._wait_for_screen()
    drawn = asyncio.Event()
    app.call_after_refresh(drawn.set)
    await drawn.wait()
    written = []
    write = session.write
    session.write = lambda data: (written.append(data), write(data))
    await asyncio.sleep(2.0)  # watching for output that should not come: no event can prove an absence
    assert len(written) <= 1
