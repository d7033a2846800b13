"""A small terminal emulator: enough of VT100/xterm to read what Textual draws.

It keeps a grid of characters and understands cursor addressing, erasing and
plain text; colours and modes are skipped.  The tests read a seat's screen
through it exactly as the player's terminal would show it.
"""

from __future__ import annotations

import re
import unicodedata


class Screen:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.rows = [[" "] * width for _ in range(height)]
        self.x = self.y = 0
        self._pending = ""

    def resize(self, width: int, height: int) -> None:
        rows = [[" "] * width for _ in range(height)]
        for y in range(min(height, self.height)):
            rows[y][: min(width, self.width)] = self.rows[y][: min(width, self.width)]
        self.width, self.height, self.rows = width, height, rows
        self.x, self.y = min(self.x, width - 1), min(self.y, height - 1)

    def text(self) -> str:
        return "\n".join("".join(ch for ch in row if ch) for row in self.rows)

    def feed(self, data: str) -> None:
        data = self._pending + data
        self._pending = ""
        i, n = 0, len(data)
        while i < n:
            ch = data[i]
            if ch == "\x1b":
                end = self._escape(data, i)
                if end is None:  # incomplete: wait for more
                    self._pending = data[i:]
                    return
                i = end
                continue
            if ch == "\r":
                self.x = 0
            elif ch == "\n":
                self._line_feed()
            elif ch == "\b":
                self.x = max(0, self.x - 1)
            elif ch >= " ":
                self._put(ch)
            i += 1

    def _line_feed(self) -> None:
        if self.y == self.height - 1:
            self.rows.pop(0)
            self.rows.append([" "] * self.width)
        else:
            self.y += 1

    def _put(self, ch: str) -> None:
        wide = unicodedata.east_asian_width(ch) in "WF"
        if self.x >= self.width:
            self.x = self.width - 1
        self.rows[self.y][self.x] = ch
        self.x += 1
        if wide and self.x < self.width:
            self.rows[self.y][self.x] = ""
            self.x += 1

    def _escape(self, data: str, i: int) -> int | None:
        """Apply the escape sequence at ``data[i]``; return where it ends (None if cut short)."""
        if i + 1 >= len(data):
            return None
        kind = data[i + 1]
        if kind == "[":
            j = i + 2
            while j < len(data) and not ("@" <= data[j] <= "~"):
                j += 1
            if j >= len(data):
                return None
            self._csi(data[i + 2 : j], data[j])
            return j + 1
        if kind in "]P_^":  # OSC, DCS...: up to BEL or ST
            for j in range(i + 2, len(data)):
                if data[j] == "\x07":
                    return j + 1
                if data[j] == "\x1b" and j + 1 < len(data) and data[j + 1] == "\\":
                    return j + 2
            return None
        return i + 2

    def _csi(self, params: str, final: str) -> None:
        if params.startswith(("?", ">", "<", "=")):
            return  # private modes and queries
        numbers = [int(p) if p.isdigit() else 0 for p in params.split(";")] if params else []

        def arg(k: int, default: int) -> int:
            return numbers[k] if k < len(numbers) and numbers[k] else default

        if final in "Hf":
            self.y = min(self.height - 1, arg(0, 1) - 1)
            self.x = min(self.width - 1, arg(1, 1) - 1)
        elif final == "A":
            self.y = max(0, self.y - arg(0, 1))
        elif final == "B":
            self.y = min(self.height - 1, self.y + arg(0, 1))
        elif final == "C":
            self.x = min(self.width - 1, self.x + arg(0, 1))
        elif final == "D":
            self.x = max(0, self.x - arg(0, 1))
        elif final == "G":
            self.x = min(self.width - 1, arg(0, 1) - 1)
        elif final == "d":
            self.y = min(self.height - 1, arg(0, 1) - 1)
        elif final == "J":
            mode = arg(0, 0)
            if mode == 2 or mode == 3:
                self.rows = [[" "] * self.width for _ in range(self.height)]
            elif mode == 0:
                self.rows[self.y][self.x :] = [" "] * (self.width - self.x)
                for y in range(self.y + 1, self.height):
                    self.rows[y] = [" "] * self.width
        elif final == "K":
            mode = arg(0, 0)
            row = self.rows[self.y]
            if mode == 0:
                row[self.x :] = [" "] * (self.width - self.x)
            elif mode == 1:
                row[: self.x + 1] = [" "] * (self.x + 1)
            else:
                self.rows[self.y] = [" "] * self.width


def drawn(sent: str) -> tuple[set[int], set[str]]:
    """The rows a terminal's bytes ``sent`` write on and the words they write: what two frames are
    compared by when how Textual splits its frames varies."""
    rows = {int(row) for row in re.findall(r"\x1b\[(\d+);\d+H", sent)}
    return rows, set(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", " ", sent).split())
