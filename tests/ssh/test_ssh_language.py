"""Each SSH seat in its own language: the seats file's ``lang``, else the client's locale, else the server's.

Real asyncssh clients at one table: an Italian seat and an English one issue
the same things and each reads the answer in its own language; a language the
server does not know is refused in the seats file; a hostile locale falls back
to English and is never echoed nor logged.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import socket
from pathlib import Path

import asyncssh
import pytest
from ssh_club import SEATS, Club, demo_game, make_keys, seat_workers, seats_toml, served_table, wait_until

from core.language import i18n
from core.language import reader as readers
from core.language.compiled import Catalogue
from core.language.i18n import M
from core.language.reader import Reader, lang, reading
from core.log.outcome import Refusal
from core.ruleset import Refused
from tui.ssh.host.server import FireteamServer, Table
from tui.ssh.language import LOCALE_VALUE_LIMIT, ContextExecutor, seat_language
from tui.ssh.limits import Limits
from tui.ssh.seatsfile import Seats, SeatsError, SeatsFile
from tui.ssh.workers import wire
from tui.ssh.workers.replica import ReplicaGame, TableLink

pytestmark = [pytest.mark.server, pytest.mark.subprocess]

#: The seats that name their language in the seats file; the others follow their client.
LANGS = {"reg": "it", "spec": "en"}
EN = {"LANG": "en_US.UTF-8"}
IT = {"LANG": "it_IT.UTF-8"}


def table(tmp_path: Path, caplog, *, lang: str | None = None, limits: Limits | None = None):
    """``fireteam serve --workers 0 [--lang LANG]`` at the demo game, with :data:`LANGS` in the seats file."""
    return served_table(tmp_path, caplog, langs=LANGS, lang=lang, limits=limits)


# ------------------------------------------------------------- plain replies


async def test_a_plain_reply_is_in_the_seats_language_from_the_file_then_the_client(tmp_path, caplog):
    async with table(tmp_path, caplog) as club:
        # The seats file says Italian: the client's English locale does not change it.
        reg = await club.run("reg", "status", env=EN)
        assert reg.exit_status == 0
        assert "tu: reg (regulars)" in reg.stdout and " in gioco, " in reg.stdout and "turno " in reg.stdout
        assert "you:" not in reg.stdout and "in play" not in reg.stdout
        # No language in the file: the client's locale decides, either way.
        irr_it = await club.run("irr", "status", env=IT)
        assert "tu: irr (irregulars)" in irr_it.stdout and "in gioco" in irr_it.stdout
        irr_en = await club.run("irr", "status", env=EN)
        assert "you: irr (irregulars)" in irr_en.stdout and "in play" in irr_en.stdout
        # Line by line (the scenario's title and the phase are the ruleset's words, translated by its catalogue).
        assert reg.stdout.splitlines()[1].startswith("turno 0, ")
        assert reg.stdout.splitlines()[2:] == [
            "Reparto Bersaglieri (regulars): 7/7 in gioco, 0 PS",
            "Milizia somala (irregulars): 6/6 in gioco, 0 PS",  # the regulars' view: hidden militia not counted
            "tu: reg (regulars)",
        ]
        assert irr_it.stdout.splitlines()[2:] == [
            "Reparto Bersaglieri (regulars): 7/7 in gioco, 0 PS",
            "Milizia somala (irregulars): 8/8 in gioco, 0 PS",
            "tu: irr (irregulars)",
        ]
        assert irr_en.stdout.splitlines()[1:] == [
            "turn 0, deployment",
            "Bersaglieri (regulars): 7/7 in play, 0 DP",
            "Somali militia (irregulars): 8/8 in play, 0 DP",
            "you: irr (irregulars)",
        ]
        assert irr_it.stdout.splitlines()[0] == reg.stdout.splitlines()[0] == "table: Posto di blocco ad Afgooye"
        assert irr_en.stdout.splitlines()[0] == "table: Checkpoint at Afgooye"
        # LANGUAGE, LC_ALL and LC_MESSAGES come before LANG, as gettext reads them.
        irr_lc = await club.run("irr", "who", env={"LANG": "en_GB.UTF-8", "LC_MESSAGES": "it_IT.UTF-8"})
        assert irr_lc.stdout == "table: nessuno\n"
        irr_language = await club.run("irr", "who", env={"LANGUAGE": "fr:it:en", "LC_ALL": "en_US.UTF-8"})
        assert irr_language.stdout == "table: nessuno\n"
        # The file says English: the client's Italian locale does not change it.
        spec = await club.run("spec", "who", env=IT)
        assert spec.stdout == "table: nobody\n"
        # Nothing said anywhere: the server's language, English by default.
        rita = await club.run("rita", "help")
        assert rita.stdout.startswith("ssh -p PORT HOST               sit at the table")
        # The organiser's log stays English whatever the seats read.
        assert "query seat=reg role=regulars" in club.log() and "gioco" not in club.log()


async def test_unknown_commands_and_the_referees_kick_answer_in_the_seats_language(tmp_path, caplog):
    async with table(tmp_path, caplog) as club:
        rita_it = await club.run("rita", "kick irr", env=IT)
        assert (rita_it.exit_status, rita_it.stdout) == (0, "irr: 0 sessioni chiuse\n")
        rita_en = await club.run("rita", "kick irr", env=EN)
        assert (rita_en.exit_status, rita_en.stdout) == (0, "irr: 0 sessions closed\n")
        reg = await club.run("reg", "kick irr")
        assert (reg.exit_status, reg.stdout) == (1, "solo l'arbitro può espellere un posto\n")
        irr = await club.run("irr", "status nowhere", env=IT)
        assert (irr.exit_status, irr.stdout) == (1, "nessuna partita 'nowhere'; partite: table\n")
        # Without a terminal and without a command: how to connect, in the seat's words.
        async with asyncssh.connect(
            "127.0.0.1", club.port, username="p", client_keys=[club.keys["reg"]], known_hosts=None, agent_path=None
        ) as conn:
            shell = await asyncio.wait_for(conn.run(), 10)
        assert shell.exit_status == 1 and shell.stdout.startswith("Il tavolo di Fireteam ha bisogno di un terminale.")
        assert "kick seat=irr by=rita" in club.log()


async def test_the_servers_language_is_a_seats_when_neither_its_entry_nor_its_client_names_one(tmp_path, caplog):
    async with table(tmp_path, caplog, lang="it") as club:
        assert (await club.run("rita", "who")).stdout == "table: nessuno\n"
        # A client that names a locale decides, even one the server has no words for (English, as locally).
        assert (await club.run("rita", "who", env={"LANG": "fr_FR.UTF-8"})).stdout == "table: nobody\n"
        assert (await club.run("rita", "who", env={"LANG": "C.UTF-8"})).stdout == "table: nobody\n"
        # An empty variable names nothing.
        assert (await club.run("rita", "who", env={"LANG": ""})).stdout == "table: nessuno\n"


# ------------------------------------------------------------ hostile locales

HOSTILE = [
    {"LANG": "../../etc/passwd"},
    {"LANGUAGE": "../../etc"},
    {"LANG": "it" * 5120},  # 10 KB
    {"LC_ALL": "x" * 10240, "LANG": "it_IT.UTF-8"},  # LC_ALL comes first, and names nothing known
    {"LANG": "it\x1b]0;pwned\x07"},
    {"LANG": "\x1b[2J\r\nit_IT"},
    {"LANGUAGE": ":" * 10000 + "it"},  # past the length looked at
    {"LANG": "%s%n{0.__class__}"},
]


@pytest.mark.parametrize("env", HOSTILE)
def test_a_hostile_locale_maps_to_english(env):
    assert seat_language("", env, "it") == "en"


def test_the_locale_is_looked_at_only_so_far_and_the_file_wins_over_it():
    assert seat_language("", {"LANGUAGE": ":" * (LOCALE_VALUE_LIMIT - 3) + "it"}, "en") == "it"
    assert seat_language("", {"LANGUAGE": ":" * LOCALE_VALUE_LIMIT + "it"}, "en") == "en"
    assert seat_language("it", {"LANG": "en_US.UTF-8"}, "en") == "it"
    assert seat_language("", {"TERM": "it", "LC_CTYPE": "it_IT.UTF-8"}, "it") == "it"  # neither names the language
    assert seat_language("", {"TERM": "it", "LC_CTYPE": "it_IT.UTF-8"}, "en") == "en"


async def test_a_hostile_locale_from_a_real_client_is_never_echoed_nor_logged(tmp_path, caplog):
    async with table(tmp_path, caplog, lang="it") as club:
        for env in HOSTILE:
            answer = await club.run("irr", "who", env=env)
            assert (answer.exit_status, answer.stdout) == (0, "table: nobody\n"), env
        # With a terminal too: the app opens in English.
        irr = await club.connect("irr", env={"LANG": "it\x1b]0;pwned\x07", "LANGUAGE": "../../etc"})
        await irr.wait_for("irr (Somali militia)")
        assert club.session("irr").reader.lang == "en"
        raw = "".join(irr.raw)
        log = club.log()
        for text in ("pwned", "../../etc", "xxxxxxxx", "itit", "__class__"):
            assert text not in raw and text not in log


# ----------------------------------------------------------------- the seats file


def test_a_language_the_server_does_not_know_is_refused_with_the_valid_ones():
    keys = make_keys(["a"])
    with pytest.raises(SeatsError) as refused:
        Seats.parse(seats_toml(keys, {"a": "referee"}, {"a": "fr"}), "seats.toml")
    assert str(refused.value) == "seats.toml: seat 1 ('a'): unknown language 'fr'; the languages are: en, it"
    with pytest.raises(SeatsError, match="unknown language 'IT'"):
        Seats.parse(seats_toml(keys, {"a": "referee"}, {"a": "IT"}))
    assert Seats.parse(seats_toml(keys, {"a": "referee"}, {"a": "it"})).by_name("a").lang == "it"
    assert Seats.parse(seats_toml(keys, {"a": "referee"})).by_name("a").lang == ""


def test_a_reloaded_seats_file_with_an_unknown_language_is_not_taken_in(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="test.seats")
    keys = make_keys(["a"])
    path = tmp_path / "seats.toml"
    path.write_text(seats_toml(keys, {"a": "referee"}, {"a": "it"}))
    seats = SeatsFile(path, logging.getLogger("test.seats"))
    path.write_text(seats_toml(keys, {"a": "referee"}, {"a": "fr"}) + "\n")
    assert seats.seats.by_name("a").lang == "it"
    assert "seats file not reloaded, the previous seats stay" in caplog.text
    assert "unknown language 'fr'; the languages are: en, it" in caplog.text


def test_fireteam_serve_refuses_a_seats_file_with_an_unknown_language(tmp_path, monkeypatch, capsys):
    from tui.main import main

    keys = make_keys(["a"])
    (tmp_path / "seats.toml").write_text(seats_toml(keys, {"a": "referee"}, {"a": "fr"}))
    monkeypatch.setenv("FIRETEAM_DATA_DIR", str(tmp_path / "data"))
    save = tmp_path / "game.ft"
    demo_game(save).close()
    assert main(["serve", "--seats", str(tmp_path / "seats.toml"), "--lang", "it", str(save)]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {tmp_path / 'seats.toml'}: seat 1 ('a'): unknown language 'fr'; the languages are: en, it\n"
    with pytest.raises(SystemExit):
        main(["serve", "--lang", "fr", str(save)])
    assert "invalid choice: 'fr' (choose from 'en', 'it')" in capsys.readouterr().err


def test_the_servers_language_is_lang_else_its_locale(monkeypatch):
    from argparse import Namespace

    from tui.ssh import main as serve

    seen: list[str] = []
    monkeypatch.setattr(serve, "_serve_in", lambda args: seen.append(lang()) or 0)
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    serve.serve_main(Namespace(lang=None))
    serve.serve_main(Namespace(lang="en"))
    monkeypatch.setenv("LANG", "C.UTF-8")
    serve.serve_main(Namespace(lang="it"))
    serve.serve_main(Namespace(lang=None))
    assert seen == ["it", "en", "it", "en"]
    assert lang() == "en"  # only while it serves


# ------------------------------------------------------------ seats with terminals

#: A catalogue for the test, so that the narration of the same note reads in Italian where it is
#: shown to an Italian seat whatever the rulesets' catalogues hold yet.
NOTE_EN, NOTE_IT = "the bridge is down", "il ponte è crollato"
#: And a pane title in the client's domain, given a test translation of its own.
TITLE_EN, TITLE_IT = "Action log", "Registro (prova)"


@pytest.fixture
def test_catalogue(monkeypatch):
    loaded = i18n._loaded

    words = {"breaking_news": (NOTE_EN, NOTE_IT), "client": (TITLE_EN, TITLE_IT)}

    def with_note(language: str, domain: str) -> Catalogue | None:
        if language != "it" or domain not in words:
            return loaded(language, domain)
        # The real catalogue's messages, and the test's over them.
        real = loaded(language, domain)
        assert real is not None
        noted = copy.copy(real)
        noted.messages = {**real.messages, **dict([words[domain]])}
        return noted

    i18n.translations.cache_clear()
    monkeypatch.setattr(i18n, "_loaded", with_note)
    yield
    i18n.translations.cache_clear()


async def test_the_same_note_and_the_same_flood_read_in_each_seats_own_language(tmp_path, caplog, test_catalogue):
    async with table(tmp_path, caplog, limits=Limits(line_length=100)) as club:
        reg, irr = await club.connect("reg", env=EN), await club.connect("irr", env=EN)
        await asyncio.gather(reg.wait_for("reg (Reparto Bersaglieri)"), irr.wait_for("irr (Somali militia)"))
        assert club.session("reg").reader.lang == "it" and club.session("irr").reader.lang == "en"
        rita = await club.seated("rita", "rita (", env=IT)
        # The referee's note is one event; each seat's log narrates it in its own words.
        rita.command(f'note "{NOTE_EN}"')
        # (The narration's own words around the note, "note: ", are the core's, in its catalogue.)
        await asyncio.gather(
            reg.wait_for(f": {NOTE_IT}"), irr.wait_for(f"note: {NOTE_EN}"), rita.wait_for(f": {NOTE_IT}")
        )
        assert f": {NOTE_EN}" not in reg.text() and NOTE_IT not in irr.text()
        # The event holds the words as typed: the save is the same whoever reads it.
        assert club.game.log_lines(role="referee")[-1].text == f"note: {NOTE_EN}"
        # The same too-long line, typed at both seats: each is told in its own language.
        for player in (reg, irr):
            player.type("note " + "y" * 200)
        await asyncio.gather(reg.wait_shown("Troppo input", "Input scartato"), irr.wait_shown("Too much input"))
        assert "Input dropped" not in reg.text() and "Troppo input" not in irr.text()
        for player in (reg, irr):
            player.type("\x15")  # Ctrl+U: the line is thrown away
        await wait_until(lambda: all("yyyyyyyyyy" not in p.text() for p in (reg, irr)))
        # The log says it once each, in English.
        await wait_until(lambda: club.log().count("a line longer than 100 characters: 105 characters dropped") == 2)
        assert "scartat" not in club.log()
        # A seat that changes its language in the client's settings (its reader) is told in the new one.
        session = club.session("irr")
        session.reader.set("it")
        session._refused_notice = 0.0  # not to wait out the notices' pace
        session.input_refused(M("{count} keys dropped: {limit} were still waiting to be handled", count=9, limit=8))
        await irr.wait_shown("Troppo input", "9 tasti scartati")
        assert lang() == "en" and all(s.reader is not session.reader for s in club.server.sessions if s is not session)


async def test_the_same_pane_reads_in_each_seats_own_language(tmp_path, caplog, test_catalogue):
    async with table(tmp_path, caplog) as club:
        reg, irr = await club.connect("reg", env=EN), await club.connect("irr", env=IT)
        spec = await club.connect("spec", env=IT)
        await asyncio.gather(reg.wait_for(TITLE_IT), irr.wait_for(TITLE_IT), spec.wait_for(TITLE_EN))
        assert TITLE_EN not in reg.text() and TITLE_IT not in spec.text()


async def test_a_kicked_seat_is_told_in_its_language_and_the_log_in_english(tmp_path, caplog):
    async with table(tmp_path, caplog) as club:
        reg, irr = await club.connect("reg"), await club.connect("irr")
        await asyncio.gather(reg.wait_for("reg (Reparto Bersaglieri)"), irr.wait_for("irr (Somali militia)"))
        club.server.kick("reg", "rita")
        club.server.kick("irr", "rita")
        await asyncio.gather(reg.closed.wait(), irr.closed.wait())
        assert "La tua sessione è stata chiusa: rita ha chiuso il tuo posto." in "".join(reg.raw)
        assert "Your session was closed: rita closed your seat." in "".join(irr.raw)
        assert "closing seat=reg role=regulars" in club.log() and "rita closed your seat" in club.log()
        assert "chiuso" not in club.log()


async def test_a_seats_app_and_its_thread_workers_read_in_the_seats_language(tmp_path, caplog):
    async with table(tmp_path, caplog) as club:
        reg, irr = await club.connect("reg"), await club.connect("irr", env=IT)
        spec = await club.connect("spec", env=IT)
        await asyncio.gather(reg.wait_for("reg"), irr.wait_for("irr"), spec.wait_for("spec"))
        seen: dict[str, tuple[str, str]] = {}

        async def ask(seat: str) -> None:
            app = club.app(seat)  # the spectator's: the shared screen he watches
            done = asyncio.get_running_loop().create_future()

            def in_the_app() -> None:
                # As the app's own handlers do: a worker started from the app's task, in a thread.
                worker = app.run_worker(lambda: (lang(), readers.reader().lang), thread=True)
                done.set_result(worker)

            app.call_later(in_the_app)
            worker = await asyncio.wait_for(done, 10)
            seen[seat] = await asyncio.wait_for(worker.wait(), 10)

        await asyncio.gather(ask("reg"), ask("irr"), ask("spec"))
        assert seen == {"reg": ("it", "it"), "irr": ("it", "it"), "spec": ("en", "en")}
        # This test's own task reads the process's language: the seats' readers are theirs alone.
        assert lang() == "en"


def test_a_thread_of_the_context_executor_runs_with_its_callers_reader():
    async def go() -> list[str]:
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ContextExecutor())
        with reading("it"):
            inside = await loop.run_in_executor(None, lang)
        outside = await loop.run_in_executor(None, lang)
        return [inside, outside]

    assert asyncio.run(go()) == ["it", "en"]


# ---------------------------------------------------------------- seat workers


async def test_a_seat_worker_sends_the_seats_language_and_the_table_refuses_in_it(tmp_path):
    """A seat's command carries its language to the table process, which words a refusal in it."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    game = demo_game(tmp_path / "table.ft")
    try:
        replica = ReplicaGame.of_table(game.path, "table", TableLink(ours, timeout=0.2))

        def read_one() -> wire.Submit:
            msg, _ = wire.receive(theirs, wire.REQUEST)
            return msg

        with reading(Reader("it")):
            timed_out = replica.submit("note x", role="regulars", by="reg")  # nobody answers
        assert isinstance(timed_out, Refusal) and timed_out.why.startswith("il server non ha risposto in tempo")
        sent = read_one()
        assert isinstance(sent, wire.Submit) and (sent.text, sent.by, sent.lang) == ("note x", "reg", "it")
        timed_out = replica.submit("undo", role="regulars", by="reg")
        assert isinstance(timed_out, Refusal) and timed_out.why.startswith("the server did not answer in time")
        assert read_one().lang == "en"
        replica.close()

        keys = make_keys(SEATS)
        server = seat_workers(tmp_path, [Table("table", game)], keys, SEATS)
        said: list[str] = []

        def refuse(text: str, **kwargs) -> None:
            said.append(lang())
            raise Refused(i18n.Domain("server").gettext("the command is too long"))

        game.execute = refuse  # type: ignore[method-assign]

        def refused(seq: int, why: str) -> wire.Settled:
            return wire.Settled(seq, Refusal("note y", "regulars", "reg", why))

        answer = server._record(None, wire.Submit(1, "table", "note y", "regulars", "reg", None, "it"))
        assert answer == refused(1, "il comando è troppo lungo")
        answer = server._record(None, wire.Submit(2, "nowhere", "note y", "regulars", "reg", None, "it"))
        assert answer == refused(2, "qui non c'è nessuna partita 'nowhere'")
        # A language the table does not know (a worker of another version) is read as English.
        answer = server._record(None, wire.Submit(3, "table", "note y", "regulars", "reg", None, "xx"))
        assert answer == refused(3, "the command is too long") and said == ["it", "en"]
        assert lang() == "en"
    finally:
        ours.close()
        theirs.close()
        game.close()


async def test_seat_workers_answer_each_seat_in_its_language(tmp_path, caplog, standby_spared):
    caplog.set_level(logging.INFO, logger="fireteam.serve")
    keys = make_keys(SEATS)
    game = demo_game(tmp_path / "table.ft")
    server = seat_workers(tmp_path, [Table("table", game)], keys, SEATS, langs=LANGS, lang="it", workers=1)
    port = await server.start("127.0.0.1", 0)
    club = Club(server, port, keys, game, [], caplog, tmp_path / "serve.log")
    try:
        assert "tu: reg (regulars)" in (await club.run("reg", "status", env=EN)).stdout  # the seats file
        assert "you: irr (irregulars)" in (await club.run("irr", "status", env=EN)).stdout  # the client
        assert "tu: rita (referee)" in (await club.run("rita", "status")).stdout  # the server's --lang
        reg, irr = await club.connect("reg"), await club.connect("irr", env=EN)
        await asyncio.gather(reg.wait_for("reg (Reparto Bersaglieri)"), irr.wait_for("irr (Somali militia)"))
        server.kick("reg", "rita")
        server.kick("irr", "rita")
        await asyncio.gather(reg.closed.wait(), irr.closed.wait())
        assert "rita ha chiuso il tuo posto" in "".join(reg.raw)
        assert "rita closed your seat" in "".join(irr.raw)
    finally:
        await club.close()
        game.close()


async def test_the_game_chooser_speaks_the_seats_language(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="fireteam.serve")
    keys = make_keys(SEATS)
    north, south = demo_game(tmp_path / "north.ft"), demo_game(tmp_path / "south.ft")
    server = FireteamServer(
        [Table("north", north), Table("south", south)],
        Seats.parse(seats_toml(keys, SEATS, LANGS)),
        asyncssh.generate_private_key("ssh-ed25519"),
    )
    port = await server.start("127.0.0.1", 0)
    club = Club(server, port, keys, north, [], caplog)
    try:
        reg, irr = await club.connect("reg"), await club.connect("irr", env=EN)
        await reg.wait_for("Fireteam — reg (regulars). Partite a questo tavolo:", "Scrivi un numero (1-2) e Invio")
        await irr.wait_for("Fireteam — irr (irregulars). Games at this table:", "Type a number (1-2) and Enter")
        assert "1) north: Posto di blocco ad Afgooye, turno 0, " in reg.text()
        reg.type("7\r")
        irr.type("7\r")
        await asyncio.gather(reg.wait_for("Nessuna partita 7; scrivi 1-2:"), irr.wait_for("No game 7; type 1-2:"))
        reg.type("2\r")
        await wait_until(lambda: [s.table.name for s in server.sessions if s.app is not None] == ["south"])
        # A game named that is not here, in the seat's words.
        nowhere = await club.connect("reg", command="east")
        await nowhere.closed.wait()
        assert "Qui non c'è nessuna partita 'east'. Partite: north, south" in "".join(nowhere.raw)
    finally:
        await club.close()
        north.close()
        south.close()
