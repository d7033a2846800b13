"""The after-action report: what happened in a game, in words, figures and charts.

``build(game, role, step)`` gathers what ``role`` saw of the effective log
(``facts``) and the dice's luck (``luck``); ``account`` puts the turns in
words; ``charts`` draws them with pygal; ``render_md``, ``render_html`` and
``render_text`` write the report for a file, a browser and the client.
"""

from __future__ import annotations

from core.report.build import Report, build

__all__ = ["Report", "build"]
