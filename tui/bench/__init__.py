"""The benchmarks and the screenshot makers: what measures or pictures the product, kept out of its rooms.

Nothing of the product imports this package; ``fireteam bench`` (``tui.main``) runs
:func:`run`, and the rest run as ``python -m tui.bench.NAME``.  docs/benchmark.md gives
the targets, the figures and the commands that reproduce them.

* ``engine``: ``fireteam bench``, the core's figures (a save's load, a replay's seek,
  an append, memory); ``fireteam bench --chances N``, the demo game's chances;
* ``client`` and its ``child``: ``fireteam bench --client``, the client's start and keys;
  ``key_flood``: ``fireteam bench --flood N``, a flood of typed characters;
* ``league``: ``fireteam bench --league``, a club's season of 400 signed games added and ranked;
* ``spoken``: ``fireteam bench --spoken``, a plain seat's answers heard by eSpeak NG;
* ``rulesearch``: ``fireteam bench --rules``, how fast and how well ``rule?`` answers;
* ``ssh`` (with ``web_seats``, its browser seats), ``crowd``, ``resize_flood`` and
  ``venue``: ``fireteam serve``'s seats, spectators, phones and relays;
* ``screenshots`` and ``phone_shots``: the pictures in ``screenshots/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (the start bench's child is in this package: its bare app must not import argparse)
    import argparse


def run(args: argparse.Namespace) -> int:
    """``fireteam bench`` (its options are core.cli.parsers' ``bench`` parser's)."""
    if args.spoken:
        from tui.bench.spoken import run_spoken_bench

        return run_spoken_bench(as_json=args.json)
    if args.flood:
        from tui.bench.key_flood import run_flood_bench

        return run_flood_bench(args.flood, unbounded=args.unbounded, as_json=args.json)
    if args.league is not None:
        from tui.bench.league import run_league_bench

        return run_league_bench(Path(args.league) if args.league else None, as_json=args.json)
    if args.event is not None:
        from tui.bench.event import run_event_bench

        return run_event_bench(args.event or None, as_json=args.json, tables=args.tables)
    if args.rules:
        from tui.bench.rulesearch import run_rules_bench

        return run_rules_bench(as_json=args.json)
    if args.chances:
        from tui.bench.engine import run_chances_bench

        return run_chances_bench(args.chances, as_json=args.json)
    if args.client:
        from tui.bench.client import BIG_EVENTS, run_client_bench

        against = args.against.resolve() if args.against else None
        if against is not None and not (against / "tui" / "main.py").is_file():
            import sys

            from tui.i18n import _

            said = _("--against {folder}: not a Fireteam checkout (it has no tui/main.py)").format(folder=against)
            print(f"fireteam bench: {said}", file=sys.stderr)
            return 2
        return run_client_bench(
            events=args.events or BIG_EVENTS,
            rounds=args.rounds,
            start_rounds=args.start_rounds,
            as_json=args.json,
            keys=not args.starts,
            against=against,
        )
    from tui.bench.engine import BENCH_EVENTS, run_bench

    return run_bench(events=args.events or BENCH_EVENTS, as_json=args.json)
