"""How a seat's frames travel: a frame for a terminal that draws it at once goes out as one write."""

from __future__ import annotations

import asyncio

#: What a terminal answers when the server asks whether it draws a frame at once (DECRPM, mode 2026: it can).
SYNC_SUPPORTED = "\x1b[?2026;2$y"
SYNC_START, SYNC_END = "\x1b[?2026h", "\x1b[?2026l"


async def test_a_frame_for_a_terminal_that_draws_it_at_once_is_one_write(club):
    rita, reg = await asyncio.gather(club.connect("rita"), club.connect("reg"))
    await asyncio.gather(rita.wait_for("rita (referee)"), reg.wait_for("reg (Bersaglieri)"))
    reg.type(SYNC_SUPPORTED + "zebra")  # his terminal's answer, then keys: the answer is taken first
    await reg.wait_for("zebra")
    rita.command('note "smoke over the market"')
    await reg.wait_for("smoke over the market")
    frames = [chunk for chunk in reg.raw if "smoke over the market" in chunk]
    # One SSH packet each: the frame whole, between the marks that make his terminal draw it at once,
    # rather than the start mark, the frame and the end mark in three.
    assert frames and all(f.startswith(SYNC_START) and f.endswith(SYNC_END) for f in frames)
    assert SYNC_START not in reg.raw  # never a mark alone
