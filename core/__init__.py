"""Fireteam's pure-Python core: events, saves, history, rules.  Never imports the UI."""

__version__ = "0.1.0"
