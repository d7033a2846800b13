"""A signed result and a club's season: ``fireteam certify`` and ``fireteam league`` (docs/league.md).

A layer over the engine, as the headless commands and the report are: nothing of the
engine imports it.  Its file is framed and written as a save (``core.storage.journal``).
"""
