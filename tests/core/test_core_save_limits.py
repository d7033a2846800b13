"""Every structure read from a save is bounded, salvage never crashes nor hands back
a save that does not open, and a full disk leaves the folder as it was (issue 28)."""

# ruff: noqa: F811  (pytest fixtures imported from coretests_support)
from __future__ import annotations

import errno
import os
import zlib
from pathlib import Path

import pytest
from coretests_support import demo, file_lines, sha  # noqa: F401

import core.storage.lock
import core.storage.writer
from core.game import Game
from core.language.i18n import MAX_ARGS, MAX_NESTING, MAX_RENDERED, Msg, plain
from core.log.views import REFEREE
from core.storage.errors import SaveError
from core.storage.salvage import salvage
from core.storage.savefile import Chain, load
from tui.main import main as fireteam


def _chained(payloads: list[bytes]) -> bytes:
    """A file of today's format holding ``payloads`` (the header first), every check right."""
    chain = Chain(zlib.crc32(payloads[0]))
    return b"%08x %b\n" % (zlib.crc32(payloads[0]), payloads[0]) + b"".join(
        chain.frame_payload(p) for p in payloads[1:]
    )


def _with_note(demo: Game, tmp_path: Path, note: bytes, name: str = "hostile.ft") -> tuple[Path, int]:
    """The demo save with one more command whose note is ``note`` (a JSON value); the note's line."""
    demo.close()
    payloads = [line[9:-1] for line in file_lines(demo.path)]
    cmd = demo.history.next_cmd
    payloads += [b'{"t":"cmd","cmd":%d,"n":1,"by":"referee","text":"note x"}' % cmd, b'{"t":"note","text":%b}' % note]
    path = tmp_path / name
    path.write_bytes(_chained(payloads))
    return path, len(payloads)


def _bomb(levels: int, repeat: int) -> bytes:
    """A message nesting ``levels`` deep, each template naming its argument ``repeat`` times."""
    msg = b'["xxxxxxxxxx"]'
    for _ in range(levels):
        msg = b'["%b",{"a":%b}]' % (b"{a}" * repeat, msg)
    return msg


def test_a_message_that_would_render_to_ten_billion_characters_is_refused_at_load(demo, tmp_path, capsys):
    save, line = _with_note(demo, tmp_path, _bomb(9, 10))
    assert len(_bomb(9, 10)) < 500
    before = sha(save)
    with pytest.raises(SaveError, match=rf"hostile.ft:{line}: invalid event: .*renders to more than"):
        Game.open(save, writable=False)
    assert fireteam(["log", str(save)]) == 2
    err = capsys.readouterr().err
    assert f"hostile.ft:{line}:" in err and "fireteam salvage" in err
    assert sha(save) == before


@pytest.mark.parametrize(
    ("note", "why"),
    [
        (_bomb(MAX_NESTING + 1, 1), "nests deeper than"),
        (_bomb(MAX_NESTING + 1, 1).replace(b"{a}", b"{"), "nests deeper than"),  # templates that never fill
        (b'["%b",{%b}]' % (b"x" * 3, b",".join(b'"a%d":"v"' % i for i in range(MAX_ARGS + 1))), "arguments"),
        (b'["%b",{"a":"%b"}]' % (b"{a}" * 64, b"x" * (MAX_RENDERED // 63)), "renders to more than"),
    ],
    ids=["too deep", "too deep, never filled", "too many arguments", "too long once rendered"],
)
def test_every_limit_of_a_message_is_refused_with_its_line(demo, tmp_path, note, why):
    save, line = _with_note(demo, tmp_path, note)
    with pytest.raises(SaveError, match=rf":{line}: invalid event: .*{why}"):
        load(save)
    # One level, argument or character less is a message like any other.
    msg = Msg("{a}", {"a": Msg("x")})
    for _ in range(MAX_NESTING - 2):
        msg = Msg("{a}", {"a": msg})
    assert plain(msg) == "x"
    assert plain(Msg("{a}" * 64, {"a": "x" * (MAX_RENDERED // 64)})) == "x" * (MAX_RENDERED // 64 * 64)
    assert len(Msg("", {f"a{i}": "v" for i in range(MAX_ARGS)}).args) == MAX_ARGS


# ------------------------------------------------------------------------ salvage


def test_salvage_of_a_record_nested_past_any_decoder_stops_there_and_keeps_what_came_before(demo, tmp_path):
    deep = b"[" * 100_000 + b"]" * 100_000
    save, line = _with_note(demo, tmp_path, deep)
    # and a deeply nested line after the damage too
    with open(save, "ab") as f:
        f.write(b"%08x %b\n" % (0, deep))
    done = salvage(save)
    assert done.first_dropped == line - 1 and "invalid event" in done.reason
    Game.open(done.to, writable=False)


def test_salvage_refuses_a_save_whose_header_names_an_unknown_variant(demo, tmp_path, capsys):
    demo.close()
    payloads = [line[9:-1] for line in file_lines(demo.path)]
    payloads[0] = payloads[0].replace(b'"seed":', b'"variant":"no-such-variant","seed":')
    save = tmp_path / "variant.ft"
    save.write_bytes(_chained(payloads))
    with pytest.raises(SaveError, match="no-such-variant"):
        Game.open(save, writable=False)
    assert fireteam(["salvage", str(save)]) == 2
    assert "no-such-variant" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo.ftlog", "variant.ft"]


# ---------------------------------------------------------------------- full disk


def _full_disk(monkeypatch) -> None:
    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    for module in (core.storage.writer, core.storage.lock):
        monkeypatch.setattr(module.os, "write", full)
        monkeypatch.setattr(module.os, "fsync", full)


def test_a_new_save_on_a_full_disk_leaves_no_file_behind(tmp_path, monkeypatch):
    folder = tmp_path / "saves"
    folder.mkdir()
    _full_disk(monkeypatch)
    with pytest.raises(SaveError, match="No space left on device"):
        Game.new(folder / "NAME.ft", "breaking-news", seed=1)
    monkeypatch.undo()
    assert list(folder.iterdir()) == []


def test_setting_aside_a_torn_end_on_a_full_disk_leaves_the_folder_as_it_was(demo, tmp_path, monkeypatch):
    demo.execute("note a", role=REFEREE)
    demo.close()
    with open(demo.path, "ab") as f:
        f.write(b'0123abcd {"t":"cm')  # a torn write
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    _full_disk(monkeypatch)
    with pytest.raises(SaveError, match="No space left on device"):
        Game.open(demo.path)
    monkeypatch.undo()
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_starting_again_in_a_torn_new_save_on_a_full_disk_leaves_the_folder_as_it_was(tmp_path, monkeypatch):
    save = tmp_path / "NAME.ft"
    save.write_bytes(b'1234abcd {"firete')  # a crash while the header was written
    _full_disk(monkeypatch)
    with pytest.raises(SaveError, match="No space left on device"):
        Game.new(save, "breaking-news", seed=1)
    monkeypatch.undo()
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == {"NAME.ft": b'1234abcd {"firete'}


def test_a_header_that_cannot_be_written_over_a_torn_one_puts_the_torn_bytes_back(tmp_path, monkeypatch):
    save = tmp_path / "NAME.ft"
    save.write_bytes(b'1234abcd {"firete')
    real_write = os.write

    def header_fails(fd, data):  # the torn bytes are set aside, then the disk fills up
        if bytes(data[9:21]) == b'{"fireteam":':
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(core.storage.writer.os, "write", header_fails)
    with pytest.raises(SaveError, match="No space left on device"):
        Game.new(save, "breaking-news", seed=1)
    monkeypatch.undo()
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == {"NAME.ft": b'1234abcd {"firete'}
