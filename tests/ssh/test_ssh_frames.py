"""How a seat's frames travel: a frame for a terminal that draws it at once goes out as one write."""

from __future__ import annotations

import asyncio

import pytest

pytestmark = pytest.mark.server

#: What a terminal answers when the server asks whether it draws a frame at once (DECRPM, mode 2026: it can).
SYNC_SUPPORTED = "\x1b[?2026;2$y"
SYNC_START, SYNC_END = "\x1b[?2026h", "\x1b[?2026l"


async def test_a_frame_for_a_terminal_that_draws_it_at_once_is_one_write(club):
    rita, reg = await asyncio.gather(club.connect("rita"), club.connect("reg"))
    await asyncio.gather(rita.wait_for("rita (referee)"), reg.wait_for("reg (Bersaglieri)"))
    await reg.typed(SYNC_SUPPORTED + "zebra", "zebra")  # his terminal's answer, then keys: the answer is taken first
    rita.command('note "smoke over the market"')
    await reg.wait_for("smoke over the market")
    frames = [chunk for chunk in reg.raw if "smoke over the market" in chunk]
    # One SSH packet each: the frame whole, between the marks that make his terminal draw it at once,
    # rather than the start mark, the frame and the end mark in three.
    assert frames and all(f.startswith(SYNC_START) and f.endswith(SYNC_END) for f in frames)
    assert SYNC_START not in reg.raw  # never a mark alone


def test_a_frames_colours_come_down_piece_by_piece_as_in_one_pass():
    """The driver brings a frame's colours down row piece by row piece, keeping each piece done
    (``tui.ssh.seating.driver.downgrade_colors``): the same bytes as one pass over the whole frame, for
    pieces seen before or not, pieces too long to keep, and every colour system a client may have."""
    import random
    import re

    from rich.color import ColorSystem

    from tui.ssh.seating import driver

    def one_pass(data: str, system: ColorSystem | None) -> str:
        return re.sub(r"\x1b\[([0-9;]*)m", lambda m: driver._sgr(m.group(1), system), data)

    draw = random.Random(30)
    bits = [
        "\x1b[1;97;48;2;20;30;40m",
        "\x1b[38;2;200;10;10mDP 3",
        "\x1b[0;38;5;208;48;5;17m",
        "\x1b[0m",
        "\x1b[m",
        "\x1b[38;2;1m",  # cut short: kept as it is
        "#12 note smoke",
        "\x1b[?2026h",
        " │ ",
    ]
    rows = ["".join(draw.choice(bits) for _ in range(draw.randint(0, 12))) for _ in range(30)]
    frames = [
        "".join(f"\x1b[{y + 1};{draw.randint(1, 80)}H" + draw.choice(rows) for y in range(draw.randint(0, 20)))
        for _ in range(60)
    ]
    frames += [draw.choice(rows) * 400, "\x1b[1;1H" + "\x1b[38;2;9;9;9mx" * 2000, ""]  # a screen in one piece
    for system in (ColorSystem.STANDARD, ColorSystem.EIGHT_BIT, ColorSystem.WINDOWS, None):
        for frame in frames * 2:  # the second time, from the pieces kept
            assert driver.downgrade_colors(frame, system) == one_pass(frame, system)
    assert driver._downgraded_piece.cache_info().hits
