"""Secrets anyone can verify: commitments made as a game is played, their check
(``fireteam verify``) and a side's copy of a game (``fireteam export``)."""


def shown(text: str) -> str:
    """Text from a save or a copy (hostile) on one line of verify's answer: every
    character that does not print (a line break, an escape) written as its escape."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
