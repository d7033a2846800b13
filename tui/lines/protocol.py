"""The line client's protocol for programs: where each answer ends (``fireteam --plain --bot``,
``--json``; docs/client.md, "For programs").

Read through a pipe, the line client's answers are lines, and a program cannot tell where one
ends (an answer may be one line or fifty), nor which lines are another seat's doing, written
between two answers.  With ``--bot`` each answer is its lines, then a line holding a full stop
alone (:data:`END`), which no answer's line ever is (every line is a sentence, or a question
ending with a colon); with ``--json`` each is one JSON object on a line of its own
(:class:`Answer`).  Either way an answer says whether the line was refused, and what it asks
when it asks (undo's y or n, the table's dice).
"""

from __future__ import annotations

from typing import Literal

import msgspec

#: The line that ends an answer under ``--bot``.
END = "."

Kind = Literal["start", "answer", "news", "end"]


class Answer(msgspec.Struct, omit_defaults=True):
    """One answer: to the start of the session (``start``), to a line read (``answer``,
    ``input`` the line), what another seat did between answers (``news``), or the input's end
    (``end``, a question left unanswered being dropped)."""

    kind: Kind
    input: str | None
    lines: list[str]
    #: Whether the line was refused (or failed on an error of the program): nothing was done.
    refused: bool = False
    #: What the next line is asked for (its prompt), when it answers a question.
    question: str | None = None


def lines_of(text: str) -> list[str]:
    """The lines of text written by the line client (each ended by a line feed)."""
    return text.removesuffix("\n").split("\n") if text else []


_ENCODER = msgspec.json.Encoder()


def written(answer: Answer, protocol: str) -> str:
    """``answer`` as written for ``protocol`` ("bot" or "json"), ending with a line feed."""
    if protocol == "json":
        return _ENCODER.encode(answer).decode() + "\n"
    said = [*answer.lines]
    if answer.question:
        said.append(answer.question)
    return "".join(line + "\n" for line in said) + END + "\n"
