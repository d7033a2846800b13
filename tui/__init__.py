"""Fireteam's terminal client (Textual) and its SSH server, on top of ``core``."""
