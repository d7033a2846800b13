"""Secrets anyone can verify: commitments made as a game is played, their check
(``fireteam verify``) and a side's copy of a game (``fireteam export``)."""
