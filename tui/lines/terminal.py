"""``fireteam --plain [SAVE]``: the line client on this terminal, or on pipes.

At a terminal (standard input and output both one), lines are read with the
standard library's ``readline``, the line editor of bash and of Python's own
prompt: the editing keys, ↑ and ↓ through the history (the save's command
history, shared with the Textual client: ``tui.userdata``), Tab to complete a
command, a name or an option (``Game.complete``).  Screen readers and braille
displays know it well, which is why it is used rather than a library that
redraws the line on every key (prompt_toolkit).  What happens while a line is
being typed (another writer's game, followed) is written on new lines, and the
prompt and what was typed so far after it: only ever appended.

Otherwise (a pipe, a file, a bot), each line read is a line fed, no prompt is
written, a question (undo, redo, the table's dice) is written as a line of its
own before its answer is read, and every line written ends with a line feed.
No colour is written to anything but a terminal, nor under ``NO_COLOR`` or
``TERM=dumb`` (``tui.lines.ink``).  The end of the input (Ctrl+D) leaves.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

import msgspec

from core import folders
from core.commands import MAX_LINE
from core.errorlog import details_in, logging_to
from core.game import Game
from core.language.reader import reader, set_process_language
from core.refusal import CommandFailed
from core.storage.errors import SaveError
from tui.copies import keep_here
from tui.i18n import _, number, start_language
from tui.lines.client import LineClient
from tui.lines.completion import candidates, in_rows, with_names
from tui.lines.ink import colour_wanted
from tui.lines.protocol import Answer, Kind, lines_of, written
from tui.lines.start import StartMenu
from tui.opening import check_role, new_demo_game, open_cache, open_or_follow
from tui.userdata import Settings, UserStore, history_lines

#: How often a save another process writes is read for what it appended (as the Textual client).
FOLLOW_EVERY_S = 0.5
#: A save larger than this takes seconds to read: the player is told, once, before (no spinner).
SLOW_OPEN_BYTES = 8 << 20
#: The longest line taken from a pipe; a longer one is refused whole (its rest skipped).
PIPE_LINE_LIMIT = 4 * MAX_LINE


def run_plain(
    save: Path | None,
    *,
    replay: bool = False,
    role: str,
    lang: str | None = None,
    protocol: str = "",
    strict: bool = False,
    demo: bool = False,
) -> int:
    """Open the game and play it as lines until the input ends; the exit status (``protocol``:
    "bot" or "json", each answer marked for a program, ``tui.lines.protocol``; ``strict``: 1
    if a command was refused)."""
    store = UserStore.default()
    settings = store.load_settings()
    set_process_language(start_language(lang, settings.lang))
    err = sys.stderr
    for note in store.notices:
        print(f"fireteam: {note}", file=err)
    store.notices.clear()
    # A bug's traceback goes to the error log, never to the terminal a screen reader speaks whole.
    with logging_to(store.error_log):
        try:
            if save is not None:
                game, read_only = _open(save, replay)
            elif replay:
                raise SaveError(_("--replay needs a save to replay"))
            elif demo:
                game, read_only = _new_demo(), ""
            else:
                started, refused = _start(store, protocol)
                if started is None:  # left at the start (quit, or the end of the input)
                    return 1 if strict and refused else 0
                game, read_only = started
        except SaveError as e:
            print("fireteam: " + _("cannot open the save: {error}").format(error=e), file=err)
            return 2
        except OSError as e:
            print("fireteam: " + _("cannot open {save}: {error}").format(save=save, error=e.strerror or e), file=err)
            return 2
        except CommandFailed as e:  # the demo game's set-up failed on a bug: logged with its traceback
            print(f"fireteam: {e}", file=err)
            print("fireteam: " + details_in(store.error_log), file=err)
            return 3
        try:
            problem = check_role(game, role)
            if problem:
                print(f"fireteam: {problem}", file=err)
                return 2
            return _play(
                game,
                role=game.copy_role or role,
                read_only=read_only,
                store=store,
                settings=settings,
                protocol=protocol,
                strict=strict,
            )
        finally:
            game.close()


def _open(save: Path, replay: bool) -> tuple[Game, str]:
    """The game, and why it takes no command ("" when it does)."""
    size = save.stat().st_size if save.is_file() else 0
    if size > SLOW_OPEN_BYTES:
        print(
            _("Reading {save}, {size} bytes: it takes a few seconds.").format(save=save, size=number(size)), flush=True
        )
    game, locked_by = open_or_follow(save, replay, cache=open_cache(size))
    if game.copy_role:
        return game, _("read-only: a side's copy, which holds only what that side saw")
    if locked_by:
        return game, _("read-only, following the game written by {who}").format(who=locked_by)
    if replay:
        return game, _("read-only: replay, nothing is written")
    return game, ""


def _new_demo() -> Game:
    game = new_demo_game()  # in the data folder's saves/ (core.folders), as the client's
    print(_("A new demo game, saved in {save}.").format(save=game.path.resolve()))
    return game


def _start(store: UserStore, protocol: str) -> tuple[tuple[Game, str] | None, int]:
    """``fireteam --plain`` with no save: the last games and a new one, as lines (``tui.lines.start``),
    until a game is chosen (None: the player left); and how many lines were refused meanwhile."""
    held: list[str] = []
    out = sys.stdout

    def answered(kind: Kind, line: str | None, refused: bool = False) -> None:
        text = "".join(held)
        held.clear()
        out.write(written(Answer(kind, line, lines_of(text), refused), protocol) if protocol else text)
        out.flush()

    terminal = not protocol and sys.stdin.isatty() and out.isatty()
    menu = StartMenu(store, folders.saves(), held.append)
    menu.start()
    answered("start", None)
    while not menu.done:
        line = _read_line(menu.prompt if terminal else None)
        if line is None:
            return None, menu.refusals
        refusals = menu.refusals
        chosen = menu.feed(line)
        try:
            if chosen is not None and chosen.game is not None:
                return (chosen.game, ""), menu.refusals
            if chosen is not None and chosen.path is not None:
                return _open(chosen.path, chosen.replay), menu.refusals
        except (SaveError, OSError) as e:
            menu.refuse(str(getattr(e, "strerror", None) or e))
        finally:
            answered("answer", line, menu.refusals > refusals)
    return None, menu.refusals


def _read_line(prompt: str | None) -> str | None:
    """A line from the terminal (with ``prompt``) or the pipe; None at the end of the input."""
    if prompt is not None:
        try:
            return input(prompt)
        except EOFError:
            return None
        except KeyboardInterrupt:
            return ""
    raw = sys.stdin.buffer.readline(PIPE_LINE_LIMIT + 1)
    if not raw:
        return None
    return raw.decode("utf-8", "replace").removesuffix("\n").removesuffix("\r")


def _play(
    game: Game, *, role: str, read_only: str, store: UserStore, settings: Settings, protocol: str, strict: bool
) -> int:
    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    front: _Pipe
    if protocol:
        front = Answers(protocol)
    elif terminal:
        front = _Readline(game, store)
    else:
        front = _Pipe()
    client = LineClient(
        game,
        role=role,
        reader=reader(),
        write=front.write,
        colour=not protocol and colour_wanted(os.environ, sys.stdout.isatty()),
        verbose=settings.plain_verbose,
        remember=lambda on: store.save_settings(msgspec.structs.replace(settings, plain_verbose=on)),
        save=game.path.name,  # its name: the folder is said once, when it is made, not at every status
        read_only=read_only,
        error_log=store.error_log,
        keep_copy=lambda: keep_here(game, role, store)[0],
    )
    lock = threading.Lock()  # the game is read by the follower thread and this one, one at a time
    with lock:
        front.started(client)
    stop = threading.Event()
    if read_only and not game.writable and not game.copy_role:
        threading.Thread(target=_follow, args=(game, client, lock, stop), daemon=True, name="follow").start()
    try:
        front.run(client, lock)
    finally:
        stop.set()
        with lock:
            front.ended(client)
    return 1 if strict and client.refusals else 0


def _follow(game: Game, client: LineClient, lock: threading.Lock, stop: threading.Event) -> None:
    """Take in what the save's writer appends; the client writes what its role may read of it."""
    while not stop.wait(FOLLOW_EVERY_S):
        with lock:
            if client.done:
                return
            try:
                game.follow()
            except SaveError as e:
                client.tell(_("Stopped following the save: {error}").format(error=e))
                return


class _Pipe:
    """Lines in from a pipe, lines out: no prompt, a question on a line of its own."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out or sys.stdout
        self._write_lock = threading.Lock()

    def write(self, text: str) -> None:
        with self._write_lock:
            self.out.write(text)
            self.out.flush()

    def started(self, client: LineClient) -> None:
        client.start()

    def ended(self, client: LineClient) -> None:
        client.end()

    def feed(self, client: LineClient, line: str) -> None:
        client.feed(line)
        if client.asking:
            self.write(client.prompt.rstrip() + "\n")

    def refuse(self, client: LineClient, why: str) -> None:
        client.refuse(why)

    def run(self, client: LineClient, lock: threading.Lock) -> None:
        source = sys.stdin.buffer
        while not client.done:
            raw = source.readline(PIPE_LINE_LIMIT + 1)
            if not raw:
                return
            if len(raw) > PIPE_LINE_LIMIT and not raw.endswith(b"\n"):
                while raw and not raw.endswith(b"\n"):  # the rest of the line goes too
                    raw = source.readline(PIPE_LINE_LIMIT + 1)
                with lock:
                    self.refuse(
                        client, _("a line of more than {limit} characters").format(limit=number(PIPE_LINE_LIMIT))
                    )
                continue
            line = raw.decode("utf-8", "replace").removesuffix("\n").removesuffix("\r")
            with lock:
                self.feed(client, line)


class Answers(_Pipe):
    """``--plain --bot`` and ``--plain --json``: a pipe's lines, each answer marked where it ends
    (``tui.lines.protocol``): the lines written while a line is answered are held and written
    as one answer; what another seat does between answers, as news."""

    def __init__(self, protocol: str, out: TextIO | None = None) -> None:
        super().__init__(out)
        self.protocol = protocol
        self._held: list[str] | None = None  # the answer being made

    def write(self, text: str) -> None:
        with self._write_lock:
            if self._held is not None:
                self._held.append(text)
                return
        self._emit(Answer("news", None, lines_of(text)))

    def _answer(self, client: LineClient, kind: Kind, line: str | None, act: Callable[[], None]) -> None:
        refusals = client.refusals
        with self._write_lock:
            self._held = []
        try:
            act()
        finally:
            with self._write_lock:
                held, self._held = self._held or [], None
        question = client.prompt.rstrip() if client.asking and not client.done else None
        if held or kind != "end":  # the input's end is an answer only if it said something
            self._emit(Answer(kind, line, lines_of("".join(held)), client.refusals > refusals, question))

    def _emit(self, answer: Answer) -> None:
        super().write(written(answer, self.protocol))

    def started(self, client: LineClient) -> None:
        self._answer(client, "start", None, client.start)

    def ended(self, client: LineClient) -> None:
        self._answer(client, "end", None, client.end)

    def feed(self, client: LineClient, line: str) -> None:
        self._answer(client, "answer", line, lambda: client.feed(line))

    def refuse(self, client: LineClient, why: str) -> None:
        self._answer(client, "answer", None, lambda: client.refuse(why))


class _Readline(_Pipe):
    """Lines typed at a terminal, through ``readline``: editing, history, completion."""

    def __init__(self, game: Game, store: UserStore) -> None:
        super().__init__()
        self.game = game
        self.store = store
        self._prompt = ""  # the prompt on screen while a line is being typed ("" when none is)
        self._history: list[str] = []
        try:
            import readline  # not on every platform: input() then reads lines without editing
        except ImportError:
            self.readline = None
        else:
            self.readline = readline

    def write(self, text: str) -> None:
        with self._write_lock:
            if self._prompt and self.readline is not None:
                # Written while a line is typed (a followed game's news): on new lines,
                # then the prompt and what was typed so far again, after them.
                self.out.write("\n" + text + self._prompt + self.readline.get_line_buffer())
            else:
                self.out.write(text)
            self.out.flush()

    def run(self, client: LineClient, lock: threading.Lock) -> None:
        self._setup(client, lock)
        while not client.done:
            prompt = client.prompt
            with self._write_lock:
                self._prompt = prompt
            line: str | None
            try:
                line = input(prompt)
            except EOFError:  # Ctrl+D
                line = None
            except KeyboardInterrupt:  # Ctrl+C drops the line being typed, as in a shell
                line = ""
            with self._write_lock:
                self._prompt = ""
            if line is None:
                self.write("\n")
                return
            with lock:
                client.feed(line)
            if line.strip() and not client.asking:
                self._remember(line)

    def _setup(self, client: LineClient, lock: threading.Lock) -> None:
        readline = self.readline
        if readline is None:
            return
        self._history = self.store.load_history(self.game.path)
        for note in self.store.notices:
            self.write(f"{note}\n")
        self.store.notices.clear()
        readline.clear_history()
        for line in self._history:
            readline.add_history(line)
        # Nothing but lines and the editing of one: no terminal modes switched on and
        # off around each line (bracketed paste, the meta key), which are escape codes.
        for setting in ("enable-bracketed-paste off", "enable-meta-key off"):
            readline.parse_and_bind(f"set {setting}")
        readline.set_completer_delims(" \t")
        if "libedit" in (readline.__doc__ or ""):  # macOS's readline is libedit, bound its own way
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")

        offered: list[str] = []  # the candidates of the last Tab, in the game's order

        def complete(text: str, state: int) -> str | None:
            if state == 0:  # readline asks again for each candidate: the game is asked once
                with lock:
                    found = candidates(client, readline.get_line_buffer()[: readline.get_endidx()])
                if len(found) == 1:
                    found = [found[0] + " "]  # a word completed whole: the next one is typed after a space
                offered[:] = found
            return offered[state] if state < len(offered) else None

        def listed(_substitution: str, matches: list[str], longest: int) -> None:
            """The candidates a second Tab lists, in the game's order, not readline's sorted one."""
            given = set(matches)
            order = [c for c in offered if c in given]
            first = set(order)
            order += [m for m in matches if m not in first]
            self.write(in_rows(with_names(client, order), shutil.get_terminal_size().columns))

        readline.set_completer(complete)
        readline.set_completion_display_matches_hook(listed)

    def _remember(self, line: str) -> None:
        """Keep the line in the save's command history (as the Textual client does)."""
        self._history = history_lines([*self._history, line])
        with contextlib.suppress(OSError):
            self.store.save_history(self.game.path, self._history)
