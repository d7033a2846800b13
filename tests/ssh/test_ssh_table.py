"""End to end: real SSH clients with terminals, sitting at one shared table."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest
from conftest import wait_until
from ssh_memory import widget_strings

HIDDEN = ("Dahir Omar", "Egal Yusuf")  # the demo's hidden irregulars


async def test_a_command_from_one_seat_appears_at_once_on_every_other_seat(club):
    rita, reg, irr = await asyncio.gather(club.connect("rita"), club.connect("reg"), club.connect("irr"))
    await asyncio.gather(
        rita.wait_for("rita (referee)"), reg.wait_for("reg (regulars)"), irr.wait_for("irr (irregulars)")
    )
    reg.command('note "smoke over the market"')
    await asyncio.gather(*(p.wait_for("smoke over the market") for p in (rita, reg, irr)))
    irr.command('note "shots from the minaret"')
    await asyncio.gather(*(p.wait_for("shots from the minaret") for p in (rita, reg, irr)))
    issued = [ln.event for ln in club.game.log_lines() if ln.event.__class__.__name__ == "Issued"]
    assert [(e.by, e.text) for e in issued[-2:]] == [
        ("reg", 'note "smoke over the market"'),
        ("irr", 'note "shots from the minaret"'),
    ]


async def test_each_seat_sees_only_its_own_view(club):
    rita, reg, irr, spec = await asyncio.gather(*(club.connect(s) for s in ("rita", "reg", "irr", "spec")))
    for player in (rita, irr):
        await player.wait_for(*HIDDEN)
    await reg.wait_for("Faysal Abdi", "Turn 0: deployment")
    await spec.wait_for("Faysal Abdi")
    # Everyone redraws after a command, and still the hidden men stay hidden.
    rita.command('note "the market is quiet"')
    for player in (reg, spec):
        await player.wait_for("the market is quiet")
    for player in (reg, spec):
        assert not any(name in player.text() for name in HIDDEN)
        # Not on the screen, and never sent down the wire either.
        assert not any(name in "".join(player.raw) for name in HIDDEN)
    # The regulars' secret objectives: the irregulars and the spectator never learn them.
    await reg.wait_for("marker.4 = main")
    for player in (irr, spec):
        assert "marker.4" not in "".join(player.raw)
    # Nor are they anywhere in the memory of those sessions' widgets.
    for seat, secrets in (("reg", HIDDEN), ("spec", HIDDEN + ("marker.4",)), ("irr", ("marker.4 = main",))):
        strings = widget_strings(club.session(seat).app)
        leaks = [s for s in strings if any(secret in s for secret in secrets)]
        assert leaks == [], f"{seat}'s widgets hold {leaks[:3]}"
    # The walk does find what a seat may see (so it would find a leak).
    assert any("Dahir Omar" in s for s in widget_strings(club.session("irr").app))


async def test_a_spectator_only_watches(club):
    spec, rita = await asyncio.gather(club.connect("spec"), club.connect("rita"))
    await spec.wait_for("spec (spectator)")
    before = club.game.log_length
    spec.command('note "I want to play"')
    await spec.wait_for("refused: spectators watch")
    assert club.game.log_length == before
    assert "I want to play" not in rita.text()


async def test_a_player_may_undo_only_his_own_last_command(club):
    rita, reg, irr = await asyncio.gather(club.connect("rita"), club.connect("reg"), club.connect("irr"))
    await asyncio.gather(rita.wait_for("rita (referee)"), reg.wait_for("reg (regulars)"), irr.wait_for("irr"))

    reg.command('note "Rossi peeks round the corner"')
    await irr.wait_for("Rossi peeks round the corner")
    irr.command("undo")
    await irr.wait_for("refused: the last command")
    reg.command("undo")
    await irr.wait_for("(undone) note: Rossi peeks round the corner")
    await rita.wait_for("(undone) note: Rossi peeks round the corner")

    # Once the referee rolled a die, the player's earlier command is no longer his to take back.
    reg.command('note "Conti runs to the well"')
    await rita.wait_for("Conti runs to the well")
    rita.command("roll 2d6 purpose=wind")
    await reg.wait_for("wind")
    reg.command("undo")
    await reg.wait_for("refused: the last command")
    assert club.game.history.issued(club.game.history.last_effective()).text == "roll 2d6 purpose=wind"
    # The referee may undo anything.
    rita.command("undo")
    await reg.wait_for("(undone) » rita: roll 2d6 purpose=wind")
    assert club.game.history.issued(club.game.history.last_effective()).text == 'note "Conti runs to the well"'


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
    from conftest import Player

    player = Player(100, 34)
    chan, _ = await conn.create_session(
        lambda: player, term_type="xterm", term_size=(100, 34), env={"FIRETEAM_ROLE": "referee", "ROLE": "referee"}
    )
    player.conn, player.chan = conn, chan
    club.players.append(player)
    await player.wait_for("reg (regulars)")
    assert club.session("reg").seat.role == "regulars"
    assert "Dahir Omar" not in player.text()


async def test_terminal_size_and_resizes_come_from_the_client(club):
    reg = await club.connect("reg", size=(90, 30))
    await reg.wait_for("reg (regulars)")
    app = club.session("reg").app
    assert tuple(app.size) == (90, 30)
    reg.resize(60, 20)
    await wait_until(lambda: tuple(app.size) == (60, 20))
    await wait_until(lambda: "reg (regulars) | turn 0 deployment |" in reg.text())
    # The status line is now cut at 60 columns, as the client's window is.
    line = next(ln for ln in reg.text().splitlines() if ln.startswith("reg (regulars)"))
    assert len(line.rstrip()) <= 60


@pytest.mark.parametrize(
    ("term", "colorterm", "system"),
    [("xterm-256color", None, "256"), ("xterm", None, "standard"), ("xterm-256color", "truecolor", "truecolor")],
)
async def test_colours_follow_the_clients_terminal(club, term, colorterm, system):
    conn = await asyncssh.connect(
        "127.0.0.1", club.port, username="p", client_keys=[club.keys["spec"]], known_hosts=None, agent_path=None
    )
    from conftest import Player

    player = Player(80, 24)
    env = {"COLORTERM": colorterm} if colorterm else {}
    chan, _ = await conn.create_session(lambda: player, term_type=term, term_size=(80, 24), env=env)
    player.conn, player.chan = conn, chan
    club.players.append(player)
    await player.wait_for("spec (spectator)")
    raw = "".join(player.raw)
    assert ("\x1b[38;2;" in raw) == (system == "truecolor")
    assert ("\x1b[38;5;" in raw) == (system == "256")
    assert "\x1b[9" in raw or "\x1b[3" in raw  # some colour is shown in every case


async def test_nothing_lands_on_the_servers_disk_or_browser(club, tmp_path, monkeypatch):
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda url, *a, **k: opened.append(url))
    rita = await club.connect("rita")
    await rita.wait_for("rita (referee)")
    app = club.session("rita").app
    shots = tmp_path / "shots"
    shots.mkdir()
    app.call_later(app.action_screenshot, None, str(shots))
    app.call_later(app.open_url, "https://example.org/rules")
    rita.command('note "still here"')
    await rita.wait_for("still here")
    assert list(shots.iterdir()) == []
    assert opened == []
