"""The after-action report's page style, which the league's standings page shares (issue #91), and
the Content-Security-Policy source that allows a ``<style>`` element by its hash.

Its own module: a page that borrows the style imports nothing of the report (its charts, pygal).
"""

from __future__ import annotations

import base64
import hashlib

STYLE = """
body { font-family: DejaVu Sans, Arial, sans-serif; max-width: 60em; margin: 2em auto; color: #222; line-height: 1.45; }
h1 { font-size: 1.6em; } h2 { margin-top: 1.6em; border-bottom: 1px solid #ccc; } h3 { margin-bottom: 0.2em; }
table { border-collapse: collapse; display: block; overflow-x: auto; }
td, th { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; } figure { margin: 1em 0; } svg { max-width: 100%; height: auto; }
"""


def style_source(text: str) -> str:
    """The CSP source allowing a ``<style>`` element whose text is ``text``."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"
