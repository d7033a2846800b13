"""An event day of a club's league: entries, pairings, rounds and standings from certified games (docs/event.md).

A layer over the league (``core.event.league`` is all it uses of it): nothing of the engine
or the league imports it.
"""
