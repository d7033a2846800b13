"""Hostile command lines, for the tests that feed them to the API, ``fireteam script``,
the client and an SSH seat: every command of a game with each required argument
missing, with markup-like text, control characters and absurd numbers in each
argument, and random lines (a hypothesis strategy).

A test module imports it with ``tests/shared`` on ``sys.path`` (test folders are
not packages; ``tests/`` itself would not do: its ``core`` and ``tui`` folders
would shadow the packages of those names).
"""

from __future__ import annotations

from hypothesis import strategies as st

from core.game import Game
from core.ruleset import CommandSpec, Param

MARKUP = ("[b]", "[a=b]", "[/]", "[@click=app.quit]", "[link=https://x]y[/link]", "a [b=c] d")
CONTROL = ("\x1b[2J", "\x1b]0;pwned\x07", "\x07", "\x00", "\x0c", "\x0b", "\x1c", "\x85", "\u2028", "\u202e", "\r")
NUMBERS = ("18446744073709551616", "-9223372036854775809", "9" * 40, "-1", "1_000", "\u0663", "1e9", "99999")
OTHERS = ("", "\u00e9t\u00e9", "\U0001f600", "\u200b", "'", '"', "=", "==", "x=", "=x", "dice=", "d=0", "dice=7,7")


def stand_in(param: Param, game: Game) -> str:
    """A value of the right kind for ``param`` (not always one the command would take)."""
    state = game.state
    if param.kind in ("unit", "own", "enemy"):
        return next(iter(state.units), "nobody")
    if param.kind == "side":
        return next(iter(state.sides), "nobody")
    if param.kind == "choice":
        return param.choices[0] if param.choices else "x"
    if param.kind == "int":
        return str(param.lo)
    return "x"


def _line(spec: CommandSpec, given: dict[str, str]) -> str:
    # By name, so that every argument lands where it is meant whatever is left out.
    quoted = {name: value if " " not in value else f'"{value}"' for name, value in given.items()}
    return " ".join([spec.name, *(f"{name}={value}" for name, value in quoted.items())])


def missing_lines(game: Game) -> list[str]:
    """Every command with each of its required arguments left out in turn."""
    out = []
    for spec in game.commands:
        required = [p for p in spec.params if not p.optional]
        for left_out in required:
            out.append(_line(spec, {p.name: stand_in(p, game) for p in required if p is not left_out}))
    return out


def poisoned_lines(game: Game, values: tuple[str, ...], *, each: bool = True) -> list[str]:
    """Every command with each of its arguments, in turn, given each of ``values``
    (or, not ``each``, one of them: the next in turn)."""
    out = []
    turn = 0
    for spec in game.commands:
        required = {p.name: stand_in(p, game) for p in spec.params if not p.optional}
        for param in spec.params:
            for value in values if each else (values[turn % len(values)],):
                out.append(_line(spec, {**required, param.name: value}))
            turn += 1
    return out


def command_lines(game: Game) -> st.SearchStrategy[str]:
    """Random command lines: verbs and their prefixes, any word of the game, options
    named right or wrong, markup, control characters, absurd numbers, unicode, long words."""
    names = sorted({n for spec in game.commands for n in (spec.name, *spec.aliases)})
    params = sorted({p.name for spec in game.commands for p in spec.params})
    words = sorted(
        {*game.state.units, *game.state.sides, *(c for s in game.commands for p in s.params for c in p.choices)}
    )
    verb = st.one_of(st.sampled_from(names), st.sampled_from(names).map(lambda n: n[:2]), st.text(max_size=8))
    value = st.one_of(
        st.sampled_from(words or ["x"]),
        st.sampled_from(MARKUP + CONTROL + NUMBERS + OTHERS),
        st.integers().map(str),
        st.text(max_size=12),
        st.text(alphabet="9", min_size=50, max_size=5000),
    )
    word = st.one_of(value, st.tuples(st.sampled_from(params), value).map(lambda kv: f"{kv[0]}={kv[1]}"))
    return st.tuples(verb, st.lists(word, max_size=6)).map(lambda vw: " ".join([vw[0], *vw[1]]))


#: What a terminal may send besides text: controls, escape sequences whole, cut short or absurd
#: (CSI with huge or many parameters, OSC and DCS strings, mouse reports, bracketed-paste marks
#: without their pair, kitty and xterm key encodings, a lone ESC).  Ctrl+Q is left out: it leaves.
KEY_PIECES = (
    "\r", "\n", "\t", "\x7f", "\x08", "\x00", "\x03", "\x04", "\x1a", "\x19", "\x15", "\x0c", "\x1b",
    "\x1b[A", "\x1b[1;5C", "\x1bOP", "\x1b[15~", "\x1b[24~", "\x1b[200~", "\x1b[201~", "\x1b[<0;10;5M",
    "\x1b[<64;999999;999999m", "\x1b[M !!", "\x1b[27;5;97~", "\x1b[97;5u", "\x1b[27u", "\x1b]0;pwned\x07",
    "\x1b]52;c;SGVsbG8=\x07", "\x1bP+q544e\x1b\\", "\x1b[" + "9" * 40 + "A", "\x1b[" + ";" * 300 + "m",
    "\x1b[?1049h", "\x1b[6n", "\x1b[I", "\x1b[O", "\x9b31m", "\u2028", "\u202e", "\U0001f600",
)  # fmt: skip


def key_streams(max_pieces: int = 30) -> st.SearchStrategy[str]:
    """What a hostile terminal types: text (no surrogates: it arrives as UTF-8) and the pieces
    above, in any order, and sometimes a run of one character long enough to meet the limits."""
    text = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x11"), max_size=12)
    run = st.builds(lambda c, n: c * n, st.sampled_from(("x", "\x1b", "\x1b[", " ", "é")), st.integers(1, 3000))
    piece = st.one_of(text, st.sampled_from(KEY_PIECES), run)
    return st.lists(piece, max_size=max_pieces).map("".join)
