"""Fireteam's pure-Python core: events, saves, history, rules.  Never imports the UI."""

#: This Fireteam's version, the package's (pyproject.toml reads it here): it moves with each
#: release, CHANGELOG.md says what each changed, and a save records the version that wrote
#: each session of it (``core.log.events.Issued.version``, docs/files.md).
__version__ = "0.3.0"
