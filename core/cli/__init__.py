"""The headless commands (``fireteam script``, ``log``, ``replay``, ``bench``, ``scenarios``, ...):
a layer over the engine that nothing in the engine imports."""

#: The headless commands, by name: what ``fireteam`` takes for a command rather than a save to open
#: (``tui.main``, before anything else of Fireteam is imported; ``core.cli.main`` parses and runs them).
HEADLESS = (
    "script",
    "replay",
    "log",
    "report",
    "salvage",
    "fork",
    "export",
    "verify",
    "certify",
    "league",
    "event",
    "bench",
    "scenarios",
    "scenario",
    "rules",
    "paths",
)
